// Splits an NDJSON byte stream into its lines without ever holding more than one line (and one
// chunk) in memory: a line longer than `maxLineBytes` is skipped over as it arrives and reported
// as too long instead of being kept (docs/contract.md §19).

export interface NdjsonLine {
  /** 1-based line number in the body, empty lines included. */
  line: number;
  /** The line's text, without its line break; null when it was longer than `maxLineBytes`. */
  text: string | null;
  /** Its length in bytes, line break excluded. */
  bytes: number;
}

const NEWLINE = 0x0a;

/** The body's non-empty lines (lines of only whitespace are skipped, their numbers still counted). */
export async function* ndjsonLines(chunks: AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<NdjsonLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let line = 0;

  function finishLine(): NdjsonLine | undefined {
    line++;
    const bytes = length;
    const text = tooLong ? null : Buffer.concat(parts, length).toString('utf8').replace(/\r$/, '');
    parts = [];
    length = 0;
    tooLong = false;
    if (text !== null && text.trim() === '') return undefined;
    return { line, text, bytes };
  }

  function append(piece: Buffer) {
    length += piece.length;
    if (tooLong) return;
    if (length > maxLineBytes) {
      tooLong = true;
      parts = [];
      return;
    }
    parts.push(piece);
  }

  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      append(chunk.subarray(start, end));
      const done = finishLine();
      if (done) yield done;
      start = end + 1;
    }
    // Copied: the stream may reuse the chunk's memory once we ask for the next one.
    if (start < chunk.length) append(Buffer.from(chunk.subarray(start)));
  }
  if (length > 0 || tooLong) {
    const done = finishLine();
    if (done) yield done;
  }
}
