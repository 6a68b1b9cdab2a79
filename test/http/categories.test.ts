import t from 'tap';
import { build, listingInput } from '../helper.js';

const { app, partner } = await build(t);
const { auth } = await partner();
const get = (query: string, headers: Record<string, string> = {}) => app.inject({ url: `/de/categories${query}`, headers: { ...auth, ...headers } });
const names = (res: { json(): { categories: { name: string }[] } }) => res.json().categories.map((c) => c.name);

t.test('without a name: every category of the country, sorted by name', async (t) => {
  const res = await get('');
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.ok(body.numFound > 300, `${body.numFound} categories`);
  t.equal(body.categories.length, body.numFound);
  const folded = body.categories.map((c: { name: string }) => c.name.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, ''));
  t.same(
    folded,
    [...folded].sort((x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)).map((x: string) => x),
    'sorted by name',
  );
  t.ok(
    body.categories.some((c: { id: string; name: string }) => c.id === 'shop/bakery' && c.name === 'Bäckerei'),
    'German names for de',
  );
});

t.test('name matches whole, case- and accent-insensitive; * works at the start, middle and end', async (t) => {
  t.same(names(await get('?name=B%C3%A4ckerei')), ['Bäckerei']);
  t.same(names(await get('?name=backerei')), ['Bäckerei'], 'accent-insensitive');
  t.same(names(await get('?name=BÄCKEREI'.replace('Ä', '%C3%84'))), ['Bäckerei'], 'case-insensitive');
  t.same(names(await get('?name=B%C3%A4cker')), [], 'whole name without *');
  t.ok(names(await get('?name=B%C3%A4cker*')).every((n: string) => n.startsWith('Bäcker')));
  t.ok(names(await get('?name=*restaurant')).every((n: string) => n.toLowerCase().endsWith('restaurant')));
  t.ok(names(await get('?name=*restaurant')).includes('Italienisches Restaurant'));
  t.ok(names(await get('?name=Italien*Restaurant')).includes('Italienisches Restaurant'), 'wildcard in the middle');
  t.ok(names(await get('?name=*cker*')).includes('Bäckerei'), 'both ends');
  t.same((await get('?name=zzzznothing*')).json(), { numFound: 0, categories: [] });
});

t.test('other countries have their own names (French for fr when enabled, German for at)', async (t) => {
  const res = await app.inject({ url: '/at/categories?name=B%C3%A4ckerei', headers: auth });
  t.same(names(res), ['Bäckerei']);
});

t.test('ETag, Cache-Control and 304 on If-None-Match', async (t) => {
  const first = await get('?name=*cker*');
  t.equal(first.headers['cache-control'], 'public, max-age=3600');
  const etag = first.headers.etag as string;
  t.match(etag, /^"[\w-]+"$/);
  const again = await get('?name=*cker*', { 'if-none-match': etag });
  t.equal(again.statusCode, 304);
  t.equal(again.body, '');
  t.equal((await get('?name=*cker*', { 'if-none-match': `"other", W/${etag}` })).statusCode, 304, 'weak and listed validators');
  t.equal((await get('?name=*cker', { 'if-none-match': etag })).statusCode, 200, 'another result has another ETag');
});

t.test('GET /:country/listings/:id/categories', async (t) => {
  const created = await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput({ categories: [{ id: 'amenity/cafe' }, { id: 'shop/bakery' }] }) });
  const res = await app.inject({ url: `/de/listings/${created.json().id}/categories`, headers: auth });
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    numFound: 2,
    categories: [
      { id: 'amenity/cafe', name: 'Café' },
      { id: 'shop/bakery', name: 'Bäckerei' },
    ],
  });
  t.equal((await app.inject({ url: '/de/listings/999999999/categories', headers: auth })).statusCode, 404);
});
