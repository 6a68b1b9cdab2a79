import t from 'tap';
import { readFileSync } from 'node:fs';
import { decodeImage, isComplete, type ImageLimits } from '../../src/media/decode-image.js';
import { contentKey, MEDIA_FILE_PATTERN, mediaFileName, mediaUrl } from '../../src/media/media-store.js';
import { s3ObjectKey } from '../../src/media/s3-media-store.js';
import { jpegWithComment, pngDeclaring } from '../fixtures/crafted-images.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url));
const limits: ImageLimits = { maxBytes: 1 << 20, maxWidth: 10_000, maxHeight: 10_000, maxPixels: 40_000_000 };

t.test('decodeImage reads format and size from the bytes', async (t) => {
  for (const [name, format, width, height] of [['tiny.jpg', 'jpg', 8, 6], ['tiny.png', 'png', 8, 6], ['tiny.gif', 'gif', 1, 1], ['tiny.webp', 'webp', 8, 6]] as const) {
    const result = decodeImage(fixture(name).toString('base64'), limits);
    t.match(result, { image: { format, width, height } }, name);
  }
});

t.test('a JPEG with a comment segment still decodes (the tests\' unique files)', async (t) => {
  t.match(decodeImage(jpegWithComment('run 1').toString('base64'), limits), { image: { format: 'jpg', width: 8, height: 6 } });
});

t.test('decodeImage accepts a data: URL prefix and line breaks', async (t) => {
  const b64 = fixture('tiny.png').toString('base64');
  t.match(decodeImage(`data:image/gif;base64,${b64.slice(0, 20)}\n${b64.slice(20)}`, limits), { image: { format: 'png' } }, 'the claimed type is ignored');
});

t.test('decodeImage refuses other formats, garbage, truncation and oversize', async (t) => {
  t.match(decodeImage(fixture('tiny.svg').toString('base64'), limits), { error: 'invalid', message: /svg images are not accepted/ });
  t.match(decodeImage(fixture('page.html').toString('base64'), limits), { error: 'invalid' });
  t.match(decodeImage('%%%', limits), { error: 'invalid', message: /standard base64/ });
  t.match(decodeImage('', limits), { error: 'invalid' });
  t.match(decodeImage(fixture('tiny.png').subarray(0, 60).toString('base64'), limits), { error: 'invalid', message: /truncated/ });
  t.match(decodeImage(fixture('tiny.jpg').toString('base64'), { ...limits, maxBytes: 100 }), { error: 'too_large' });
});

t.test('decodeImage refuses sizes above the width, height and pixel limits, naming them', async (t) => {
  const decode = (width: number, height: number) => decodeImage(pngDeclaring(width, height).toString('base64'), limits);
  const refusal = { error: 'invalid', message: 'base64: the image declares 60000 × 60000 pixels; at most 10000 wide, 10000 high and 40000000 pixels in all are allowed' };
  t.match(decode(60_000, 60_000), refusal, 'a 1 KB pixel bomb');
  t.match(decode(10_001, 1), { error: 'invalid', message: /10001 × 1 pixels/ }, 'too wide');
  t.match(decode(1, 10_001), { error: 'invalid' }, 'too high');
  t.match(decode(8_000, 8_000), { error: 'invalid', message: /40000000 pixels in all/ }, 'each side allowed, too many pixels');
  t.match(decode(10_000, 4_000), { image: { width: 10_000, height: 4_000 } }, 'at the limits');
});

t.test('isComplete checks each format\'s ending', async (t) => {
  for (const [name, format] of [['tiny.jpg', 'jpg'], ['tiny.png', 'png'], ['tiny.gif', 'gif'], ['tiny.webp', 'webp']] as const) {
    t.ok(isComplete(format, fixture(name)), `${name} complete`);
    t.notOk(isComplete(format, fixture(name).subarray(0, fixture(name).length - 2)), `${name} cut`);
  }
});

t.test('content-addressed keys, file names, URLs and S3 object keys', async (t) => {
  const key = contentKey(Buffer.from('abc'));
  t.equal(key, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  const file = mediaFileName(key, 'png');
  t.ok(MEDIA_FILE_PATTERN.test(file));
  t.notOk(MEDIA_FILE_PATTERN.test('../etc/passwd'));
  t.equal(mediaUrl('https://cdn.example.com/', file), `https://cdn.example.com/media/${file}`);
  t.equal(s3ObjectKey('media/', file), `media/ba/${file}`);
  t.equal(s3ObjectKey('media', file), `media/ba/${file}`);
  t.equal(s3ObjectKey('', file), `ba/${file}`);
});
