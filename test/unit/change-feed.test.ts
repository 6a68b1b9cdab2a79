import t from 'tap';
import { acceptsGzip } from '../../src/http/accept-encoding.js';
import { CHANGE_KINDS } from '../../src/changes/change-kinds.js';
import { decodeCursor, encodeCursor } from '../../src/changes/feed-cursor.js';
import { movesVersion } from '../../src/listings/change-listing.js';

t.test('a cursor names its feed position and nothing else can be read into it', async (t) => {
  for (const position of [0, 1, 42, 1_000_000, Number.MAX_SAFE_INTEGER]) {
    const cursor = encodeCursor(position);
    t.match(cursor, /^[A-Za-z0-9_-]+$/, `${position}: URL-safe without escaping`);
    t.notOk(/^\d+$/.test(cursor), `${position}: not a bare number a client could do sums with`);
    t.equal(decodeCursor(cursor), position, `${position}: round trip`);
  }
});

t.test('anything that is not a cursor this service handed out is refused', async (t) => {
  const notOurs = [
    '',
    '1',
    '42',
    'now',
    'abc',
    '!!!',
    'djE6MQ==', // padded base64 of "v1:1": not our spelling
    Buffer.from('v1:-1').toString('base64url'),
    Buffer.from('v1:01').toString('base64url'),
    Buffer.from('v1:1.5').toString('base64url'),
    Buffer.from('v2:1').toString('base64url'),
    Buffer.from('v1:99999999999999999').toString('base64url'), // beyond 2^53
    Buffer.from('v1:1 ').toString('base64url'),
    `${encodeCursor(7)}x`,
    'A'.repeat(200),
  ];
  for (const cursor of notOurs) t.equal(decodeCursor(cursor), undefined, JSON.stringify(cursor));
});

t.test('gzip is used only when Accept-Encoding allows it', async (t) => {
  for (const header of ['gzip', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.8', '*', 'deflate, *;q=0.5', 'x-gzip', 'GZIP']) {
    t.ok(acceptsGzip(header), header);
  }
  for (const header of [undefined, '', 'identity', 'br, deflate', 'gzip;q=0', 'gzip;q=0.0, br', '*, gzip;q=0', 'identity;q=1, *;q=0']) {
    t.notOk(acceptsGzip(header), String(header));
  }
});

t.test('private changes are recorded without moving the public version; every other change, offers included, moves it', async (t) => {
  t.notOk(movesVersion('review_added', 7), 'a partner review (visible to its author only)');
  t.notOk(movesVersion('review_deleted', 7));
  // The index document says whether a listing has an offer (has_offer), so offers reach it.
  for (const kind of CHANGE_KINDS) t.ok(movesVersion(kind), kind);
});
