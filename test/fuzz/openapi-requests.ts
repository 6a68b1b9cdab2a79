// Hostile HTTP requests generated from the service's own OpenAPI document. Each request
// is one documented operation with its path, query, headers and body drawn from fast-check
// arbitraries: mostly values close to the schema (so requests get past the first check and reach
// deeper code), mixed with wrong types, huge and unicode strings, null bytes, deep nesting,
// malformed JSON, wrong content types and bodies larger than the limit. Pure: no I/O here.
import fc from 'fast-check';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Ids and keys the run created beforehand, so that some requests reach real rows. */
export interface FuzzContext {
  countries: string[];
  /** Authorization header values: the caller's own key first, then others (another partner, an admin). */
  authorizations: string[];
  /** Listing ids: owned by the caller, by another partner, deleted. */
  listingIds: string[];
  /** Image and review ids that exist. */
  subIds: string[];
}

/** A request as data. A body of `{ repeat, times }` is built only when sent, so samples stay small. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | { repeat: string; times: number };
  /** The documented operation it came from, for the report. */
  operation: string;
}

/** Strings that have broken parsers, databases and search engines before. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '\\',
  '"',
  "'",
  "' OR 1=1 --",
  '; drop table listings; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '..%2f..%2f',
  '$' + '{jndi:ldap://x}',
  '{{7*7}}',
  '*',
  '**',
  '*'.repeat(200),
  '?',
  'a*b*c*d*e*f*g*',
  '\\*',
  'null',
  'true',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '-0',
  '1e309',
  '9'.repeat(40),
  '0x10',
  '1.5',
  ' 1',
  '+49 30 123456',
  '+',
  '++49',
  'ÄÖÜäöüß',
  'Straße',
  'İstanbul',
  'ﬃ',
  '\u202eevil',
  '\ud83d\ude00'.repeat(50),
  '\ud800',
  '\udfff',
  'e\u0301',
  '\u200b',
  '\r\n',
  '\t',
  'x'.repeat(10_000),
  'ü'.repeat(5_000),
  '"'.repeat(1_000),
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
];

const hostileString = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  // Long enough, in a URL or header, to pass Node's 16 KiB limit now and then.
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'y'.repeat(n)) },
);

/** Any JSON value at all, including ones of the wrong type for wherever it lands. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 63)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 50, max: 3_000 }).map((depth) => nested(depth)),
);

/** `[[[...{"a":1}...]]]`: deep nesting that recursive code would overflow on. */
function nested(depth: number): unknown {
  let value: unknown = { a: 1 };
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { n: value };
  return value;
}

/** Resolves `#/components/schemas/X` references against the document. */
function resolver(doc: OpenApiDocument) {
  return function resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let hops = 0; s.$ref && hops < 10; hops++) s = doc.components?.schemas?.[s.$ref.split('/').pop()!] ?? {};
    return s;
  };
}

/** A value that fits `schema` as far as its type, enum and bounds go; invalid in places by chance. */
function schemaValue(schema: Schema, resolve: (s: Schema | undefined) => Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const conforming = conformingValue(s, resolve, depth);
  return fc.oneof({ weight: 6, arbitrary: conforming }, { weight: 1, arbitrary: anyJson });
}

function conformingValue(s: Schema, resolve: (s: Schema | undefined) => Schema, depth: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const choices = s.anyOf ?? s.oneOf;
  if (choices?.length) return fc.oneof(...choices.map((c) => schemaValue(c, resolve, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return fc.oneof(
        fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) }),
        fc.string({ unit: 'grapheme', minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) }),
        hostileString,
      );
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -1_000, -1_000_000) - 2, max: Math.min(s.maximum ?? 1_000_000, 1_000_000) + 2 });
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ min: s.minimum ?? -180, max: s.maximum ?? 180, noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(schemaValue(s.items ?? {}, resolve, depth + 1), { maxLength: 6 });
    case 'object': {
      if (depth > 4) return fc.constant({});
      const props = Object.entries(s.properties ?? {});
      const required = new Set(s.required ?? []);
      const record = fc.record(Object.fromEntries(props.map(([name, p]) => [name, schemaValue(p, resolve, depth + 1)])), {
        requiredKeys: props.filter(([name]) => required.has(name)).map(([name]) => name),
      });
      // Occasionally drop a required field or add one nobody asked for.
      return fc
        .tuple(record, fc.option(fc.constantFrom(...(props.length ? props.map(([n]) => n) : ['x'])), { freq: 8 }), fc.option(fc.tuple(hostileString, anyJson), { freq: 8 }))
        .map(([value, drop, extra]) => {
          const out: Record<string, unknown> = { ...value };
          if (drop) delete out[drop];
          if (extra) out[extra[0]] = extra[1];
          return out;
        });
    }
    default:
      return anyJson;
  }
}

/** Values for a path segment: real ids mostly, then numbers and hostile text, percent-encoded. */
function pathValue(name: string, ctx: FuzzContext): fc.Arbitrary<string> {
  const real = name === 'country' ? ctx.countries : name === 'id' ? ctx.listingIds : ctx.subIds;
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...(real.length ? real : ['1'])) },
    { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -5, max: 2 ** 31 }).map(String), fc.constantFrom('99999999999999999999', '1.0', '0x1', '1e3', 'DE', 'xx', 'map')) },
    { weight: 1, arbitrary: hostileString.map((v) => encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '')) || '%20') },
  );
}

/** Query values: conforming to the parameter's schema, or hostile, sometimes repeated. */
function queryValue(schema: Schema, resolve: (s: Schema | undefined) => Schema): fc.Arbitrary<string[]> {
  const one = fc.oneof(
    { weight: 3, arbitrary: conformingValue(resolve(schema), resolve, 0).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))) },
    { weight: 1, arbitrary: hostileString },
  );
  return fc.array(one, { minLength: 1, maxLength: 3 }).chain((values) => fc.constantFrom(values.slice(0, 1), values));
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json;;;',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'image/png',
  '*/*',
  '',
];

/** A body for a write: the schema's JSON (most often), or text that is not what was asked for. */
function bodyFor(schema: Schema | undefined, resolve: (s: Schema | undefined) => Schema) {
  const json = schemaValue(schema ?? {}, resolve).map((v) => JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { weight: 12, arbitrary: json.map((body) => ({ body, contentType: 'application/json' })) },
    { weight: 2, arbitrary: fc.tuple(json, fc.constantFrom(...CONTENT_TYPES)).map(([body, contentType]) => ({ body, contentType })) },
    { weight: 1, arbitrary: json.chain((b) => fc.nat({ max: Math.max(0, b.length - 1) }).map((n) => ({ body: b.slice(0, n), contentType: 'application/json' }))) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '[', '{"a":', '{"name":"x",}', '\u0000', 'null', '""', '[]', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{}}}')
        .map((body) => ({ body, contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 100_000 }).map((depth) => ({ body: '['.repeat(depth) + ']'.repeat(depth), contentType: 'application/json' })) },
  );
}

/** Now and then a body far over the limit (9–10 MB) regardless of the operation. */
const hugeBody = fc.integer({ min: 9, max: 10 }).map((mb) => ({ body: { repeat: 'a', times: mb * 1024 * 1024 }, contentType: 'application/json' }));

/** One arbitrary request per documented operation, and a picker over all of them. */
export function fuzzRequests(doc: OpenApiDocument, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const resolve = resolver(doc);
  const operations: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (method === 'parameters') continue;
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const upper = method.toUpperCase();

      const path = fc
        .record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.name, ctx)])))
        .map((values) => template.replace(/\{(\w+)\}/g, (_, name: string) => (values as Record<string, string>)[name] ?? name));
      const query = fc
        .tuple(
          fc.record(Object.fromEntries(queryParams.map((p) => [p.name, queryValue(p.schema ?? {}, resolve)])), { requiredKeys: [] }),
          fc.option(fc.tuple(hostileString, hostileString), { freq: 6 }),
        )
        .map(([values, extra]) => {
          const search = new URLSearchParams();
          for (const [name, list] of Object.entries(values as Record<string, string[]>)) for (const v of list) search.append(name, v);
          if (extra) search.append(extra[0], extra[1]);
          return search.toString();
        });
      const authorization = fc.oneof(
        { weight: 12, arbitrary: fc.constant(ctx.authorizations[0]!) },
        { weight: 2, arbitrary: fc.constantFrom(...ctx.authorizations) },
        { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'Bearer', 'Bearer ', 'Basic YTpi', `Bearer ${'k'.repeat(5_000)}`, 'bearer lowercase-scheme') },
        { weight: 1, arbitrary: hostileString.map((v) => `Bearer ${v.replace(/[^\x20-\x7e]/g, '')}`) },
      );
      // fetch cannot send a GET with a body; a DELETE with one now and then.
      const body =
        upper === 'GET'
          ? fc.constant(null)
          : upper === 'DELETE'
            ? fc.option(bodyFor(undefined, resolve), { freq: 20 })
            : fc.oneof({ weight: 300, arbitrary: bodyFor(bodySchema, resolve) }, { weight: 1, arbitrary: hugeBody }, { weight: 6, arbitrary: fc.constant(null) });
      const extraHeaders = fc.record(
        {
          'idempotency-key': fc.oneof(
            fc.uuid(),
            hostileString.map((v) => v.replace(/[^\x20-\x7e]/g, '')),
            fc.constant('i'.repeat(4_000)),
          ),
          accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', 'garbage'),
          'if-none-match': fc.constantFrom('*', '"abc"', 'W/"x"', ''),
        },
        { requiredKeys: [] },
      );

      operations.push(
        fc.record({ path, query, authorization, body, extraHeaders }).map(({ path: p, query: q, authorization: a, body: b, extraHeaders: h }) => {
          const headers: Record<string, string> = { ...h };
          if (a !== undefined) headers.authorization = a;
          if (b?.contentType) headers['content-type'] = b.contentType;
          return { method: upper, path: q ? `${p}?${q}` : p, headers, ...(b ? { body: b.body } : {}), operation: `${upper} ${template}` };
        }),
      );
    }
  }
  // Paths and methods nobody documented: must answer 404/405 as Error objects, never 5xx.
  const stray = fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      segments: fc.array(
        fc.oneof(
          fc.constantFrom(...ctx.countries, 'listings', 'images', 'media', '..', '.', '', 'docs', 'metrics'),
          hostileString.map((v) => encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))),
        ),
        { maxLength: 6 },
      ),
    })
    .map(({ method, segments }) => ({ method, path: `/${segments.join('/')}`, headers: { authorization: ctx.authorizations[0]! }, operation: 'undocumented' }));
  return fc.oneof({ weight: 20, arbitrary: fc.oneof(...operations) }, { weight: 1, arbitrary: stray });
}
