// Readiness probes of the three backing services, shared by the API and the indexer.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { OpenSearchClient } from '../opensearch/client.js';
import { cachedAnswer } from './cached-answer.js';

export interface HealthDeps {
  pool: pg.Pool;
  redis: Pick<Redis, 'ping'>;
  opensearch: OpenSearchClient;
}

const withTimeout = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

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

/**
 * What /readyz answers, checked at most once per `cacheMs` (READINESS_CACHE_MS): a flood of probes
 * waits for one check of the three services instead of sending each its own.
 */
export const createReadiness = (deps: HealthDeps, cacheMs: number): (() => Promise<string[]>) => cachedAnswer(cacheMs, () => failingDependencies(deps));
