// Every tunable of the search queries in one place (pelias/api's search_defaults pattern).
export const SEARCH_DEFAULTS = {
  limit: 50,
  maxLimit: 50,
  maxOffset: 10_000,
  maxIds: 50,
  /** open_at answers instants this many days before or after now (docs/contract.md §18). */
  openAtWindowDays: 366,
  /** Solr mode: listings within this radius of lat/lon (docs/listings-api.md). */
  radiusKm: 20,
  /** `_distboost_ = 1 + weight × decay^(distance / scaleKm)`: 2.0 at the centre, 1.5 at 5 km, ~1.06 at 20 km. */
  distance: { scaleKm: 5, decay: 0.5, weight: 1 },
  /**
   * Typo tolerance, at any position of a word (src/search/typo-variants.ts): one edit from words
   * of `minOneEdit` letters (three-letter words: a dropped letter only), two edits in words of
   * `minTwoEdits` letters or more. The bounds hold for queries (search and match) and index
   * documents alike, so that no request costs more than a small multiple of an ordinary one
   * (docs/search.md "Bounds"): a word's two-edit forms grow with the square of its length, so
   * only words of up to `maxTwoEdits` letters have them (the longest joined compounds of the
   * seeded names have 39), and words of up to `maxOneEdit` one-edit forms;
   * longer words match exactly. A query looks up at most `maxQueryTerms` typo terms (counted
   * once per field they are looked up in) for at most `maxQueryWords` words, in the order the
   * words come (`what`, then `where`); a document holds at most `maxDocumentTerms` (name, place,
   * then categories and keywords). A word past either bound is matched with fewer forms: without
   * its two-edit ones, then exactly. The largest query of the relevance set looks up about 1 200.
   */
  typos: {
    minOneEdit: 4,
    minTwoEdits: 8,
    maxTwoEdits: 40,
    maxOneEdit: 60,
    maxQueryWords: 12,
    maxQueryTerms: 3000,
    maxDocumentTerms: 6000,
  },
  /**
   * What a query word earns, by where it matched and how closely (constant scores, so that
   * every matching listing costs the same to score). Names count more than categories and
   * keywords (`tags`); an exact word more than a typo. The place (`where`) only orders
   * listings of equal text by how well their place matched.
   */
  weights: {
    name: { exact: 10, oneEdit: 6, twoEdits: 3 },
    tags: { exact: 5, oneEdit: 3 },
    place: { exact: 2, oneEdit: 1.2, twoEdits: 0.6 },
    /** The whole name typed as it is (same words, same order): such a listing comes first. */
    wholeName: 30,
    /** The query's words in the name's order. */
    namePhrase: 5,
    /** An optional word of the query (a legal form, a connector) that the name has too. */
    optionalWord: 2,
    /** A name of as many words as the query: "Lotus" before "Lotus Café" for `what=Lotos`. */
    sameWordCount: 3,
    /**
     * One search box (docs/search.md "One search box"): a word of `what` found in the place (up to
     * one edit away) or the post code instead.
     */
    placeInWhat: { exact: 2, oneEdit: 1.2 },
    /** The rest of the query typed as the whole name, the word at either end being its place or post code. */
    nameAndPlace: 15,
    /** Per word of a long query (one word may be missing, `maxStrictWords`), when none is. */
    everyWord: 5,
    /** A word of a category name in any language of the taxonomy (src/categories/category-lexicon.ts). */
    category: { exact: 5, oneEdit: 3, compound: 3 },
    /**
     * Compound words (src/search/compounds.ts): a query word that ends a name word, two query words
     * that make one name word, one query word that makes two adjacent name words. Below an exact
     * word (10), above a category (5).
     */
    compound: { suffix: 5, split: 7, joined: 7 },
  },
  /**
   * Compound words: a query word of `minPart` letters or more matches a name word that ends with
   * it after at least `minHead` other letters ("werkstatt" in "autowerkstatt", "cafe" in "eiscafe").
   */
  compounds: { minPart: 4, minHead: 3 },
  /** Every word of `what` must match up to this many words; from one more on, one may be missing. */
  maxStrictWords: 3,
  /** `radius` of the Solr mode, in km (docs/partners/search.md). */
  radius: { minKm: 0.1, maxKm: 100 },
  /**
   * Type-ahead (GET /:country/suggest). The index stores the prefixes of every name word up to
   * `maxPrefixLetters` letters (edge forms, src/search/edge-forms.ts); a longer last word is looked
   * up by its first `maxPrefixLetters` letters, and ranked above the rest when it is a whole word.
   */
  suggest: { limit: 5, maxLimit: 10, maxPrefixLetters: 12, weights: { word: 3, leadingPrefix: 2, prefix: 1 } },
  /** Fields a quoted phrase of `what` matches as written (folded). */
  phraseFields: ['internal.name_fold^3', 'internal.categories_fold^2', 'internal.keywords_fold'],
  /** Wildcard patterns are bounded so that no query can exhaust OpenSearch. */
  wildcard: { maxLength: 100, maxStars: 5 },
} as const;
