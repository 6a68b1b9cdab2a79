import { readFileSync } from 'node:fs';
import t from 'tap';
import { Type } from '@sinclair/typebox';
import { ConfigSchema } from '../../src/platform/config.js';
import { projectPath } from '../../src/platform/project-paths.js';
import { acceptedValues, configTable } from '../../scripts/config-table.js';
import { GENERATED_DOCUMENTS } from '../../scripts/generated-documents.js';
import { readGeneratedSection, replaceGeneratedSection } from '../../scripts/generated-section.js';

for (const [file, sections] of Object.entries(GENERATED_DOCUMENTS)) {
  for (const [name, generate] of Object.entries(sections)) {
    t.test(`${file} "${name}" is what the code generates (else: npm run docs:generate)`, async (t) => {
      const document = readFileSync(projectPath(file), 'utf8');
      t.equal(readGeneratedSection(document, name), generate().trim());
    });
  }
}

t.test('the configuration table has one row per setting of ConfigSchema, each with its description', async (t) => {
  const rows = configTable(ConfigSchema).split('\n').slice(2);
  t.same(
    rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1]),
    Object.keys(ConfigSchema.properties),
  );
  t.match(
    rows.find((row) => row.startsWith('| `PORT`')),
    /\| `3000` \| integer, 0–65535 \| API listen port \|$/,
  );
  t.match(
    rows.find((row) => row.startsWith('| `INDEX_PREFIX`')),
    /\| \(empty\) \|/,
  );
});

t.test('a setting without a description fails the table, naming it', async (t) => {
  t.throws(() => configTable(Type.Object({ SOME_KEY: Type.Integer({ default: 1 }) })), /SOME_KEY has no description/);
});

t.test('accepted values name bounds and literals', async (t) => {
  t.equal(acceptedValues(Type.Integer({ minimum: 1 })), 'integer, ≥ 1');
  t.equal(acceptedValues(Type.Number({ minimum: 0, maximum: 1 })), 'number, 0–1');
  t.equal(acceptedValues(Type.Union([Type.Literal('local'), Type.Literal('s3')])), '`local`, `s3`');
  t.equal(acceptedValues(Type.Boolean()), '`true`, `false`');
  t.equal(acceptedValues(Type.String()), 'text');
});

t.test('a generated section is replaced between its markers and nothing else moves', async (t) => {
  const document = 'intro\n<!-- generated:x start -->\nold\n<!-- generated:x end -->\noutro\n';
  t.equal(replaceGeneratedSection(document, 'x', 'new'), 'intro\n<!-- generated:x start -->\nnew\n<!-- generated:x end -->\noutro\n');
  t.throws(() => replaceGeneratedSection('no markers', 'x', 'new'), /no "<!-- generated:x start -->" marker/);
  t.equal(replaceGeneratedSection('# Results\n', 'y', 'body', { append: true }), '# Results\n\n<!-- generated:y start -->\nbody\n<!-- generated:y end -->\n');
  t.equal(readGeneratedSection(document, 'x'), 'old');
  t.equal(readGeneratedSection(document, 'z'), undefined);
});
