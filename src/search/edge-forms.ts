// Type-ahead without prefix queries: the index stores the beginnings of each word (edge forms,
// what an edge_ngram filter would make, which the minimal distribution lacks), so that a typed
// prefix is one exact term look-up whatever the size of the index, never a walk of the term
// dictionary as a `prefix` or `wildcard` query would be (docs/search.md "Type-ahead").
// Bounded: beginnings of up to `maxPrefixLetters` letters; a longer prefix is looked up by its
// first `maxPrefixLetters` letters.
import { SEARCH_DEFAULTS } from './query/defaults.js';

const { maxPrefixLetters } = SEARCH_DEFAULTS.suggest;

/**
 * The beginnings of each word, from one letter up to `maxPrefixLetters` letters, the whole word
 * left out (it is among the words themselves, looked up beside them).
 */
export function edgeForms(words: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const word of words) {
    const letters = [...word];
    const longest = Math.min(letters.length - 1, maxPrefixLetters);
    for (let n = 1; n <= longest; n++) out.add(letters.slice(0, n).join(''));
  }
  return [...out];
}

/** The edge form a typed prefix is looked up as: itself, or its first `maxPrefixLetters` letters. */
export function edgeFormOf(prefix: string): string {
  const letters = [...prefix];
  return letters.length > maxPrefixLetters ? letters.slice(0, maxPrefixLetters).join('') : prefix;
}
