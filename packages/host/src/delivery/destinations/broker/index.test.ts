import { describe, expect, it } from 'vitest';
import { runBrokerAttempt } from './attempt.js';
import { ConnectionSlot } from './slot.js';

/** An opener whose connections are numbers, recording what it opened and closed. */
function recordingOpener(openMs = 0) {
  const log = { opened: 0, closed: [] as number[], lost: [] as (() => void)[], aborted: 0 };
  return {
    log,
    opener: {
      open: (lost: () => void, signal: AbortSignal) =>
        new Promise<number>((resolve) => {
          signal.addEventListener('abort', () => log.aborted++);
          log.lost.push(lost);
          setTimeout(() => resolve(++log.opened), openMs);
        }),
      close: async (connection: number) => {
        log.closed.push(connection);
      },
    },
  };
}

describe('ConnectionSlot', () => {
  it('shares one connection between concurrent users and opens a new one after it is lost', async () => {
    const { log, opener } = recordingOpener(5);
    const slot = new ConnectionSlot(opener);
    expect(await Promise.all([slot.get(), slot.get(), slot.get()])).toEqual([1, 1, 1]);
    expect(await slot.get()).toBe(1);
    log.lost[0]!(); // The broker closed it.
    expect(await slot.get()).toBe(2);
    await slot.close();
    expect(log.closed).toEqual([2]);
    await expect(slot.get()).rejects.toThrow(/closed/);
  });

  it('reset closes an open connection, aborts one still opening and closes it once it opens', async () => {
    const { log, opener } = recordingOpener(20);
    const slot = new ConnectionSlot(opener);
    expect(await slot.get()).toBe(1);
    slot.reset();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log.closed).toEqual([1]);
    const opening = slot.get();
    slot.reset();
    expect(log.aborted).toBe(1);
    expect(await opening).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log.closed).toEqual([1, 2]);
    expect(await slot.get()).toBe(3);
  });

  it('forgets a failed opening: the next use tries again', async () => {
    let calls = 0;
    const slot = new ConnectionSlot<number>({
      open: async () => {
        calls++;
        if (calls === 1) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return calls;
      },
      close: async () => {},
    });
    await expect(slot.get()).rejects.toThrow(/ECONNREFUSED/);
    expect(await slot.get()).toBe(2);
  });
});

describe('runBrokerAttempt', () => {
  it('acknowledges, times out at the deadline without waiting for the work, and maps failures', async () => {
    const ok = await runBrokerAttempt({ timeoutMs: 1000, work: async () => {}, classify: () => undefined });
    expect(ok).toMatchObject({ acknowledged: true });
    expect(ok.error).toBeUndefined();

    let timedOut = 0;
    const started = performance.now();
    const slow = await runBrokerAttempt({
      timeoutMs: 50,
      // the work ends long after the deadline: an attempt that waited for it would take 3 s
      work: () => new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 3000)),
      classify: () => undefined,
      onTimeout: () => timedOut++,
    });
    expect(slow.error).toEqual({ code: 'timeout', message: 'The receiver did not answer in time (50 ms)' });
    expect(performance.now() - started).toBeLessThan(1500);
    expect(timedOut).toBe(1);

    const refused = await runBrokerAttempt({
      timeoutMs: 1000,
      work: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      },
      classify: () => undefined,
    });
    expect(refused.error?.code).toBe('connection_refused');

    const rejected = await runBrokerAttempt({
      timeoutMs: 1000,
      work: async () => {
        throw new Error('WRONGTYPE');
      },
      classify: () => ({ code: 'broker_rejected', message: 'refused' }),
    });
    expect(rejected.error).toEqual({ code: 'broker_rejected', message: 'refused' });
  });
});
