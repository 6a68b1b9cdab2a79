// Turns a user's match value into a term or a wildcard query on a folded keyword field. Only `*`
// is a wildcard in our API: OpenSearch's own `?` and `\` are escaped, and patterns are bounded.
import { fold } from '../fold.js';
import { SEARCH_DEFAULTS } from './defaults.js';

export type MatchValue = { term: string } | { wildcard: string };

/** Returns the folded match, or an error text for an unbounded pattern. */
export function parseMatchValue(value: string): MatchValue | { error: string } {
  const { maxLength, maxStars } = SEARCH_DEFAULTS.wildcard;
  if (value.length > maxLength) return { error: `must be at most ${maxLength} characters` };
  const collapsed = value.replace(/\*{2,}/g, '*');
  const stars = collapsed.split('*').length - 1;
  if (stars > maxStars) return { error: `may hold at most ${maxStars} wildcards (*)` };
  const parts = collapsed.split('*').map((part) => fold(part));
  if (stars === 0) return { term: parts[0]! };
  return { wildcard: parts.map((part) => part.replace(/[\\?]/g, (c) => `\\${c}`)).join('*') };
}

export function matchClause(field: string, value: MatchValue): Record<string, unknown> {
  return 'term' in value ? { term: { [field]: value.term } } : { wildcard: { [field]: { value: value.wildcard } } };
}
