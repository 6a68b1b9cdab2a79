// `npm run docs:generate`: rewrites every generated section of the documents (scripts/generated-documents.ts)
// from the code it mirrors. Run it after changing that code; the unit tests fail while they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { projectPath } from '../src/platform/project-paths.js';
import { GENERATED_DOCUMENTS } from './generated-documents.js';
import { replaceGeneratedSection } from './generated-section.js';

for (const [file, sections] of Object.entries(GENERATED_DOCUMENTS)) {
  const path = projectPath(file);
  const before = readFileSync(path, 'utf8');
  const after = Object.entries(sections).reduce((text, [name, generate]) => replaceGeneratedSection(text, name, generate()), before);
  if (after !== before) writeFileSync(path, after);
  console.log(`${file}: ${after === before ? 'up to date' : 'rewritten'}`);
}
