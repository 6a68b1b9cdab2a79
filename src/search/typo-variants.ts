// Typo tolerance without fuzzy queries: a deletion neighbourhood (the SymSpell idea). The index
// stores, for each word, the strings left after deleting one letter (and two, for long words);
// a query word looks up its own deletions among them. Two words within one edit of each other
// (a letter replaced, added, dropped or two letters swapped, at ANY position, the first one
// included) always share such a string, so a typo becomes a handful of exact term look-ups
// instead of a walk of the term dictionary (docs/search.md explains the choice and its figures).
import { SEARCH_DEFAULTS } from './query/defaults.js';

const { minOneEdit, minTwoEdits, maxOneEdit, maxTwoEdits, maxQueryWords, maxQueryTerms, maxDocumentTerms } = SEARCH_DEFAULTS.typos;

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

/**
 * What a query or a document may still spend on typo forms (SEARCH_DEFAULTS.typos): its words
 * take from it in order, and a word it cannot pay for in full gets fewer forms (without its
 * two-edit ones, then none: matched exactly). Exact words cost nothing: the text's length bounds them.
 */
export interface TypoBudget {
  /** Typo terms left, each counted once per field it is looked up in or stored in. */
  terms: number;
  /** Words that may still get typo forms. */
  words: number;
}

export const queryTypoBudget = (): TypoBudget => ({ terms: maxQueryTerms, words: maxQueryWords });
export const documentTypoBudget = (): TypoBudget => ({ terms: maxDocumentTerms, words: Infinity });

/**
 * `twoEdits: false` for fields whose words need one edit at most (categories and keywords).
 * `budget`, shared by a document's fields, bounds the typo forms they hold together.
 */
export function indexedForms(words: readonly string[], { twoEdits = true, budget }: { twoEdits?: boolean; budget?: TypoBudget } = {}): IndexedForms {
  const unique = [...new Set(words)];
  const del1 = new Set<string>(unique);
  const del2 = new Set<string>();
  for (const word of unique) {
    const n = length(word);
    if (n < minOneEdit || n > maxOneEdit) continue;
    let long = twoEdits && n >= minTwoEdits && n <= maxTwoEdits;
    const { one, two } = deletions(word, long ? 2 : 1);
    if (budget) {
      const oneCost = one.length;
      const longCost = oneCost + 1 + one.length + two.length;
      if (long && longCost > budget.terms) long = false;
      const cost = long ? longCost : oneCost;
      if (cost > budget.terms) continue;
      budget.terms -= cost;
    }
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

/** `twoEdits: false` leaves out the two-edit forms (a budget that cannot pay for them). */
export function queryForms(word: string, { twoEdits: allowTwo = true } = {}): QueryForms {
  const n = length(word);
  // Two letters or fewer: exact only. Three: only a dropped letter (the indexed word has four),
  // since the two-letter strings a replaced letter needs are legal forms and initials ("ag", "kg").
  if (n < minOneEdit) return n === minOneEdit - 1 ? { exact: word, del1: [word] } : { exact: word };
  // One letter longer than the longest indexed word with typo forms can still be one edit from it
  // (a letter added), two letters longer two edits (two added); beyond, no indexed form can meet it.
  if (n > maxOneEdit + 1) return { exact: word };
  // A word two letters shorter than a long indexed word can still be two edits away from it.
  const twoEdits = allowTwo && n >= minTwoEdits - 2 && n <= maxTwoEdits + 2;
  const { one, two } = deletions(word, twoEdits && n >= minTwoEdits ? 2 : 1);
  const forms: QueryForms = { exact: word, del1: [word, ...one] };
  if (twoEdits) forms.del2 = [word, ...one, ...two];
  return forms;
}

/** How many fields a word's `del1` and `del2` lists are each looked up in. */
export interface Lookups {
  del1: number;
  del2: number;
}

/**
 * The query forms of one written word, given by its spellings, that `budget` can pay for, and
 * pays: all of them, or without two-edit forms, or the exact words alone. A spent budget skips
 * cutting the word at all: the words past it cost the query nothing but their exact look-ups.
 */
export function affordableForms(spellings: string[], budget: TypoBudget, lookups: Lookups): QueryForms[] {
  const exactOnly = () => spellings.map((exact) => ({ exact }));
  if (budget.words <= 0 || budget.terms <= 0) return exactOnly();
  // Two-edit forms are cut only when the budget covers as many as a word of its length can have:
  // cutting them to learn that they do not fit was most of what a query at the bounds cost.
  const most = spellings.reduce((sum, spelling) => {
    const n = length(spelling);
    return sum + (n + 1) * lookups.del1 + (1 + n + (n * (n - 1)) / 2) * lookups.del2;
  }, 0);
  const all = spellings.map((spelling) => queryForms(spelling, { twoEdits: most <= budget.terms }));
  const cost = (forms: QueryForms[]) => forms.reduce((n, f) => n + (f.del1?.length ?? 0) * lookups.del1 + (f.del2?.length ?? 0) * lookups.del2, 0);
  const full = cost(all);
  if (full === 0) return all;
  const oneEdit = all.map(({ del2: _, ...rest }) => rest);
  const chosen = full <= budget.terms ? all : cost(oneEdit) <= budget.terms ? oneEdit : undefined;
  if (!chosen) return exactOnly();
  budget.terms -= cost(chosen);
  budget.words -= 1;
  return chosen;
}
