// The deletion neighbourhood finds every typo it promises, at any position of the word: one
// edit in words of 4+ letters, two in words of 8+, checked exhaustively by property tests.
import t from 'tap';
import fc from 'fast-check';
import { deletions, indexedForms, queryForms, type IndexedForms, type QueryForms } from '../../src/search/typo-variants.js';
import { applyEdit, editDistance, random, type EditKind } from '../../bench/relevance-queries.js';

/** How a query word meets an indexed word, the way the Solr query looks it up. */
function matchOf(indexed: IndexedForms, query: QueryForms): 'exact' | 'one edit' | 'two edits' | 'none' {
  const has = (field: keyof IndexedForms, terms: string[] | undefined) => (terms ?? []).some((term) => indexed[field].includes(term));
  if (indexed.words.includes(query.exact)) return 'exact';
  if (has('del1', query.del1)) return 'one edit';
  if (has('del2', query.del2)) return 'two edits';
  return 'none';
}

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split(''));
const word = (min: number, max: number) => fc.array(letters, { minLength: min, maxLength: max }).map((l) => l.join(''));
const edits = fc.constantFrom<EditKind>('replace', 'drop', 'add', 'swap');

t.test('deletions of a word: every string with one (or two) characters removed', async (t) => {
  t.same(deletions('abc', 1).one.sort(), ['ab', 'ac', 'bc']);
  t.same(deletions('abcd', 2).two.sort(), ['ab', 'ac', 'ad', 'bc', 'bd', 'cd']);
  t.same(deletions('aab', 1).one.sort(), ['aa', 'ab'], 'repeated letters give each variant once');
  // A character outside the Basic Multilingual Plane is two UTF-16 units: it goes whole, never half.
  t.same(deletions('a𝔟c', 1).one.sort(), ['ac', 'a𝔟', '𝔟c'].sort(), 'a letter outside the BMP is deleted whole');
  t.same(deletions('a𝔟cd', 2).two.sort(), ['a𝔟', 'ac', 'ad', '𝔟c', '𝔟d', 'cd'].sort());
});

t.test('the index keeps one-letter deletions from 4 letters and two-letter deletions from 8', async (t) => {
  const forms = indexedForms(['bar', 'cafe', 'backerei']);
  t.same(forms.words, ['bar', 'cafe', 'backerei']);
  t.notOk(forms.del1.some((v) => v.length < 3), 'three-letter words have no deletions');
  t.ok(forms.del1.includes('caf') && forms.del1.includes('bckerei') && forms.del1.includes('cafe'), 'words and their one-letter deletions');
  t.ok(forms.del2.includes('bckrei') && forms.del2.includes('backerei') && !forms.del2.some((v) => v.length < 6), 'long words with up to two deletions');
  t.notOk(forms.del2.includes('cafe'), 'short words are not in the two-edit field');
  t.same(indexedForms(['backerei'], { twoEdits: false }).del2, [], 'fields limited to one edit keep no second deletions');
});

t.test('a typo in the FIRST letter is found like any other', async (t) => {
  const wurnholzer = indexedForms(['wurnholzer']);
  t.equal(matchOf(wurnholzer, queryForms('qurnholzer')), 'one edit');
  t.equal(matchOf(indexedForms(['gschinnwallner']), queryForms('sgchinnwallner')), 'one edit', 'swapped first letters');
  t.equal(matchOf(wurnholzer, queryForms('urnholzer')), 'one edit', 'first letter dropped');
  t.equal(matchOf(wurnholzer, queryForms('xwurnholzer')), 'one edit', 'a letter added in front');
  t.equal(matchOf(wurnholzer, queryForms('qurnholzar')), 'two edits');
});

t.test('short words: exact below 3 letters, a dropped letter only at 3', async (t) => {
  t.equal(matchOf(indexedForms(['ag']), queryForms('ab')), 'none');
  t.equal(matchOf(indexedForms(['cafe']), queryForms('caf')), 'one edit');
  t.equal(matchOf(indexedForms(['bar']), queryForms('bat')), 'none', 'three-letter words are not replaced: "sag" must not find every "AG"');
});

t.test('property: one edit anywhere in a word of 4+ letters always matches', async () => {
  fc.assert(fc.property(word(4, 14), edits, fc.nat(), fc.nat(), (w, kind, position, seed) => {
    const typed = applyEdit(w, kind, position % w.length, random(seed));
    fc.pre(editDistance(w, typed) === 1);
    const found = matchOf(indexedForms([w]), queryForms(typed));
    return found === 'one edit';
  }), { numRuns: 3000 });
});

t.test('property: two edits anywhere in a word of 8+ letters always match', async () => {
  fc.assert(fc.property(word(8, 14), edits, edits, fc.nat(), fc.nat(), fc.nat(), (w, k1, k2, p1, p2, seed) => {
    const rng = random(seed);
    const once = applyEdit(w, k1, p1 % w.length, rng);
    const typed = applyEdit(once, k2, p2 % once.length, rng);
    fc.pre(editDistance(w, typed) === 2);
    return ['one edit', 'two edits'].includes(matchOf(indexedForms([w]), queryForms(typed)));
  }), { numRuns: 3000 });
});

t.test('property: a word always finds itself exactly', async () => {
  fc.assert(fc.property(word(1, 16), (w) => matchOf(indexedForms([w]), queryForms(w)) === 'exact'));
});
