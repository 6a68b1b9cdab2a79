// The pure rules of edits and history (docs/contract.md §20, §21): what a write changes, the merge
// patch, the entity tags, and the history rebuilt from what each version changed.
import t from 'tap';
import { ifMatchOf, listingEtag, matchesEtag, versionPrecondition } from '../../src/http/entity-tags.js';
import { changedFields, changesNothing, sameItems, touchedFields, keptLists } from '../../src/listings/listing-diff.js';
import { authorOf, HIDDEN, historyEntry, listingsAtVersions, type HistoryRow } from '../../src/listings/listing-history.js';
import { applyMergePatch, mergeListingPatch, patchedListing, putBodyOf, restoredListing } from '../../src/listings/listing-put-body.js';
import { toPreview, type ContentView, type Listing } from '../../src/listings/listing-view.js';
import { AppError } from '../../src/platform/errors.js';

const week = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };

const listing: Listing = {
  id: '7',
  name: 'Bäckerei Test',
  address: 'Hauptstraße 1',
  zip: '10115',
  place: 'Berlin',
  country_code: 'de',
  latitude: 52.5,
  longitude: 13.4,
  keywords: ['Brot'],
  description: 'Frisch',
  emails: [{ id: '11', address: 'a@example.com' }],
  phones: [{ id: '12', type: 'landline', number: '+493012345678' }],
  url: 'https://listings.example.com/de/7',
  hours: { ...week, monday: [{ start: '08:00:00', end: '12:00:00' }], tuesday: [{ start: '08:00:00', end: '12:00:00' }] },
  special_hours: [],
  temporarily_closed: null,
  time_zone: 'Europe/Berlin',
  images: [],
  links: [{ id: '13', type: 'website', url: 'https://example.com' }],
  categories: [{ id: 'shop/bakery', name: 'Bäckerei' }],
  active: true,
  contact: { name: 'Anna', surname: 'Muster', title: '', gender: 'F' },
  claimed: true,
  suppressed: false,
  version: 3,
};

/** The content a write of `listing` itself would store, items sent without ids. */
function sentAsStored(overrides: Partial<ContentView> = {}): ContentView {
  const { id: _i, url: _u, images: _m, claimed: _c, suppressed: _s, version: _v, country_code: _cc, ...content } = listing;
  const withoutId = <T extends { id: string }>(items: T[]) => items.map(({ id: _id, ...item }) => item);
  return {
    ...content,
    emails: withoutId(listing.emails),
    phones: withoutId(listing.phones),
    links: withoutId(listing.links),
    categories: listing.categories.map(({ id }) => ({ id })),
    ...overrides,
  };
}

t.test('a write of the stored content changes nothing, whether or not it sends the sub-object ids', async (t) => {
  t.ok(changesNothing(listing, sentAsStored()));
  t.ok(changesNothing(listing, sentAsStored({ emails: [{ id: '11', address: 'a@example.com' }] })));
  t.notOk(changesNothing(listing, sentAsStored({ name: 'Bäckerei Neu' })));
  t.notOk(changesNothing(listing, sentAsStored({ emails: [{ id: '99', address: 'a@example.com' }] })), 'another id is a change');
  t.notOk(changesNothing(listing, sentAsStored({ categories: [{ id: 'amenity/cafe' }] })));
  t.notOk(changesNothing(listing, sentAsStored({ hours: { ...listing.hours, monday: [] } })));
  t.notOk(changesNothing(listing, sentAsStored({ contact: null })));
});

t.test('lists: the same items in the same order match; an order or an item changed does not', async (t) => {
  const stored = [
    { id: '1', address: 'a@x.de' },
    { id: '2', address: 'b@x.de' },
  ];
  t.ok(sameItems(stored, [{ address: 'a@x.de' }, { address: 'b@x.de' }]));
  t.notOk(sameItems(stored, [{ address: 'b@x.de' }, { address: 'a@x.de' }]));
  t.notOk(sameItems(stored, [{ address: 'a@x.de' }]));
  t.same([...keptLists(listing, sentAsStored({ phones: [] }))], ['emails', 'links', 'categories']);
  t.same([...keptLists(listing, sentAsStored({ categories: [{ id: 'amenity/cafe' }] }))], ['emails', 'phones', 'links']);
});

t.test('changedFields names what differs as GET shows it, with the values before, never the version', async (t) => {
  const after: Listing = { ...listing, name: 'Neu', phones: [], version: 4 };
  t.same(changedFields(listing, after), { name: 'Bäckerei Test', phones: listing.phones });
  t.same(touchedFields({ phones: [], name: 'x' }, true), ['name', 'phones', 'version'], 'in the order of the Listing');
  t.same(touchedFields({}, false), []);
});

t.test('merge patch (RFC 7396): members replace, null removes, objects merge, arrays are replaced whole', async (t) => {
  t.same(applyMergePatch({ a: 'b', c: { d: 'e', f: 'g' } }, { a: 'z', c: { f: null } }), { a: 'z', c: { d: 'e' } });
  t.same(applyMergePatch({ a: [1, 2] }, { a: [3] }), { a: [3] });
  t.same(applyMergePatch({ a: 'b' }, { b: { c: null } }), { a: 'b', b: {} });
  t.same(applyMergePatch({ a: 'b' }, ['c']), ['c']);
  const patched = applyMergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype is touched');
  t.ok(Object.hasOwn(patched, '__proto__'));
});

t.test('the listing merge: members replace whole, null removes, only hours merges (by day)', async (t) => {
  const body = { contact: { name: 'A', surname: 'B', title: '', gender: 'F' }, temporarily_closed: { until: '2030-01-01' }, hours: { monday: [1], tuesday: [2] } };
  t.same(mergeListingPatch(body, { temporarily_closed: { until: null } }).temporarily_closed, { until: null }, 'closed until further notice');
  t.same(mergeListingPatch(body, { contact: { name: 'C' } }).contact, { name: 'C' }, 'replaced, not merged');
  t.same(mergeListingPatch(body, { hours: { monday: null, friday: [5] } }).hours, { tuesday: [2], friday: [5] });
  t.notOk('contact' in mergeListingPatch(body, { contact: null }));
});

t.test('PATCH: one phone number, hours by day, null clearing a nullable field', async (t) => {
  const merged = patchedListing(listing, { phones: [{ type: 'mobile', number: '+4915112345678' }], hours: { monday: [] }, description: null });
  t.same(merged.phones, [{ type: 'mobile', number: '+4915112345678' }]);
  t.same(merged.hours?.monday, []);
  t.same(merged.hours?.tuesday, listing.hours.tuesday, 'the other days stay');
  t.equal(merged.description, undefined, 'omitted on the PUT: cleared');
  t.same(merged.emails, listing.emails, 'the untouched lists keep their ids');
  t.equal(merged.name, listing.name);
});

t.test('PATCH: null on a required field, or a merged listing that is no valid PUT body, is a 400 naming each field', async (t) => {
  const refused = (patch: Record<string, unknown>) => {
    try {
      patchedListing(listing, patch);
    } catch (err) {
      if (err instanceof AppError) return err.details;
    }
    return undefined;
  };
  t.same(refused({ name: null, categories: null }), ['name: must not be null: it is required', 'categories: must not be null: it is required']);
  t.match(refused({ phones: [{ type: 'pager', number: '1' }] }), [/^phones\[0\]\.type: /, /^phones\[0\]\.number: must be E\.164/]);
  t.match(refused({ hours: { someday: [] } }), ['hours.someday: is not a known field']);
  t.match(refused({ contact: { title: 'Dr.' } }), ['contact.name: is required', 'contact.surname: is required', 'contact.gender: is required']);
  t.match(refused({ colour: 'red' }), ['colour: is not a known field']);
});

t.test('a PUT body of the listing leaves out its read-only fields; a restore keeps only the ids the listing still has', async (t) => {
  t.notOk(['id', 'url', 'images', 'claimed', 'suppressed', 'version', 'country_code'].some((field) => field in putBodyOf(listing)));
  const past: Listing = {
    ...listing,
    emails: [
      { id: '11', address: 'old@example.com' },
      { id: '5', address: 'gone@example.com' },
    ],
  };
  t.same(restoredListing(past, listing).emails, [{ id: '11', address: 'old@example.com' }, { address: 'gone@example.com' }]);
});

t.test('entity tags: the version in quotes; If-Match compares strongly, If-None-Match weakly', async (t) => {
  t.equal(listingEtag(7), '"7"');
  t.same(versionPrecondition('"7"'), [7]);
  t.same(versionPrecondition(' "7" , "9"'), [7, 9]);
  t.equal(versionPrecondition('*'), 'any');
  t.same(versionPrecondition('W/"7"'), [], 'a weak tag matches no version');
  t.same(versionPrecondition('"abc"'), []);
  t.equal(versionPrecondition(undefined), undefined);
  t.same(ifMatchOf({}), { ifMatch: undefined });
  t.ok(matchesEtag('W/"7", "8"', '"7"'));
  t.ok(matchesEtag('*', '"7"'));
  t.notOk(matchesEtag('"6"', '"7"'));
});

t.test("a dry run's preview nulls the ids only the real write would assign", async (t) => {
  const created = toPreview(listing);
  t.same([created.id, created.url, created.version, created.emails[0]!.id], [null, null, 0, null]);
  const updated = toPreview({ ...listing, emails: [...listing.emails, { id: '40', address: 'b@example.com' }], version: 4 }, listing);
  t.same(
    updated.emails.map((e) => e.id),
    ['11', null],
  );
  t.equal(updated.version, 4);
  t.equal(updated.id, '7');
});

const caller = { partnerId: 1, name: 'p', role: 'partner' as const };
const row = (version: number, before: HistoryRow['before'], extra: Partial<HistoryRow> = {}): HistoryRow => ({
  version,
  kind: before === null ? 'created' : 'updated',
  at: new Date(Date.UTC(2030, 0, version)),
  actorId: 1,
  actorRole: 'partner',
  channel: 'api',
  before,
  ...extra,
});

t.test('history: every version rebuilt from the current listing backwards; the entries replayed in order give it back', async (t) => {
  const rows = [row(3, { contact: null, name: 'Zwei' }, { actorId: 2 }), row(2, { name: 'Eins', claimed: false }, { kind: 'claimed' }), row(1, null)];
  const states = listingsAtVersions(listing, rows);
  t.same(states.get(2), { ...listing, version: 2, name: 'Zwei', contact: null });
  t.same(states.get(1), { ...listing, version: 1, name: 'Eins', contact: null, claimed: false });
  const entries = [...rows].reverse().map((r) => historyEntry(r, states.get(r.version)!, caller, true));
  const replayed: Record<string, unknown> = {};
  for (const entry of entries) for (const { field, to } of entry.fields) replayed[field] = to;
  t.same(replayed, listing);
  t.same(
    entries[1]!.fields.map((f) => f.field),
    ['name', 'claimed', 'version'],
  );
  t.same(
    entries[1]!.fields.find((f) => f.field === 'version'),
    { field: 'version', from: 1, to: 2 },
  );
  t.same(entries[2]!.by, 'partner');
  t.same(entries[0]!.by, 'you');
});

t.test('history: a missing version ends the rebuild; contact is hidden from those who may not see it', async (t) => {
  const states = listingsAtVersions(listing, [row(3, { name: 'Zwei' }), row(1, null)]);
  t.same([...states.keys()], [3]);
  const entry = historyEntry(row(3, { contact: null }), listing, caller, false);
  t.same(
    entry.fields.find((f) => f.field === 'contact'),
    { field: 'contact', from: HIDDEN, to: HIDDEN },
  );
});

t.test('who made a version, as each reader sees it; admins see the partner and the channel', async (t) => {
  const admin = { partnerId: 9, name: 'a', role: 'admin' as const };
  t.equal(authorOf({ actorId: 1, actorRole: 'partner', channel: 'api' }, caller), 'you');
  t.equal(authorOf({ actorId: 2, actorRole: 'partner', channel: 'import' }, caller), 'partner');
  t.equal(authorOf({ actorId: 2, actorRole: 'admin', channel: 'admin' }, caller), 'admin');
  t.equal(authorOf({ actorId: 2, actorRole: 'partner', channel: 'system' }, caller), 'system');
  t.equal(authorOf({ actorId: null, actorRole: null, channel: 'system' }, caller), 'system');
  const entry = historyEntry(row(3, { name: 'x' }, { actorId: 2, channel: 'import' }), listing, admin, true);
  t.same([entry.by, entry.by_partner, entry.channel], ['partner', '2', 'import']);
  t.notOk('by_partner' in historyEntry(row(3, { name: 'x' }), listing, caller, true));
});
