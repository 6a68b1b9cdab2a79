// What the kernel says about a process and the machine (/proc): memory and CPU time. Used by the
// benchmarks and by the tests that judge a real process's memory.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of a process now and its high-water mark, in MB, from the kernel. */
export function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString());

/**
 * The CPU times in a /proc/<pid>/stat text ("pid (name) state ..."), in seconds: its own (utime and
 * stime, fields 14 and 15) and that of the children it has reaped (cutime and cstime, 16 and 17).
 */
function statCpuSeconds(stat: string): { own: number; reaped: number } {
  const [utime, stime, cutime, cstime] = stat.split(') ')[1]!.split(' ').slice(11, 15).map(Number) as [number, number, number, number];
  return { own: (utime + stime) / clockTicks, reaped: (cutime + cstime) / clockTicks };
}

/** CPU time (user + system, all threads) a process has used so far, in seconds, from the kernel. */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8')).own;
}

/** Busy and total CPU time of the whole machine so far, in seconds (every process, every core). */
export function machineCpuSeconds(): { busy: number; total: number } {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = ticks[3]! + ticks[4]!; // idle + iowait
  return { busy: (total - idle) / clockTicks, total: total / clockTicks };
}

/**
 * CPU time so far of every live process whose command name is `name` (postgres backends,
 * redis-server, OpenSearch's java), in seconds, with the time of the children they have reaped:
 * a PostgreSQL backend or autovacuum worker that exits moves its time to the postmaster's, instead
 * of taking it away.
 */
export function cpuSecondsOfCommand(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== name) continue;
      const { own, reaped } = statCpuSeconds(stat);
      total += own + reaped;
    } catch {
      /* the process ended while we looked */
    }
  }
  return total;
}
