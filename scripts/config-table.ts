// The configuration table of docs/operations.md, built from ConfigSchema (src/platform/config.ts):
// the schema is what the processes accept, so the table cannot say otherwise.
// `npm run docs:generate` writes it (scripts/generated-documents.ts); a unit test fails when the two differ.
import type { TObject, TSchema } from '@sinclair/typebox';

/** A table cell's text, with the characters that would end the cell or the row escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const code = (value: unknown) => `\`${String(value)}\``;

/** The values a setting accepts, in words: its type with its bounds, or the literals it allows. */
export function acceptedValues(schema: TSchema): string {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map((s) => code(s.const)).join(', ');
  const range = (unit: string) => {
    const { minimum: min, maximum: max } = schema as { minimum?: number; maximum?: number };
    if (min !== undefined && max !== undefined) return `${unit}, ${min}–${max}`;
    if (min !== undefined) return `${unit}, ≥ ${min}`;
    if (max !== undefined) return `${unit}, ≤ ${max}`;
    return unit;
  };
  if (schema.type === 'integer') return range('integer');
  if (schema.type === 'number') return range('number');
  if (schema.type === 'boolean') return '`true`, `false`';
  return 'text';
}

/** A default as a reader sets it in the environment. */
const shownDefault = (value: unknown) => (value === '' ? '(empty)' : code(value));

/** The Markdown table of every setting of `schema`, in its order; a setting without a description is an error. */
export function configTable(schema: TObject): string {
  const rows = Object.entries(schema.properties).map(([name, property]) => {
    if (!property.description) throw new Error(`${name} has no description in ConfigSchema (src/platform/config.ts)`);
    return `| \`${name}\` | ${cell(shownDefault(property.default))} | ${cell(acceptedValues(property))} | ${cell(property.description)} |`;
  });
  return ['| Variable | Default | Accepts | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
