// The real API and indexer started as child processes, for the tests that need a process of their
// own: shutdown, fault injection and the HTTP fuzz run.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { eventually } from './helper.js';

export interface Proc {
  child: ChildProcess;
  /** Sends `signal` (SIGTERM unless told) and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs a TypeScript entry point (src/server.ts, indexer/main.ts) with the test environment plus `env`. */
export function startProcess(script: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: 'ignore' });
  return {
    child,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
  };
}

export const waitHealthy = (url: string) =>
  eventually(async () => (await fetch(url).then((r) => r.ok, () => false)) || undefined, 60_000, url);
