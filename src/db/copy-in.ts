// Rows into a table with COPY … FROM STDIN (pg-copy-streams), the fastest way PostgreSQL takes them.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * Characters of rows sent as one piece. pg-copy-streams sends each piece it is given as a message
 * of its own, two socket writes each: a row a piece made the writes cost more than the COPY.
 */
const PIECE_CHARS = 64 * 1024;

/** The rows joined into pieces of about PIECE_CHARS, each ending at a row's end. */
export function* copyPieces(rows: Iterable<string>): Generator<string> {
  let piece = '';
  for (const row of rows) {
    piece += row;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}

/**
 * Runs the COPY `statement` on `client`, sending `rows` (each a whole row of the statement's format,
 * its line break included) as they are produced: at most one piece of them is held at a time.
 */
export async function copyIn(client: pg.PoolClient, statement: string, rows: Iterable<string>): Promise<void> {
  await pipeline(Readable.from(copyPieces(rows)), client.query(copyFrom(statement)));
}
