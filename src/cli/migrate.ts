import type { Command } from 'commander';
import { runMigrations } from '../db/client.js';
import { withDatabase } from './context.js';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply database migrations')
    .action(() =>
      withDatabase(async ({ db }) => {
        await runMigrations(db);
        console.error('migrations applied');
      }),
    );
}
