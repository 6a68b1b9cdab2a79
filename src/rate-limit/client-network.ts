import ipaddr from 'ipaddr.js';

/**
 * The network a request comes from, as the per-address rate limit counts it: an IPv4 address, or
 * the /64 of an IPv6 address, since one IPv6 host commonly holds a whole /64 and could otherwise
 * take a fresh address for every request.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip); // an IPv4-mapped IPv6 address counts as its IPv4 address
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
