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
