import t from 'tap';
import { copyPieces } from '../../src/db/copy-in.js';

const rows = (count: number, chars: number) => Array.from({ length: count }, (_, i) => `${String(i).padEnd(chars - 1, 'x')}\n`);

t.test('thousands of rows go as a few pieces that hold them all, in order, each ending at a row end', async (t) => {
  const sent = rows(5000, 100);
  const pieces = [...copyPieces(sent)];
  t.equal(pieces.join(''), sent.join(''), 'every row, unchanged and in order');
  t.ok(pieces.length <= 8, `${pieces.length} pieces for 500 000 characters`);
  t.ok(
    pieces.every((p) => p.endsWith('\n')),
    'no row is split between pieces',
  );
});

t.test('a row longer than a piece goes whole; no rows, no piece', async (t) => {
  const long = `${'y'.repeat(200_000)}\n`;
  t.same([...copyPieces(['a\n', long, 'b\n'])], [`a\n${long}`, 'b\n']);
  t.same([...copyPieces([])], []);
});
