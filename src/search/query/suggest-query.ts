// The two OpenSearch bodies of a type-ahead request (GET /:country/suggest): categories whose
// name matches, and listings whose name does. The words before the last match as `what` words do;
// the last word is a prefix, looked up among the edge forms the index stores (src/search/edge-forms.ts):
// term look-ups only, so the cost does not grow with the index as a prefix query's would.
import { edgeFormOf } from '../edge-forms.js';
import { internalField } from '../internal-fields.js';
import type { SuggestRequest } from '../suggest-params.js';
import { queryForms } from '../typo-variants.js';
import { SEARCH_DEFAULTS } from './defaults.js';
import { geoSort, ranked, scored, SOLR_RESULT_FIELD, whatWordClauses } from './solr-query.js';
import { everyWordMatches } from './what-alternatives.js';

type Clause = Record<string, unknown>;

const { weights } = SEARCH_DEFAULTS.suggest;

/**
 * The last word as a prefix: the whole word itself (ranked first), or the beginning of a word,
 * `leading` of the first word (ranked above a later word's) where the index has such a field.
 */
function lastWord(spellings: readonly string[], fields: { words: string; prefixes: string; leading?: string }): Clause {
  return {
    dis_max: {
      queries: spellings.flatMap((spelling) => {
        const edge = edgeFormOf(spelling);
        return [
          scored({ term: { [fields.words]: spelling } }, weights.word),
          ...(fields.leading ? [scored({ term: { [fields.leading]: edge } }, weights.leadingPrefix)] : []),
          scored({ term: { [fields.prefixes]: edge } }, weights.prefix),
        ];
      }),
    },
  };
}

/** Listings whose name matches, never inactive or suppressed ones; nearer first with a centre. */
export function buildListingSuggestQuery(request: SuggestRequest) {
  const must = [...everyWordMatches(whatWordClauses(request.before)), lastWord(request.last, { words: internalField('name_words'), prefixes: internalField('name_prefixes') })];
  const filter = [{ term: { active: true } }, { term: { suppressed: false } }];
  return {
    // score × boost × _distboost_, as the Solr mode ranks: among equal matches the nearer first.
    query: ranked(request, { bool: { must, filter } }),
    sort: request.centre ? ['_score', geoSort(request.centre), { lid: 'asc' }] : ['_score', { lid: 'asc' }],
    size: request.limit,
    track_total_hits: false,
    _source: false,
    stored_fields: ['_none_'],
    docvalue_fields: [SOLR_RESULT_FIELD],
  };
}

/** A word before the last in a category name: the word itself, or one edit away. */
function categoryWord(spellings: readonly string[]): Clause {
  return {
    dis_max: {
      queries: spellings
        .map((spelling) => queryForms(spelling))
        .flatMap((forms) => [
          scored({ term: { [internalField('name_words')]: forms.exact } }, weights.word),
          ...(forms.del1 ? [scored({ terms: { [internalField('name_del1')]: forms.del1 } }, weights.prefix)] : []),
        ]),
    },
  };
}

/** Categories of the country whose name matches: the name's beginning first, then shorter names. */
export function buildCategorySuggestQuery(country: string, request: SuggestRequest) {
  const must = [...request.before.map(categoryWord), lastWord(request.last, { words: internalField('name_words'), prefixes: internalField('name_prefixes'), leading: internalField('lead_prefixes') })];
  return {
    query: { bool: { must, filter: [{ term: { cc: country } }] } },
    // unmapped_type: an index built before these fields existed answers nothing rather than an error.
    sort: ['_score', { [internalField('name_length')]: { order: 'asc', unmapped_type: 'integer' } }, { [internalField('name_fold')]: 'asc' }, { id: 'asc' }],
    size: request.limit,
    track_total_hits: false,
    _source: ['id', 'name'],
  };
}

/**
 * Both searches as one `_msearch` body (newline-delimited JSON): categories first, then listings,
 * answered in one round trip.
 */
export function suggestSearchesBody(country: string, request: SuggestRequest, indices: { categories: string; listings: string }): string {
  return `${[{ index: indices.categories }, buildCategorySuggestQuery(country, request), { index: indices.listings }, buildListingSuggestQuery(request)]
    .map((line) => JSON.stringify(line))
    .join('\n')}\n`;
}
