// Files that ship beside the code (index mappings, migrations, the taxonomy, .stack/), found from
// the project root, so that the same code runs from src/ (tsx) and from the compiled dist/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** An absolute path inside the project: `projectPath('drizzle')`, `projectPath('mappings', 'listings.json')`. */
export const projectPath = (...segments: string[]) => join(projectRoot, ...segments);

/**
 * The V8 flags the API and the indexer run with (package.json `config.node_flags`,
 * docs/architecture.md "Memory"): every launcher (npm scripts, scripts/start.sh, the Dockerfile, compose, the
 * benchmarks and the tests that start real processes) uses these, so measured memory is
 * production's.
 */
export function processNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { config: { node_flags: string } };
  return pkg.config.node_flags.split(' ').filter(Boolean);
}
