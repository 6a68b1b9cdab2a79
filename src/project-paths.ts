// Files that ship beside the code (index mappings, migrations, the taxonomy, .stack/), found from
// the project root, so that the same code runs from src/ (tsx) and from the compiled dist/.
import { existsSync } from 'node:fs';
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
