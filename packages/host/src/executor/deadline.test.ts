import { describe, expect, it } from 'vitest';
import { raceSignal, resolveTimeout, startDeadline } from './deadline.js';

describe('deadline', () => {
  it('fires on its timer with cause timeout', async () => {
    const deadline = startDeadline(30);
    await new Promise((r) => setTimeout(r, 60));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.cause()).toBe('timeout');
    deadline.dispose();
  });

  it('follows the caller signal with its reason, even if already aborted', () => {
    const controller = new AbortController();
    const deadline = startDeadline(10_000, controller.signal);
    controller.abort(new Error('stop'));
    expect(deadline.cause()).toBe('aborted');
    expect((deadline.signal.reason as Error).message).toBe('stop');
    deadline.dispose();
    const early = startDeadline(10_000, AbortSignal.abort('gone'));
    expect(early.cause()).toBe('aborted');
    early.dispose();
  });

  it('raceSignal rejects on abort and passes values through', async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => {});
    const raced = raceSignal(never, controller.signal);
    controller.abort(new Error('late'));
    await expect(raced).rejects.toThrow('late');
    await expect(raceSignal(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
  });

  it('resolveTimeout validates', () => {
    expect(resolveTimeout(undefined, 5)).toBe(5);
    expect(resolveTimeout(20)).toBe(20);
    expect(() => resolveTimeout(-1)).toThrow(/positive number of milliseconds/);
    expect(() => resolveTimeout(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
