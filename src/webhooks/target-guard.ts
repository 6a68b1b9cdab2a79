// Where webhooks may be sent (docs/contract.md §15). A partner chooses the URL, so without this
// the indexer would POST, from inside our network, to whatever the URL's host resolves to: a
// database, an admin port, the cloud metadata service. Only public unicast addresses pass; the
// development flag adds loopback and private ones, never link-local or metadata addresses.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Cloud metadata services: refused even when private targets are allowed. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/** Ranges (ipaddr.js names) a webhook may always reach, and those only the development flag opens. */
const PUBLIC_RANGES = new Set(['unicast']);
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback and private addresses are allowed. */
  allowPrivate: boolean;
}

/** Why `address` may not receive webhooks, or undefined when it may. Pure: the policy's whole rule. */
export function addressRefusal(address: string, policy: TargetPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it reaches.
  const ip = ipaddr.process(address);
  const normalised = ip.toString();
  if (METADATA_ADDRESSES.has(normalised)) return `${normalised} is a cloud metadata address`;
  const range = ip.range();
  if (PUBLIC_RANGES.has(range)) return undefined;
  if (policy.allowPrivate && PRIVATE_RANGES.has(range)) return undefined;
  return `${normalised} is a ${range} address`;
}

/** Why `url` may not be a webhook target before any look-up (scheme, credentials), or undefined. */
export function urlRefusal(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http(s) URL';
  if (parsed.username || parsed.password) return 'must not carry credentials';
  return undefined;
}

export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
}

export interface CheckedTarget {
  url: URL;
  /** The address that was checked: the only one the delivery may connect to. */
  address: string;
  family: 4 | 6;
}

export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Longest wait for a look-up: a request (or an attempt) must not hang on a name server that never answers. */
export const LOOKUP_TIMEOUT_MS = 3000;

/** The system resolver (hosts file included), as the HTTP client would use it, bounded in time. */
const resolveWithDns: ResolveHost = (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('look-up timed out'), { code: 'ETIMEOUT' })), LOOKUP_TIMEOUT_MS);
  });
  return Promise.race([dnsLookup(hostname, { all: true, verbatim: true }), timeout]).finally(() => clearTimeout(timer));
};

/**
 * Resolves the URL's host and checks every address it resolves to (a name that answers with one
 * public and one private address is refused). Literal addresses are checked as they are: WHATWG
 * URL parsing already turned `0x7f.1` or `2130706433` into `127.0.0.1`.
 */
export async function checkTarget(url: string, policy: TargetPolicy, resolve: ResolveHost = resolveWithDns): Promise<CheckedTarget> {
  const bad = urlRefusal(url);
  if (bad) throw new TargetRefusedError(bad);
  const parsed = new URL(url);
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      throw new TargetRefusedError(`host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (addresses.length === 0) throw new TargetRefusedError(`host ${host} does not resolve`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new TargetRefusedError(`host ${host} is not allowed: ${refusal}`);
  }
  const first = addresses[0]!;
  return { url: parsed, address: first.address, family: first.family === 6 ? 6 : 4 };
}
