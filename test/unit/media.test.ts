import t from 'tap';
import { readFileSync } from 'node:fs';
import { decodeImage, isComplete, type ImageLimits } from '../../src/media/decode-image.js';
import { contentKey, MEDIA_FILE_PATTERN, mediaFileName, mediaUrl } from '../../src/media/media-store.js';
import { s3ObjectKey } from '../../src/media/s3-media-store.js';
import { gifWithComment, gifWithFrames, jpegWithComment, pngDeclaring } from '../fixtures/crafted-images.js';
import { gifFrames } from '../../src/media/gif-frames.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url));
const limits: ImageLimits = { maxBytes: 1 << 20, maxWidth: 10_000, maxHeight: 10_000, maxPixels: 40_000_000 };

t.test('decodeImage reads format and size from the bytes', async (t) => {
  for (const [name, format, width, height] of [
    ['tiny.jpg', 'jpg', 8, 6],
    ['tiny.png', 'png', 8, 6],
    ['tiny.gif', 'gif', 1, 1],
    ['tiny.webp', 'webp', 8, 6],
  ] as const) {
    const result = decodeImage(fixture(name).toString('base64'), limits);
    t.match(result, { image: { format, width, height } }, name);
  }
});

t.test("a JPEG with a comment segment still decodes (the tests' unique files)", async (t) => {
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

t.test('every GIF frame is measured against the limits, not only the logical screen', async (t) => {
  const decode = (gif: Buffer) => decodeImage(gif.toString('base64'), limits);
  const screen = { width: 100, height: 100 };
  t.match(
    decode(
      gifWithFrames(screen, [
        { width: 100, height: 100 },
        { left: 10, top: 10, width: 50, height: 50 },
      ]),
    ),
    { image: { format: 'gif', width: 100, height: 100 } },
    'frames within the screen',
  );
  t.match(
    decode(
      gifWithFrames(screen, [
        { width: 10, height: 10 },
        { width: 65_535, height: 65_535 },
      ]),
    ),
    {
      error: 'invalid',
      message: 'base64: frame 2 of the gif image declares 65535 × 65535 pixels; at most 10000 wide, 10000 high and 40000000 pixels in all are allowed',
    },
    'a 1 × 1 screen cannot hide a 65535 × 65535 frame',
  );
  t.match(decode(gifWithFrames({ width: 1, height: 1 }, [{ width: 10_001, height: 1 }])), { error: 'invalid', message: /frame 1 .* 10001 × 1 pixels/ }, 'too wide');
  t.match(decode(gifWithFrames(screen, [{ width: 7_000, height: 7_000 }])), { error: 'invalid', message: /frame 1 .*40000000 pixels in all/ }, 'too many pixels');
  t.match(
    decode(gifWithFrames(screen, [{ left: 9_999, width: 10, height: 10 }])),
    { error: 'invalid', message: /with its frames at their offsets declares 10009 × 100 pixels/ },
    'a small frame far outside the screen',
  );
  t.match(
    decode(
      gifWithFrames(screen, [
        { width: 9_000, height: 1 },
        { width: 1, height: 9_000 },
      ]),
    ),
    { error: 'invalid', message: /9000 × 9000/ },
    'two frames each allowed, their canvas not',
  );
  const many = Array.from({ length: 50 }, (_, i) => ({ left: i, width: 10, height: 10 }));
  t.match(decode(gifWithFrames(screen, many)), { image: { format: 'gif' } }, 'fifty small frames');
  t.match(decode(gifWithComment('run 1')), { image: { format: 'gif', width: 1, height: 1 } }, 'extensions are walked over');
});

t.test('a GIF whose block structure is truncated or malformed is refused', async (t) => {
  const decode = (gif: Buffer) => decodeImage(gif.toString('base64'), limits);
  const gif = gifWithFrames({ width: 10, height: 10 }, [
    { width: 10, height: 10 },
    { width: 10, height: 10 },
  ]);
  // Cut inside the second frame's data, with a trailer byte put back so that the ending looks right.
  const cut = Buffer.concat([gif.subarray(0, gif.length - 6), Buffer.from([0x3b])]);
  t.match(decode(cut), { error: 'invalid', message: /gif image (is truncated|is malformed)/ }, 'cut mid-frame');
  t.match(decode(gif.subarray(0, 20)), { error: 'invalid', message: /truncated/ }, 'cut in the first frame');
  const stray = Buffer.concat([fixture('tiny.gif').subarray(0, -1), Buffer.from([0x00, 0x3b])]);
  t.match(decode(stray), { error: 'invalid', message: 'base64: the gif image is malformed: unexpected byte 0x00 at offset 41' }, 'a byte that starts no block');
  const riding = Buffer.concat([fixture('tiny.gif'), Buffer.from('<script>alert(1)</script>;')]);
  t.match(decode(riding), { error: 'invalid', message: /malformed: 26 bytes after the trailer/ }, 'a second file after the trailer');
  t.match(decode(gifWithFrames({ width: 10, height: 10 }, [])), { error: 'invalid', message: /malformed: no frame/ });
  t.same(gifFrames(gifWithFrames({ width: 5, height: 5 }, [{ left: 1, top: 2, width: 3, height: 4 }])), { frames: [{ left: 1, top: 2, width: 3, height: 4 }] });
  // A global colour table is skipped by its announced size.
  t.same(gifFrames(fixture('tiny.gif')), { frames: [{ left: 0, top: 0, width: 1, height: 1 }] });
});

t.test("isComplete checks each format's ending", async (t) => {
  for (const [name, format] of [
    ['tiny.jpg', 'jpg'],
    ['tiny.png', 'png'],
    ['tiny.gif', 'gif'],
    ['tiny.webp', 'webp'],
  ] as const) {
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
