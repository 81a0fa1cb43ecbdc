// A CPU budget for one benchmark process: the process (all its threads, present and future) is moved into
// a cgroup of its own whose CFS quota lets it use at most `cores` cores over each 100 ms period. This is how
// `bench:scale-out --host-cpus=F` gives each host the same budget, as if each ran on a machine of its own
// (docs/benchmarks.md, "Two hosts, each with its own CPU budget"): on a machine with 2 shared cores a second
// host otherwise competes with the first for the same cores.
//
// Needs write access to the cgroup file system (root, on a machine with the cpu controller mounted): cgroup
// v1 (`/sys/fs/cgroup/cpu`) or v2 (`/sys/fs/cgroup` with `cpu` in `cgroup.controllers`). The cgroup is
// removed by the function `limitCpu` returns, and at clean-up however the benchmark ends.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onCleanup } from './cleanup.mjs';

const PERIOD_US = 100_000;
const V1 = '/sys/fs/cgroup/cpu';
const V2 = '/sys/fs/cgroup';
let made = 0;

/** Which cgroup layout this machine has for the cpu controller, or null. */
function layout() {
  if (existsSync(join(V1, 'cpu.cfs_quota_us'))) return 'v1';
  try {
    if (readFileSync(join(V2, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('cpu')) return 'v2';
  } catch {
    // no unified hierarchy
  }
  return null;
}

/**
 * Limits process `pid` to `cores` cores (e.g. 0.5) until `release()`; `throttledSeconds()` is how long
 * the cgroup has been held back by its quota so far (the budget was the bound for that long).
 *
 * @example
 * const budget = limitCpu(host.pid, 0.4, 'host-1');
 * // ... measure ...
 * budget.release();
 */
export function limitCpu(pid, cores, label) {
  if (!(cores > 0)) throw new RangeError(`limitCpu: cores must be above 0, got ${cores}`);
  const kind = layout();
  if (!kind) {
    throw new Error(
      'a CPU budget needs the cgroup cpu controller (/sys/fs/cgroup/cpu or cgroup v2 with "cpu" in cgroup.controllers); none here',
    );
  }
  const dir = join(kind === 'v1' ? V1 : V2, `platform-bench-${process.pid}-${++made}-${label}`);
  try {
    mkdirSync(dir);
    const quota = Math.round(cores * PERIOD_US);
    if (kind === 'v1') {
      writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quota));
    } else {
      writeFileSync(join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
    }
    // Moves every thread of the process; threads it starts later stay in the cgroup.
    writeFileSync(join(dir, 'cgroup.procs'), String(pid));
  } catch (error) {
    throw new Error(
      `a CPU budget needs write access to ${dir} (run the benchmark as root): ${error instanceof Error ? error.message : error}`,
    );
  }
  const remove = () => {
    try {
      // A cgroup is removed once its processes are gone or moved back to the root.
      const procs = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
      for (const p of procs) writeFileSync(join(kind === 'v1' ? V1 : V2, 'cgroup.procs'), p);
      rmdirSync(dir);
    } catch {
      // already removed
    }
  };
  const unregister = onCleanup(remove);
  return {
    cores,
    throttledSeconds() {
      try {
        const stat = readFileSync(join(dir, 'cpu.stat'), 'utf8');
        const v1 = /^throttled_time (\d+)/m.exec(stat); // ns
        if (v1) return Number(v1[1]) / 1e9;
        const v2 = /^throttled_usec (\d+)/m.exec(stat);
        return v2 ? Number(v2[1]) / 1e6 : 0;
      } catch {
        return 0;
      }
    },
    release() {
      unregister();
      remove();
    },
  };
}
