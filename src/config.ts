// Every environment variable of both processes, validated once at start-up. A bad value stops
// the process with a message naming the variable, instead of failing later in a request.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const CountryList = Type.String({ pattern: '^[a-zA-Z]{2}(,[a-zA-Z]{2})*$' });

export const ConfigSchema = Type.Object({
  SERVICE_VERSION: Type.String({ default: '0.1.0', description: 'Version shown in the OpenAPI document' }),
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'API listen port' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'API listen address' }),
  INDEXER_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001, description: 'Indexer health/metrics port' }),
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://', default: 'postgres://postgres@127.0.0.1:5432/listings' }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  REDIS_URL: Type.String({ pattern: '^rediss?://', default: 'redis://127.0.0.1:6379' }),
  OPENSEARCH_URL: Type.String({ pattern: '^https?://', default: 'http://127.0.0.1:9200' }),
  INDEX_PREFIX: Type.String({ pattern: '^[a-z0-9_-]*$', default: '', description: 'Prepended to every index and alias name' }),
  QUEUE_PREFIX: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'listings', description: 'Redis key prefix of the BullMQ queues' }),
  COUNTRIES: Type.String({ ...CountryList, default: 'de,at,ch' }),
  PUBLIC_WEB_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://listings.example.com' }),
  PUBLIC_MEDIA_BASE_URL: Type.String({ pattern: '^https?://', default: 'http://127.0.0.1:3000' }),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info' }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 8 * 1024 * 1024 }),
  LARGE_BODY_BYTES: Type.Integer({ minimum: 1024, default: 1024 * 1024, description: 'Bodies above this size are read a few at a time' }),
  LARGE_BODY_CONCURRENCY: Type.Integer({ minimum: 1, default: 2, description: 'Large bodies read and parsed at once' }),
  LARGE_BODY_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15_000, description: 'Time a large body may take to arrive once it holds a slot' }),
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 30_000, description: 'Time a whole request (headers and body) may take to arrive' }),
  HTTP_IDLE_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 30_000, description: 'A socket silent this long during a request is closed' }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 72_000, description: 'Idle keep-alive connections are closed after this; above the usual 60 s of load balancers' }),
  HANDLER_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000, description: 'A read (GET, HEAD) not answered within this answers 503' }),
  MEDIA_DRIVER: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local', description: 'Where image bytes are stored' }),
  MEDIA_DIR: Type.String({ minLength: 1, default: '.media', description: 'Directory of the local media driver' }),
  IMAGE_MAX_BYTES: Type.Integer({ minimum: 1024, default: 5 * 1024 * 1024, description: 'Largest decoded image' }),
  S3_BUCKET: Type.String({ default: '', description: 'Bucket of the s3 media driver' }),
  S3_PREFIX: Type.String({ default: 'media/', description: 'Key prefix in the bucket' }),
  S3_REGION: Type.String({ default: 'us-east-1' }),
  S3_ENDPOINT: Type.String({ default: '', description: 'Endpoint of an S3-compatible service (MinIO...); empty for AWS' }),
  AUTH_CACHE_MS: Type.Integer({ minimum: 0, default: 10_000, description: 'How long an authenticated key is remembered; a revoked key works at most this long' }),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 1200, description: 'Requests per API key and window' }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000, description: 'Rate limit window' }),
  IP_RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 6000, description: 'Requests per client address (IPv6: per /64) and window, counted before authentication' }),
  TRUST_PROXY: Type.String({ pattern: '^[0-9A-Fa-f.:/,]*$', default: '', description: 'Comma-separated addresses or CIDRs of proxies whose X-Forwarded-For names the client; empty: none' }),
  RELAY_INTERVAL_MS: Type.Integer({ minimum: 100, default: 1000, description: 'How often the indexer re-enqueues stranded outbox rows' }),
  RELAY_GRACE_MS: Type.Integer({ minimum: 0, default: 2000, description: 'Age before an unprocessed outbox row counts as stranded' }),
  INDEXER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 256, default: 8 }),
});

export type Config = Static<typeof ConfigSchema> & { countries: readonly string[] };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

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
    const lines = errors.map((e) => `${e.path.slice(1)}=${JSON.stringify(raw[e.path.slice(1)])}: ${e.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const config = withDefaults as Static<typeof ConfigSchema>;
  if (config.MEDIA_DRIVER === 's3' && !config.S3_BUCKET) throw new ConfigError('invalid configuration:\n  S3_BUCKET: required when MEDIA_DRIVER=s3');
  return { ...config, countries: config.COUNTRIES.toLowerCase().split(',') };
}

/** Bases of the addresses the service hands out: listing pages and image files. */
export const publicUrls = (config: Config) => ({ web: config.PUBLIC_WEB_BASE_URL, media: config.PUBLIC_MEDIA_BASE_URL });
