import t from 'tap';
import { readFileSync } from 'node:fs';
import { gifWithComment, gifWithFrames, jpegWithComment, pngDeclaring } from '../fixtures/crafted-images.js';
import { build, config, listingInput, runId } from '../helper.js';

const { app, partner } = await build(t);
const owner = await partner();
const other = await partner();
const fixture = (name: string) => readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url));
const b64 = (name: string) => fixture(name).toString('base64');

const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() })).json();
const upload = (payload: object, path = 'images', auth = owner.auth) => app.inject({ method: 'POST', url: `/de/listings/${id}/${path}`, headers: auth, payload });
/** The public URL's path, fetched from the app without any key. */
const fetchPublic = (url: string) => app.inject({ url: new URL(url).pathname });

t.test('each accepted format uploads, and its public URL serves the same bytes', async (t) => {
  for (const [name, type] of [
    ['tiny.jpg', 'image/jpeg'],
    ['tiny.png', 'image/png'],
    ['tiny.gif', 'image/gif'],
    ['tiny.webp', 'image/webp'],
  ] as const) {
    const res = await upload({ type: 'photo', caption: name, base64: b64(name) });
    t.equal(res.statusCode, 201, name);
    const image = res.json();
    t.match(image, { id: /^\d+$/, type: 'photo', caption: name, base64: null });
    t.match(image.url, /\/media\/[0-9a-f]{64}\.(jpg|png|gif|webp)$/);
    const file = await fetchPublic(image.url);
    t.equal(file.statusCode, 200, `${name} served without a key`);
    t.equal(file.headers['content-type'], type);
    t.equal(file.headers['content-length'], String(fixture(name).length), `${name}: streamed with its length`);
    t.equal(file.headers['cache-control'], `public, max-age=${config.MEDIA_CACHE_MAX_AGE_S}`, 'cached for a bounded time: deletions reach caches');
    t.same(file.rawPayload, fixture(name), `${name}: same bytes`);
  }
});

t.test('the /image spelling and a data: URL prefix work alike', async (t) => {
  const res = await upload({ type: 'logo', caption: '', base64: `data:image/png;base64,${b64('tiny.png')}` }, 'image');
  t.equal(res.statusCode, 201);
  t.equal(res.json().caption, '');
});

t.test('bad uploads are refused by their content, not by their claims', async (t) => {
  const cases: [string, object, number][] = [
    ['SVG', { type: 'photo', caption: '', base64: b64('tiny.svg') }, 400],
    ['HTML', { type: 'photo', caption: '', base64: b64('page.html') }, 400],
    ['HTML labelled as PNG', { type: 'photo', caption: '', base64: `data:image/png;base64,${b64('page.html')}` }, 400],
    ['truncated JPEG', { type: 'photo', caption: '', base64: fixture('tiny.jpg').subarray(0, 300).toString('base64') }, 400],
    ['not base64', { type: 'photo', caption: '', base64: 'not base64 at all!' }, 400],
    ['unknown type', { type: 'banner', caption: '', base64: b64('tiny.png') }, 400],
    ['caption too long', { type: 'photo', caption: 'x'.repeat(501), base64: b64('tiny.png') }, 400],
    ['over 5 MiB decoded', { type: 'photo', caption: '', base64: Buffer.alloc(5 * 1024 * 1024 + 1, 1).toString('base64') }, 413],
  ];
  for (const [name, payload, status] of cases) {
    const res = await upload(payload);
    t.equal(res.statusCode, status, name);
    t.equal(res.json().type, status === 413 ? 'payload_too_large' : 'validation', name);
  }
});

t.test('a 1 KB PNG declaring 60000 × 60000 pixels answers 400 naming the limits; nothing is stored', async (t) => {
  const before = (await app.inject({ url: `/de/listings/${id}/images`, headers: owner.auth })).json().numFound;
  const res = await upload({ type: 'photo', caption: 'bomb', base64: pngDeclaring(60_000, 60_000).toString('base64') });
  t.equal(res.statusCode, 400);
  t.match(res.json(), {
    type: 'validation',
    details: [`base64: the image declares 60000 × 60000 pixels; at most ${config.IMAGE_MAX_WIDTH} wide, ${config.IMAGE_MAX_HEIGHT} high and ${config.IMAGE_MAX_PIXELS} pixels in all are allowed`],
  });
  t.equal((await app.inject({ url: `/de/listings/${id}/images`, headers: owner.auth })).json().numFound, before);
  const normal = await upload({ type: 'photo', caption: 'normal', base64: pngDeclaring(800, 600).toString('base64') });
  t.equal(normal.statusCode, 201, 'a normal size passes');
});

t.test('a GIF with a 1 × 1 screen and a 65535 × 65535 frame answers 400; a truncated block structure too; nothing is stored', async (t) => {
  const before = (await app.inject({ url: `/de/listings/${id}/images`, headers: owner.auth })).json().numFound;
  const bomb = await upload({
    type: 'photo',
    caption: 'frame bomb',
    base64: gifWithFrames({ width: 1, height: 1 }, [
      { width: 1, height: 1 },
      { width: 65_535, height: 65_535 },
    ]).toString('base64'),
  });
  t.equal(bomb.statusCode, 400);
  t.match(bomb.json(), { type: 'validation', details: [/^base64: frame 2 of the gif image declares 65535 × 65535 pixels/] });
  const whole = gifWithFrames({ width: 4, height: 4 }, [{ width: 4, height: 4 }]);
  const cut = await upload({ type: 'photo', caption: 'cut', base64: Buffer.concat([whole.subarray(0, whole.length - 4), Buffer.from([0x3b])]).toString('base64') });
  t.equal(cut.statusCode, 400);
  t.match(cut.json(), { type: 'validation', details: [/^base64: the gif image is (truncated|malformed)/] });
  t.equal((await app.inject({ url: `/de/listings/${id}/images`, headers: owner.auth })).json().numFound, before);
  const animated = await upload({
    type: 'photo',
    caption: 'animated',
    base64: gifWithFrames({ width: 4, height: 4 }, [
      { width: 4, height: 4 },
      { left: 1, top: 1, width: 2, height: 2 },
    ]).toString('base64'),
  });
  t.equal(animated.statusCode, 201, 'frames within the limits pass');
});

t.test('GET images, images on the listing, none in the create response', async (t) => {
  const list = (await app.inject({ url: `/de/listings/${id}/images`, headers: other.auth })).json();
  t.ok(list.numFound >= 5);
  t.equal(list.images.length, list.numFound);
  const listing = (await app.inject({ url: `/de/listings/${id}`, headers: other.auth })).json();
  t.same(listing.images, list.images);
});

t.test('PUT updates type, caption and bytes; the old file stops being served', async (t) => {
  const created = (await upload({ type: 'photo', caption: 'old', base64: b64('tiny.gif') })).json();
  const res = await app.inject({ method: 'PUT', url: `/de/listings/${id}/image/${created.id}`, headers: owner.auth, payload: { caption: 'new', type: 'printad', base64: b64('tiny.webp') } });
  t.equal(res.statusCode, 200);
  const updated = res.json();
  t.match(updated, { id: created.id, caption: 'new', type: 'printad', base64: null });
  t.match(updated.url, /\.webp$/);
  t.same((await fetchPublic(updated.url)).rawPayload, fixture('tiny.webp'));
  const captionOnly = await app.inject({ method: 'PUT', url: `/de/listings/${id}/images/${created.id}`, headers: owner.auth, payload: { caption: 'only caption' } });
  t.equal(captionOnly.json().url, updated.url, 'the /images spelling; bytes kept');
  t.equal((await app.inject({ method: 'PUT', url: `/de/listings/${id}/image/999999999`, headers: owner.auth, payload: { caption: 'x' } })).statusCode, 404);
});

t.test('DELETE removes the image and its file stops being served; another partner gets 403', async (t) => {
  const bytes = gifWithComment(`delete ${runId}`); // a GIF of its own
  const created = (await upload({ type: 'photo', caption: '', base64: bytes.toString('base64') })).json();
  t.equal((await fetchPublic(created.url)).statusCode, 200);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/image/${created.id}`, headers: other.auth })).statusCode, 403);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/image/${created.id}`, headers: owner.auth })).statusCode, 204);
  t.equal((await fetchPublic(created.url)).statusCode, 404, 'the file is no longer served');
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/images/${created.id}`, headers: owner.auth })).statusCode, 404);
});

t.test('after DELETE of a listing its image files answer 404', async (t) => {
  const { id: doomed } = (await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() })).json();
  const base64 = jpegWithComment(`deleted listing ${runId}`).toString('base64');
  const res = await app.inject({ method: 'POST', url: `/de/listings/${doomed}/images`, headers: owner.auth, payload: { type: 'photo', caption: '', base64 } });
  t.equal(res.statusCode, 201);
  const { url } = res.json();
  t.equal((await fetchPublic(url)).statusCode, 200);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${doomed}`, headers: owner.auth })).statusCode, 204);
  const gone = await fetchPublic(url);
  t.equal(gone.statusCode, 404, 'no longer served');
  t.equal(gone.json().type, 'not_found');
});

t.test('another partner cannot upload to or change a claimed listing', async (t) => {
  t.equal((await upload({ type: 'photo', caption: '', base64: b64('tiny.png') }, 'images', other.auth)).statusCode, 403);
  const first = (await app.inject({ url: `/de/listings/${id}/images`, headers: owner.auth })).json().images[0];
  t.equal((await app.inject({ method: 'PUT', url: `/de/listings/${id}/image/${first.id}`, headers: other.auth, payload: { caption: 'x' } })).statusCode, 403);
});

t.test('at most 50 images a listing', async (t) => {
  const { id: full } = (await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() })).json();
  for (let i = 0; i < 50; i++) {
    const res = await app.inject({ method: 'POST', url: `/de/listings/${full}/images`, headers: owner.auth, payload: { type: 'photo', caption: `${i}`, base64: b64('tiny.png') } });
    if (res.statusCode !== 201) t.fail(`upload ${i}: ${res.statusCode}`);
  }
  const res = await app.inject({ method: 'POST', url: `/de/listings/${full}/images`, headers: owner.auth, payload: { type: 'photo', caption: '51', base64: b64('tiny.png') } });
  t.equal(res.statusCode, 409);
  t.match(res.json().message, /already has 50 images/);
});

t.test('unknown media files answer 404 and paths cannot escape the media directory', async (t) => {
  for (const path of ['/media/0000000000000000000000000000000000000000000000000000000000000000.png', '/media/..%2F..%2Fetc%2Fpasswd', '/media/x.svg']) {
    const res = await app.inject({ url: path });
    t.equal(res.statusCode, 404, path);
  }
});
