// radius, bbox and sort of the Solr mode (docs/partners/search.md): every failed check reported.
import t from 'tap';
import type { AppError } from '../../src/platform/errors.js';
import { parseListingSearch } from '../../src/search/search-params.js';

type Query = Parameters<typeof parseListingSearch>[0];
const details = (q: Query) => {
  try {
    parseListingSearch(q);
    return [];
  } catch (err) {
    return (err as AppError).details;
  }
};
const solr = (q: Query) => parseListingSearch({ solr: true, ...q });

t.test('radius goes with lat and lon', async (t) => {
  t.match(solr({ what: 'x', lat: 1, lon: 2, radius: 3.5 }), { centre: { lat: 1, lon: 2 }, radiusKm: 3.5 });
  t.notOk('radiusKm' in solr({ what: 'x', lat: 1, lon: 2 }), "the default (20 km) is the query builder's");
  t.same(details({ solr: true, what: 'x', radius: 3 }), ['radius: only with lat and lon']);
  t.same(details({ what: 'x', radius: 3 }), ['what: only with solr=true', 'radius: only with solr=true', 'query: give one filter: ids, phone, or street + place + postCode']);
});

t.test('bbox: four WGS84 numbers, min below max, not with lat/lon; alone it is a search', async (t) => {
  t.match(solr({ bbox: '13.3,52.4,13.5,52.6' }), { bbox: { minLon: 13.3, minLat: 52.4, maxLon: 13.5, maxLat: 52.6 } });
  t.match(solr({ bbox: ' -0.5 , -10 ,0.5, 10 ' }), { bbox: { minLon: -0.5, minLat: -10, maxLon: 0.5, maxLat: 10 } });
  const shape = 'bbox: must be minLon,minLat,maxLon,maxLat in degrees, e.g. 13.3,52.4,13.5,52.6';
  for (const bad of ['1,2,3', '1,2,3,4,5', 'a,b,c,d', '1,,3,4', '', '1,2,3,Infinity']) t.same(details({ solr: true, bbox: bad }), [shape], bad);
  t.same(details({ solr: true, bbox: '-181,0,10,1' }), ['bbox: longitudes must be between -180 and 180']);
  t.same(details({ solr: true, bbox: '0,-91,1,1' }), ['bbox: latitudes must be between -90 and 90']);
  t.same(details({ solr: true, bbox: '10,5,9,6' }), ['bbox: minLon must be less than maxLon']);
  t.same(details({ solr: true, bbox: '1,5,2,5' }), ['bbox: minLat must be less than maxLat']);
  t.same(details({ solr: true, bbox: '1,2,3,4', lat: 1, lon: 2 }), ['bbox: not with lat and lon; give one area']);
  t.same(details({ solr: true }), ['solr: give at least one of what, where, category, lat and lon, or bbox']);
});

t.test('sort: distance needs a centre', async (t) => {
  t.match(solr({ what: 'x', lat: 1, lon: 2, sort: 'distance' }), { sort: 'distance' });
  t.match(solr({ what: 'x', sort: 'relevance' }), { sort: 'relevance' });
  t.same(details({ solr: true, what: 'x', sort: 'distance' }), ['sort: distance needs lat and lon']);
  t.same(details({ solr: true, bbox: '1,2,3,4', sort: 'distance' }), ['sort: distance needs lat and lon']);
});
