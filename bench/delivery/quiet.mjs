// Is the machine quiet before a benchmark starts? Figures are compared across runs and sessions, and on
// 2 shared cores one forgotten CPU-bound process (a `node -e 'for(;;){}'` left from an experiment, a test
// run, a build) takes a core's worth of headroom from every phase without showing in any of the
// benchmark's own columns. `checkQuiet()` samples the machine for a moment before the first phase and
// names the processes that were busy, so a run that measured a busy machine says so at its top.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpuSampler } from './lib.mjs';

/** Above this many cores busy outside the benchmark before it starts, it warns. */
export const QUIET_CORES = 0.25;

/** CPU ticks (user + system) and name of every process now, keyed by pid; pids that vanish are skipped. */
export function processTicks(proc = '/proc') {
  const out = new Map();
  for (const pid of readdirSync(proc)) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const text = readFileSync(`${proc}/${pid}/stat`, 'utf8');
      const close = text.lastIndexOf(')');
      const name = text.slice(text.indexOf('(') + 1, close);
      const fields = text.slice(close + 2).split(' ');
      // fields[0] is stat's field 3 (state); utime and stime are fields 14 and 15.
      out.set(Number(pid), { name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended between readdir and read
    }
  }
  return out;
}

/**
 * The processes that used CPU between two {@link processTicks} snapshots `seconds` apart, busiest first,
 * in cores, leaving out `exclude` (this benchmark's own pid). A process that started in between counts
 * from zero.
 *
 * @example
 * busiest(new Map([[7, { name: 'node', ticks: 100 }]]), new Map([[7, { name: 'node', ticks: 190 }]]), 1, 100);
 * // [{ pid: 7, name: 'node', cores: 0.9 }]
 */
export function busiest(before, after, seconds, ticksPerSecond = 100, exclude = new Set()) {
  const rows = [];
  for (const [pid, { name, ticks }] of after) {
    if (exclude.has(pid)) continue;
    const used = ticks - (before.get(pid)?.ticks ?? 0);
    if (used > 0) rows.push({ pid, name, cores: used / ticksPerSecond / seconds });
  }
  return rows.sort((a, b) => b.cores - a.cores);
}

/**
 * The warning to print when the machine was not quiet (`null` when it was): more than `limit` cores
 * busy outside the benchmark, with the three busiest processes named.
 *
 * @example
 * quietWarning(1.02, [{ pid: 8660, name: 'node', cores: 0.98 }]);
 * // 'WARNING: the machine is not quiet: 1.02 cores busy before the run (pid 8660 node 0.98) ...'
 */
export function quietWarning(busyCores, processes, limit = QUIET_CORES) {
  if (!(busyCores > limit)) return null;
  const named = processes
    .slice(0, 3)
    .map((p) => `pid ${p.pid} ${p.name} ${p.cores.toFixed(2)}`)
    .join(', ');
  return (
    `WARNING: the machine is not quiet: ${busyCores.toFixed(2)} cores busy before the run` +
    `${named ? ` (${named})` : ''}; every phase shares the cores with them, so these figures do not compare` +
    ' with a quiet run. Stop them and run again.'
  );
}

/**
 * Samples the machine for `ms` and prints a warning when more than {@link QUIET_CORES} cores were busy
 * outside this process. Returns what it measured (every process that used CPU, busiest first). Linux only;
 * elsewhere it returns null.
 *
 * @example
 * await checkQuiet(); // before the benchmark's first phase
 */
export async function checkQuiet(ms = 1000) {
  let before;
  let ticksPerSecond;
  let sampler;
  try {
    ticksPerSecond = clockTicksPerSecond();
    before = processTicks();
    sampler = cpuSampler();
  } catch {
    return null;
  }
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = processTicks();
  const { seconds, machineBusyCores, benchProcessCores } = sampler.stop();
  const busyCores = Math.max(0, (machineBusyCores ?? 0) - benchProcessCores);
  const processes = busiest(before, after, seconds, ticksPerSecond, new Set([process.pid]));
  const warning = quietWarning(busyCores, processes);
  if (warning) console.log(warning);
  return { busyCores, processes, warning };
}

/** USER_HZ, the unit of /proc's CPU times (`getconf CLK_TCK`; 100 where getconf is missing). */
function clockTicksPerSecond() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/**
 * {@link checkQuiet} in the shape a benchmark keeps in its results (`machine.quietBefore`): the cores busy
 * outside it before the run, the three busiest processes and the warning (null when quiet).
 *
 * @example
 * info.quietBefore = await quietBefore(); // printed again under the report's load line when not quiet
 */
export async function quietBefore(ms = 1000) {
  const quiet = await checkQuiet(ms);
  if (!quiet) return null;
  return {
    busyCores: Math.round(quiet.busyCores * 100) / 100,
    busiest: quiet.processes.slice(0, 3).map((p) => ({ ...p, cores: Math.round(p.cores * 100) / 100 })),
    warning: quiet.warning,
  };
}

/**
 * Runs a benchmark's `main` after {@link checkQuiet}, and prints the warning again once `main` has ended,
 * under its results (where a reader looks), when the machine was not quiet.
 *
 * @example
 * afterQuietCheck(main).then(() => process.exit(0));
 */
export async function afterQuietCheck(main) {
  const quiet = await checkQuiet();
  try {
    return await main();
  } finally {
    if (quiet?.warning) console.log(`\n${quiet.warning}`);
  }
}
