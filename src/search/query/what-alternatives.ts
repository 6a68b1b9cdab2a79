// What a word of `what` may match besides the name's words, typos included, and the tags
// (solr-query.ts): a category name in any language of the taxonomy, and the parts or the whole of
// a compound word (docs/search.md "Category names", "Compound words"). Each is a filter with the
// constant score the word earns by it; the Solr query puts them beside the word's other matches.
import { categoryLexicon } from '../../categories/category-lexicon.js';
import { canEndCompound } from '../compounds.js';
import { internalField } from '../internal-fields.js';
import type { QueryForms } from '../typo-variants.js';
import { SEARCH_DEFAULTS } from './defaults.js';

type Clause = Record<string, unknown>;

/** A filter and the score a word earns by matching it. */
export interface WeightedMatch {
  filter: Clause;
  weight: number;
}

const { weights, maxStrictWords } = SEARCH_DEFAULTS;

/** The listings of the categories whose name holds the word (by its spellings and their typo forms), in any language of the taxonomy. */
export function categoryMatches(spellings: readonly string[], forms: readonly QueryForms[]): WeightedMatch[] {
  const found = categoryLexicon().matches(spellings, forms);
  return (
    [
      ['exact', weights.category.exact],
      ['oneEdit', weights.category.oneEdit],
      ['compound', weights.category.compound],
    ] as const
  )
    .filter(([kind]) => found[kind].length)
    .map(([kind, weight]) => ({ filter: { terms: { category_ids: found[kind] } }, weight }));
}

/** The query words before and after word `i` joined with it, in reading order. */
function joinsWithNeighbours(words: readonly (readonly string[])[], i: number): string[] {
  const joins = new Set<string>();
  const join = (first: readonly string[], second: readonly string[]) => {
    // Joined spelling by spelling. German2 may read across the seam ("auto" + "ecke" is not how
    // "Autoecke" folds), but the spelled-out spellings, which the index holds too, join exactly.
    for (const a of first) for (const b of second) joins.add(`${a}${b}`);
  };
  if (i > 0) join(words[i - 1]!, words[i]!);
  if (i + 1 < words.length) join(words[i]!, words[i + 1]!);
  return [...joins];
}

/**
 * Word `i` of the required words (each given by its spellings) as a part or the whole of a
 * compound: the ending of a name word, one half of a name word it makes with a neighbour, or two
 * adjacent name words joined.
 */
export function compoundMatches(words: readonly (readonly string[])[], i: number): WeightedMatch[] {
  const spellings = words[i]!;
  // A word shorter than a compound's part cannot be one, nor two such parts joined.
  const long = spellings.filter(canEndCompound);
  const joins = joinsWithNeighbours(words, i);
  return [
    ...(long.length ? [{ filter: { terms: { [internalField('name_suffixes')]: long } }, weight: weights.compound.suffix }] : []),
    ...(joins.length ? [{ filter: { terms: { [internalField('name_words')]: joins } }, weight: weights.compound.split }] : []),
    ...(long.length ? [{ filter: { terms: { [internalField('name_joined')]: long } }, weight: weights.compound.joined }] : []),
  ];
}

/**
 * Every word must match, up to `maxStrictWords` words; from one more on, one may be missing (a
 * word the listing does not carry anywhere, in a long query). Scores add up either way, and a
 * listing that matches every word earns `everyWord` per word more: otherwise a listing whose
 * name holds the words of a category name but not the surname typed after it would outrank the
 * listing of that category with that surname (a name word counts more than a category's).
 */
export function everyWordMatches(wordClauses: Clause[]): Clause[] {
  if (wordClauses.length <= maxStrictWords) return wordClauses;
  return [
    {
      bool: {
        must: [{ bool: { should: wordClauses, minimum_should_match: wordClauses.length - 1 } }],
        should: [{ constant_score: { filter: { bool: { filter: wordClauses } }, boost: weights.everyWord * wordClauses.length } }],
      },
    },
  ];
}
