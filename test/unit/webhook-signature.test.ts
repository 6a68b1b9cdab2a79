import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { createSecretBox, DEVELOPMENT_SECRET_KEY } from '../../src/webhooks/secret-box.js';
import { generateWebhookSecret, signWebhook, webhookHeaders } from '../../src/webhooks/webhook-signature.js';

const body = JSON.stringify({ id: 'msg_1', type: 'updated', country: 'de', listing_id: '42', version: 3, at: '2026-01-01T00:00:00.000Z' });

t.test('a new secret is whsec_ and the base64 of 32 random bytes, different every time', async (t) => {
  const secret = generateWebhookSecret();
  t.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  t.equal(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 32);
  t.not(generateWebhookSecret(), secret);
});

t.test('the headers verify with the Standard Webhooks reference library', async (t) => {
  const secret = generateWebhookSecret();
  const headers = webhookHeaders([secret], 'msg_1', body);
  t.equal(headers['content-type'], 'application/json');
  t.equal(headers['webhook-id'], 'msg_1');
  t.match(headers['webhook-timestamp'], /^\d{10}$/);
  t.match(headers['webhook-signature'], /^v1,/);
  t.same(new Webhook(secret).verify(body, headers), JSON.parse(body));
});

t.test("the signature equals the reference library's own for the same id, time and body", async (t) => {
  const secret = generateWebhookSecret();
  const seconds = 1_700_000_000;
  t.equal(signWebhook(secret, 'msg_abc', seconds, body), new Webhook(secret).sign('msg_abc', new Date(seconds * 1000), body));
});

t.test('a changed body, id or secret fails verification', async (t) => {
  const secret = generateWebhookSecret();
  const headers = webhookHeaders([secret], 'msg_1', body);
  t.throws(() => new Webhook(secret).verify(body.replace('"version":3', '"version":4'), headers));
  t.throws(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' }));
  t.throws(() => new Webhook(generateWebhookSecret()).verify(body, headers));
});

t.test('with two secrets the header carries two signatures and verifies with either secret alone', async (t) => {
  const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
  const headers = webhookHeaders([current, previous], 'msg_1', body);
  t.match(headers['webhook-signature'], /^v1,\S+ v1,\S+$/);
  t.same(new Webhook(current).verify(body, headers), JSON.parse(body));
  t.same(new Webhook(previous).verify(body, headers), JSON.parse(body));
  t.throws(() => new Webhook(generateWebhookSecret()).verify(body, headers));
});

t.test('a sealed secret opens to itself, hides it, differs each time, and fails under another key or altered', async (t) => {
  const box = createSecretBox(DEVELOPMENT_SECRET_KEY);
  const secret = generateWebhookSecret();
  const sealed = box.seal(secret);
  t.notOk(sealed.includes(secret.slice('whsec_'.length, 20)), 'the stored form does not show the secret');
  t.not(box.seal(secret), sealed, 'a fresh IV each time');
  t.equal(box.open(sealed), secret);
  t.equal(box.open(secret), secret, 'a clear-text secret stored before sealing still opens');
  t.throws(() => createSecretBox(Buffer.alloc(32, 7)).open(sealed), 'another key');
  const altered = `${sealed.slice(0, -4)}${sealed.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
  t.throws(() => box.open(altered), 'an altered value');
});
