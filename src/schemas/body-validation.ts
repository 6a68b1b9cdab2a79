// How request bodies are checked and their failures worded: strictly (no type coercion, unknown
// fields rejected, every failed check reported), one line per failed check naming its field. The
// HTTP layer's validator compiler uses it (src/plugins/validation.ts), and so does a PATCH, which
// checks the listing it merged as the body of a PUT (src/listings/listing-patch.ts).
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  verbose: true, // exposes parentSchema, which carries our `errorMessage`
  strict: false,
  keywords: ['errorMessage'],
};

/** An Ajv instance for bodies (no coercion) or for query strings and path parameters (`coerce`: they arrive as text). */
export const createAjv = ({ coerce }: { coerce: boolean }) => addFormats(new Ajv({ ...common, coerceTypes: coerce ? 'array' : false }));

type AjvError = Pick<ErrorObject, 'keyword' | 'instancePath' | 'params' | 'message'> & { schemaPath: string; parentSchema?: { errorMessage?: string } };

/** "/phones/1/number" → "phones[1].number" */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

const join = (path: string, field: string) => (path ? `${path}.${field}` : field);

/** One readable line per failed check, naming the field: `phones[1].number: must be E.164`. */
export function formatValidationErrors(errors: readonly Pick<ErrorObject, 'keyword' | 'instancePath' | 'params' | 'message'>[], context: string): string[] {
  const list = errors as AjvError[];
  // A union (anyOf) reports its own error plus one per branch. With a message of its own, the union
  // speaks alone; otherwise the errors inside the branch whose type matched (e.g. the object of
  // `object | null`) say more than "must match a schema in anyOf".
  const hidden = new Set<AjvError>();
  for (const union of list.filter((e) => e.keyword === 'anyOf')) {
    const branches = list.filter((e) => e !== union && e.schemaPath.startsWith(`${union.schemaPath}/`));
    const inner = branches.filter((e) => !(e.keyword === 'type' && e.instancePath === union.instancePath));
    const hide = union.parentSchema?.errorMessage || inner.length === 0 ? branches : [union, ...branches.filter((e) => !inner.includes(e))];
    for (const e of hide) hidden.add(e);
  }
  const lines = list
    .filter((e) => !hidden.has(e))
    .map((e) => {
      const path = fieldPath(e.instancePath);
      const params = e.params as Record<string, unknown>;
      if (e.keyword === 'required') return `${join(path, String(params.missingProperty))}: is required`;
      if (e.keyword === 'additionalProperties') return `${join(path, String(params.additionalProperty))}: is not a known field`;
      // Our messages describe the value's format; a plain type error keeps Ajv's own words.
      const custom = e.keyword === 'type' ? undefined : e.parentSchema?.errorMessage;
      return `${path || context}: ${custom ?? e.message ?? 'is invalid'}`;
    });
  return [...new Set(lines)];
}

/** A check of values against `schema` as a request body is checked: the failed checks' lines, none when it passes. */
export function bodyCheck(schema: TSchema): (value: unknown) => string[] {
  const validate = createAjv({ coerce: false }).compile(schema);
  return (value) => (validate(value) ? [] : formatValidationErrors(validate.errors ?? [], 'body'));
}
