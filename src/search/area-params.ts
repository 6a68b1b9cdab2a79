// The area and the order of a Solr-mode search (docs/partners/search.md): a radius around lat/lon or a
// bounding box, and `sort`. Checks that span parameters; each failed one is reported.
import type { ListingSearchQuery } from '../schemas/search.js';

/** WGS84 degrees, west to east and south to north. */
export interface BoundingBox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

export type SolrSort = 'relevance' | 'distance';

export interface SolrArea {
  /** Only with a centre: the radius around it, in km (20 without). */
  radiusKm?: number;
  /** Instead of a centre: only listings inside this box. */
  bbox?: BoundingBox;
  sort?: SolrSort;
}

const BBOX_SHAPE = 'bbox: must be minLon,minLat,maxLon,maxLat in degrees, e.g. 13.3,52.4,13.5,52.6';

/** The box of `minLon,minLat,maxLon,maxLat`, or undefined with the reasons in `errors`. */
export function parseBoundingBox(value: string, errors: string[]): BoundingBox | undefined {
  const parts = value.split(',').map((part) => part.trim());
  // Number('') is 0: an empty part is no coordinate.
  const numbers = parts.map((part) => (part === '' ? NaN : Number(part)));
  if (numbers.length !== 4 || !numbers.every(Number.isFinite)) {
    errors.push(BBOX_SHAPE);
    return undefined;
  }
  const [minLon, minLat, maxLon, maxLat] = numbers as [number, number, number, number];
  const before = errors.length;
  if ([minLon, maxLon].some((lon) => lon < -180 || lon > 180)) errors.push('bbox: longitudes must be between -180 and 180');
  if ([minLat, maxLat].some((lat) => lat < -90 || lat > 90)) errors.push('bbox: latitudes must be between -90 and 90');
  if (!(minLon < maxLon)) errors.push('bbox: minLon must be less than maxLon');
  if (!(minLat < maxLat)) errors.push('bbox: minLat must be less than maxLat');
  return errors.length === before ? { minLon, minLat, maxLon, maxLat } : undefined;
}

/** `radius`, `bbox` and `sort` of a Solr-mode query; failed checks go to `errors`. */
export function solrArea(query: ListingSearchQuery, errors: string[]): SolrArea {
  const centre = query.lat !== undefined || query.lon !== undefined;
  const area: SolrArea = {};
  if (query.radius !== undefined) {
    if (centre) area.radiusKm = query.radius;
    else errors.push('radius: only with lat and lon');
  }
  if (query.bbox !== undefined) {
    if (centre) errors.push('bbox: not with lat and lon; give one area');
    const bbox = parseBoundingBox(query.bbox, errors);
    if (bbox) area.bbox = bbox;
  }
  if (query.sort !== undefined) {
    if (query.sort === 'distance' && !centre) errors.push('sort: distance needs lat and lon');
    area.sort = query.sort;
  }
  return area;
}
