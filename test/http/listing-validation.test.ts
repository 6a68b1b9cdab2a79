// Every rule of docs/contract.md §4, each as one invalid body and the detail it must produce.
import t from 'tap';
import { build, listingInput } from '../helper.js';
import type { ListingInput } from '../../src/schemas/listing.js';

const { app, partner } = await build(t);
const { auth } = await partner();

const post = (payload: unknown) => app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: payload as object });
const without = (field: keyof ListingInput) => {
  const body: Record<string, unknown> = { ...listingInput() };
  delete body[field];
  return body;
};

const cases: [string, unknown, RegExp][] = [
  ['name is required', without('name'), /^name: is required$/],
  ['name may not be empty', listingInput({ name: '' }), /^name: must be 1–200 characters$/],
  ['name has at most 200 characters', listingInput({ name: 'x'.repeat(201) }), /^name: must be 1–200/],
  ['address is required', without('address'), /^address: is required$/],
  ['address has at most 200 characters', listingInput({ address: 'x'.repeat(201) }), /^address: /],
  ['zip is required', without('zip'), /^zip: is required$/],
  ['zip has at most 20 characters', listingInput({ zip: '1'.repeat(21) }), /^zip: must be 1–20/],
  ['place is required', without('place'), /^place: is required$/],
  ['place has at most 100 characters', listingInput({ place: 'x'.repeat(101) }), /^place: must be 1–100/],
  ['categories are required', without('categories'), /^categories: is required$/],
  ['at least one category', listingInput({ categories: [] }), /^categories: must hold 1–10 categories$/],
  ['at most ten categories', listingInput({ categories: Array.from({ length: 11 }, () => ({ id: 'shop/bakery' })) }), /^categories: must hold 1–10/],
  ['an unknown category id', listingInput({ categories: [{ id: 'shop/nonexistent' }] }), /^categories\[0\]\.id: unknown category "shop\/nonexistent"/],
  ['latitude without longitude', listingInput({ latitude: 52, longitude: null }), /^latitude, longitude: must both be numbers or both be null$/],
  ['latitude out of range', listingInput({ latitude: 91 }), /^latitude: must be null or a number between -90 and 90$/],
  ['longitude out of range', listingInput({ longitude: -181 }), /^longitude: must be null or a number between -180 and 180$/],
  ['at most 50 keywords', listingInput({ keywords: Array.from({ length: 51 }, (_, i) => `k${i}`) }), /^keywords: must NOT have more than 50 items$/],
  ['keywords have 1–100 characters', listingInput({ keywords: ['x'.repeat(101)] }), /^keywords\[0\]: must be 1–100/],
  ['description has at most 5000 characters', listingInput({ description: 'x'.repeat(5001) }), /^description: must be null or at most 5000/],
  ['emails must be addresses', listingInput({ emails: [{ address: 'not-an-email' }] }), /^emails\[0\]\.address: must be an e-mail address$/],
  ['at most 20 emails', listingInput({ emails: Array.from({ length: 21 }, (_, i) => ({ address: `a${i}@example.com` })) }), /^emails: must NOT have more than 20 items$/],
  ['phone numbers are E.164', listingInput({ phones: [{ type: 'landline', number: '030 1234567' }] }), /^phones\[0\]\.number: must be E\.164$/],
  ['E.164 does not start with 0', listingInput({ phones: [{ type: 'landline', number: '+0301234567' }] }), /^phones\[0\]\.number: must be E\.164$/],
  ['E.164 has at most 15 digits', listingInput({ phones: [{ type: 'landline', number: '+4930123456789012' }] }), /^phones\[0\]\.number: must be E\.164$/],
  ['phone types are known', listingInput({ phones: [{ type: 'pager' as 'fax', number: '+4930123' }] }), /^phones\[0\]\.type: must be one of landline, mobile, fax, tollfree$/],
  ['at most 20 phones', listingInput({ phones: Array.from({ length: 21 }, () => ({ type: 'landline' as const, number: '+4930123' })) }), /^phones: must NOT have more than 20 items$/],
  ['link types are known', listingInput({ links: [{ type: 'myspace' as 'other', url: 'https://example.com' }] }), /^links\[0\]\.type: must be one of website, googleplus/],
  ['link urls are absolute http(s)', listingInput({ links: [{ type: 'website', url: 'ftp://example.com' }] }), /^links\[0\]\.url: must be an absolute http\(s\) URL/],
  ['link urls have at most 2048 characters', listingInput({ links: [{ type: 'website', url: `https://example.com/${'x'.repeat(2040)}` }] }), /^links\[0\]\.url: must be an absolute/],
  ['at most 20 links', listingInput({ links: Array.from({ length: 21 }, () => ({ type: 'website' as const, url: 'https://example.com' })) }), /^links: must NOT have more than 20 items$/],
  ['contact gender is U, M, F or D', listingInput({ contact: { name: 'A', surname: 'B', title: '', gender: 'X' as 'U' } }), /^contact\.gender: must be one of U, M, F, D$/],
  ['contact needs a surname', listingInput({ contact: { name: 'A', title: '', gender: 'U' } as never }), /^contact\.surname: is required$/],
  ['an unknown day', listingInput({ hours: { funday: [] } as never }), /^hours\.funday: is not a known field$/],
  ['a time out of range', listingInput({ hours: { monday: [{ start: '25:00', end: '26:00' }] } }), /^hours\.monday\[0\]\.start: must be a time/],
  ['a malformed time', listingInput({ hours: { monday: [{ start: '8:00', end: '12:00' }] } }), /^hours\.monday\[0\]\.start: must be a time/],
  ['24:00 is no start', listingInput({ hours: { monday: [{ start: '24:00', end: '24:00' }] } }), /^hours\.monday\[0\]\.start: must be a time/],
  ['start before end', listingInput({ hours: { monday: [{ start: '12:00', end: '08:00' }] } }), /^hours\.monday\[0\]: start must be before end$/],
  [
    'intervals do not overlap',
    listingInput({
      hours: {
        monday: [
          { start: '08:00', end: '12:00' },
          { start: '11:00', end: '14:00' },
        ],
      },
    }),
    /^hours\.monday: intervals 08:00:00-12:00:00 and 11:00:00-14:00:00 overlap$/,
  ],
  [
    'a closed special day has no intervals',
    listingInput({ special_hours: [{ date: '2026-12-24', closed: true, intervals: [{ start: '10:00', end: '12:00' }] }] }),
    /^special_hours\[0\]\.intervals: must be empty when closed is true$/,
  ],
  [
    'an open special day has intervals',
    listingInput({ special_hours: [{ date: '2026-12-24', closed: false }] }),
    /^special_hours\[0\]\.intervals: must hold at least one interval when closed is false$/,
  ],
  [
    'special days are unique',
    listingInput({
      special_hours: [
        { date: '2026-12-24', closed: true },
        { date: '2026-12-24', closed: true },
      ],
    }),
    /^special_hours\[1\]\.date: 2026-12-24 appears twice$/,
  ],
  ['a special day is a real date', listingInput({ special_hours: [{ date: '2026-02-29', closed: true }] }), /^special_hours\[0\]\.date: must be a date YYYY-MM-DD$/],
  [
    'special intervals do not overlap',
    listingInput({
      special_hours: [
        {
          date: '2026-12-24',
          closed: false,
          intervals: [
            { start: '08:00', end: '12:00' },
            { start: '11:00', end: '14:00' },
          ],
        },
      ],
    }),
    /^special_hours\[0\]\.intervals: intervals 08:00:00-12:00:00 and 11:00:00-14:00:00 overlap$/,
  ],
  [
    'special intervals end after they start',
    listingInput({ special_hours: [{ date: '2026-12-24', closed: false, intervals: [{ start: '22:00', end: '02:00' }] }] }),
    /^special_hours\[0\]\.intervals\[0\]: start must be before end$/,
  ],
  [
    'at most 100 special days',
    listingInput({ special_hours: Array.from({ length: 101 }, (_, i) => ({ date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10), closed: true })) }),
    /^special_hours: /,
  ],
  ['temporarily_closed.until is a date or null', listingInput({ temporarily_closed: { until: 'soon' } }), /^temporarily_closed\.until: must be null or a date YYYY-MM-DD$/],
  ['time_zone is an IANA zone', listingInput({ time_zone: 'Berlin' }), /^time_zone: unknown time zone "Berlin"/],
  ['country_code matches the path', listingInput({ country_code: 'at' }), /^country_code: must be "de", the country of the path$/],
  ['unknown fields are rejected', { ...listingInput(), colour: 'red' }, /^colour: is not a known field$/],
  ['source_id is alphanumeric, - and _', listingInput({ source_id: 'a b' }), /^source_id: must be 1–100 letters, digits, - or _$/],
  ['strings are not coerced from numbers', listingInput({ name: 42 as unknown as string }), /^name: must be string$/],
];

for (const [rule, body, detail] of cases) {
  t.test(rule, async (t) => {
    const res = await post(body);
    t.equal(res.statusCode, 400);
    const error = res.json();
    t.equal(error.type, 'validation');
    t.ok(
      error.details.some((d: string) => detail.test(d)),
      `details ${JSON.stringify(error.details)} include ${detail}`,
    );
  });
}

t.test('every failed check is reported, not only the first', async (t) => {
  const res = await post({ ...listingInput({ name: '', zip: '', phones: [{ type: 'landline', number: 'x' }] }), extra: 1 });
  t.equal(res.statusCode, 400);
  t.same(res.json().details.sort(), ['extra: is not a known field', 'name: must be 1–200 characters', 'phones[0].number: must be E.164', 'zip: must be 1–20 characters']);
});

t.test('the domain checks also report all failures together', async (t) => {
  const res = await post(listingInput({ latitude: 10, longitude: null, categories: [{ id: 'nope' }], hours: { monday: [{ start: '10:00', end: '09:00' }] } }));
  t.equal(res.statusCode, 400);
  t.equal(res.json().details.length, 3);
});

t.test('an omitted country_code, latitude/longitude both null and hours omitted are fine', async (t) => {
  const body = listingInput({ latitude: null, longitude: null });
  delete body.hours;
  delete body.country_code;
  const res = await post(body);
  t.equal(res.statusCode, 201);
  t.equal(res.json().latitude, null);
  t.same(res.json().hours.sunday, []);
});
