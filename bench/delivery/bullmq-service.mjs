// The BullMQ reference of the delivery benchmark: the most used Node.js queue doing the host's job, the
// way its documentation shows it. `POST /v1/events` adds a job (`queue.add`: one Redis round trip; the
// 202 goes out once Redis has it) and a BullMQ `Worker` with the host's concurrency signs the body with
// @platform/webhooks and POSTs it to the receiver with the host's headers; a non-2xx answer or a network
// error fails the attempt and BullMQ retries it: 4 attempts in all, 1 / 2 / 4 s apart + 0-10 % (a custom
// backoff, the spec's; BullMQ's own `exponential` jitter would go below the base). Done jobs are removed
// (`removeOnComplete`), as a BullMQ deployment tuned for throughput does.
// Two threads, as the host: this one accepts, a worker thread runs the BullMQ Worker. Redis is started by
// bullmq.mjs (AOF, `appendfsync everysec`: an acknowledged job may be lost in the last second before a
// crash, where the host syncs before its 202).
// Started by bullmq.mjs (spawnHost with this script); env: PORT, HOST, REDIS_PORT, BULL_TARGET,
// BULL_SECRET, BULL_INSTALLATION, BULL_CONCURRENCY.
import { isMainThread, Worker as Thread } from 'node:worker_threads';
import { Queue, Worker } from 'bullmq';
import { Agent } from 'undici';
import { postSigned, serveEvents } from './event-front.mjs';

const QUEUE = 'platform-bench-deliveries';
const connection = { host: '127.0.0.1', port: Number(process.env.REDIS_PORT), maxRetriesPerRequest: null };
const target = process.env.BULL_TARGET;
const secret = process.env.BULL_SECRET;
const installationId = process.env.BULL_INSTALLATION;
const concurrency = Number(process.env.BULL_CONCURRENCY ?? 64);

/** The spec's retry delays (docs/contracts.md "Retry policy"): 1, 2, 4 s, each + 0-10 %. */
const specBackoff = (attemptsMade) => 1000 * 2 ** (attemptsMade - 1) * (1 + Math.random() * 0.1);
const dispatcher = isMainThread ? null : new Agent({ connections: concurrency, keepAliveTimeout: 30_000 });

async function deliver(job) {
  const status = await postSigned({
    target,
    dispatcher,
    secret,
    job: job.data,
    deliveryId: `bull_${job.id}`,
    attempt: job.attemptsMade + 1,
    agent: 'bullmq',
  });
  if (status < 200 || status > 299) throw new Error(`receiver answered ${status}`);
}

if (!isMainThread) {
  const worker = new Worker(QUEUE, deliver, {
    connection,
    concurrency,
    settings: { backoffStrategy: specBackoff },
  });
  worker.on('error', (error) => console.error('bullmq worker:', error.message));
} else {
  const queue = new Queue(QUEUE, {
    connection,
    defaultJobOptions: {
      attempts: 4,
      backoff: { type: 'spec' },
      removeOnComplete: true,
      removeOnFail: true,
    },
  });
  await queue.waitUntilReady();
  const thread = new Thread(new URL(import.meta.url), { env: process.env });
  thread.on('error', (error) => console.error('bullmq worker thread:', error));
  const server = serveEvents(installationId, (job) => queue.add('deliver', job));
  process.once('SIGTERM', () => {
    server.close();
    void thread.terminate().then(() => queue.close().then(() => process.exit(0)));
  });
}
