import { pino, type Logger } from 'pino';

// Credentials and image payloads never reach the logs (issue 8).
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  '*.authorization',
  '*.base64',
  'body.base64',
  'apiKey',
];

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}

export type { Logger };
