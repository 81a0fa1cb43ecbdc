import { expect, it } from 'vitest';
import { LONELY_WAITS, PROBE_EVERY } from './company-waits.js';
import { GroupCommit, shouldGather } from './group-commit.js';

/** A GroupCommit whose `run` records each group and can be held open until `release()`. */
function recorder(
  options: {
    failWhen?: (item: number) => boolean;
    maxBatch?: number;
    isolate?: (error: unknown) => boolean;
  } = {},
) {
  const groups: number[][] = [];
  let hold: Promise<void> | null = null;
  let release = () => {};
  const commit = new GroupCommit<number, string>({
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
    ...(options.isolate === undefined ? {} : { isolate: options.isolate }),
    run: async (items) => {
      groups.push([...items]);
      if (hold) await hold;
      if (items.some((item) => options.failWhen?.(item))) throw new Error(`bad item in ${items.join(',')}`);
      return items.map((item) => `done ${item}`);
    },
  });
  return {
    commit,
    groups,
    holdNext() {
      hold = new Promise((resolve) => {
        release = () => {
          hold = null;
          resolve();
        };
      });
    },
    release: () => release(),
  };
}

it('items submitted in one event-loop turn are written as one group, each caller getting its own result', async () => {
  const { commit, groups } = recorder();
  const results = await Promise.all([1, 2, 3, 4].map((n) => commit.submit(n)));
  expect(results).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
  expect(groups).toEqual([[1, 2, 3, 4]]);
});

it('items that arrive while a group is being written form the next group', async () => {
  const r = recorder();
  r.holdNext();
  const first = r.commit.submit(1);
  await new Promise((resolve) => setImmediate(resolve)); // group [1] is running (held)
  const later = [2, 3].map((n) => r.commit.submit(n));
  await new Promise((resolve) => setImmediate(resolve));
  expect(r.groups).toEqual([[1]]); // 2 and 3 wait for the running group
  r.release();
  expect(await first).toBe('done 1');
  expect(await Promise.all(later)).toEqual(['done 2', 'done 3']);
  expect(r.groups).toEqual([[1], [2, 3]]);
});

it('when a group fails, each item is retried alone: only the bad one fails', async () => {
  const { commit, groups } = recorder({ failWhen: (n) => n === 2 });
  const settled = await Promise.allSettled([1, 2, 3].map((n) => commit.submit(n)));
  expect(settled).toEqual([
    { status: 'fulfilled', value: 'done 1' },
    { status: 'rejected', reason: expect.objectContaining({ message: 'bad item in 2' }) },
    { status: 'fulfilled', value: 'done 3' },
  ]);
  expect(groups).toEqual([[1, 2, 3], [1], [2], [3]]);
});

it('a failure that is not about one item (isolate says no) fails the whole group at once, without retries', async () => {
  const { commit, groups } = recorder({ failWhen: () => true, isolate: () => false });
  const settled = await Promise.allSettled([1, 2, 3].map((n) => commit.submit(n)));
  expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
  expect(groups).toEqual([[1, 2, 3]]);
});

it('a group is at most maxBatch items', async () => {
  const { commit, groups } = recorder({ maxBatch: 2 });
  await Promise.all([1, 2, 3, 4, 5].map((n) => commit.submit(n)));
  expect(groups).toEqual([[1, 2], [3, 4], [5]]);
});

it('shouldGather: a new group waits for company only when items come closer together than gatherMs', () => {
  expect(shouldGather(10.5, 10, 2)).toBe(true);
  expect(shouldGather(12, 10, 2)).toBe(false);
  expect(shouldGather(30, 10, 2)).toBe(false);
  expect(shouldGather(10.5, Number.NEGATIVE_INFINITY, 2)).toBe(false); // the first item
  expect(shouldGather(10.5, 10, 0)).toBe(false); // off
});

/** A GroupCommit with `gatherMs` on a clock the test sets (`at.now`), recording each group. */
function gathering(gatherMs: number, maxBatch = 256) {
  const at = { now: 0 };
  const groups: number[][] = [];
  const commit = new GroupCommit<number, number>({
    gatherMs,
    maxBatch,
    now: () => at.now,
    run: async (items) => {
      groups.push([...items]);
      return [...items];
    },
  });
  return { at, groups, commit };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

it('gatherMs: a lone item is written at once; items close together wait gatherMs and go as one group', async () => {
  const { at, groups, commit } = gathering(40);
  at.now = 1000;
  await commit.submit(1); // nothing came before: no wait
  expect(groups).toEqual([[1]]);
  await nextTurn(); // its group has ended (what arrives while one is written goes next, without a wait)
  at.now = 1005; // 5 ms after the one before: a group that waits for company
  const startedAt = Date.now();
  const second = commit.submit(2);
  await nextTurn();
  await nextTurn();
  expect(groups).toEqual([[1]]);
  at.now = 1010;
  const third = commit.submit(3);
  expect(await Promise.all([second, third])).toEqual([2, 3]);
  expect(groups).toEqual([[1], [2, 3]]);
  expect(Date.now() - startedAt).toBeGreaterThanOrEqual(30); // the wait (a timer's ms, give or take a few)
  at.now = 2000; // long after: alone again, at once
  await commit.submit(4);
  expect(groups).toEqual([[1], [2, 3], [4]]);
});

it('gatherMs: a gathering group that reaches maxBatch is written at once', async () => {
  const { at, groups, commit } = gathering(60_000, 3);
  at.now = 1;
  await commit.submit(1);
  const rest = [2, 3, 4].map((n) => {
    at.now += 1;
    return commit.submit(n);
  });
  expect(await Promise.all(rest)).toEqual([2, 3, 4]); // long before the 60 s wait
  expect(groups).toEqual([[1], [2, 3, 4]]);
});

/**
 * Submits `item` 1 ms after the one before (so `shouldGather` says wait) and waits for its answer and for
 * its group's end; true when it was not written at once (it waited for company, `gatherMs` long).
 */
async function waitedAlone(
  commit: GroupCommit<number, number>,
  groups: number[][],
  at: { now: number },
  item: number,
): Promise<boolean> {
  at.now += 1;
  const answer = commit.submit(item);
  await nextTurn();
  await nextTurn();
  const waited = !groups.some((group) => group.includes(item));
  await answer;
  await nextTurn(); // its group has ended: the next item finds the writer idle
  return waited;
}

it('a publisher that posts one item at a time stops waiting after lonely waits; one group in PROBE_EVERY still waits', async () => {
  const { at, groups, commit } = gathering(300);
  at.now = 1000;
  const waited: number[] = [];
  for (let item = 1; item <= 2 + LONELY_WAITS + PROBE_EVERY; item++)
    if (await waitedAlone(commit, groups, at, item)) waited.push(item);
  // 1: the first, at once. 2–4: waits that gathered nothing. Then 31 groups at once, and the 32nd probes.
  expect(waited).toEqual([2, 3, 4, 5 + PROBE_EVERY - 1]);
  expect(groups.every((group) => group.length === 1)).toBe(true);
});

it('a probe that finds company makes the next groups wait again', async () => {
  const { at, groups, commit } = gathering(300);
  at.now = 1000;
  for (let item = 1; item <= 1 + LONELY_WAITS + PROBE_EVERY - 1; item++)
    await waitedAlone(commit, groups, at, item); // 3 lonely waits, then 31 groups at once
  const probe = 100;
  at.now += 1;
  const first = commit.submit(probe);
  await nextTurn();
  at.now += 1;
  const company = commit.submit(probe + 1); // company during the probe's wait
  await Promise.all([first, company]);
  expect(groups.at(-1)).toEqual([probe, probe + 1]);
  await nextTurn();
  // Waits found company again: the next lone item waits, as before any lonely wait.
  expect(await waitedAlone(commit, groups, at, 200)).toBe(true);
});

it('a publisher with 4 in flight: once full waits have found 4, a wait ends at its fourth item', async () => {
  const { at, groups, commit } = gathering(1000);
  at.now = 1000;
  await commit.submit(0); // the first, at once
  await nextTurn();
  /** One round trip of the publisher: 4 items, 1 ms apart; how long their group took (ms). */
  const round = async (base: number) => {
    const startedAt = performance.now();
    const items = [1, 2, 3, 4].map((i) => {
      at.now += 1;
      return commit.submit(base + i);
    });
    await Promise.all(items);
    await nextTurn();
    return performance.now() - startedAt;
  };
  const learning = await round(10); // nothing learnt yet: the wait runs its 1 000 ms
  expect(learning).toBeGreaterThanOrEqual(900);
  const learnt = await round(20); // 4 expected: written with its fourth item
  expect(learnt).toBeLessThan(500);
  expect(groups.slice(1)).toEqual([
    [11, 12, 13, 14],
    [21, 22, 23, 24],
  ]);
});

it('gatherMs must not be negative', () => {
  expect(() => new GroupCommit({ gatherMs: -1, run: async () => [] })).toThrow(
    /gatherMs must be >= 0, got -1/,
  );
});
