// Prometheus metrics of both processes. Each process owns one registry; gauges that describe
// shared state (outbox backlog, queue counts) are read from PostgreSQL and Redis at scrape time,
// at most once per `cacheMs` however many scrapes arrive (METRICS_CACHE_MS). They are served on an
// operations port only (src/platform/ops-server.ts), never on the API's public one.
// Which dependency an error came from is src/platform/dependency-errors.ts' dependencyOf.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/client.js';
import { countPendingEvents } from '../outbox/outbox-dal.js';
import type { IndexQueue } from '../outbox/queue.js';
import { cachedAnswer } from './cached-answer.js';

export function createMetrics(opts: { db: Db; queue: Pick<IndexQueue, 'queue'>; cacheMs: number }) {
  // A scrape must succeed while PostgreSQL or Redis is down: a gauge then keeps its last value.
  const pendingEvents = cachedAnswer(opts.cacheMs, () => countPendingEvents(opts.db).catch(() => undefined));
  const queueCounts = cachedAnswer(opts.cacheMs, () => opts.queue.queue.getJobCounts('waiting', 'active', 'delayed', 'failed').catch(() => undefined));
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    dependencyErrors: new Counter({
      name: 'dependency_errors_total',
      help: 'Errors of PostgreSQL, OpenSearch and Redis calls',
      labelNames: ['dependency'],
      registers: [registry],
    }),
    indexBulkItems: new Histogram({
      name: 'index_bulk_items',
      help: 'Listings per _bulk request of the indexer (its count is the number of bulk requests)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [registry],
    }),
    indexJobs: new Counter({ name: 'index_jobs_total', help: 'Index jobs by outcome', labelNames: ['outcome'], registers: [registry] }),
    analyticsRequests: new Counter({
      name: 'analytics_requests_total',
      help: 'Requests of analysts to /analytics by operation and outcome (ok, timed_out, refused, failed)',
      labelNames: ['operation', 'outcome'],
      registers: [registry],
    }),
    analyticsTook: new Histogram({
      name: 'analytics_opensearch_took_seconds',
      help: "OpenSearch's own time (took) of analysts' searches",
      labelNames: ['operation'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    writeToIndexed: new Histogram({
      name: 'listing_write_to_indexed_seconds',
      help: 'From a listing write to OpenSearch accepting it (searchable within refresh_interval more)',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'outbox_backlog',
    help: 'Outbox events not yet indexed',
    registers: [registry],
    async collect() {
      const pending = await pendingEvents();
      if (pending !== undefined) this.set(pending);
    },
  });
  new Gauge({
    name: 'index_queue_jobs',
    help: 'Index jobs in the queue by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const counts = await queueCounts();
      for (const [state, n] of Object.entries(counts ?? {})) this.set({ state }, n);
    },
  });
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
