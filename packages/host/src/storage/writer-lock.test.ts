import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { StorageError } from './errors.js';
import { WriterLock } from './writer-lock.js';

/**
 * The other thread: the same WriterLock code (bundled from the TS source), driven by messages:
 * {op: 'acquire', timeoutMs} answers 'acquired' or 'timeout'; {op: 'release'} answers 'released';
 * {op: 'exit'} ends the thread at once (holding whatever it holds).
 */
const DRIVER = `
import { parentPort, workerData } from 'node:worker_threads';
import { WriterLock } from './writer-lock.mjs';
const lock = WriterLock.from(workerData.buffer);
const slot = workerData.slot;
parentPort.on('message', async (m) => {
  if (m.op === 'acquire') {
    try { await lock.acquire(slot, m.timeoutMs); parentPort.postMessage('acquired'); }
    catch (e) { parentPort.postMessage(e.code === 'unavailable' ? 'timeout' : 'error: ' + e.message); }
  } else if (m.op === 'release') { lock.release(slot); parentPort.postMessage('released'); }
  else if (m.op === 'exit') process.exit(0);
});
parentPort.postMessage('ready');
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'writer-lock-'));
  await build({
    entryPoints: [fileURLToPath(new URL('./writer-lock.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: join(dir, 'writer-lock.mjs'),
    logLevel: 'silent',
  });
  await writeFile(join(dir, 'driver.mjs'), DRIVER);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A worker thread using `slot` of `lock`; `send` resolves with its next answer. */
async function thread(lock: WriterLock, slot: number) {
  const worker = new Worker(join(dir, 'driver.mjs'), { workerData: { buffer: lock.buffer, slot } });
  const answers: string[] = [];
  const waiters: ((answer: string) => void)[] = [];
  worker.on('message', (answer: string) => {
    const waiter = waiters.shift();
    if (waiter) waiter(answer);
    else answers.push(answer);
  });
  const next = () =>
    new Promise<string>((resolve) => {
      const answer = answers.shift();
      if (answer !== undefined) resolve(answer);
      else waiters.push(resolve);
    });
  expect(await next()).toBe('ready');
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    send(message: { op: string; timeoutMs?: number }) {
      worker.postMessage(message);
      return next();
    },
    /** Posts without waiting for the answer (read it later with `next`). */
    post(message: { op: string; timeoutMs?: number }) {
      worker.postMessage(message);
    },
    next,
    exited,
    terminate: () => worker.terminate(),
  };
}

/** Runs `body` with a new lock and another thread on its slot 1, terminated afterwards whatever happens. */
async function withOtherThread(
  body: (lock: WriterLock, other: Awaited<ReturnType<typeof thread>>) => Promise<void>,
): Promise<void> {
  const lock = WriterLock.create();
  const other = await thread(lock, 1);
  try {
    await body(lock, other);
  } finally {
    await other.terminate();
  }
}

const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

it('excludes across threads, and the waiter gets the lock as soon as it is released', () =>
  withOtherThread(async (lock, other) => {
    expect(lock.acquire(0, 1000)).toBeUndefined(); // free: taken synchronously
    other.post({ op: 'acquire', timeoutMs: 5000 });
    const answered = other.next();
    expect(await settledWithin(answered, 100)).toBe(false); // still waiting while we hold it
    const released = performance.now();
    lock.release(0);
    expect(await answered).toBe('acquired');
    expect(performance.now() - released).toBeLessThan(1000); // woken, not polling on a timer
    // Now the other thread holds it: we wait, and get it when it releases.
    const ours = lock.acquire(0, 5000);
    expect(ours).toBeInstanceOf(Promise);
    expect(await settledWithin(ours as Promise<void>, 100)).toBe(false);
    expect(await other.send({ op: 'release' })).toBe('released');
    await ours;
    expect(lock.held).toBe(true);
    lock.release(0);
    expect(lock.held).toBe(false);
  }));

it('hands the lock to the waiting thread instead of letting the releaser take it again', () =>
  withOtherThread(async (lock, other) => {
    expect(lock.acquire(0, 1000)).toBeUndefined();
    other.post({ op: 'acquire', timeoutMs: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the other thread is waiting now
    const answered = other.next();
    lock.release(0);
    // Re-acquiring at once, in the same turn, must not jump the queue.
    const again = lock.acquire(0, 5000);
    expect(again).toBeInstanceOf(Promise);
    expect(await answered).toBe('acquired');
    expect(await settledWithin(again as Promise<void>, 50)).toBe(false);
    expect(await other.send({ op: 'release' })).toBe('released');
    await again;
    lock.release(0);
  }));

it('a wait that times out rejects with StorageError unavailable and leaves the lock usable', () =>
  withOtherThread(async (lock, other) => {
    expect(await other.send({ op: 'acquire', timeoutMs: 1000 })).toBe('acquired');
    const started = performance.now();
    const error = await (lock.acquire(0, 80) as Promise<void>).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('unavailable');
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
    // Our withdrawn wait does not receive the lock: the release frees it, and we take it synchronously.
    expect(await other.send({ op: 'release' })).toBe('released');
    expect(lock.held).toBe(false);
    expect(lock.acquire(0, 1000)).toBeUndefined();
    lock.release(0);
  }));

it('releaseAbandoned frees the lock of a thread that ended while holding it', () =>
  withOtherThread(async (lock, other) => {
    expect(await other.send({ op: 'acquire', timeoutMs: 1000 })).toBe('acquired');
    other.post({ op: 'exit' });
    await other.exited;
    const ours = lock.acquire(0, 5000) as Promise<void>;
    expect(await settledWithin(ours, 50)).toBe(false);
    lock.releaseAbandoned(1);
    await ours;
    lock.release(0);
    expect(lock.held).toBe(false);
  }));

it('refuses a bad slot, a foreign buffer and a release by a non-holder', () => {
  const lock = WriterLock.create();
  expect(() => lock.acquire(8, 10)).toThrow(/slot must be an integer from 0 to 7/);
  expect(() => WriterLock.from(new SharedArrayBuffer(4))).toThrow(/SharedArrayBuffer of WriterLock.create/);
  expect(() => lock.release(0)).toThrow(/does not hold/);
});
