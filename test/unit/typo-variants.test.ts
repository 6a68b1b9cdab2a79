// The deletion neighbourhood finds every typo it promises, at any position of the word: one
// edit in words of 4+ letters, two in words of 8+, checked exhaustively by property tests; and
// the bounds of src/search/query/defaults.ts `typos` hold for queries and documents.
import t from 'tap';
import fc from 'fast-check';
import { affordableForms, deletions, indexedForms, queryForms, queryTypoBudget, type IndexedForms, type QueryForms } from '../../src/search/typo-variants.js';
import { SEARCH_DEFAULTS } from '../../src/search/query/defaults.js';
import { searchableWords } from '../../indexer/listing-document.js';
import { applyEdit, editDistance, random, type EditKind } from '../../bench/relevance-queries.js';
import { longWord } from '../../bench/worst-queries.js';

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
  t.notOk(
    forms.del1.some((v) => v.length < 3),
    'three-letter words have no deletions',
  );
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
  fc.assert(
    fc.property(word(4, 14), edits, fc.nat(), fc.nat(), (w, kind, position, seed) => {
      const typed = applyEdit(w, kind, position % w.length, random(seed));
      fc.pre(editDistance(w, typed) === 1);
      const found = matchOf(indexedForms([w]), queryForms(typed));
      return found === 'one edit';
    }),
    { numRuns: 3000 },
  );
});

t.test('property: two edits anywhere in a word of 8+ letters always match', async () => {
  fc.assert(
    fc.property(word(8, 14), edits, edits, fc.nat(), fc.nat(), fc.nat(), (w, k1, k2, p1, p2, seed) => {
      const rng = random(seed);
      const once = applyEdit(w, k1, p1 % w.length, rng);
      const typed = applyEdit(once, k2, p2 % once.length, rng);
      fc.pre(editDistance(w, typed) === 2);
      return ['one edit', 'two edits'].includes(matchOf(indexedForms([w]), queryForms(typed)));
    }),
    { numRuns: 3000 },
  );
});

t.test('property: a word always finds itself exactly', async () => {
  fc.assert(fc.property(word(1, 16), (w) => matchOf(indexedForms([w]), queryForms(w)) === 'exact'));
});

const { maxTwoEdits, maxOneEdit, maxQueryTerms, maxQueryWords, maxDocumentTerms } = SEARCH_DEFAULTS.typos;

t.test('two edits up to maxTwoEdits letters, one edit up to maxOneEdit, exact beyond: on both sides', async (t) => {
  const rng = random(37);
  const twice = (w: string, kinds: [EditKind, EditKind]) => applyEdit(applyEdit(w, kinds[0], 5, rng), kinds[1], 20, rng);
  const longest = longWord(maxTwoEdits, 1).replace('ü', 'a');
  t.equal(matchOf(indexedForms([longest]), queryForms(twice(longest, ['replace', 'replace']))), 'two edits', `${maxTwoEdits} letters: two edits`);
  t.equal(matchOf(indexedForms([longest]), queryForms(twice(longest, ['add', 'add']))), 'two edits', 'two letters added to the longest: still found');
  const over = longWord(maxTwoEdits + 1, 2).replace('ü', 'a');
  t.equal(matchOf(indexedForms([over]), queryForms(applyEdit(over, 'replace', 9, rng))), 'one edit', `${maxTwoEdits + 1} letters: one edit`);
  t.equal(matchOf(indexedForms([over]), queryForms(twice(over, ['replace', 'replace']))), 'none', `${maxTwoEdits + 1} letters: no second edit`);
  t.same(indexedForms([over]).del2, [], 'nor any two-edit form in the index');
  const longestOne = 'abcdefghij'.repeat(maxOneEdit / 10);
  t.equal(matchOf(indexedForms([longestOne]), queryForms(applyEdit(longestOne, 'drop', 30, rng))), 'one edit', `${maxOneEdit} letters: one edit`);
  const tooLong = `${longestOne}k`;
  t.same(indexedForms([tooLong]), { words: [tooLong], del1: [tooLong], del2: [] }, `${maxOneEdit + 1} letters: the word alone`);
  t.equal(matchOf(indexedForms([tooLong]), queryForms(tooLong)), 'exact', 'still found exactly');
  t.same(queryForms('x'.repeat(200)), { exact: 'x'.repeat(200) }, 'a 200-letter query word is looked up exactly');
});

t.test('a query pays typo forms from one budget: past maxQueryTerms a word loses its two-edit forms, then all; past maxQueryWords all', async (t) => {
  const budget = queryTypoBudget();
  const lookups = { del1: 1, del2: 1 };
  const first = affordableForms([longWord(maxTwoEdits, 1)], budget, lookups);
  t.ok(first[0]!.del1 && first[0]!.del2, 'the first long word gets both');
  const spent = maxQueryTerms - budget.terms;
  t.equal(spent, first[0]!.del1!.length + first[0]!.del2!.length, 'and pays for each form it looks up');
  // Leave less than the next word's two-edit forms cost, more than its one-edit forms.
  budget.terms = 100;
  const second = affordableForms([longWord(maxTwoEdits, 2)], budget, lookups);
  t.ok(second[0]!.del1 && !second[0]!.del2, 'a word the budget cannot pay in full keeps its one-edit forms');
  budget.terms = 5;
  t.same(affordableForms(['werkstatt'], budget, lookups), [{ exact: 'werkstatt' }], 'then only the exact word');
  t.same(affordableForms(['ab'], queryTypoBudget(), lookups), [{ exact: 'ab' }], 'a short word costs nothing');
  const words = queryTypoBudget();
  const typed = Array.from({ length: maxQueryWords + 3 }, (_, i) => affordableForms([`werkstatt${i}`], words, lookups)).filter(([f]) => f!.del1).length;
  t.equal(typed, maxQueryWords, `only the first ${maxQueryWords} words get typo forms`);
});

t.test('a document holds at most maxDocumentTerms typo forms, the name and the place first', async (t) => {
  const name = 'Hirzzöttl Steuerberatungsgesellschaft';
  const keywords = Array.from({ length: 50 }, (_, i) => `${longWord(30, i)} ${longWord(30, i + 50)} ${longWord(30, i + 100)}`.slice(0, 100));
  const doc = searchableWords({ name, categories: [{ id: 'office/tax_advisor', name: 'Steuerberater' }], keywords, place: 'Mönchengladbach' });
  const typoTerms = [doc.name_del1, doc.name_del2, doc.tags_del1, doc.place_del1, doc.place_del2].reduce((n, list) => n + list.length, 0);
  // Each field's one-edit list also holds its words, which cost nothing: the text bounds them.
  const words = doc.name_words.length + doc.tags_words.length + doc.place_words.length;
  t.ok(typoTerms <= maxDocumentTerms + words, `${typoTerms} typo terms for ${words} words`);
  t.ok(typoTerms > maxDocumentTerms / 2, 'the keywords did spend the budget');
  const alone = searchableWords({ name, categories: [], keywords: [], place: 'Mönchengladbach' });
  t.same(
    [doc.name_del1, doc.name_del2, doc.place_del1, doc.place_del2],
    [alone.name_del1, alone.name_del2, alone.place_del1, alone.place_del2],
    'fifty long keywords take nothing from the name and the place',
  );
  t.equal(matchOf({ words: doc.tags_words, del1: doc.tags_del1, del2: [] }, queryForms(doc.tags_words.at(-1)!)), 'exact', 'the last keyword is still found exactly');
});
