// The BullMQ reference of bench:delivery (bullmq.mjs): a real redis-server, the real service process and the
// benchmark's verifying receiver. Skipped where no redis-server is installed (the benchmark skips the row).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findRedisServer, startBullmq } from './bullmq.mjs';
import { R, startReceiver } from './lib.mjs';

describe('findRedisServer', () => {
  it('takes $BENCH_REDIS_SERVER, then PATH, and says null when there is none', () => {
    expect(findRedisServer({ PATH: '/nonexistent-dir' }, [])).toBeNull();
    expect(findRedisServer({ BENCH_REDIS_SERVER: '/nonexistent/redis-server', PATH: '' }, [])).toBeNull();
    // a file that is not executable is not a server
    expect(findRedisServer({ BENCH_REDIS_SERVER: new URL(import.meta.url).pathname }, [])).toBeNull();
    expect(findRedisServer({ BENCH_REDIS_SERVER: process.execPath }, [])).toBe(process.execPath);
  });
});

describe.skipIf(findRedisServer() === null)('the BullMQ reference', () => {
  it('delivers signed events, retries 1 / 2 / 4 s apart (+0-10 %) up to 4 attempts, and leaves no Redis behind', async () => {
    // The receiver is a child process of plain node: not vitest's `--conditions source` (TypeScript sources).
    const execArgv = process.execArgv;
    process.execArgv = [];
    const receiver = await startReceiver().finally(() => {
      process.execArgv = execArgv;
    });
    const bull = await startBullmq({ receiverUrl: receiver.url, concurrency: 8, postConcurrency: 4 });
    try {
      expect(bull).not.toBeNull();
      // Every attempt answered 500 (after the signature was verified: a bad one would be a 401).
      receiver.configure({ secrets: [bull.secret], failRate: 1 });
      const { results } = await bull.poster.burst(3, 3);
      const ids = results.map((r) => r.eventId);
      expect(results.every((r) => !r.error)).toBe(true);
      expect(await receiver.waitForEvents(ids, 20_000, 'settled')).toBe(true);
      const { records } = await receiver.dump();
      for (const id of ids) {
        const attempts = records.filter((r) => r[R.eventId] === id);
        expect(attempts.map((r) => r[R.status])).toEqual([500, 500, 500, 500]);
        expect(attempts.map((r) => r[R.attempt])).toEqual([1, 2, 3, 4]);
        expect(new Set(attempts.map((r) => r[R.deliveryId])).size).toBe(1);
        for (const [i, base] of [1000, 2000, 4000].entries()) {
          const gap = attempts[i + 1][R.arrivedAt] - attempts[i][R.answeredAt];
          expect(gap, `retry ${i + 1} of ${id}`).toBeGreaterThanOrEqual(base - 5);
          expect(gap, `retry ${i + 1} of ${id}`).toBeLessThan(base * 1.1 + 1000); // generous: a busy machine
        }
      }
    } finally {
      await bull?.stop();
      await receiver.stop();
    }
    // Redis was stopped and its folder (AOF) removed.
    const redisDir = bull.redisDir;
    expect(existsSync(redisDir)).toBe(false);
    expect(() => process.kill(bull.redisPid, 0)).toThrow();
  }, 60_000);
});
