// The real API and indexer started as child processes, for the tests that need a process of their
// own: shutdown, fault injection and the HTTP fuzz run.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { processNodeFlags } from '../src/platform/project-paths.js';
import { eventually } from './helper.js';

export interface Proc {
  child: ChildProcess;
  /** Sends `signal` (SIGTERM unless told) and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs a TypeScript entry point (src/server.ts, indexer/main.ts) with the test environment plus
 * `env` and production's V8 flags (heap cap); `nodeArgs` go before the script, `ipc` opens a
 * message channel to it.
 */
export function startProcess(script: string, env: Record<string, string>, opts: { nodeArgs?: string[]; ipc?: boolean } = {}): Proc {
  const child = spawn(process.execPath, [...processNodeFlags(), '--import', 'tsx', ...(opts.nodeArgs ?? []), script], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: opts.ipc ? ['ignore', 'ignore', 'ignore', 'ipc'] : 'ignore',
  });
  // A test that times out must not leave its processes behind: a survivor keeps its port, and the
  // next run's health check would then see it instead of the process that run started.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  return {
    child,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      if (child.connected) child.disconnect(); // an open channel would keep it alive after closing
      child.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
  };
}

export const waitHealthy = (url: string) =>
  eventually(
    async () =>
      (await fetch(url).then(
        (r) => r.ok,
        () => false,
      )) || undefined,
    60_000,
    url,
  );

/** Waits until `proc` answers healthy at `url`, and fails if it exited meanwhile (its port was taken by another process). */
export async function waitProcessHealthy(proc: Proc, url: string): Promise<void> {
  await waitHealthy(url);
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw new Error(`${url} answers, but not from the process just started: it exited`);
}

/** The API as a process on `port` with `env`, once it answers healthy. */
export async function startApiProcess(port: number, env: Record<string, string>): Promise<Proc> {
  const api = startProcess('src/server.ts', { ...env, PORT: String(port) });
  await waitProcessHealthy(api, `http://127.0.0.1:${port}/healthz`);
  return api;
}

/** The indexer as a process with its health port on `port` and `env`, once it answers healthy. */
export async function startIndexerProcess(port: number, env: Record<string, string>): Promise<Proc> {
  const indexer = startProcess('indexer/main.ts', { ...env, INDEXER_PORT: String(port) });
  await waitProcessHealthy(indexer, `http://127.0.0.1:${port}/healthz`);
  return indexer;
}
