import { expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

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
