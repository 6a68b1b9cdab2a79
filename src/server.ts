// The API process: config → logger → deps → app → listen; closes gracefully on SIGTERM/SIGINT.
// With METRICS_PORT, an operations listener beside it serves /metrics (src/platform/ops-server.ts).
import closeWithGrace from 'close-with-grace';
import { buildApp } from './http/app.js';
import { loadConfig } from './platform/config.js';
import { createApiDeps } from './http/deps.js';
import { createLogger } from './platform/logger.js';
import { createOpsServer, listenOps } from './platform/ops-server.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'api');
const deps = createApiDeps(config, logger);
const app = await buildApp({ config, logger, deps });
const ops = config.METRICS_PORT ? createOpsServer({ registry: deps.metrics.registry, token: config.METRICS_TOKEN, readiness: deps.readiness }) : undefined;

closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) logger.error({ err }, 'closing after an error');
  else logger.info({ signal }, 'closing: finishing in-flight requests');
  ops?.close();
  await app.close(); // stops accepting, lets in-flight requests finish
  await deps.close();
});

if (ops) await listenOps(ops, config.METRICS_PORT, config.HOST);
await app.listen({ port: config.PORT, host: config.HOST });
