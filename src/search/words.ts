// The words of a text as the search sees them, on both sides: the index document and the query
// are split by this one function after `fold`, so "Hirzzöttl & Partner", "HIRZZOETTL + partner"
// and "hirzzottl partner" are the same two words. Punctuation (`&`, `-`, `/`, `.`, `+`, `·`) is
// no word at all: it can never be a term that fails to match.
import { fold, foldSpelledOut } from './fold.js';

const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Folded words of `text`, in order, punctuation dropped. */
export function searchWords(text: string): string[] {
  return fold(text).split(NON_WORD).filter(Boolean);
}

/** The words of `text` as written (case and umlauts kept), punctuation dropped. */
export const writtenWords = (text: string) => text.split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean);

/**
 * The spellings one written word is indexed and looked up under: folded (German2: "mueller" and
 * "müller" meet as "muller") and spelled out ("mueller"), one of them when both agree.
 */
export function wordSpellings(written: string): string[] {
  return [...new Set([fold(written), foldSpelledOut(written)].flatMap((w) => w.split(NON_WORD)).filter(Boolean))];
}

/**
 * Words a query does not require: connectors ("Müller und Söhne" for "Müller & Söhne": one name
 * writes `&` where another writes "und") and the words of legal forms ("GmbH & Co. KG", "e.K."),
 * which people drop or add, and which half the listings carry: required, they would make every
 * "… GmbH" a candidate. The whole-name and phrase bonuses still reward them.
 */
const OPTIONAL_WORDS = new Set(['und', 'and', 'et', 'e', 'u', 'y', 'gmbh', 'mbh', 'co', 'kg', 'ag', 'ohg', 'gbr', 'ug', 'k', 'ek', 'ev', 'v', 'kgaa', 'se', 'haftungsbeschrankt', 'inh']);
export const isOptionalWord = (word: string) => OPTIONAL_WORDS.has(word);

/**
 * The key of a whole name: its words joined by one space. Two names with the same key cannot be
 * told apart by a query ("Müller GmbH & Co. KG" and "mueller gmbh co kg").
 */
export const nameKey = (text: string) => keyOfWords(searchWords(text));

/** The name key of words already split by searchWords. */
export const keyOfWords = (words: readonly string[]) => words.join(' ');

/**
 * Hyphenated and slashed compounds also as one word ("Auto-Service" → "autoservice"), so that a
 * query that writes them together still finds them.
 */
export function joinedCompounds(text: string): string[] {
  return fold(text)
    .split(/\s+/)
    .filter((part) => /[-/]/.test(part))
    .map((part) => part.split(NON_WORD).filter(Boolean).join(''))
    .filter((joined) => joined.length > 0);
}
