// Where webhooks may be sent (docs/contract.md §15). A partner chooses the URL, so without this
// the indexer would POST, from inside our network, to whatever the URL's host resolves to: a
// database, an admin port, the cloud metadata service. Only public unicast addresses pass; the
// development flag adds loopback and private ones, never link-local or metadata addresses.
// A refusal tells the partner nothing about our DNS: what a name resolved to, and whether it
// resolved at all, stay in the indexer's log (docs/security.md).
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Cloud metadata services: refused even when private targets are allowed. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/** Ranges (ipaddr.js names) a webhook may always reach, and those only the development flag opens. */
const PUBLIC_RANGES = new Set(['unicast']);
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

/**
 * IPv6 prefixes (/96) whose last 32 bits are an IPv4 address that a packet reaches, through the
 * host's own stack or a translator: IPv4-compatible (`::a.b.c.d`, deprecated, but `[::7f00:1]`
 * is a valid URL host that ipaddr.js calls unicast), IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-translated (`::ffff:0:a.b.c.d`, SIIT) and the NAT64 well-known prefix (`64:ff9b::a.b.c.d`).
 * Such an address is judged as the IPv4 address it carries. NAT64's local-use prefix
 * (64:ff9b:1::/48) embeds it at an operator's chosen length, so it stays refused as a whole.
 */
const IPV4_EMBEDDING = [ipaddr.parseCIDR('::/96'), ipaddr.parseCIDR('::ffff:0:0/96'), ipaddr.parseCIDR('::ffff:0:0:0/96'), ipaddr.parseCIDR('64:ff9b::/96')] as [ipaddr.IPv6, number][];

/** The IPv4 address an IPv6 address of IPV4_EMBEDDING carries; undefined for any other. */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  // `::` and `::1` lie in ::/96 but are IPv6's own unspecified and loopback addresses.
  if (ip.range() === 'unspecified' || ip.range() === 'loopback') return undefined;
  if (!IPV4_EMBEDDING.some((prefix) => ip.match(prefix))) return undefined;
  const [high, low] = ip.parts.slice(6) as [number, number];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback and private addresses are allowed. */
  allowPrivate: boolean;
}

/** Why `address` may not receive webhooks, or undefined when it may. Pure: the policy's whole rule. */
export function addressRefusal(address: string, policy: TargetPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = ipaddr.parse(address);
  const carried = ip.kind() === 'ipv6' ? embeddedIPv4(ip as ipaddr.IPv6) : undefined;
  if (carried) {
    const refusal = addressRefusal(carried.toString(), policy);
    return refusal && `${ip.toString()} reaches ${carried.toString()}: ${refusal}`;
  }
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

/**
 * A refused target. `message` is for our logs and names the addresses; `publicMessage` is what the
 * partner's 400 says: for a host name, the same words whatever it resolved to or failed with, so
 * that the API is no probe of the names our resolver knows.
 */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
  constructor(
    message: string,
    readonly publicMessage: string = message,
  ) {
    super(message);
  }
}

/** What the partner learns of any refused host name. */
const hostRefusal = (host: string) => `host ${host} is not allowed: it must resolve, and only to public addresses`;

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
  if (ipaddr.isValid(host)) {
    // A literal address: the partner wrote it, so the refusal may name it.
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new TargetRefusedError(`host ${host} is not allowed: ${refusal}`);
    return { url: parsed, address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 };
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    throw new TargetRefusedError(`host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`, hostRefusal(host));
  }
  if (addresses.length === 0) throw new TargetRefusedError(`host ${host} does not resolve`, hostRefusal(host));
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new TargetRefusedError(`host ${host} is not allowed: ${refusal}`, hostRefusal(host));
  }
  const first = addresses[0]!;
  return { url: parsed, address: first.address, family: first.family === 6 ? 6 : 4 };
}
