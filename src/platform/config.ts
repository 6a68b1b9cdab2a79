// Every environment variable of both processes, validated once at start-up. A bad value stops
// the process with a message naming the variable, instead of failing later in a request.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const CountryList = Type.String({ pattern: '^[a-zA-Z]{2}(,[a-zA-Z]{2})*$' });

export const ConfigSchema = Type.Object({
  SERVICE_VERSION: Type.String({ default: '0.1.0', description: 'Version shown in the OpenAPI document' }),
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
    description: 'Environment the process runs in; `npm test` sets test',
  }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'API listen port' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'Listen address of the API and of the operations ports (METRICS_PORT, INDEXER_PORT)' }),
  INDEXER_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001, description: 'Indexer operations port: /healthz, /readyz and /metrics; keep it off public networks' }),
  METRICS_PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 0,
    description: 'API operations port, on HOST: /metrics (never on the public PORT), /healthz and /readyz; keep it off public networks. 0: the API serves no metrics',
  }),
  METRICS_TOKEN: Type.String({
    default: '',
    description: 'When set, /metrics on METRICS_PORT and INDEXER_PORT answers only requests with Authorization: Bearer <this token>, for networks where those ports cannot be kept private',
  }),
  METRICS_CACHE_MS: Type.Integer({
    minimum: 0,
    default: 5000,
    description: 'How long the gauges read from PostgreSQL and Redis (outbox_backlog, index_queue_jobs) keep their reading: scrapes within it cost no query',
  }),
  READINESS_CACHE_MS: Type.Integer({ minimum: 0, default: 1000, description: 'How long /readyz reuses its check of PostgreSQL, Redis and OpenSearch; probes that arrive meanwhile share it' }),
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://', default: 'postgres://postgres@127.0.0.1:5432/listings', description: 'PostgreSQL, the source of truth' }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10, description: 'PostgreSQL connections per process' }),
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000, description: 'Longest statement of the API and indexer (0: none); ops commands have none' }),
  DB_LOCK_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 3000, description: 'Longest wait for a row or table lock (0: none); a request that waits longer answers 503' }),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 30_000, description: 'A transaction left idle this long is ended, releasing its locks (0: never)' }),
  REDIS_URL: Type.String({ pattern: '^rediss?://', default: 'redis://127.0.0.1:6379', description: 'Redis of the queues, the shared per-key rate limit and key revocations' }),
  // Several nodes of one cluster, comma-separated: the client spreads requests over them and
  // retries a request on another node when one is down (src/opensearch/client.ts).
  OPENSEARCH_URL: Type.String({
    pattern: '^https?://[^,\\s]+(,https?://[^,\\s]+)*$',
    default: 'http://127.0.0.1:9200',
    description: 'OpenSearch node URL, or the URLs of several nodes of one cluster separated by commas',
  }),
  OPENSEARCH_SHARDS: Type.Integer({ minimum: 1, maximum: 1024, default: 1, description: 'Primary shards of each listings index; a change rebuilds the indices at the next setup' }),
  OPENSEARCH_REPLICAS: Type.Integer({ minimum: 0, maximum: 16, default: 0, description: 'Copies of each shard beside its primary; setup applies a change to the live indices' }),
  INDEX_PREFIX: Type.String({ pattern: '^[a-z0-9_-]*$', default: '', description: 'Prepended to every index and alias name' }),
  QUEUE_PREFIX: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'listings', description: 'Redis key prefix of the BullMQ queues' }),
  COUNTRIES: Type.String({ ...CountryList, default: 'de,at,ch', description: 'Enabled countries, comma-separated; each needs a default time zone (COUNTRY_TIME_ZONES in src/platform/config.ts)' }),
  PUBLIC_WEB_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://listings.example.com', description: "Base of a listing's url (`<base>/<country>/<id>`)" }),
  PUBLIC_MEDIA_BASE_URL: Type.String({ pattern: '^https?://', default: 'http://127.0.0.1:3000', description: 'Base of image URLs (`<base>/media/<sha256>.<ext>`)' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'Lowest pino level written' },
  ),
  LOG_SUCCESS_SAMPLE_RATE: Type.Number({ minimum: 0, maximum: 1, default: 0.01, description: 'Share of successful requests logged (one line each); failed ones are always logged' }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 8 * 1024 * 1024, description: 'Largest request body; above it 413' }),
  LARGE_BODY_BYTES: Type.Integer({ minimum: 1024, default: 1024 * 1024, description: 'Bodies above this size are read a few at a time' }),
  LARGE_BODY_CONCURRENCY: Type.Integer({
    minimum: 1,
    default: 2,
    description: 'Large bodies read and parsed at once by one API instance; each key holds at most one of these slots (a second large body from the same key meanwhile is 429)',
  }),
  LARGE_BODY_WAIT_MS: Type.Integer({ minimum: 100, default: 5_000, description: 'Time a large body may wait for a free slot; after it 503 with Retry-After' }),
  LARGE_BODY_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15_000, description: 'Time a large body may take to arrive once it holds a slot' }),
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 30_000, description: 'Time a whole request (headers and body) may take to arrive' }),
  HTTP_IDLE_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 30_000, description: 'A socket silent this long during a request is closed' }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 72_000, description: 'Idle keep-alive connections are closed after this; above the usual 60 s of load balancers' }),
  HANDLER_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000, description: 'A read (GET, HEAD) not answered within this answers 503' }),
  MEDIA_DRIVER: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local', description: 'Where image bytes are stored' }),
  MEDIA_DIR: Type.String({ minLength: 1, default: '.media', description: 'Directory of the local media driver' }),
  IMAGE_MAX_BYTES: Type.Integer({ minimum: 1024, default: 5 * 1024 * 1024, description: 'Largest decoded image' }),
  IMAGE_MAX_WIDTH: Type.Integer({ minimum: 1, default: 10_000, description: 'Widest image accepted, in pixels (read from the header)' }),
  IMAGE_MAX_HEIGHT: Type.Integer({ minimum: 1, default: 10_000, description: 'Highest image accepted, in pixels' }),
  IMAGE_MAX_PIXELS: Type.Integer({ minimum: 1, default: 40_000_000, description: 'Most pixels (width × height) an image may declare' }),
  MEDIA_CACHE_MAX_AGE_S: Type.Integer({ minimum: 0, default: 3600, description: 'Cache lifetime of /media files: how long a removed image may stay in caches' }),
  MEDIA_CLEANUP_GRACE_MS: Type.Integer({ minimum: 60_000, default: 3600 * 1000, description: 'Age before an unreferenced media file is removed; longer than any upload transaction' }),
  S3_BUCKET: Type.String({ default: '', description: 'Bucket of the s3 media driver' }),
  S3_PREFIX: Type.String({ default: 'media/', description: 'Key prefix in the bucket' }),
  S3_REGION: Type.String({ default: 'us-east-1', description: "Region of the s3 media driver's bucket" }),
  S3_ENDPOINT: Type.String({ default: '', description: 'Endpoint of an S3-compatible service (MinIO...); empty for AWS' }),
  AUTH_CACHE_MS: Type.Integer({
    minimum: 0,
    default: 10_000,
    description: 'How long an authenticated key is remembered; a revocation reaches every instance at once through Redis, and while that channel is down a revoked key works at most this long',
  }),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 1200, description: 'Requests per API key and window' }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000, description: 'Rate limit window' }),
  AUTH_FAILURE_LIMIT: Type.Integer({
    minimum: 1,
    default: 60,
    description:
      "Answers 401 (missing, unknown or revoked key) per client address (IPv6: per /64) and window, counted across all instances; past it that address's requests without a valid key get 429 until the window ends, valid keys are unaffected",
  }),
  IP_RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 6000, description: 'Requests per client address (IPv6: per /64) and window, counted before authentication' }),
  TRUST_PROXY: Type.String({ pattern: '^[0-9A-Fa-f.:/,]*$', default: '', description: 'Comma-separated addresses or CIDRs of proxies whose X-Forwarded-For names the client; empty: none' }),
  RELAY_INTERVAL_MS: Type.Integer({ minimum: 100, default: 1000, description: 'How often the indexer re-enqueues stranded outbox rows' }),
  RELAY_GRACE_MS: Type.Integer({
    minimum: 0,
    default: 10_000,
    description:
      "Age before an unprocessed outbox row counts as stranded; longer than a bulk import's batch takes from its transaction's start until the runner has indexed it, or the relay indexes its listings twice",
  }),
  RELAY_RECENT_MS: Type.Integer({
    minimum: 1000,
    default: 60_000,
    description: 'Most relay passes look only at outbox rows written this recently (an older stranded row waits for the pass that looks at all, one in this long); keep it well above RELAY_GRACE_MS',
  }),
  INDEXER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 256, default: 64, description: 'Index jobs in flight per indexer; they meet in micro-batches, so this bounds the batch size too' }),
  INDEXER_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 32, description: 'Most listings per indexer batch (one PostgreSQL read, one _bulk, one outbox update)' }),
  INDEXER_BATCH_WAIT_MS: Type.Integer({
    minimum: 0,
    maximum: 1000,
    default: 50,
    description: "How long a batch waits for more jobs after its first one; added to a write's time to searchable, and the longer, the fewer (larger) batches a write load costs",
  }),
  IDEMPOTENCY_LEASE_MS: Type.Integer({ minimum: 1000, default: 30_000, description: 'An Idempotency-Key whose request stopped renewing it for this long is taken over by the next retry' }),
  OPEN_ZONES_TTL_MS: Type.Integer({
    minimum: 0,
    default: 500,
    description:
      "How long the time zones of a country's listings are remembered for open_now/open_at; for one more such period they are still used while asked again in the background. A listing in a zone new to its country matches them at most twice this much after it became searchable (0: every such search asks, and waits for the answer)",
  }),
  CHANGE_RETENTION_DAYS: Type.Integer({ minimum: 1, default: 7, description: 'Days the change feed keeps a change at least; an older cursor answers 410 gone' }),
  HISTORY_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    default: 400,
    description: "Days a listing's history keeps a version (GET .../history, ?version=n, restore); the indexer's housekeeping removes older ones",
  }),
  CHANGE_SEQUENCER_INTERVAL_MS: Type.Integer({
    minimum: 50,
    default: 200,
    description: 'How often the indexer gives committed changes their feed positions (webhooks see changes without feed readers)',
  }),
  EXPORT_CONCURRENCY: Type.Integer({
    minimum: 1,
    default: 2,
    description: 'Exports one API instance streams at once, each holding a database connection and a snapshot; more wait for a slot. One export per key at a time (a second one meanwhile is 429)',
  }),
  EXPORT_WAIT_MS: Type.Integer({ minimum: 100, default: 10_000, description: 'Time an export may wait for a slot before its answer starts; after it 503 with Retry-After' }),
  EXPORT_STALL_MS: Type.Integer({
    minimum: 100,
    default: 30_000,
    description: 'An export whose client takes nothing for this long (the socket stays full) is cut off: its connection closed, its snapshot and slot given back',
  }),
  EXPORT_MAX_MS: Type.Integer({
    minimum: 1000,
    default: 30 * 60_000,
    description: 'Longest an export may stream, however fast its client reads; then it is cut off like a stalled one (the body lacks its end line)',
  }),
  IMPORT_MAX_ITEMS: Type.Integer({ minimum: 1, default: 100_000, description: 'Most non-empty lines in one bulk import; above it 413 and nothing is stored' }),
  IMPORT_MAX_BYTES: Type.Integer({ minimum: 1024, default: 200 * 1024 * 1024, description: 'Largest bulk import body, uncompressed; above it 413 and nothing is stored' }),
  IMPORT_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 2, description: "Partners whose bulk imports one indexer runs side by side (each partner's jobs run one at a time)" }),
  IMPORT_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 5000, default: 1000, description: 'Import lines applied, with their outcomes, per transaction' }),
  IMPORT_BATCH_BYTES: Type.Integer({
    minimum: 1024,
    default: 8 * 1024 * 1024,
    description: "Most bytes of import lines one transaction reads (but always one line): bounds the runner's memory when lines are long",
  }),
  IMPORT_SWEEP_INTERVAL_MS: Type.Integer({
    minimum: 100,
    default: 2000,
    description: 'How often the indexer re-enqueues unfinished bulk imports whose queue job was lost, and removes uploads that died',
  }),
  REVIEWS_PER_PARTNER_PER_LISTING: Type.Integer({ minimum: 1, default: 100, description: 'Partner reviews one partner may hold on one listing; the next is 409 (website reviews are not counted)' }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({
    default: false,
    description: 'Allow webhook URLs on loopback and private addresses (development, tests); link-local and cloud metadata addresses stay refused',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000, description: 'A webhook receiver must answer 2xx within this, or the attempt counts as failed' }),
  WEBHOOK_RETRY_SCHEDULE_MS: Type.String({
    pattern: '^([0-9]+(,[0-9]+)*)?$',
    default: '',
    description:
      'Waits before each retry of a failed delivery, comma-separated; empty: the default schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). After the last one the subscription is disabled',
  }),
  WEBHOOK_DISPATCH_INTERVAL_MS: Type.Integer({ minimum: 20, default: 200, description: 'How often the indexer turns new feed changes into webhook deliveries' }),
  WEBHOOK_SECRET_KEY: Type.String({
    pattern: '^([0-9a-fA-F]{64})?$',
    default: '',
    description:
      'Key (64 hex digits, 32 bytes: `openssl rand -hex 32`) that encrypts webhook signing secrets at rest with AES-256-GCM; required in production. Empty elsewhere: a fixed development key, with a warning at start. Changing it makes the stored secrets unreadable',
  }),
  WEBHOOK_PINGS_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 5,
    description: 'Test pings (POST /webhooks/:id/test) one subscription may ask for in a minute; the next answers 429 with Retry-After',
  }),
  WEBHOOK_DELIVERIES_KEPT: Type.Integer({
    minimum: 100,
    default: 1000,
    description: 'Deliveries kept per subscription: beyond the newest this many, finished ones are deleted (on each ping and by housekeeping), pending ones are kept until sent',
  }),
  WEBHOOK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 256, default: 16, description: 'Webhook deliveries in flight at once per indexer' }),
  WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: Type.Integer({
    minimum: 1,
    maximum: 256,
    default: 2,
    description: 'Attempts of one webhook subscription in flight at once per indexer; its other deliveries wait in the queue without taking a slot of WEBHOOK_CONCURRENCY or counting as an attempt',
  }),
  WEBHOOK_CONCURRENCY_PER_PARTNER: Type.Integer({
    minimum: 1,
    maximum: 256,
    default: 4,
    description:
      "Attempts of one partner's subscriptions in flight at once per indexer, so that receivers that never answer hold at most this many of WEBHOOK_CONCURRENCY and delay only their own deliveries",
  }),
  ANALYTICS_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 300_000,
    default: 10_000,
    description:
      'Longest search OpenSearch runs for an analyst through /analytics: the timeout every such search gets (a smaller one asked for is kept); it is cancelled a second later if it still runs',
  }),
  WEBHOOK_SWEEP_GRACE_MS: Type.Integer({ minimum: 0, default: 2000, description: 'A pending delivery overdue by this long is enqueued again (its job was lost); also how soon a test ping goes out' }),
});

/**
 * The time zone of a listing that names none (docs/contract.md §18), by country. For a country
 * with several zones, the one most of its businesses use; a listing elsewhere sends `time_zone`.
 */
export const COUNTRY_TIME_ZONES: Readonly<Record<string, string>> = {
  de: 'Europe/Berlin',
  at: 'Europe/Vienna',
  ch: 'Europe/Zurich',
  li: 'Europe/Vaduz',
  fr: 'Europe/Paris',
  be: 'Europe/Brussels',
  lu: 'Europe/Luxembourg',
  nl: 'Europe/Amsterdam',
  it: 'Europe/Rome',
  es: 'Europe/Madrid',
  pt: 'Europe/Lisbon',
  gb: 'Europe/London',
  ie: 'Europe/Dublin',
  dk: 'Europe/Copenhagen',
  se: 'Europe/Stockholm',
  no: 'Europe/Oslo',
  fi: 'Europe/Helsinki',
  pl: 'Europe/Warsaw',
  cz: 'Europe/Prague',
  sk: 'Europe/Bratislava',
  hu: 'Europe/Budapest',
  si: 'Europe/Ljubljana',
  hr: 'Europe/Zagreb',
  ro: 'Europe/Bucharest',
  bg: 'Europe/Sofia',
  gr: 'Europe/Athens',
  ee: 'Europe/Tallinn',
  lv: 'Europe/Riga',
  lt: 'Europe/Vilnius',
  mt: 'Europe/Malta',
  cy: 'Asia/Nicosia',
  is: 'Atlantic/Reykjavik',
};

/** The default time zone of an enabled country (loadConfig refuses a country without one). */
export const defaultTimeZone = (country: string): string => COUNTRY_TIME_ZONES[country] ?? 'UTC';

export type Config = Static<typeof ConfigSchema> & { countries: readonly string[] };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Names of settings whose values are secrets as a whole. */
const SECRET_NAME = /PASSWORD|SECRET|TOKEN|(^|_)KEY(_|$)/i;
/** Query parameters of a URL that carry credentials (libpq accepts `?password=`). */
const SECRET_PARAM = /pass|secret|token|key/i;

/** Where a list of URLs (OPENSEARCH_URL) starts its next URL. */
const NEXT_URL = /,(?=[a-z][a-z0-9+.-]*:\/\/)/i;

/** `value` with the credentials it may carry replaced: a URL's password and secret parameters. */
export function redactCredentials(value: string): string {
  // Each URL of a list on its own: parsed whole, the first URL's host would swallow the rest.
  if (NEXT_URL.test(value)) return value.split(NEXT_URL).map(redactCredentials).join(',');
  try {
    const url = new URL(value);
    let changed = false;
    if (url.password) {
      url.password = '***';
      changed = true;
    }
    for (const name of new Set(url.searchParams.keys())) {
      if (SECRET_PARAM.test(name)) {
        url.searchParams.set(name, '***');
        changed = true;
      }
    }
    return changed ? url.href : value;
  } catch {
    // Not a URL (a scheme missing or mistyped), yet `user:password@host` still holds a password.
    return value.replace(/:[^:@/\s]*@/g, ':***@');
  }
}

/** A setting's value as an error message may show it. */
const shownValue = (key: string, value: unknown): string => (SECRET_NAME.test(key) ? '[redacted]' : JSON.stringify(redactCredentials(String(value))));

/** Reads the variables of ConfigSchema from `env`, applying defaults and converting numbers. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, raw));
  const errors = [...Value.Errors(ConfigSchema, withDefaults)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const key = e.path.slice(1);
      return `${key}${raw[key] === undefined ? '' : `=${shownValue(key, raw[key])}`}: ${e.message}`;
    });
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const config = withDefaults as Static<typeof ConfigSchema>;
  if (config.MEDIA_DRIVER === 's3' && !config.S3_BUCKET) throw new ConfigError('invalid configuration:\n  S3_BUCKET: required when MEDIA_DRIVER=s3');
  // A recent relay pass looks at events aged RELAY_GRACE_MS to RELAY_RECENT_MS: a window that ends
  // less than a pass interval past the grace would leave every stranded event to the rare pass over all.
  if (config.RELAY_RECENT_MS <= config.RELAY_GRACE_MS + config.RELAY_INTERVAL_MS) {
    throw new ConfigError(`invalid configuration:\n  RELAY_RECENT_MS=${config.RELAY_RECENT_MS}: must exceed RELAY_GRACE_MS + RELAY_INTERVAL_MS (${config.RELAY_GRACE_MS + config.RELAY_INTERVAL_MS})`);
  }
  // Secrets sealed with the development key are as good as clear text (src/webhooks/secret-box.ts).
  if (config.NODE_ENV === 'production' && !config.WEBHOOK_SECRET_KEY) throw new ConfigError('invalid configuration:\n  WEBHOOK_SECRET_KEY: required when NODE_ENV=production');
  const countries = config.COUNTRIES.toLowerCase().split(',');
  const zoneless = countries.filter((cc) => !COUNTRY_TIME_ZONES[cc]);
  if (zoneless.length) throw new ConfigError(`invalid configuration:\n  COUNTRIES: no default time zone for ${zoneless.join(', ')} (COUNTRY_TIME_ZONES in src/platform/config.ts)`);
  return { ...config, countries };
}

/** Limits of the long-running processes' database sessions (src/db/client.ts). */
export const databaseTimeouts = (config: Config) => ({
  statementMs: config.DB_STATEMENT_TIMEOUT_MS,
  lockMs: config.DB_LOCK_TIMEOUT_MS,
  idleInTransactionMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
});

/** How the indices are spread over the OpenSearch cluster (src/opensearch/index-definitions.ts). */
export const indexLayout = (config: Config) => ({ shards: config.OPENSEARCH_SHARDS, replicas: config.OPENSEARCH_REPLICAS });

/** Bases of the addresses the service hands out: listing pages and image files. */
export const publicUrls = (config: Config) => ({ web: config.PUBLIC_WEB_BASE_URL, media: config.PUBLIC_MEDIA_BASE_URL });

/** Which webhook targets the guard lets through (src/webhooks/target-guard.ts). */
export const webhookTargetPolicy = (config: Config) => ({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS });

/** How many webhook attempts of one subscription and of one partner run at once (indexer/delivery-slots.ts). */
export const webhookSlotLimits = (config: Config) => ({
  perSubscription: config.WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION,
  perPartner: config.WEBHOOK_CONCURRENCY_PER_PARTNER,
});
