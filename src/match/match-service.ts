// POST /:country/listings/match: one candidate search in OpenSearch, the model over its hits, the
// best five above the floor. The model reads the hits' `_source` (the stored Listing), not
// PostgreSQL: the index already holds every field the model compares, and a second round trip
// would cost more than loading 25 filtered sources (docs/partners/match.md).
import type { Logger } from 'pino';
import { AppError } from '../platform/errors.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import { searchThroughPool } from '../opensearch/pool-request.js';
import type { IndexNames } from '../opensearch/index-definitions.js';
import type { MatchCandidateResult, MatchRequest, MatchResponse } from '../schemas/match.js';
import { MATCH_DEFAULTS } from './match-defaults.js';
import { parseMatchRequest } from './match-params.js';
import { buildMatchQuery } from './match-query.js';
import { matchScore } from './match-score.js';
import { matchSignals, type MatchCandidate } from './match-signals.js';

export interface MatchHitSource {
  lid: number;
  listing: {
    name: string;
    address: string;
    zip: string;
    place: string;
    latitude: number | null;
    longitude: number | null;
    phones?: { number: string }[];
    links?: { type: string; url: string }[];
  };
}

export function candidateOf(source: MatchHitSource): MatchCandidate {
  const { listing } = source;
  return {
    id: String(source.lid),
    name: listing.name,
    address: listing.address,
    zip: listing.zip,
    place: listing.place,
    latitude: listing.latitude ?? null,
    longitude: listing.longitude ?? null,
    phones: (listing.phones ?? []).map((p) => p.number),
    websites: (listing.links ?? []).filter((l) => l.type === 'website').map((l) => l.url),
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Scores the candidates and keeps the best `maxCandidates` at or above `minScore`, best first, ties by id. */
export function rankCandidates(probe: Parameters<typeof matchSignals>[0], candidates: MatchCandidate[], country: string): MatchCandidateResult[] {
  return candidates
    .map((candidate) => {
      const signals = matchSignals(probe, candidate, country);
      const score = round(matchScore(signals), 2);
      const km = signals.distance_km === null ? null : round(signals.distance_km, 3);
      return {
        id: candidate.id,
        score,
        name: candidate.name,
        address: candidate.address,
        zip: candidate.zip,
        place: candidate.place,
        ...(km !== null ? { distance_km: km } : {}),
        signals: {
          name: round(signals.name, 2),
          address: signals.address === null ? null : round(signals.address, 2),
          phone: signals.phone,
          website: signals.website,
          distance_km: km,
        },
      };
    })
    .filter((c) => c.score >= MATCH_DEFAULTS.minScore)
    .sort((a, b) => b.score - a.score || Number(a.id) - Number(b.id))
    .slice(0, MATCH_DEFAULTS.maxCandidates);
}

export function createMatchService({ opensearch, names, logger }: { opensearch: OpenSearchClient; names: IndexNames; logger: Logger }) {
  return {
    async match(country: string, request: MatchRequest): Promise<MatchResponse> {
      const { search, probe } = parseMatchRequest(request, country);
      const result = await searchThroughPool<{ took: number; timed_out: boolean; hits: { hits: { _source: MatchHitSource }[] } }>(opensearch, {
        index: names.listingsAlias(country),
        body: JSON.stringify(buildMatchQuery(search)),
      });
      logger.debug({ search: 'match', country, took: result.took, hits: result.hits.hits.length }, 'opensearch search');
      if (result.timed_out) throw new AppError('unavailable', 'the search timed out; retry');
      return {
        candidates: rankCandidates(
          probe,
          result.hits.hits.map((hit) => candidateOf(hit._source)),
          country,
        ),
      };
    },
  };
}

export type MatchService = ReturnType<typeof createMatchService>;
