import { describe, expect, it } from 'vitest';
import type { Io } from './io.js';
import { formatBytes, formatDuration, withProgress } from './progress.js';

function memoryIo(tty: boolean): Io & { err: string[] } {
  const err: string[] = [];
  return {
    err,
    stdout: () => {},
    stderr: (t) => err.push(t),
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    env: {},
    cwd: '.',
  };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('withProgress', () => {
  it('prints one plain line in CI, with the elapsed time', async () => {
    const io = memoryIo(false);
    expect(await withProgress(io, 'Bundling', async () => 42)).toBe(42);
    expect(io.err.join('')).toMatch(/^✔ Bundling \(\d+ ms\)\n$/);
    await expect(withProgress(io, 'Failing', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(io.err.at(-1)).toMatch(/^✖ Failing \(\d+ ms\)\n$/);
  });

  it('spins on a terminal only for steps that last, then erases the spinner', async () => {
    const fast = memoryIo(true);
    await withProgress(fast, 'Quick', async () => 1, undefined, { ttyOnly: true });
    expect(fast.err).toEqual([]);
    const slow = { ...memoryIo(true), env: { NO_COLOR: '1' } };
    await withProgress(slow, 'Slow', () => wait(400));
    const text = slow.err.join('');
    expect(text).toMatch(/⠋ Slow \d+ ms/);
    expect(text).toContain('\r\u001b[2K✔ Slow (');
    expect(text).toMatch(/✔ Slow \(\d+ ms\)\n$/);
  });

  it('formats sizes and durations', () => {
    expect([formatBytes(512), formatBytes(12_600), formatBytes(3 * 1024 * 1024)]).toEqual([
      '512 B',
      '12.3 KiB',
      '3.00 MiB',
    ]);
    expect([formatDuration(420.4), formatDuration(1250)]).toEqual(['420 ms', '1.3 s']);
  });
});
