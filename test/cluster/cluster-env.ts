// What the cluster tests share (npm run test:cluster, scripts/test-cluster.sh): the guard that they
// run on a cluster, the stack script that stops and starts its nodes, and small HTTP helpers.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { openSearchNodes } from '../../src/opensearch/client.js';
import { config, runId } from '../helper.js';

if (openSearchNodes(config.OPENSEARCH_URL).length < 3 || config.OPENSEARCH_REPLICAS < 1) {
  throw new Error('the cluster tests run through `npm run test:cluster`: three OpenSearch nodes in OPENSEARCH_URL and OPENSEARCH_REPLICAS >= 1');
}

const run = promisify(execFile);

/** `scripts/stack.sh <args>` with this environment (OPENSEARCH_NODES and the cluster's ports). */
export async function stack(...args: string[]): Promise<void> {
  await run('bash', ['scripts/stack.sh', ...args], { env: process.env });
}

/**
 * Environment of the API and indexer processes a cluster test starts: queues of its own, and a
 * per-key limit out of the way of the write stream.
 */
export const processEnv = (name: string): Record<string, string> => ({
  QUEUE_PREFIX: `${name}-${runId}`,
  RATE_LIMIT_MAX: '1000000',
  RELAY_INTERVAL_MS: '500',
  RELAY_GRACE_MS: '1000',
});

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A JSON request to an API process. */
export async function call(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}
