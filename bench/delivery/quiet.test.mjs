import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { busiest, checkQuiet, processCpu, QUIET_CORES, quietWarning } from './quiet.mjs';

describe('bench: is the machine quiet before a run', () => {
  it('ranks the processes that used CPU between two snapshots, in cores, without the excluded ones', () => {
    const before = new Map([
      [10, { name: 'postgres', seconds: 5 }],
      [11, { name: 'node', seconds: 1 }],
      [12, { name: 'bench', seconds: 0 }],
    ]);
    const after = new Map([
      [10, { name: 'postgres', seconds: 5.1 }],
      [11, { name: 'node', seconds: 2.9 }],
      [12, { name: 'bench', seconds: 4 }],
      [13, { name: 'new', seconds: 0.2 }], // started in between: counts from zero
    ]);
    expect(busiest(before, after, 2, new Set([12]))).toEqual([
      { pid: 11, name: 'node', cores: expect.closeTo(0.95, 6) },
      { pid: 13, name: 'new', cores: expect.closeTo(0.1, 6) },
      { pid: 10, name: 'postgres', cores: expect.closeTo(0.05, 6) },
    ]);
  });

  it('warns above the limit, naming the three busiest, and not at or below it', () => {
    const processes = [
      { pid: 8660, name: 'node', cores: 0.98 },
      { pid: 3001, name: 'beam.smp', cores: 0.02 },
      { pid: 1, name: 'process_api', cores: 0.01 },
      { pid: 77, name: 'kdamond.0', cores: 0.01 },
    ];
    const warning = quietWarning(1.02, processes);
    expect(warning).toContain('1.02 cores busy before the run');
    expect(warning).toContain('pid 8660 node 0.98, pid 3001 beam.smp 0.02, pid 1 process_api 0.01)');
    expect(warning).not.toContain('kdamond');
    expect(quietWarning(QUIET_CORES, processes)).toBeNull();
    expect(quietWarning(0.05, [])).toBeNull();
  });

  it('reads real processes from /proc, this one among them', () => {
    const cpu = processCpu();
    expect(cpu.get(process.pid)?.name).toBeTruthy();
    expect(cpu.get(process.pid)?.seconds).toBeGreaterThan(0);
  });

  it('names a CPU-bound process that runs beside it', async () => {
    const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const result = await checkQuiet(1000);
      // Bounds a loaded CI machine cannot break: the hog gets a share of a core however busy the others are,
      // and the machine is busier than the limit with it.
      expect(result.busyCores).toBeGreaterThan(QUIET_CORES);
      expect(result.warning).not.toBeNull();
      expect(result.processes.find((p) => p.pid === hog.pid)?.cores).toBeGreaterThan(0.05);
    } finally {
      hog.kill('SIGKILL');
    }
  });
});
