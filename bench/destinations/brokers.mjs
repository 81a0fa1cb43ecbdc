// Broker destinations against bare clients (issue 27): for each broker, the same N signed events published
// through the destination's client (packages/host/src/delivery/destinations/<kind>) and through the bare
// library client (amqplib confirm channel / nats js.publish / ioredis XADD), with the same number in flight,
// in alternating rounds of one run. Prints each side's rate (median of the rounds) and the ratio
// destination / bare (target: at least 0.5).
//
//   npm run bench:destinations -- --messages=5000 --concurrency=64 --rounds=3 --only=rabbitmq,nats,redis
//
// Needs the brokers of .ci/run on 127.0.0.1 (RabbitMQ 5672 guest/guest, NATS JetStream 4222, Redis 6379).
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { generateSecret, sign } from '@platform/webhooks';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { connect, headers as natsHeaders, StorageType } from 'nats';
import { importHostInternals } from '../host-internals.mjs';

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const N = Number(arg('messages', '5000'));
const CONCURRENCY = Number(arg('concurrency', '64'));
const ROUNDS = Number(arg('rounds', '3'));
const BODY_BYTES = Number(arg('body-bytes', '400'));
const ONLY = arg('only', 'rabbitmq,nats,redis').split(',');
const TIMEOUT_MS = 10_000;

// The destinations are internal to @platform/host: bundled from source (bench/host-internals.mjs).
const dest = await importHostInternals(
  'destinations',
  [
    "export { rabbitmqDestination } from './delivery/destinations/rabbitmq/index.ts';",
    "export { natsDestination } from './delivery/destinations/nats/index.ts';",
    "export { redisStreamsDestination, REDIS_STREAM_FIELDS } from './delivery/destinations/redis-streams/index.ts';",
    "export { brokerHeaders } from './delivery/destinations/broker/index.ts';",
    "export { parseAllowPrivateTargets } from './net/index.ts';",
  ].join('\n'),
);
const policy = dest.parseAllowPrivateTargets('127.0.0.0/8');

/** N signed events of about BODY_BYTES bytes (`ofRound` makes their delivery ids, the NATS msgID, unique per round). */
async function makeMessages(secret) {
  const messages = [];
  for (let i = 0; i < N; i++) {
    const eventId = `evt_${randomUUID()}`;
    const head = JSON.stringify({ eventId, type: 'page.updated', data: { pageId: `pg_${i}`, text: '' } });
    const body = head.replace('"text":""', `"text":"${'x'.repeat(Math.max(0, BODY_BYTES - head.length))}"`);
    const signature = await sign(Buffer.from(body), [secret], { timestamp: Math.floor(Date.now() / 1000) });
    messages.push({
      body,
      eventId,
      eventType: 'page.updated',
      deliveryId: `dlv_${randomUUID()}`,
      attempt: 1,
      headers: { 'x-platform-signature': signature, 'user-agent': 'Platform-Webhooks/bench' },
    });
  }
  return messages;
}

/** Publishes every message with CONCURRENCY in flight; returns messages per second. */
async function drive(messages, publishOne) {
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < messages.length) {
        const message = messages[next++];
        if (!(await publishOne(message))) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (failures > 0) throw new Error(`${failures} of ${messages.length} publishes failed`);
  return messages.length / seconds;
}

const ofRound = (messages, round, side) =>
  messages.map((m) => ({ ...m, deliveryId: `${m.deliveryId}_${round}_${side}` }));

/**
 * Opens one of the host's broker destinations on `config` with the benchmark's policy: the client
 * (to close) and its side of the comparison (one publish, `true` once the broker acknowledged it).
 */
function openDestination(destination, config) {
  const client = destination.open(destination.parse(config), { policy });
  return {
    client,
    send: (m) => client.send(m, { timeoutMs: TIMEOUT_MS }).then((r) => r.acknowledged === true),
  };
}

async function rabbitmqCase() {
  const queue = `bench_dest_${randomUUID().slice(0, 8)}`;
  const admin = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const adminChannel = await admin.createChannel();
  await adminChannel.assertQueue(queue, { durable: true });
  const { client, send } = openDestination(dest.rabbitmqDestination, {
    url: 'amqp://guest:guest@127.0.0.1:5672',
    queue,
  });
  const bareModel = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const bare = await bareModel.createConfirmChannel();
  const sides = {
    destination: send,
    bare: (m) =>
      new Promise((resolve) =>
        bare.publish(
          '',
          queue,
          Buffer.from(m.body),
          {
            persistent: true,
            mandatory: true,
            messageId: m.eventId,
            type: m.eventType,
            contentType: 'application/json',
            headers: dest.brokerHeaders(m),
          },
          (error) => resolve(!error),
        ),
      ),
  };
  return {
    sides,
    between: () => adminChannel.purgeQueue(queue),
    close: async () => {
      await client.close();
      await adminChannel.deleteQueue(queue);
      await bareModel.close();
      await admin.close();
    },
  };
}

async function natsCase() {
  const stream = `BENCH_DEST_${randomUUID().slice(0, 8)}`;
  const subject = `${stream.toLowerCase()}.events`;
  const bareConnection = await connect({ servers: '127.0.0.1:4222' });
  const jsm = await bareConnection.jetstreamManager();
  await jsm.streams.add({ name: stream, subjects: [subject], storage: StorageType.File });
  const js = bareConnection.jetstream();
  const { client, send } = openDestination(dest.natsDestination, { url: 'nats://127.0.0.1:4222', subject });
  const sides = {
    destination: send,
    bare: async (m) => {
      const h = natsHeaders();
      for (const [k, v] of Object.entries(dest.brokerHeaders(m))) h.set(k, v);
      const ack = await js.publish(subject, Buffer.from(m.body), {
        msgID: m.deliveryId,
        headers: h,
        timeout: TIMEOUT_MS,
      });
      return !ack.duplicate;
    },
  };
  return {
    sides,
    between: () => jsm.streams.purge(stream),
    close: async () => {
      await client.close();
      await jsm.streams.delete(stream);
      await bareConnection.close();
    },
  };
}

async function redisCase() {
  const key = `bench_dest_${randomUUID().slice(0, 8)}`;
  const bare = new Redis(6379, '127.0.0.1');
  const { client, send } = openDestination(dest.redisStreamsDestination, {
    url: 'redis://127.0.0.1:6379',
    key,
  });
  const sides = {
    destination: send,
    bare: async (m) => {
      const values = [
        m.body,
        m.eventId,
        m.eventType,
        m.deliveryId,
        String(m.attempt),
        JSON.stringify(dest.brokerHeaders(m)),
      ];
      await bare.xadd(key, '*', ...dest.REDIS_STREAM_FIELDS.flatMap((name, i) => [name, values[i]]));
      return true;
    },
  };
  return {
    sides,
    between: () => bare.del(key),
    close: async () => {
      await client.close();
      await bare.del(key);
      await bare.quit();
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const messages = await makeMessages(generateSecret());
console.log(
  `broker destinations vs bare clients: ${N} signed ${BODY_BYTES}-byte events, ${CONCURRENCY} in flight, ` +
    `${ROUNDS} alternating rounds each (node ${process.version}, ${cpus().length} cores: ${cpus()[0]?.model ?? '?'})`,
);
const cases = { rabbitmq: rabbitmqCase, nats: natsCase, redis: redisCase };
const summary = [];
for (const name of ONLY) {
  const open = cases[name];
  if (!open) throw new Error(`--only: unknown broker "${name}" (rabbitmq, nats, redis)`);
  const run = await open();
  // Warm-up: connections open, JIT warm (a tenth of the messages, each side).
  for (const side of ['destination', 'bare'])
    await drive(ofRound(messages.slice(0, N / 10), 'warm', side), run.sides[side]);
  await run.between();
  const rates = { destination: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which side goes first, so neither always runs on a fuller broker.
    const order = round % 2 === 0 ? ['destination', 'bare'] : ['bare', 'destination'];
    for (const side of order) {
      rates[side].push(await drive(ofRound(messages, round, side), run.sides[side]));
      await run.between();
    }
  }
  await run.close();
  const d = median(rates.destination);
  const b = median(rates.bare);
  const ratio = d / b;
  summary.push({ name, d, b, ratio });
  const fmt = (list) => list.map((r) => r.toFixed(0)).join(', ');
  console.log(
    `${name.padEnd(9)} destination ${d.toFixed(0).padStart(6)} msg/s [${fmt(rates.destination)}]  ` +
      `bare ${b.toFixed(0).padStart(6)} msg/s [${fmt(rates.bare)}]  ratio ${ratio.toFixed(2)} ${ratio >= 0.5 ? 'ok' : 'BELOW 0.5'}`,
  );
}
process.exitCode = summary.every((s) => s.ratio >= 0.5) ? 0 : 1;
