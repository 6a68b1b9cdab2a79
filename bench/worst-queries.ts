// The most expensive Solr-mode and match requests the typo bounds allow (src/search/query/defaults.ts
// `typos`; docs/search.md "Bounds"), and how to measure what a query body costs: its terms and bytes.
// Pure and deterministic: the unit and HTTP tests assert on them, bench/typo-bounds.ts times them
// beside an ordinary search.
import { SEARCH_DEFAULTS } from '../src/search/query/defaults.js';
import { buildSolrQuery } from '../src/search/query/solr-query.js';

/** `what` and `where` may each be this long (src/schemas/search.ts). */
export const MAX_TEXT = 200;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Steps through the alphabet that visit every letter before one repeats (prime to 26). */
const STEPS = [1, 3, 5, 7, 9, 11, 15, 17, 19, 21, 23, 25];

/**
 * A word of `n` letters that starts with an umlaut: two spellings ("ü…" folds to "u…", is spelled
 * out "ue…"). No letter follows itself, so its deletions are all distinct; seeds below 312 give
 * distinct words.
 */
export function longWord(n: number, seed: number): string {
  const step = STEPS[Math.floor(seed / 26) % STEPS.length]!;
  let word = 'ü';
  for (let i = 1; i < n; i++) word += LETTERS[(seed + i * step) % 26];
  return word;
}

/** Words joined by spaces, as many as fit in `MAX_TEXT` characters. */
function fill(words: (i: number) => string): string {
  let text = '';
  for (let i = 0; ; i++) {
    const next = text ? `${text} ${words(i)}` : words(i);
    if (next.length > MAX_TEXT) return text;
    text = next;
  }
}

const { maxTwoEdits, minOneEdit, maxOneEdit } = SEARCH_DEFAULTS.typos;

/** The Solr-mode body of a query whose `what` and `where` are both `text`. */
const solrBody = (text: string) => buildSolrQuery({ kind: 'solr', limit: 50, offset: 0, what: text, where: text });

/** For every word length that has typo forms (and two past the longest), a text of such words. */
const byLength = Array.from({ length: maxOneEdit + 3 - minOneEdit }, (_, i) => fill((seed) => longWord(minOneEdit + i, seed)));
/** The text of `byLength` whose body measures most: which length that is follows from the bounds. */
const heaviest = (measure: (body: object) => number) => byLength.map((text) => ({ text, size: measure(solrBody(text)) })).reduce((a, b) => (b.size > a.size ? b : a)).text;

/**
 * Candidates for the worst text of `what` and `where`, each as long as allowed: words of the
 * length whose typo forms make the most terms, and of the one whose forms make the most bytes
 * (two-edit forms grow with the square of a word's length, and fewer long words fit); one word of
 * 200 letters (it cost 26 × an ordinary search before the bounds); one-letter words (the most words,
 * each an exact clause); and the longest typo words followed by one-letter ones (the typo budget
 * spent, then the most exact clauses).
 */
export const WORST_TEXTS: Record<string, string> = {
  'words of the length with the most terms': heaviest(countTerms),
  'words of the length with the most bytes': heaviest((body) => JSON.stringify(body).length),
  'one 200-letter word': longWord(MAX_TEXT, 1),
  'one-letter words': fill((i) => 'äöü'[i % 3]!),
  'long words, then one-letter words': fill((i) => (i < 2 ? longWord(maxTwoEdits + 2, i) : 'äöü'[i % 3]!)),
};

/** An ordinary search of the relevance set: a name with a typo and a place (bench/relevance-queries.ts). */
export const ORDINARY = { what: 'Fahradladen Gschinnwallner', where: 'München' };

/** Terms a query body looks up: one per `term` clause, one per value of a `terms` clause. */
export function countTerms(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, item) => n + countTerms(item), 0);
  if (!node || typeof node !== 'object') return 0;
  let n = 0;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'term') n += 1;
    else if (key === 'terms') n += Object.values(value as Record<string, unknown>).reduce((m: number, list) => m + (Array.isArray(list) ? list.length : 0), 0);
    else n += countTerms(value);
  }
  return n;
}

/**
 * The most terms a Solr-mode body may hold: the typo budget, plus at most five exact look-ups per
 * character of `what` and `where`. The exact look-ups are not charged to the budget, as the text's
 * length bounds them: each word's spellings in the name, the tags and the place, its compound
 * joins with its neighbours, its category ids, and, from four words on, each word's clause stated
 * twice (every word may match, one may be missing: docs/search.md "One search box").
 */
export const MAX_SOLR_TERMS = SEARCH_DEFAULTS.typos.maxQueryTerms + MAX_TEXT * 5;

/** The largest body the worst query allowed may have, in bytes: about 25 ordinary searches. */
export const MAX_SOLR_BODY_BYTES = 192 * 1024;
