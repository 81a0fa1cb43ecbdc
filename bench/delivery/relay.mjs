// A stateless relay: the reference row of the delivery benchmark. It does the HTTP work any host must do
// for one delivery (receive `POST /v1/events`, answer 202, sign the body, POST it to the receiver with the
// host's headers, 64 in flight) and nothing else: no validation, no storage, no queue that survives a
// crash. Two threads, as the host: this one accepts, a worker thread signs and sends (bodies handed over
// in one message per event-loop turn). What it reaches is what a host could reach if its durable part
// cost nothing.
// Started by run.mjs (spawnHost with this script); env: PORT, HOST, RELAY_TARGET, RELAY_SECRET,
// RELAY_INSTALLATION, RELAY_CONCURRENCY.
import { randomBytes } from 'node:crypto';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { Agent } from 'undici';
import { postSigned, serveEvents } from './event-front.mjs';

const target = process.env.RELAY_TARGET;
const secret = process.env.RELAY_SECRET;
const installationId = process.env.RELAY_INSTALLATION;
const concurrency = Number(process.env.RELAY_CONCURRENCY ?? 64);
const dispatcher = isMainThread ? null : new Agent({ connections: concurrency, keepAliveTimeout: 30_000 });

const queue = [];
let active = 0;

async function send(job) {
  try {
    await postSigned({
      target,
      dispatcher,
      secret,
      job,
      deliveryId: `dlv_${randomBytes(12).toString('base64url')}`,
      attempt: 1,
      agent: 'relay',
    });
  } catch {
    // a reference, not a delivery service: the benchmark counts what arrived
  }
}

function pump() {
  while (active < concurrency && queue.length > 0) {
    active++;
    void send(queue.shift()).finally(() => {
      active--;
      pump();
    });
  }
}

if (!isMainThread) {
  parentPort.on('message', (jobs) => {
    queue.push(...jobs);
    pump();
  });
} else {
  const sender = new Worker(new URL(import.meta.url), { env: process.env });
  let batch = [];
  const handOver = (job) => {
    if (batch.length === 0) {
      setImmediate(() => {
        sender.postMessage(batch);
        batch = [];
      });
    }
    batch.push(job);
  };
  serveEvents(installationId, handOver);
}
