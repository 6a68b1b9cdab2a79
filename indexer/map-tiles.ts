// Map tile keys of a location (docs/analytics.md, "A map without geo-grid aggregations"). The
// minimal distribution has no geotile_grid aggregation, so each document carries the keys `z/x/y`
// of the Web Mercator tiles (the slippy-map scheme every web map uses) that hold its location at a
// few zooms, and a terms aggregation over them counts listings per tile.

/** Zooms whose tiles a document names: a country at 4 to 6, a city at 10 to 12, streets at 14. */
export const TILE_ZOOMS = [4, 6, 8, 10, 12, 14] as const;

/** Web Mercator ends here; points nearer the poles fall in its first or last row of tiles. */
const MAX_LATITUDE = 85.0511287798066;

/** The column and row of the tile that holds the point at `zoom`. */
export function tileOf(latitude: number, longitude: number, zoom: number): { x: number; y: number } {
  const n = 2 ** zoom;
  const lat = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, latitude)) * Math.PI) / 180;
  const x = Math.floor(((longitude + 180) / 360) * n);
  const y = Math.floor(((1 - Math.asinh(Math.tan(lat)) / Math.PI) / 2) * n);
  // Longitude 180 and the clamped poles sit on the far edge: the last tile holds them.
  const clamp = (v: number) => Math.max(0, Math.min(n - 1, v));
  return { x: clamp(x), y: clamp(y) };
}

/** The keys `z/x/y` of the tiles that hold the point, one per zoom of TILE_ZOOMS. */
export function tileKeys(latitude: number, longitude: number): string[] {
  return TILE_ZOOMS.map((zoom) => {
    const { x, y } = tileOf(latitude, longitude, zoom);
    return `${zoom}/${x}/${y}`;
  });
}
