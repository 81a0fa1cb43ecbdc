// Is the machine quiet before a benchmark starts? Figures are compared across runs and sessions, and on
// 2 shared cores one forgotten CPU-bound process (a `node -e 'for(;;){}'` left from an experiment, a test
// run, a build) takes a core's worth of headroom from every phase without showing in any of the
// benchmark's own columns. `checkQuiet()` samples the machine for a moment before the first phase and
// names the processes that were busy, so a run that measured a busy machine says so at its top.
import { readdirSync, readFileSync } from 'node:fs';
import { procCpuSeconds } from './host-process.mjs';
import { cpuSampler } from './lib.mjs';

/** Above this many cores busy outside the benchmark before it starts, it warns. */
export const QUIET_CORES = 0.25;

/** CPU seconds (user + system) and name of every process now, keyed by pid; pids that vanish are skipped. */
export function processCpu() {
  const out = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      out.set(Number(pid), { name, seconds: procCpuSeconds(Number(pid)) });
    } catch {
      // the process ended between readdir and read
    }
  }
  return out;
}

/**
 * The processes that used CPU between two {@link processCpu} snapshots `seconds` apart, busiest first, in
 * cores, leaving out `exclude` (this benchmark's own pid). A process that started in between counts from
 * zero.
 *
 * @example
 * busiest(new Map([[7, { name: 'node', seconds: 1 }]]), new Map([[7, { name: 'node', seconds: 1.9 }]]), 1);
 * // [{ pid: 7, name: 'node', cores: 0.9 }]
 */
export function busiest(before, after, seconds, exclude = new Set()) {
  const rows = [];
  for (const [pid, { name, seconds: used }] of after) {
    if (exclude.has(pid)) continue;
    const cores = (used - (before.get(pid)?.seconds ?? 0)) / seconds;
    if (cores > 0) rows.push({ pid, name, cores });
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
  let sampler;
  try {
    before = processCpu();
    sampler = cpuSampler();
  } catch {
    return null;
  }
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = processCpu();
  const { seconds, machineBusyCores, benchProcessCores } = sampler.stop();
  const busyCores = Math.max(0, (machineBusyCores ?? 0) - benchProcessCores);
  const processes = busiest(before, after, seconds, new Set([process.pid]));
  const warning = quietWarning(busyCores, processes);
  if (warning) console.log(warning);
  return { busyCores, processes, warning };
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
