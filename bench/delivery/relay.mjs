// A stateless relay: the reference row of the delivery benchmark. It does the HTTP work any host must do
// for one delivery (receive `POST /v1/events`, answer 202, sign the body, POST it to the receiver with the
// host's headers, 64 in flight) and nothing else: no validation, no storage, no queue that survives a
// crash. Two threads, as the host: this one accepts, a worker thread signs and sends (bodies handed over
// in one message per event-loop turn). What it reaches is what a host could reach if its durable part
// cost nothing.
// Started by run.mjs (spawnHost with this script); env: PORT, HOST, RELAY_TARGET, RELAY_SECRET,
// RELAY_INSTALLATION, RELAY_CONCURRENCY.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { sign } from '@platform/webhooks';
import { Agent, request } from 'undici';

const target = process.env.RELAY_TARGET;
const secret = process.env.RELAY_SECRET;
const installationId = process.env.RELAY_INSTALLATION;
const concurrency = Number(process.env.RELAY_CONCURRENCY ?? 64);
const dispatcher = isMainThread ? null : new Agent({ connections: concurrency, keepAliveTimeout: 30_000 });

const queue = [];
let active = 0;

async function send({ body, eventId, type }) {
  const bytes = Buffer.from(body, 'utf8');
  const signature = await sign(bytes, [secret], { timestamp: Math.floor(Date.now() / 1000) });
  try {
    const res = await request(target, {
      method: 'POST',
      dispatcher,
      body: bytes,
      headers: {
        'content-type': 'application/json',
        'x-platform-signature': signature,
        'x-platform-event-id': eventId,
        'x-platform-event-type': type,
        'x-platform-delivery-id': `dlv_${randomBytes(12).toString('base64url')}`,
        'x-platform-delivery-attempt': '1',
        'user-agent': 'Platform-Webhooks/relay',
      },
    });
    await res.body.dump();
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
  createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/events') {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      event.eventId ??= `evt_${randomBytes(16).toString('base64url')}`;
      handOver({
        body: JSON.stringify({ ...event, installationId }),
        eventId: event.eventId,
        type: event.type,
      });
      const out = JSON.stringify({ eventId: event.eventId });
      res
        .writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) })
        .end(out);
    });
  }).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
}
