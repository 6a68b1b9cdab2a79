import ipaddr from 'ipaddr.js';

/** An IPv4 address as Node writes a socket's peer: four decimal numbers 0–255, no leading zeros. */
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * The network a request comes from, as the per-address rate limit counts it: an IPv4 address, or
 * the /64 of an IPv6 address, since one IPv6 host commonly holds a whole /64 and could otherwise
 * take a fresh address for every request.
 */
export function clientNetwork(ip: string): string {
  // Already in the one form ipaddr.js would give it: parsing it costs every request a few µs.
  // Any other spelling of an IPv4 address ("1.2.3.04", from a proxy's header) is parsed below,
  // so that one address cannot count as several.
  if (CANONICAL_IPV4.test(ip)) return ip;
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip); // an IPv4-mapped IPv6 address counts as its IPv4 address
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
