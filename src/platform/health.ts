// Readiness probes of the three backing services, shared by the API and the indexer.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { OpenSearchClient } from '../opensearch/client.js';

export interface HealthDeps {
  pool: pg.Pool;
  redis: Pick<Redis, 'ping'>;
  opensearch: OpenSearchClient;
}

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/** Names of the services that did not answer; empty when all are ready. */
export async function failingDependencies({ pool, redis, opensearch }: HealthDeps, timeoutMs = 2000): Promise<string[]> {
  const checks: [string, () => Promise<unknown>][] = [
    ['postgres', () => pool.query('select 1')],
    ['redis', () => redis.ping()],
    ['opensearch', () => opensearch.cluster.health({})],
  ];
  const results = await Promise.allSettled(checks.map(([, check]) => withTimeout(check(), timeoutMs)));
  return checks.filter((_, i) => results[i]!.status === 'rejected').map(([name]) => name);
}
