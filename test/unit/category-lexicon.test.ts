// Category names in `what`, in every language of the shipped taxonomy, typo-tolerant and as
// compound endings, turned into category ids at query time.
import t from 'tap';
import { categoryLexicon, createCategoryLexicon } from '../../src/categories/category-lexicon.js';
import { wordSpellings } from '../../src/search/words.js';

const lexicon = categoryLexicon();
const of = (word: string) => lexicon.matches(wordSpellings(word));

t.test('a category name in any language of the taxonomy names the category', async (t) => {
  for (const word of ['Friseur', 'Hairdresser', 'Parrucchiere', 'coiffure']) t.ok(of(word).exact.includes('shop/hairdresser'), word);
  t.ok(of('Bäckerei').exact.includes('shop/bakery'));
  t.ok(of('BAECKEREI').exact.includes('shop/bakery'), 'capitals and spelled-out umlauts');
});

t.test('one typo in a category word; a compound ending; never the same id twice', async (t) => {
  const typo = of('Frisuer');
  t.same(typo.exact, []);
  t.ok(typo.oneEdit.includes('shop/hairdresser'));
  const werkstatt = of('Werkstatt');
  t.ok(werkstatt.compound.includes('shop/car_repair'), 'Autowerkstatt ends with Werkstatt');
  const all = [...werkstatt.exact, ...werkstatt.oneEdit, ...werkstatt.compound];
  t.equal(new Set(all).size, all.length);
});

t.test('a category name in French or Italian matches whole, its prepositions too; single letters name nothing', async (t) => {
  t.ok(of('de').exact.includes('shop/hairdresser'), 'de of Salon de coiffure');
  t.ok(of('di').exact.length > 100, 'di of many Italian names');
  t.same(of('d'), { exact: [], oneEdit: [], compound: [] }, "the d of d'encre");
});

t.test('a lexicon of any taxonomy file', async (t) => {
  const small = createCategoryLexicon({ languages: { de: 'de' }, categories: [{ id: 'x/y', names: { de: 'Eiscafé', en: 'Ice Cream Parlour' } }] });
  t.same(small.matches(['cafe']), { exact: [], oneEdit: [], compound: ['x/y'] });
  t.same(small.matches(['parlour']).exact, ['x/y']);
  t.same(small.matches(['zzzz']), { exact: [], oneEdit: [], compound: [] });
});
