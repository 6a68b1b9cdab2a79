// Compound words and type-ahead forms, written by the service itself (no decompounder or
// edge_ngram in the minimal distribution): what the index stores and what a query looks up must meet.
import t from 'tap';
import fc from 'fast-check';
import { canEndCompound, compoundSuffixes, joinedPairs } from '../../src/search/compounds.js';
import { edgeFormOf, edgeForms } from '../../src/search/edge-forms.js';
import { SEARCH_DEFAULTS } from '../../src/search/query/defaults.js';
import { wordSpellings } from '../../src/search/words.js';

const { maxPrefixLetters } = SEARCH_DEFAULTS.suggest;

t.test('a name word is found by each ending of 4+ letters after 3+ letters', async (t) => {
  t.same(compoundSuffixes(['autowerkstatt']).sort(), ['erkstatt', 'kstatt', 'owerkstatt', 'rkstatt', 'statt', 'tatt', 'werkstatt'].sort());
  t.ok(compoundSuffixes(['eiscafe']).includes('cafe'), 'Eiscafé: a three-letter head');
  t.same(compoundSuffixes(['huber']), [], 'no head of three letters before a four-letter ending');
  t.same(compoundSuffixes(['backerei', 'backerei']), ['kerei', 'erei'], 'each ending once');
  t.ok(canEndCompound('cafe') && !canEndCompound('bar'), 'a query word of 3 letters is no compound part');
});

t.test('adjacent written words are stored joined, under both spellings', async (t) => {
  t.same(joinedPairs(['Auto', 'Werkstatt', 'Huber']), ['autowerkstatt', 'werkstatthuber']);
  t.same(joinedPairs(['Bäcker', 'Stube']), ['backerstube', 'baeckerstube']);
  t.same(joinedPairs(['Solo']), []);
});

// A split query joins the spellings of its two words; the name word is stored under the spellings
// of the whole compound. German2 folding reads across the seam ("Auto" + "Ecke"), so this checks
// that some joined spelling is always a stored one, for words with umlauts and e-seams.
t.test('two query words always meet the compound they make, whatever the seam', async () => {
  const part = fc.array(fc.constantFrom(...'aeouäöüßnrst'.split('')), { minLength: 1, maxLength: 6 }).map((l) => l.join(''));
  fc.assert(
    fc.property(part, part, (a, b) => {
      const stored = new Set(wordSpellings(`${a}${b}`));
      const joins = wordSpellings(a).flatMap((x) => wordSpellings(b).map((y) => `${x}${y}`));
      return joins.some((j) => stored.has(j));
    }),
    { numRuns: 2000 },
  );
});

t.test('edge forms: the beginnings of each word up to the bound, the word itself left out', async (t) => {
  t.same(edgeForms(['cafe']), ['c', 'ca', 'caf']);
  t.same(edgeForms(['cafe', 'cave']), ['c', 'ca', 'caf', 'cav'], 'each beginning once');
  const long = 'gschinnwallnerhof';
  const forms = edgeForms([long]);
  t.equal(forms.length, maxPrefixLetters, `beginnings of 1 to ${maxPrefixLetters} letters`);
  t.equal(forms.at(-1), long.slice(0, maxPrefixLetters));
});

t.test('a typed prefix is looked up as itself, or cut to the bound; always among the stored forms of a word it begins', async (t) => {
  t.equal(edgeFormOf('gschinn'), 'gschinn');
  t.equal(edgeFormOf('gschinnwallnerh'), 'gschinnwalln');
  const word = fc.array(fc.constantFrom(...'abcdefghij'.split('')), { minLength: 2, maxLength: 20 }).map((l) => l.join(''));
  fc.assert(
    fc.property(word, fc.nat(), (w, n) => {
      const prefix = w.slice(0, 1 + (n % (w.length - 1))); // a proper beginning
      return edgeForms([w]).includes(edgeFormOf(prefix));
    }),
  );
});
