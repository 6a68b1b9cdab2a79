import t from 'tap';
import { clientNetwork } from '../../src/rate-limit/client-network.js';

t.test('the per-address rate limit counts IPv4 addresses, and IPv6 per /64', async (t) => {
  t.equal(clientNetwork('203.0.113.7'), '203.0.113.7');
  t.equal(clientNetwork('::ffff:203.0.113.7'), '203.0.113.7', 'IPv4-mapped');
  t.equal(clientNetwork('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  t.equal(clientNetwork('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64', 'same /64, same counter');
  t.not(clientNetwork('2001:db8:1:3::1'), clientNetwork('2001:db8:1:2::1'));
  t.equal(clientNetwork('not an address'), 'not an address');
});

t.test('every spelling of one IPv4 address counts as that address', async (t) => {
  for (const ip of ['0.0.0.0', '9.9.9.9', '10.0.0.255', '199.249.250.251', '255.255.255.255']) t.equal(clientNetwork(ip), ip, ip);
  t.equal(clientNetwork('203.0.113.07'), '203.0.113.7', 'a leading zero');
  t.equal(clientNetwork('203.000.113.7'), '203.0.113.7', 'zeros');
  t.equal(clientNetwork('::ffff:cb00:7107'), '203.0.113.7', 'IPv4-mapped, in hexadecimal');
});
