// Reads a GET /:country/suggest request (docs/partners/search.md): the text typed so far, split into
// the words before the last, matched as `what` words are, and the last word, a prefix.
import { validationError } from '../platform/errors.js';
import type { SuggestQuery } from '../schemas/suggest.js';
import { SEARCH_DEFAULTS } from './query/defaults.js';
import { requiredSpellings } from './query/solr-query.js';
import { wordSpellings, writtenWords } from './words.js';

export interface SuggestRequest {
  /** The required words before the last one, each by its spellings (as `what` requires them). */
  before: string[][];
  /** The spellings of the last word, a prefix of a word. */
  last: string[];
  centre?: { lat: number; lon: number };
  limit: number;
}

export function parseSuggest(query: SuggestQuery): SuggestRequest {
  const errors: string[] = [];
  if ((query.lat === undefined) !== (query.lon === undefined)) errors.push('lat, lon: give both or neither');
  const written = writtenWords(query.q);
  const last = written.length ? wordSpellings(written.at(-1)!) : [];
  if (last.length === 0) errors.push('q: must contain a letter or digit');
  if (errors.length) throw validationError(errors);
  return {
    before: requiredSpellings(written.slice(0, -1).join(' ')),
    last,
    ...(query.lat !== undefined ? { centre: { lat: query.lat, lon: query.lon! } } : {}),
    limit: query.limit ?? SEARCH_DEFAULTS.suggest.limit,
  };
}
