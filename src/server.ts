// The API process: config → logger → deps → app → listen; closes gracefully on SIGTERM/SIGINT.
import closeWithGrace from 'close-with-grace';
import { buildApp } from './http/app.js';
import { loadConfig } from './platform/config.js';
import { createApiDeps } from './http/deps.js';
import { createLogger } from './platform/logger.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'api');
const deps = createApiDeps(config, logger);
const app = await buildApp({ config, logger, deps });

closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) logger.error({ err }, 'closing after an error');
  else logger.info({ signal }, 'closing: finishing in-flight requests');
  await app.close(); // stops accepting, lets in-flight requests finish
  await deps.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
