// Every tunable of the search queries in one place (pelias/api's search_defaults pattern).
export const SEARCH_DEFAULTS = {
  limit: 50,
  maxLimit: 50,
  maxOffset: 10_000,
  maxIds: 50,
  /** Solr mode: listings within this radius of lat/lon (listings-api.md). */
  radiusKm: 20,
  /** `_distboost_ = 1 + weight × decay^(distance / scaleKm)`: 2.0 at the centre, 1.5 at 5 km, ~1.06 at 20 km. */
  distance: { scaleKm: 5, decay: 0.5, weight: 1 },
  /** Typo tolerance: AUTO = 0 edits up to 2 characters, 1 up to 5, 2 from 6; the first letter must match. */
  fuzzy: { fuzziness: 'AUTO', prefixLength: 1, maxExpansions: 50 },
  /** Fields `what` matches, with their weights: names count more than categories and keywords. */
  whatFields: ['name_fold^3', 'categories_fold^2', 'keywords_fold'],
  /** Extra weight of exact (non-fuzzy) matches, so they rank above fuzzy ones. */
  boosts: { exactName: 4, namePhrase: 2, allTermsExact: 2 },
  /** Wildcard patterns are bounded so that no query can exhaust OpenSearch. */
  wildcard: { maxLength: 100, maxStars: 5 },
} as const;
