// The benchmark's load generator spread over worker threads: each thread runs its own `eventPoster`
// (load.mjs) with its own connections, and a burst is split between them. One thread of undici POSTs tops
// out at a few thousand events per second; past that a benchmark of several hosts would measure its own
// load generator (`bench:scale-out --load-threads=T`).
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { eventPoster } from './load.mjs';

if (!isMainThread && workerData?.posterThread) {
  const poster = eventPoster(workerData.options);
  parentPort.on('message', async (message) => {
    if (message.type === 'burst') {
      const run = await poster.burst(message.count, message.concurrency);
      parentPort.postMessage({ id: message.id, ...run });
    } else if (message.type === 'drop') {
      poster.drop(message.url);
    } else if (message.type === 'close') {
      await poster.close();
      parentPort.postMessage({ id: message.id });
    }
  });
}

/**
 * `eventPoster(options)` on `threads` worker threads (1: in this thread, as before). Its `burst(count,
 * concurrency)` gives each thread an even share of the events and of the requests in flight, and joins their
 * results; `paced` needs one thread (a schedule split over threads would drift apart).
 *
 * @example
 * const poster = threadedPoster({ hostUrls, adminToken, installationId, connections: 64 }, 4);
 * const { start, results } = await poster.burst(40_000, 64);
 * await poster.close();
 */
export function threadedPoster(options, threads = 1) {
  if (threads <= 1) return eventPoster(options);
  const perThread = { ...options, connections: Math.max(1, Math.ceil(options.connections / threads)) };
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL(import.meta.url), { workerData: { posterThread: true, options: perThread } }),
  );
  let nextId = 1;
  const pending = new Map();
  for (const worker of workers) {
    worker.on('message', (message) => {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    });
    worker.on('error', (error) => console.error(`load generator thread: ${error}`));
  }
  const ask = (worker, message) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      worker.postMessage({ ...message, id });
    });
  const share = (total, i) => Math.floor(total / threads) + (i < total % threads ? 1 : 0);
  return {
    threads,
    async burst(count, concurrency) {
      const runs = await Promise.all(
        workers.map((worker, i) =>
          ask(worker, {
            type: 'burst',
            count: share(count, i),
            concurrency: Math.max(1, share(concurrency, i)),
          }),
        ),
      );
      return { start: Math.min(...runs.map((r) => r.start)), results: runs.flatMap((r) => r.results) };
    },
    paced() {
      throw new Error('a paced phase needs one load thread (--load-threads=1)');
    },
    drop(url) {
      for (const worker of workers) worker.postMessage({ type: 'drop', url });
    },
    async close() {
      await Promise.all(workers.map((worker) => ask(worker, { type: 'close' })));
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
