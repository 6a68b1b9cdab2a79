// Ops CLI: `npm run cli -- <command>`, one module per command under src/cli/. Output meant for
// scripts goes to stdout, the rest to stderr.
import { Command } from 'commander';
import { registerCategories } from './cli/categories.js';
import { registerImport } from './cli/import.js';
import { registerIndices } from './cli/indices.js';
import { registerMigrate } from './cli/migrate.js';
import { registerOutbox } from './cli/outbox.js';
import { registerPartner } from './cli/partner.js';
import { registerReconcile } from './cli/reconcile.js';
import { registerReindex } from './cli/reindex.js';
import { registerSample } from './cli/sample.js';
import { registerSeed } from './cli/seed.js';
import { registerSetup } from './cli/setup.js';

const program = new Command('cli').description('Operations of the listings directory');
for (const register of [
  registerMigrate,
  registerIndices,
  registerSetup,
  registerCategories,
  registerPartner,
  registerSample,
  registerReindex,
  registerReconcile,
  registerSeed,
  registerOutbox,
  registerImport,
]) {
  register(program);
}
await program.parseAsync();
