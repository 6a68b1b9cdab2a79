// A listing's `region`, its country's first-level subdivision (docs/analytics.md): the region of the
// nearest place of the country in data/regions.json (scripts/generate-regions.ts), or, without
// coordinates, the region of the place of that name. Pure once the data is loaded; the indexer
// loads it once, at its first document.
import { readFileSync } from 'node:fs';
import { projectPath } from '../src/platform/project-paths.js';
import { fold } from '../src/search/fold.js';

/** One country's part of data/regions.json. */
export interface CountryRegionData {
  regions: string[];
  /** Latitude and longitude in hundredths of a degree, and the index of the place's region. */
  places: [number, number, number][];
  /** Folded place name → index of its region (the most populous place of that name). */
  names: Record<string, number>;
}

/** A place farther than this from every place of the data set has no region (open sea, the wrong country). */
const MAX_DISTANCE_DEGREES = 0.5;
/** The grid the places are filed in, in hundredths of a degree: about 20 km. */
const CELL = 20;

const cellKey = (row: number, column: number) => `${row}:${column}`;

/** The lookup of one country: places filed by grid cell, so a lookup reads a few cells, not thousands of places. */
export function createRegionLookup(data: CountryRegionData) {
  const cells = new Map<string, [number, number, number][]>();
  for (const place of data.places) {
    const key = cellKey(Math.floor(place[0] / CELL), Math.floor(place[1] / CELL));
    const filed = cells.get(key);
    if (filed) filed.push(place);
    else cells.set(key, [place]);
  }

  /** The region of the place nearest to the point, or null when none is within MAX_DISTANCE_DEGREES. */
  function nearest(latitude: number, longitude: number): string | null {
    const lat = latitude * 100;
    const lon = longitude * 100;
    // Degrees of longitude shrink towards the poles: distances are measured on a local plane.
    const squeeze = Math.cos((latitude * Math.PI) / 180);
    const row = Math.floor(lat / CELL);
    const column = Math.floor(lon / CELL);
    // Enough rings to reach MAX_DISTANCE_DEGREES east and west too, where a cell is narrowest.
    const maxRings = Math.ceil((MAX_DISTANCE_DEGREES * 100) / (CELL * squeeze)) + 1;
    let best = -1;
    let bestDistance = Infinity;
    for (let ring = 0; ring <= maxRings; ring++) {
      for (let r = row - ring; r <= row + ring; r++) {
        for (let c = column - ring; c <= column + ring; c++) {
          if (Math.max(Math.abs(r - row), Math.abs(c - column)) !== ring) continue; // the ring's border only
          for (const [pLat, pLon, region] of cells.get(cellKey(r, c)) ?? []) {
            const distance = (pLat - lat) ** 2 + ((pLon - lon) * squeeze) ** 2;
            if (distance < bestDistance) {
              bestDistance = distance;
              best = region;
            }
          }
        }
      }
      // Every place beyond this ring is at least `ring` cells away (east or west, where a cell is
      // narrowest): once the best place is nearer than that, no farther ring can win.
      if (best >= 0 && Math.sqrt(bestDistance) <= ring * CELL * squeeze) break;
    }
    return best >= 0 && Math.sqrt(bestDistance) <= MAX_DISTANCE_DEGREES * 100 ? data.regions[best]! : null;
  }

  return {
    /** From the coordinates when there are some, else from the place's name; null when neither says. */
    regionOf(listing: { latitude: number | null; longitude: number | null; place: string }): string | null {
      if (listing.latitude !== null && listing.longitude !== null) return nearest(listing.latitude, listing.longitude);
      const region = data.names[fold(listing.place)];
      return region === undefined ? null : data.regions[region]!;
    },
  };
}

export type RegionLookup = ReturnType<typeof createRegionLookup>;

let loaded: Map<string, RegionLookup> | undefined;

/** The region of a listing of `country`; null for a country the data set leaves out (docs/analytics.md). */
export function regionOf(country: string, listing: { latitude: number | null; longitude: number | null; place: string }): string | null {
  if (!loaded) {
    const file = JSON.parse(readFileSync(projectPath('data', 'regions.json'), 'utf8')) as { countries: Record<string, CountryRegionData> };
    loaded = new Map(Object.entries(file.countries).map(([cc, data]) => [cc, createRegionLookup(data)]));
  }
  return loaded.get(country)?.regionOf(listing) ?? null;
}
