// Typo tolerance without fuzzy queries: a deletion neighbourhood (the SymSpell idea). The index
// stores, for each word, the strings left after deleting one letter (and two, for long words);
// a query word looks up its own deletions among them. Two words within one edit of each other
// (a letter replaced, added, dropped or two letters swapped, at ANY position, the first one
// included) always share such a string, so a typo becomes a handful of exact term look-ups
// instead of a walk of the term dictionary (docs/search.md explains the choice and its figures).
import { SEARCH_DEFAULTS } from './query/defaults.js';

const { minOneEdit, minTwoEdits } = SEARCH_DEFAULTS.typos;

/** A UTF-16 surrogate: half of a character outside the Basic Multilingual Plane. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** The distinct strings left after deleting one character (code point) of a word with surrogates. */
function deleteOneChar(words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const word of words) {
    const chars = [...word];
    for (let i = 0; i < chars.length; i++) out.add(chars.slice(0, i).join('') + chars.slice(i + 1).join(''));
  }
  return out;
}

/**
 * Deletion variants of a word at distance 1 and 2 (empty where the length does not allow them).
 * A query's words are cut here on every Solr search, so a word without surrogates (nearly all) is
 * cut as a string, each pair of positions once: deleting again from every one-letter deletion
 * made each two-letter deletion twice.
 */
export function deletions(word: string, depth: 1 | 2): { one: string[]; two: string[] } {
  if (SURROGATE.test(word)) {
    const one = deleteOneChar([word]);
    return { one: [...one], two: depth === 2 ? [...deleteOneChar(one)] : [] };
  }
  const one = new Set<string>();
  const two = new Set<string>();
  for (let i = 0; i < word.length; i++) {
    const head = word.slice(0, i);
    one.add(head + word.slice(i + 1));
    if (depth === 2) for (let j = i + 1; j < word.length; j++) two.add(head + word.slice(i + 1, j) + word.slice(j + 1));
  }
  return { one: [...one], two: [...two] };
}

/** Length in characters (code points): a surrogate pair is one letter. */
const length = (word: string) => (SURROGATE.test(word) ? [...word].length : word.length);

/**
 * The forms the index stores for the words of one field. Each typo field holds everything a query
 * word may meet at that distance, so that a query looks up one list in one field per distance.
 */
export interface IndexedForms {
  /** The words themselves: exact matches. */
  words: string[];
  /** The words and, for words of `minOneEdit` letters or more, each with one letter deleted. */
  del1: string[];
  /** Words of `minTwoEdits` letters or more, with none, one and two letters deleted. */
  del2: string[];
}

/** `twoEdits: false` for fields whose words need one edit at most (categories and keywords). */
export function indexedForms(words: readonly string[], { twoEdits = true } = {}): IndexedForms {
  const unique = [...new Set(words)];
  const del1 = new Set<string>(unique);
  const del2 = new Set<string>();
  for (const word of unique) {
    const n = length(word);
    if (n < minOneEdit) continue;
    const long = twoEdits && n >= minTwoEdits;
    const { one, two } = deletions(word, long ? 2 : 1);
    for (const v of one) del1.add(v);
    if (long) for (const v of [word, ...one, ...two]) del2.add(v);
  }
  return { words: unique, del1: [...del1], del2: [...del2] };
}

/**
 * What one query word looks up: the word itself in `words`; for one edit, the word and its
 * one-letter deletions in `del1`; for two edits, the word and its deletions up to two letters in
 * `del2` (which holds long words only). Two words within one edit always share a string of those
 * lists: a replaced or swapped letter deleted on both sides, an added letter deleted from the
 * query, a dropped one from the indexed word; within two edits, twice that.
 */
export interface QueryForms {
  exact: string;
  del1?: string[];
  del2?: string[];
}

export function queryForms(word: string): QueryForms {
  const n = length(word);
  // Two letters or fewer: exact only. Three: only a dropped letter (the indexed word has four),
  // since the two-letter strings a replaced letter needs are legal forms and initials ("ag", "kg").
  if (n < minOneEdit) return n === minOneEdit - 1 ? { exact: word, del1: [word] } : { exact: word };
  const { one, two } = deletions(word, n >= minTwoEdits ? 2 : 1);
  const forms: QueryForms = { exact: word, del1: [word, ...one] };
  // A word two letters shorter than a long indexed word can still be two edits away from it.
  if (n >= minTwoEdits - 2) forms.del2 = [word, ...one, ...two];
  return forms;
}
