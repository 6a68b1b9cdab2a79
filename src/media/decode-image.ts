// Turns an uploaded base64 string into verified image bytes: the format comes from the bytes
// themselves (image-size reads the headers), never from what the client claims. Only complete
// JPEG, PNG, GIF and WebP files pass; SVG, HTML, PDF, garbage and truncated files do not.
// Dimensions are limited too: a few bytes can declare billions of pixels, which anything that
// decodes the image later (browsers, thumbnailers) would have to allocate. A GIF declares them
// once per frame besides its logical screen, so each of its frames is measured (gif-frames.ts).
import { imageSize } from 'image-size';
import { gifFrames } from './gif-frames.js';

export const IMAGE_FORMATS = {
  jpg: { ext: 'jpg', contentType: 'image/jpeg' },
  png: { ext: 'png', contentType: 'image/png' },
  gif: { ext: 'gif', contentType: 'image/gif' },
  webp: { ext: 'webp', contentType: 'image/webp' },
} as const;
export type ImageFormat = keyof typeof IMAGE_FORMATS;

export interface DecodedImage {
  bytes: Buffer;
  format: ImageFormat;
  ext: string;
  contentType: string;
  width: number;
  height: number;
}

export interface ImageLimits {
  maxBytes: number;
  maxWidth: number;
  maxHeight: number;
  maxPixels: number;
}

export type DecodeResult = { image: DecodedImage } | { error: 'invalid' | 'too_large'; message: string };

const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded size of a base64 text without decoding it. */
const decodedLength = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

/** True when the file ends as its format requires, i.e. the upload was not cut short. */
export function isComplete(format: ImageFormat, bytes: Buffer): boolean {
  switch (format) {
    case 'jpg': {
      // The end-of-image marker may be followed by padding some encoders add.
      const tail = bytes.subarray(Math.max(0, bytes.length - 64));
      return tail.includes(Buffer.from([0xff, 0xd9]));
    }
    case 'png':
      return bytes.length >= 12 && bytes.subarray(bytes.length - 8, bytes.length - 4).toString('latin1') === 'IEND';
    case 'gif':
      return bytes[bytes.length - 1] === 0x3b;
    case 'webp':
      return bytes.length >= 12 && bytes.readUInt32LE(4) + 8 <= bytes.length;
  }
}

/** Why the declared size breaks the limits, naming them; undefined when it does not. */
function sizeProblem(width: number, height: number, limits: ImageLimits, subject = 'the image'): string | undefined {
  if (width <= limits.maxWidth && height <= limits.maxHeight && width * height <= limits.maxPixels) return undefined;
  return `base64: ${subject} declares ${width} × ${height} pixels; at most ${limits.maxWidth} wide, ${limits.maxHeight} high ` + `and ${limits.maxPixels} pixels in all are allowed`;
}

/**
 * Why a GIF's block structure or frames are refused, or undefined. Each frame must fit the limits,
 * and so must the canvas that holds the screen and every frame at its offset, which is what a
 * decoder that grows its canvas to the frames allocates.
 */
function gifProblem(bytes: Buffer, screen: { width: number; height: number }, limits: ImageLimits): string | undefined {
  const layout = gifFrames(bytes);
  if ('error' in layout) {
    return layout.error === 'truncated' ? 'base64: the gif image is truncated' : `base64: the gif image is malformed: ${layout.reason}`;
  }
  let right = screen.width;
  let bottom = screen.height;
  for (const [i, frame] of layout.frames.entries()) {
    const problem = sizeProblem(frame.width, frame.height, limits, `frame ${i + 1} of the gif image`);
    if (problem) return problem;
    right = Math.max(right, frame.left + frame.width);
    bottom = Math.max(bottom, frame.top + frame.height);
  }
  return sizeProblem(right, bottom, limits, 'the gif image with its frames at their offsets');
}

export function decodeImage(input: string, limits: ImageLimits): DecodeResult {
  const { maxBytes } = limits;
  const b64 = input.replace(DATA_URL, '').replace(/\s+/g, '');
  if (b64.length === 0 || b64.length % 4 !== 0 || !BASE64.test(b64)) {
    return { error: 'invalid', message: 'base64: must be standard base64 (optionally with a data: URL prefix)' };
  }
  const size = decodedLength(b64);
  if (size > maxBytes) return { error: 'too_large', message: `base64: the image is ${size} bytes; at most ${maxBytes} are allowed` };
  const bytes = Buffer.from(b64, 'base64');
  let info: ReturnType<typeof imageSize>;
  try {
    info = imageSize(bytes);
  } catch {
    return { error: 'invalid', message: 'base64: not a JPEG, PNG, GIF or WebP image' };
  }
  const format = info.type as ImageFormat | undefined;
  if (!format || !(format in IMAGE_FORMATS)) {
    return { error: 'invalid', message: `base64: ${info.type ?? 'unknown'} images are not accepted; send JPEG, PNG, GIF or WebP` };
  }
  if (!isComplete(format, bytes)) return { error: 'invalid', message: `base64: the ${format} image is truncated` };
  if (!info.width || !info.height) return { error: 'invalid', message: 'base64: the image has no size' };
  const screen = { width: info.width, height: info.height };
  const tooBig = sizeProblem(screen.width, screen.height, limits) ?? (format === 'gif' ? gifProblem(bytes, screen, limits) : undefined);
  if (tooBig) return { error: 'invalid', message: tooBig };
  return { image: { bytes, format, ...IMAGE_FORMATS[format], width: info.width, height: info.height } };
}
