// Webhook signing secrets at rest (docs/security.md): sealed with AES-256-GCM under
// WEBHOOK_SECRET_KEY, so a copy of the database (a backup, a replica, a leaked dump) does not let
// anyone sign messages our partners would trust. Signing needs the secret itself, so it is
// encrypted, not hashed.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';

/** Marks a sealed value; a stored value without it is a secret written before sealing existed. */
export const SEALED_PREFIX = 'enc1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The development key, derived from a fixed phrase: it protects nothing, it only lets a
 * development or test stack run without configuration (loadConfig refuses it in production).
 */
export const DEVELOPMENT_SECRET_KEY = createHash('sha256').update('listings development webhook secret key').digest();

export interface SecretBox {
  /** The stored form of `secret`: a fresh IV each time, so equal secrets look different. */
  seal(secret: string): string;
  /** The secret of a stored value: sealed, or clear text written before sealing existed. */
  open(stored: string): string;
  isSealed(stored: string): boolean;
}

/**
 * The box of WEBHOOK_SECRET_KEY (64 hex digits); when it is empty (never in production, loadConfig
 * sees to that), the development key's, with a warning.
 */
export function secretBoxOf(setting: string, logger: Pick<Logger, 'warn'>): SecretBox {
  if (setting !== '') return createSecretBox(Buffer.from(setting, 'hex'));
  logger.warn('WEBHOOK_SECRET_KEY is not set: webhook secrets are sealed with the development key, which protects nothing');
  return createSecretBox(DEVELOPMENT_SECRET_KEY);
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('a webhook secret key has 32 bytes');
  const isSealed = (stored: string) => stored.startsWith(SEALED_PREFIX);
  return {
    isSealed,
    seal(secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([iv, cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return SEALED_PREFIX + sealed.toString('base64');
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const bytes = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      // A wrong key or an altered value fails the tag check here and throws.
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
