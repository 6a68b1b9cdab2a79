// The frames of a GIF, read from its block structure without decoding any pixel. The header's
// logical screen says nothing binding about the frames: each image descriptor carries its own
// position and size, and a decoder allocates for those (some grow their canvas to hold a frame
// that lies outside the screen). So every frame is found and measured here, and a file whose
// blocks do not follow the GIF89a grammar up to its trailer is no image we accept.

/** Where one frame lies on the canvas, in pixels. */
export interface GifFrame {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type GifLayout = { frames: GifFrame[] } | { error: 'truncated' | 'malformed'; reason: string };

const TRAILER = 0x3b;
const EXTENSION = 0x21;
const IMAGE_DESCRIPTOR = 0x2c;
/** Signature, logical screen width, height, packed fields, background colour, aspect ratio. */
const HEADER_BYTES = 13;
/** After the separator: left, top, width, height (two bytes each), packed fields. */
const DESCRIPTOR_BYTES = 9;

/** Bytes of the colour table that a packed-fields byte announces (none when its top bit is clear). */
const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 << ((packed & 0x07) + 1) : 0);

class Truncated extends Error {}

/** Reads the blocks of a GIF from its signature to its trailer, which must be its last byte. */
export function gifFrames(bytes: Buffer): GifLayout {
  const signature = bytes.toString('latin1', 0, 6);
  if (signature !== 'GIF87a' && signature !== 'GIF89a') return { error: 'malformed', reason: 'no GIF signature' };
  const need = (end: number) => {
    if (end > bytes.length) throw new Truncated();
  };
  /** The offset after a chain of data sub-blocks (length byte, data) and its zero-length terminator. */
  const skipSubBlocks = (at: number) => {
    for (;;) {
      need(at + 1);
      const size = bytes[at]!;
      at += 1 + size;
      if (size === 0) return at;
    }
  };
  const frames: GifFrame[] = [];
  try {
    need(HEADER_BYTES);
    let at = HEADER_BYTES + colourTableBytes(bytes[10]!);
    for (;;) {
      need(at + 1);
      const introducer = bytes[at]!;
      at += 1;
      if (introducer === TRAILER) {
        // Bytes after the trailer would be a second file riding on the image (a polyglot).
        if (at !== bytes.length) return { error: 'malformed', reason: `${bytes.length - at} bytes after the trailer` };
        if (frames.length === 0) return { error: 'malformed', reason: 'no frame' };
        return { frames };
      }
      if (introducer === EXTENSION) {
        need(at + 1);
        at = skipSubBlocks(at + 1); // the label, then the extension's sub-blocks
      } else if (introducer === IMAGE_DESCRIPTOR) {
        need(at + DESCRIPTOR_BYTES);
        frames.push({ left: bytes.readUInt16LE(at), top: bytes.readUInt16LE(at + 2), width: bytes.readUInt16LE(at + 4), height: bytes.readUInt16LE(at + 6) });
        at += DESCRIPTOR_BYTES + colourTableBytes(bytes[at + 8]!);
        need(at + 1);
        at = skipSubBlocks(at + 1); // the LZW minimum code size, then the image data
      } else {
        return { error: 'malformed', reason: `unexpected byte 0x${introducer.toString(16).padStart(2, '0')} at offset ${at - 1}` };
      }
    }
  } catch (err) {
    if (err instanceof Truncated) return { error: 'truncated', reason: 'the blocks end before the trailer' };
    throw err;
  }
}
