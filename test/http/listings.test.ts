import t from 'tap';
import { readFileSync } from 'node:fs';
import { build, listingInput } from '../helper.js';

const { app, partner, deps } = await build(t);
const owner = await partner();
const other = await partner();
const admin = await partner('admin');

async function create(auth = owner.auth, body: unknown = listingInput()) {
  return app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: body as object });
}

t.test('POST creates a listing with ids, url, contact and normalised hours, claimed by its creator', async (t) => {
  const res = await create();
  t.equal(res.statusCode, 201);
  const listing = res.json();
  t.match(listing.id, /^[1-9]\d*$/);
  t.match(listing.emails[0].id, /^\d+$/);
  t.match(listing.phones[0].id, /^\d+$/);
  t.match(listing.links[0].id, /^\d+$/);
  t.equal(listing.url, `${process.env.PUBLIC_WEB_BASE_URL ?? 'https://listings.example.com'}/de/${listing.id}`);
  t.equal(listing.country_code, 'de');
  t.same(listing.contact, { name: 'Anna', surname: 'Muster', title: '', gender: 'F' });
  t.same(Object.keys(listing.hours), ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
  t.same(listing.hours.monday, [
    { start: '08:00:00', end: '12:00:00' },
    { start: '13:00:00', end: '18:00:00' },
  ]);
  t.same(listing.categories, [{ id: 'shop/bakery', name: 'Bäckerei' }]);
  t.equal(listing.claimed, true);
  t.equal(listing.suppressed, false);
  t.equal(listing.active, true);
  t.notOk('images' in listing, 'the create response has no images');
});

t.test('GET returns the listing with images; unknown ids and other countries answer 404', async (t) => {
  const created = (await create()).json();
  const res = await app.inject({ url: `/de/listings/${created.id}`, headers: other.auth });
  t.equal(res.statusCode, 200);
  t.same(res.json().images, []);
  t.same({ ...res.json(), images: undefined }, { ...created, images: undefined });

  const missing = await app.inject({ url: '/de/listings/999999999', headers: owner.auth });
  t.equal(missing.statusCode, 404);
  t.same(missing.json(), { type: 'not_found', message: 'listing 999999999 not found', details: [] });
  t.equal((await app.inject({ url: `/at/listings/${created.id}`, headers: owner.auth })).statusCode, 404);
  // Ids are bigints: a well-formed id beyond any that exists is unknown, not malformed.
  const huge = await app.inject({ url: '/de/listings/9000000000000000000', headers: owner.auth });
  t.same([huge.statusCode, huge.json().message], [404, 'listing 9000000000000000000 not found']);
  t.equal((await app.inject({ url: `/de/listings/9000000000000000000/images/9000000000000000000`, method: 'DELETE', headers: owner.auth })).statusCode, 404);
  t.equal((await app.inject({ url: '/de/listings/12345678901234567890', headers: owner.auth })).statusCode, 400, 'twenty digits is no bigint');
  t.equal((await app.inject({ url: `/DE/listings/${created.id}`, headers: owner.auth })).statusCode, 200, 'country in any case');
});

t.test('the create response is the stored listing: every list in the order sent, as a GET reads it back', async (t) => {
  // The create builds its response from the rows its one statement inserted (no read back): its
  // lists must come out as the tables hold them, and the columns it left to their defaults too.
  const created = (
    await create(
      owner.auth,
      listingInput({
        emails: [{ address: 'b@example.com' }, { address: 'a@example.com' }, { address: 'c@example.com' }],
        phones: [
          { type: 'mobile', number: '+4915112345678' },
          { type: 'landline', number: '+493012345678' },
        ],
        links: [
          { type: 'website', url: 'https://example.com/z' },
          { type: 'facebook', url: 'https://facebook.com/a' },
        ],
        categories: [{ id: 'shop/bakery' }, { id: 'amenity/cafe' }],
        special_hours: [{ date: '2030-12-24', closed: false, intervals: [{ start: '08:00', end: '12:00' }] }],
        temporarily_closed: { until: null },
      }),
    )
  ).json();
  t.same(
    created.emails.map((e: { address: string }) => e.address),
    ['b@example.com', 'a@example.com', 'c@example.com'],
  );
  t.same(
    created.phones.map((p: { type: string }) => p.type),
    ['mobile', 'landline'],
  );
  t.same(
    created.links.map((l: { type: string }) => l.type),
    ['website', 'facebook'],
  );
  t.same(created.categories, [
    { id: 'shop/bakery', name: 'Bäckerei' },
    { id: 'amenity/cafe', name: 'Café' },
  ]);
  const read = (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json();
  t.strictSame({ ...read, images: undefined }, { ...created, images: undefined }, 'field for field, types included');
});

t.test('sorts intervals by start and accepts HH:MM:SS and an end of 24:00', async (t) => {
  const res = await create(
    owner.auth,
    listingInput({
      hours: {
        friday: [
          { start: '18:00:30', end: '24:00' },
          { start: '09:00', end: '12:00' },
        ],
      },
    }),
  );
  t.equal(res.statusCode, 201);
  t.same(res.json().hours.friday, [
    { start: '09:00:00', end: '12:00:00' },
    { start: '18:00:30', end: '24:00:00' },
  ]);
});

t.test('PUT replaces the listing, keeps sub-object ids sent back and accepts a read listing as body', async (t) => {
  const created = (await create()).json();
  const read = (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json();
  const echoed = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: read });
  t.equal(echoed.statusCode, 200, 'what GET returned can be PUT back');
  t.same(echoed.json().emails, read.emails);

  const res = await app.inject({
    method: 'PUT',
    url: `/de/listings/${created.id}`,
    headers: owner.auth,
    payload: listingInput({
      name: 'Neuer Name',
      emails: [{ id: created.emails[0].id, address: 'kept@example.com' }, { address: 'new@example.com' }],
      phones: [],
      active: false,
    }),
  });
  t.equal(res.statusCode, 200);
  const updated = res.json();
  t.equal(updated.name, 'Neuer Name');
  t.equal(updated.active, false);
  t.same(updated.phones, []);
  t.equal(updated.emails[0].id, created.emails[0].id, 'an email sent with its id keeps it');
  t.equal(updated.emails[0].address, 'kept@example.com');
  t.not(updated.emails[1].id, created.emails[0].id);
  t.same(updated.images, []);
});

t.test('PUT with a sub-object id of another listing is a validation error', async (t) => {
  const a = (await create()).json();
  const b = (await create()).json();
  const res = await app.inject({
    method: 'PUT',
    url: `/de/listings/${a.id}`,
    headers: owner.auth,
    payload: listingInput({ phones: [{ id: b.phones[0].id, type: 'fax', number: '+4930999' }] }),
  });
  t.equal(res.statusCode, 400);
  t.match(res.json().details, [/^phones\[0\]\.id: /]);
});

t.test('the update response is the stored listing, images included, as a GET reads it back', async (t) => {
  // The update builds its response from what its statement wrote and the images it left alone (no
  // read back after the commit).
  const created = (
    await create(
      owner.auth,
      listingInput({
        phones: [
          { type: 'mobile', number: '+4915112345678' },
          { type: 'landline', number: '+493012345678' },
        ],
      }),
    )
  ).json();
  const tinyPng = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
  const image = await app.inject({ method: 'POST', url: `/de/listings/${created.id}/images`, headers: owner.auth, payload: { type: 'photo', caption: 'front', base64: tinyPng } });
  t.equal(image.statusCode, 201);
  const res = await app.inject({
    method: 'PUT',
    url: `/de/listings/${created.id}`,
    headers: owner.auth,
    payload: listingInput({
      phones: [{ type: 'fax', number: '+493099999' }, created.phones[1]],
      links: [
        { type: 'website', url: 'https://example.com/z' },
        { type: 'facebook', url: 'https://facebook.com/a' },
      ],
      categories: [{ id: 'amenity/cafe' }, { id: 'shop/bakery' }],
      special_hours: [{ date: '2030-12-24', closed: true }],
    }),
  });
  t.equal(res.statusCode, 200);
  const updated = res.json();
  t.same(
    updated.phones.map((p: { type: string }) => p.type),
    ['fax', 'landline'],
    'in the order sent',
  );
  t.equal(updated.phones[1].id, created.phones[1].id, 'a phone sent with its id keeps it');
  t.same(updated.categories, [
    { id: 'amenity/cafe', name: 'Café' },
    { id: 'shop/bakery', name: 'Bäckerei' },
  ]);
  t.same(
    updated.images.map((i: { id: string; caption: string }) => [i.id, i.caption]),
    [[image.json().id, 'front']],
    'the images it had',
  );
  const read = (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json();
  t.strictSame(read, updated, 'field for field, types included');

  // A new name alone leaves every list's rows as they are: the update is one statement, and its
  // answer takes the lists and images the lock read.
  const renamed = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: { ...read, name: 'Umbenannt' } });
  t.equal(renamed.statusCode, 200);
  t.equal(renamed.json().version, read.version + 1);
  t.strictSame(renamed.json(), (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json(), 'a rename too answers as a GET reads it back');
  t.same(
    renamed.json().phones.map((p: { id: string }) => p.id),
    read.phones.map((p: { id: string }) => p.id),
    'its lists keep their ids',
  );
});

t.test('a refused PUT leaves the listing as it was, sub-objects included', async (t) => {
  // An update clears the sub-objects before it validates what needs the database (their ids, the
  // categories): a refusal must roll that back.
  const created = (await create()).json();
  const before = (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json();
  const res = await app.inject({
    method: 'PUT',
    url: `/de/listings/${created.id}`,
    headers: owner.auth,
    payload: listingInput({ name: 'Refused', phones: [{ id: '999999999', type: 'fax', number: '+4930999' }], categories: [{ id: 'no/such' }] }),
  });
  t.equal(res.statusCode, 400);
  t.match(res.json().details, [/^categories\[0\]\.id: unknown category/, /^phones\[0\]\.id: /], 'every error at once');
  t.strictSame((await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json(), before);
});

t.test('DELETE answers 204, then the listing is gone', async (t) => {
  const created = (await create()).json();
  const res = await app.inject({ method: 'DELETE', url: `/de/listings/${created.id}`, headers: owner.auth });
  t.equal(res.statusCode, 204);
  t.equal(res.body, '');
  t.equal((await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).statusCode, 404);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${created.id}`, headers: owner.auth })).statusCode, 404);
  t.equal((await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: listingInput() })).statusCode, 404);
});

t.test('another partner gets 403 on PUT and DELETE and changes nothing; an admin may', async (t) => {
  const created = (await create()).json();
  const before = (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json();
  const put = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: other.auth, payload: listingInput({ name: 'Hijacked' }) });
  t.equal(put.statusCode, 403);
  t.equal(put.json().type, 'forbidden');
  const del = await app.inject({ method: 'DELETE', url: `/de/listings/${created.id}`, headers: other.auth });
  t.equal(del.statusCode, 403);
  const after = (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json();
  t.same(after, before, 'nothing changed');

  const byAdmin = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: admin.auth, payload: listingInput({ name: 'Fixed by admin' }) });
  t.equal(byAdmin.statusCode, 200);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${created.id}`, headers: admin.auth })).statusCode, 204);
});

t.test('authentication failures answer 401 with an Error object', async (t) => {
  const revoked = await partner();
  await deps.partners.revoke(revoked.id);
  const cases: [string, Record<string, string>][] = [
    ['no header', {}],
    ['not Bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['unknown key', { authorization: 'Bearer lk_thisKeyDoesNotExistAnywhere000000000000' }],
    ['revoked key', revoked.auth],
  ];
  for (const [name, headers] of cases) {
    const res = await app.inject({ url: '/de/listings/1', headers });
    t.equal(res.statusCode, 401, name);
    t.equal(res.json().type, 'unauthorized', name);
    t.same(res.json().details, [], name);
  }
});

t.test('an unknown country answers 404', async (t) => {
  const res = await app.inject({ url: '/xx/listings/1', headers: owner.auth });
  t.equal(res.statusCode, 404);
  t.equal(res.json().type, 'not_found');
  t.match(res.json().message, /country "xx"/);
});

t.test('source_id is unique per partner', async (t) => {
  const sourceId = `src-${Date.now()}`;
  t.equal((await create(owner.auth, listingInput({ source_id: sourceId }))).statusCode, 201);
  const dup = await create(owner.auth, listingInput({ source_id: sourceId }));
  t.equal(dup.statusCode, 409);
  t.equal(dup.json().type, 'conflict');
  t.equal((await create(other.auth, listingInput({ source_id: sourceId }))).statusCode, 201, 'another partner may use the same source_id');
});

t.test('a create that loses a race for its source_id answers 409 naming the listing that won', async (t) => {
  // The create's check sees no mapping of the source_id, but a concurrent transaction is inserting
  // one: the create's own mapping insert waits on the key, then fails the whole statement. It must
  // answer as a create refused by the check does.
  const winner = (await create()).json();
  const sourceId = `race-${Date.now()}`;
  const rival = await deps.database.pool.connect();
  try {
    await rival.query('begin');
    await rival.query('insert into mappings (partner_id, source_id, listing_id, country) values ($1, $2, $3, $4)', [owner.id, sourceId, winner.id, 'de']);
    const loser = create(owner.auth, listingInput({ source_id: sourceId }));
    // Commit only once the create waits on the rival's key.
    for (let waited = 0; ; waited += 20) {
      const { rows } = await deps.database.pool.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%insert into "listings"%'`);
      if (rows.length) break;
      if (waited > 10_000) throw new Error('the create never waited on the mapping key');
      await new Promise((r) => setTimeout(r, 20));
    }
    await rival.query('commit');
    const answer = await loser;
    t.equal(answer.statusCode, 409);
    t.equal(answer.json().message, `source_id "${sourceId}" already maps to listing ${winner.id}`);
  } finally {
    rival.release();
  }
});

t.test('a refused create writes nothing: no listing, no change in the feed, no index event, no mapping', async (t) => {
  // A create is one statement that commits on its own (insertCreatedListing): a refusal must leave
  // no row behind, in particular no `created` change that partners would read in the feed.
  const lone = await partner();
  const sourceId = `refused-${Date.now()}`;
  t.equal((await create(lone.auth, listingInput({ source_id: sourceId }))).statusCode, 201);
  const unknownCategory = await create(lone.auth, listingInput({ categories: [{ id: 'shop/bakery' }, { id: 'shop/nonexistent' }] }));
  t.equal(unknownCategory.statusCode, 400);
  t.match(unknownCategory.json().details, ['categories[1].id: unknown category "shop/nonexistent"']);
  const takenSourceId = await create(lone.auth, listingInput({ source_id: sourceId }));
  t.equal(takenSourceId.statusCode, 409);
  t.match(takenSourceId.json().message, new RegExp(`^source_id "${sourceId}" already maps to listing \\d+$`));
  const {
    rows: [written],
  } = await deps.database.pool.query(
    `select (select count(*) from listings where created_by = $1)::int as listings,
       (select count(*) from listing_changes c join listings l on l.id = c.listing_id where l.created_by = $1)::int as changes,
       (select count(*) from outbox o join listings l on l.id = o.listing_id where l.created_by = $1)::int as events,
       (select count(*) from mappings where partner_id = $1)::int as mappings`,
    [lone.id],
  );
  t.same(written, { listings: 1, changes: 1, events: 1, mappings: 1 }, 'only the accepted create wrote');
});

t.test('a create stores what was left out as SQL NULL, and every sub-object on the rows of its own listing', async (t) => {
  // The create is a prepared statement (src/db/prepared-statement.ts): a null there must not become
  // JSON null in a jsonb column, and each listing's arrays must reach its own rows, run after run.
  const { contact: _contact, ...withoutContact } = listingInput();
  const bareResponse = await create(owner.auth, withoutContact);
  const fullResponse = await create(owner.auth, listingInput({ emails: [{ address: 'a@example.com' }, { address: 'b@example.com' }] }));
  t.equal(bareResponse.statusCode, 201);
  t.equal(fullResponse.statusCode, 201);
  const [bare, full] = [bareResponse.json(), fullResponse.json()];
  const { rows } = await deps.database.pool.query(
    `select id, contact is null as no_contact, temporarily_closed is null as not_closed,
       (select array_agg(address order by position) from listing_emails where listing_id = l.id) as emails
     from listings l where id = any($1::bigint[]) order by id`,
    [[bare.id, full.id]],
  );
  t.same(
    rows.map((r) => [String(r.id), r.no_contact, r.not_closed]),
    [
      [bare.id, true, true],
      [full.id, false, true],
    ],
  );
  t.same(rows[1].emails, ['a@example.com', 'b@example.com']);
  t.same(
    full.emails.map((e: { address: string }) => e.address),
    ['a@example.com', 'b@example.com'],
  );
});

t.test('framework errors are Error objects', async (t) => {
  const unknownRoute = await app.inject({ url: '/de/nothing-here', headers: owner.auth });
  t.equal(unknownRoute.statusCode, 404);
  t.same(Object.keys(unknownRoute.json()).sort(), ['details', 'message', 'type']);

  const badJson = await app.inject({ method: 'POST', url: '/de/listings', headers: { ...owner.auth, 'content-type': 'application/json' }, payload: '{"name": ' });
  t.equal(badJson.statusCode, 400);
  t.equal(badJson.json().type, 'validation');

  const wrongType = await app.inject({ method: 'POST', url: '/de/listings', headers: { ...owner.auth, 'content-type': 'text/plain' }, payload: 'hello' });
  t.equal(wrongType.statusCode, 415);
  t.equal(wrongType.json().type, 'unsupported_media_type');

  const tooLarge = await app.inject({
    method: 'POST',
    url: '/de/listings',
    headers: { ...owner.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'x'.repeat(9 * 1024 * 1024) }),
  });
  t.equal(tooLarge.statusCode, 413);
  t.equal(tooLarge.json().type, 'payload_too_large');

  const badId = await app.inject({ url: '/de/listings/abc', headers: owner.auth });
  t.equal(badId.statusCode, 400);
  t.same(badId.json().details, ['id: must be a listing id (decimal digits)']);
});
