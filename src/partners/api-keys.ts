import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'lk_';

/** A new API key: 32 random bytes (256 bits), base64url, with a prefix that secret scanners can spot. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  // One-shot: every request hashes its key, and a Hash object per call costs more than the digest.
  return hash('sha256', key, 'hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Reads the key from an `Authorization: Bearer <key>` header; undefined when absent or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9_\-.~+/]{16,200}=*)$/.exec(header ?? '');
  return match?.[1];
}
