// Category names in `what`, in every language of the taxonomy ("Friseur", "Hairdresser",
// "Parrucchiere" all name shop/hairdresser): the query turns a word into the ids of the categories
// whose names hold it, and matches listings by `category_ids`. Looked up in memory, at query time:
// the taxonomy is a few hundred categories shipped with the service (data/categories.json), and
// indexing every language's names into every listing would grow the index for what one small map
// answers (docs/search.md "Category names").
import { compoundSuffixes, canEndCompound } from '../search/compounds.js';
import { indexedForms, queryForms, type QueryForms } from '../search/typo-variants.js';
import { isOptionalWord, wordSpellings, writtenWords } from '../search/words.js';
import { readTaxonomy, type TaxonomyFile } from './taxonomy-file.js';

/**
 * Prepositions of two letters count ("de" in "Salon de coiffure", "di" in "Negozio di fiori"): a
 * query that names a category in French or Italian holds them, and every word of a short query
 * must match something. Single letters (the "d" of "d'encre") do not: they would match nearly
 * every category (a long query may leave one word unmatched, docs/search.md).
 */
const MIN_LETTERS = 2;

/** The categories a query word names: by a whole word, one edit away, or as the ending of a compound. */
export interface CategoryMatches {
  exact: string[];
  oneEdit: string[];
  compound: string[];
}

type Index = Map<string, string[]>;

function add(index: Index, key: string, id: string) {
  const ids = index.get(key);
  if (!ids) index.set(key, [id]);
  else if (ids.at(-1) !== id) ids.push(id);
}

export function createCategoryLexicon(file: TaxonomyFile) {
  const exact: Index = new Map();
  const oneEdit: Index = new Map();
  const compound: Index = new Map();
  for (const { id, names } of file.categories) {
    const words = [...new Set(Object.values(names).flatMap((name) => writtenWords(name).flatMap(wordSpellings)))].filter((word) => [...word].length >= MIN_LETTERS && !isOptionalWord(word));
    const forms = indexedForms(words, { twoEdits: false });
    for (const word of forms.words) add(exact, word, id);
    for (const form of forms.del1) add(oneEdit, form, id);
    for (const ending of compoundSuffixes(words)) add(compound, ending, id);
  }

  return {
    /**
     * The categories the spellings of one written word name, each at its closest match, ids
     * sorted. `forms` are the spellings' typo forms, when the caller has them already.
     */
    matches(spellings: readonly string[], typoForms: readonly QueryForms[] = spellings.map((spelling) => queryForms(spelling))): CategoryMatches {
      const found = { exact: new Set<string>(), oneEdit: new Set<string>(), compound: new Set<string>() };
      for (const [i, spelling] of spellings.entries()) {
        const forms = typoForms[i]!;
        for (const id of exact.get(forms.exact) ?? []) found.exact.add(id);
        for (const form of forms.del1 ?? []) for (const id of oneEdit.get(form) ?? []) found.oneEdit.add(id);
        if (canEndCompound(spelling)) for (const id of compound.get(spelling) ?? []) found.compound.add(id);
      }
      const closest = (ids: Set<string>, ...closer: Set<string>[]) => [...ids].filter((id) => !closer.some((c) => c.has(id))).sort();
      return {
        exact: [...found.exact].sort(),
        oneEdit: closest(found.oneEdit, found.exact),
        compound: closest(found.compound, found.exact, found.oneEdit),
      };
    },
  };
}

export type CategoryLexicon = ReturnType<typeof createCategoryLexicon>;

let shipped: CategoryLexicon | undefined;

/** The lexicon of the shipped taxonomy, built on first use (a few milliseconds) and kept. */
export const categoryLexicon = (): CategoryLexicon => (shipped ??= createCategoryLexicon(readTaxonomy()));
