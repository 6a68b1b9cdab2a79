// Compound words without a decompounder: the minimal OpenSearch distribution has none (no
// analysis-common), so the service writes the forms a compound is found by itself, at index and
// query time, as it does the typo forms (docs/search.md "Compound words"). A German compound ends
// with its head ("Auto|werkstatt"), and people type it whole, split, or by its head alone:
// - a query word that ends a name word after a few letters matches it: `name_suffixes` holds the
//   endings of every name word ("werkstatt" of "autowerkstatt");
// - two adjacent query words whose concatenation is a name word match it: the query joins them
//   and looks the result up among the name's words;
// - one query word that is two adjacent name words joined matches them: `name_joined` holds the
//   joined pairs ("autowerkstatt" of "Auto Werkstatt").
// No dictionary decides where a compound splits: any ending of at least `minPart` letters after at
// least `minHead` letters counts, so a few endings are not words ("erkstatt"); a query word meets
// them only by being that ending, and such a match ranks below a whole word.
import { SEARCH_DEFAULTS } from './query/defaults.js';
import { wordSpellings } from './words.js';

const { minPart, minHead } = SEARCH_DEFAULTS.compounds;

/** The endings of each word a query word may be: at least `minPart` letters, after at least `minHead`. */
export function compoundSuffixes(words: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const word of words) {
    const letters = [...word];
    for (let start = minHead; letters.length - start >= minPart; start++) out.add(letters.slice(start).join(''));
  }
  return [...out];
}

/** Whether a query word is long enough to be looked up as the ending of a compound. */
export const canEndCompound = (spelling: string) => [...spelling].length >= minPart;

/**
 * Every adjacent pair of written words joined into one, under its spellings (what `name_joined`
 * holds: "Auto Werkstatt" → "autowerkstatt"). Joined before folding, as a query typing the compound
 * whole is folded: German2 reads across the seam ("Auto" + "Ecke" folds as "autecke").
 */
export function joinedPairs(written: readonly string[]): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 1 < written.length; i++) for (const spelling of wordSpellings(written[i]! + written[i + 1]!)) out.add(spelling);
  return [...out];
}
