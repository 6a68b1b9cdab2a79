import t from 'tap';
import { bearerToken, generateApiKey, hashApiKey, sameHash } from '../../src/partners/api-keys.js';

t.test('keys are random, long and hashed deterministically', async (t) => {
  const a = generateApiKey();
  const b = generateApiKey();
  t.not(a, b);
  t.ok(a.length >= 46, '32 random bytes in base64url plus a prefix');
  t.equal(hashApiKey(a), hashApiKey(a));
  t.not(hashApiKey(a), hashApiKey(b));
  t.notMatch(hashApiKey(a), a);
});

t.test('sameHash compares digests', async (t) => {
  const h = hashApiKey('x');
  t.ok(sameHash(h, hashApiKey('x')));
  t.notOk(sameHash(h, hashApiKey('y')));
  t.notOk(sameHash(h, 'abcd'));
});

t.test('bearerToken reads only well-formed Bearer headers', async (t) => {
  const key = generateApiKey();
  t.equal(bearerToken(`Bearer ${key}`), key);
  t.equal(bearerToken(undefined), undefined);
  t.equal(bearerToken(`bearer ${key}`), undefined);
  t.equal(bearerToken(`Bearer ${key} extra`), undefined);
  t.equal(bearerToken('Bearer short'), undefined);
});
