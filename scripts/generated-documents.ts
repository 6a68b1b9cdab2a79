// The parts of the documents that mirror code: each document, and for each of its generated
// sections (scripts/generated-section.ts) the function that builds the section from the code.
// `npm run docs:generate` writes them; test/unit/generated-documents.test.ts fails while one differs.
import { ConfigSchema } from '../src/platform/config.js';
import { configTable } from './config-table.js';

export const GENERATED_DOCUMENTS: Readonly<Record<string, Readonly<Record<string, () => string>>>> = {
  'docs/operations.md': { configuration: () => configTable(ConfigSchema) },
};
