// Every weight and threshold of POST /:country/listings/match in one place (docs/partners/match.md
// explains the model; `npm run bench:match` measures what they give).
export const MATCH_DEFAULTS = {
  /** Candidates read from OpenSearch, scored here, then cut to `maxCandidates`. */
  candidatePool: 25,
  maxCandidates: 5,
  /** Candidates scored below this are not shown. */
  minScore: 0.3,
  /** Coordinates: listings within this radius earn the geo clause of the candidate search. */
  nearbyKm: 3,
  /**
   * What each clause of the candidate search earns (constant scores, as the Solr mode's): they
   * only decide which listings get scored, not the score itself.
   */
  recall: {
    name: { exact: 10, oneEdit: 6, twoEdits: 3 },
    place: { exact: 2, oneEdit: 1.2, twoEdits: 0.6 },
    phone: 20,
    zip: 4,
    street: 6,
    nearby: 8,
  },
  /** Name words: a token pair below this similarity counts as no match at all. */
  tokenMinSimilarity: 0.7,
  /** Parts of the address and what each counts towards `signals.address` (renormalised over those present). */
  addressParts: { street: 0.6, number: 0.15, zip: 0.15, place: 0.1 },
  /**
   * The logistic model: score = 1 / (1 + e^-(bias + Σ contributions)). A signal that cannot be
   * judged contributes nothing (it is no evidence either way).
   */
  model: {
    bias: -1.5,
    /** name similarity s contributes weight × (s − neutral): +1.8 for an identical name. */
    name: { weight: 6, neutral: 0.7 },
    /** address similarity a contributes weight × coverage × (a − neutral); coverage = share of the address parts judged. */
    address: { weight: 6, neutral: 0.6 },
    phone: { same: 4, different: -1 },
    website: { same: 3, different: -0.5 },
    /**
     * Distance in km → contribution, linear between the points, flat beyond the last: the same
     * door within 200 m (geocoders disagree by that much), a branch of a chain 500 m on is
     * neutral, one 2 km away strong evidence against.
     */
    distance: [
      [0, 1.5],
      [0.2, 1.5],
      [0.5, 0.3],
      [1, -1.5],
      [2, -4],
      [5, -6],
    ] as [number, number][],
  },
  /**
   * A match is the same business: a candidate whose name is less similar than `below` scores at
   * most `maxScore`, whatever else agrees (a neighbour in the same building, a renamed number).
   */
  nameGate: { below: 0.75, maxScore: 0.79 },
} as const;
