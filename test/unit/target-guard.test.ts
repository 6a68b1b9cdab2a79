import t from 'tap';
import { addressRefusal, checkTarget, urlRefusal, type ResolveHost, type TargetRefusedError } from '../../src/webhooks/target-guard.js';

const strict = { allowPrivate: false };
const dev = { allowPrivate: true };

t.test('public unicast addresses are allowed', async (t) => {
  for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '2a00:1450:4001:80b::200e']) t.equal(addressRefusal(address, strict), undefined, address);
});

t.test('loopback, private, shared, link-local, unique-local, unspecified, multicast and broadcast addresses are refused', async (t) => {
  for (const address of [
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '169.254.169.254',
    'fd00:ec2::254',
  ])
    t.type(addressRefusal(address, strict), 'string', address);
});

t.test('the development flag opens loopback and private addresses but never link-local or metadata ones', async (t) => {
  for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.10', 'fd12::1', '::ffff:127.0.0.1']) t.equal(addressRefusal(address, dev), undefined, address);
  for (const address of ['169.254.169.254', '169.254.1.1', 'fe80::1', 'fd00:ec2::254', '::ffff:169.254.169.254', '0.0.0.0', '224.0.0.1']) {
    t.type(addressRefusal(address, dev), 'string', address);
  }
  t.match(addressRefusal('fd00:ec2::254', dev), /metadata/);
});

t.test('an IPv6 address that carries an IPv4 address is judged as that IPv4 address', async (t) => {
  // IPv4-compatible (::/96), IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96).
  for (const address of ['::127.0.0.1', '::7f00:1', '::a00:1', '::ffff:0:7f00:1', '::ffff:7f00:1', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe']) {
    t.match(addressRefusal(address, strict), /reaches (127\.0\.0\.1|10\.0\.0\.1|169\.254\.169\.254): /, address);
  }
  t.match(addressRefusal('::a9fe:a9fe', dev), /169\.254\.169\.254 is a cloud metadata address/, 'metadata stays refused under the development flag');
  t.match(addressRefusal('64:ff9b::a9fe:a9fe', dev), /metadata/);
  t.equal(addressRefusal('::7f00:1', dev), undefined, 'loopback carried in IPv6 is loopback: allowed under the development flag');
  for (const address of ['64:ff9b::808:808', '64:ff9b::93.184.216.34', '::ffff:8.8.8.8']) t.equal(addressRefusal(address, strict), undefined, `${address}: a public IPv4 address`);
  t.match(addressRefusal('64:ff9b:1::808:808', strict), /rfc6052/, 'the local-use NAT64 prefix embeds at a length of its own: refused');
  t.match(addressRefusal('::1', strict), /::1 is a loopback address/, '::1 is IPv6 loopback, not 0.0.0.1');
  t.match(addressRefusal('::', strict), /unspecified/);
});

t.test('only http(s) URLs without credentials are accepted', async (t) => {
  t.equal(urlRefusal('https://example.com/hook'), undefined);
  t.equal(urlRefusal('http://example.com:8080/hook?x=1'), undefined);
  t.match(urlRefusal('ftp://example.com/'), /http/);
  t.match(urlRefusal('file:///etc/passwd'), /http/);
  t.match(urlRefusal('https://user:pw@example.com/'), /credentials/);
  t.match(urlRefusal('not a url'), /not a URL/);
});

const resolvesTo =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const noDns: ResolveHost = async () => {
  throw new Error('a literal address must not be looked up');
};

t.test('literal addresses in any form the URL parser accepts are judged as the address they reach', async (t) => {
  for (const url of [
    'http://127.0.0.1/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[0:0:0:0:0:0:7f00:1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://169.254.169.254/latest/meta-data',
  ]) {
    await t.rejects(checkTarget(url, strict, noDns), { name: 'TargetRefusedError' }, url);
  }
});

t.test('a host is refused when any address it resolves to is refused', async (t) => {
  await t.rejects(checkTarget('https://hooks.example.com/', strict, resolvesTo('93.184.216.34', '10.0.0.5')), { name: 'TargetRefusedError' });
  await t.rejects(checkTarget('https://hooks.example.com/', strict, resolvesTo('::ffff:192.168.0.1')), { name: 'TargetRefusedError' });
  await t.rejects(
    checkTarget('https://hooks.example.com/', strict, async () => []),
    { name: 'TargetRefusedError' },
  );
  await t.rejects(
    checkTarget('https://hooks.example.com/', strict, async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    }),
    { message: /does not resolve/ },
  );
});

t.test('the refusal a partner sees never says what a host resolved to, nor whether it resolved', async (t) => {
  const refusals = await Promise.all(
    [
      resolvesTo('10.0.0.5'),
      resolvesTo('127.0.0.1'),
      resolvesTo('93.184.216.34', '::ffff:192.168.7.9'),
      resolvesTo('fd12::8'),
      async () => [],
      async () => {
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    ].map((resolve) =>
      checkTarget('https://db.internal.example/', strict, resolve).then(
        () => undefined,
        (err: TargetRefusedError) => err,
      ),
    ),
  );
  const shown = refusals.map((err) => err?.publicMessage);
  t.same(new Set(shown), new Set(['host db.internal.example is not allowed: it must resolve, and only to public addresses']), 'one message for all');
  t.match(refusals[0]?.message, /10\.0\.0\.5 is a private address/, 'the log message keeps the address for operators');
  const literal = await checkTarget('http://[::7f00:1]/', strict, noDns).catch((err: TargetRefusedError) => err);
  t.match((literal as TargetRefusedError).publicMessage, /::7f00:1 reaches 127\.0\.0\.1: 127\.0\.0\.1 is a loopback address/, 'a literal address was written by the partner: named');
});

t.test('an allowed host yields the checked address, the one the delivery connects to', async (t) => {
  const target = await checkTarget('https://hooks.example.com/in', strict, resolvesTo('93.184.216.34', '2606:4700::1111'));
  t.equal(target.address, '93.184.216.34');
  t.equal(target.family, 4);
  t.equal(target.url.hostname, 'hooks.example.com');
  const local = await checkTarget('http://[::1]:8080/', dev, noDns);
  t.same([local.address, local.family], ['::1', 6]);
});
