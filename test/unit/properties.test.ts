// Property tests (fast-check) of every parser and validator that sees user input: whatever comes
// in, they answer with a value or a validation error, never a crash, and keep their invariants.
import fc from 'fast-check';
import t from 'tap';
import { AppError } from '../../src/platform/errors.js';
import { formatTime, normaliseHours, parseTime } from '../../src/listings/hours.js';
import { splitAddress } from '../../src/listings/split-address.js';
import { decodeImage } from '../../src/media/decode-image.js';
import { bearerToken } from '../../src/partners/api-keys.js';
import { E164_PATTERN } from '../../src/schemas/listing.js';
import { fold } from '../../src/search/fold.js';
import { parseSolrText } from '../../src/search/query/solr-text.js';
import { parseMatchValue } from '../../src/search/query/wildcard.js';
import { parseListingSearch } from '../../src/search/search-params.js';

const runs = { numRuns: 500 };

t.test('hours: every valid time round-trips; any string parses or is refused', async () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 86399 }), (s) => parseTime(formatTime(s), false) === s),
    runs,
  );
  fc.assert(
    fc.property(fc.string(), fc.boolean(), (text, isEnd) => {
      const v = parseTime(text, isEnd);
      return v === undefined || (v >= 0 && v <= 86400);
    }),
    runs,
  );
  const interval = fc.record({ start: fc.string({ maxLength: 8 }), end: fc.string({ maxLength: 8 }) });
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom('monday', 'friday', 'sunday'), fc.array(interval, { maxLength: 4 })), (hours) => {
      const { hours: out, errors } = normaliseHours(hours);
      return Object.keys(out).length === 7 && (errors.length > 0 || Object.values(out).every((day) => day.every((i) => i.start < i.end)));
    }),
    runs,
  );
});

t.test('E.164: generated numbers match, numbers with a leading 0 or over 15 digits do not', async () => {
  const e164 = new RegExp(E164_PATTERN);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^[0-9]{1,14}$/), (first, rest) => e164.test(`+${first}${rest}`)),
    runs,
  );
  fc.assert(
    fc.property(fc.stringMatching(/^[0-9]{1,14}$/), (rest) => !e164.test(`+0${rest}`)),
    runs,
  );
  fc.assert(
    fc.property(fc.stringMatching(/^[1-9][0-9]{15,20}$/), (digits) => !e164.test(`+${digits}`)),
    runs,
  );
});

t.test('splitAddress never loses text: street and number come from the address', async () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (address) => {
      const { street, number } = splitAddress(address);
      const squeezed = address.replace(/\s+/g, ' ').trim();
      return squeezed.includes(street) && (number === '' || squeezed.replace(/\s/g, '').includes(number.replace(/\s/g, '')));
    }),
    runs,
  );
});

t.test('fold is idempotent and never grows wildcards', async () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 100 }), (text) => fold(fold(text)) === fold(text)),
    runs,
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 100 }), (text) => fold(text).split('*').length === text.split('*').length),
    runs,
  );
});

t.test('wildcard patterns: bounded, and no OpenSearch wildcard syntax but * gets through', async () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 150 }), (value) => {
      const parsed = parseMatchValue(value);
      if ('error' in parsed) return true;
      if ('term' in parsed) return !value.includes('*');
      const unescaped = parsed.wildcard.replace(/\\[\\?]/g, '');
      return !unescaped.includes('?') && !unescaped.includes('\\') && (parsed.wildcard.match(/\*/g) ?? []).length <= 5;
    }),
    runs,
  );
});

t.test('Solr text parsing keeps every word and never fails', async () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 100 }), (text) => {
      const { phrases, terms } = parseSolrText(text);
      return [...phrases, ...terms].every((part) => part.length > 0 && !part.includes('"'));
    }),
    runs,
  );
});

const imageLimits = { maxBytes: 1 << 20, maxWidth: 10_000, maxHeight: 10_000, maxPixels: 40_000_000 };

t.test('base64 images: random input is refused cleanly, never thrown', async () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 400 }), (text) => {
      const result = decodeImage(text, imageLimits);
      return 'image' in result || typeof result.message === 'string';
    }),
    runs,
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
      const result = decodeImage(Buffer.from(bytes).toString('base64'), imageLimits);
      return 'image' in result ? result.image.width > 0 : result.error === 'invalid';
    }),
    runs,
  );
});

t.test('query parameters: any combination is a search or a validation error', async () => {
  const value = fc.option(fc.string({ maxLength: 60 }), { nil: undefined });
  const query = fc.record(
    {
      solr: fc.option(fc.boolean(), { nil: undefined }),
      limit: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
      ids: value,
      phone: value,
      street: value,
      place: value,
      postCode: value,
      number: value,
      what: value,
      where: value,
      category: value,
      lat: fc.option(fc.double({ min: -90, max: 90, noNaN: true }), { nil: undefined }),
      lon: fc.option(fc.double({ min: -180, max: 180, noNaN: true }), { nil: undefined }),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(query, (q) => {
      try {
        const search = parseListingSearch(Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)));
        return search.limit >= 1 && search.limit <= 50;
      } catch (err) {
        return err instanceof AppError && err.type === 'validation' && err.details.length > 0;
      }
    }),
    runs,
  );
});

t.test('Authorization headers: only well-formed Bearer keys are read', async () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (header) => {
      const key = bearerToken(header);
      return key === undefined || header === `Bearer ${key}`;
    }),
    runs,
  );
});
