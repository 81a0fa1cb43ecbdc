import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqp from 'amqplib';
import Redis from 'ioredis';
import { connect as natsConnect, StorageType } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDatabase, type TestDatabase } from './backends.js';
import { ADMIN_TOKEN, buildWorkspace, spawnHostProcess } from './helpers.js';
import { freeLoopbackPort } from './ports.js';

// Broker destinations end to end (docs/destinations.md), against the real RabbitMQ, NATS JetStream and
// Redis of this machine (.ci/run starts them): a webhook installation whose configuration declares a
// `destination` gets every accepted event in the broker, also when the host is killed mid-stream
// (at-least-once: a repeat carries the same event id), and a broker that cannot be reached makes
// attempts fail and be retried like an HTTP 503.

const HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

/** One kind of broker: a fresh place to publish to, its destination settings, and what arrived there. */
interface Broker {
  kind: 'rabbitmq' | 'nats' | 'redis-streams';
  /** A fresh queue / stream / key; the destination settings that publish to it. */
  create(): Promise<Record<string, unknown>>;
  /** The event ids of every message the place holds (repeats included). */
  eventIds(): Promise<string[]>;
  /** The same settings, pointed at a port nothing listens on. */
  unreachable(port: number): Record<string, unknown>;
  close(): Promise<void>;
}

const name = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

async function rabbitmq(): Promise<Broker> {
  const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const channel = await connection.createChannel();
  const queue = name('e2e_dest');
  return {
    kind: 'rabbitmq',
    async create() {
      await channel.assertQueue(queue, { durable: true });
      return { url: 'amqp://guest:guest@127.0.0.1:5672', queue };
    },
    async eventIds() {
      const ids: string[] = [];
      for (;;) {
        const message = await channel.get(queue, { noAck: true });
        if (!message) return ids;
        ids.push(JSON.parse(message.content.toString('utf8')).eventId as string);
      }
    },
    unreachable: (port) => ({ url: `amqp://guest:guest@127.0.0.1:${port}`, queue }),
    async close() {
      await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close();
    },
  };
}

async function nats(): Promise<Broker> {
  const connection = await natsConnect({ servers: '127.0.0.1:4222' });
  const jsm = await connection.jetstreamManager();
  const stream = name('E2E_DEST');
  const subject = `${stream.toLowerCase()}.events`;
  return {
    kind: 'nats',
    async create() {
      await jsm.streams.add({ name: stream, subjects: [subject], storage: StorageType.File });
      return { url: 'nats://127.0.0.1:4222', subject, stream };
    },
    async eventIds() {
      const { state } = await jsm.streams.info(stream);
      const ids: string[] = [];
      for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
        const message = await jsm.streams.getMessage(stream, { seq });
        ids.push(JSON.parse(Buffer.from(message.data).toString('utf8')).eventId as string);
      }
      return ids;
    },
    unreachable: (port) => ({ url: `nats://127.0.0.1:${port}`, subject, stream }),
    async close() {
      await jsm.streams.delete(stream).catch(() => undefined);
      await connection.close();
    },
  };
}

async function redisStreams(): Promise<Broker> {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  await redis.connect();
  const key = name('e2e:dest');
  return {
    kind: 'redis-streams',
    async create() {
      return { url: 'redis://127.0.0.1:6379', key };
    },
    async eventIds() {
      const entries = await redis.xrange(key, '-', '+');
      return entries.map(([, fields]) => fields[fields.indexOf('event_id') + 1] as string);
    },
    unreachable: (port) => ({ url: `redis://127.0.0.1:${port}`, key }),
    async close() {
      await redis.del(key);
      redis.disconnect();
    },
  };
}

const BROKERS = [
  ['rabbitmq', rabbitmq],
  ['nats', nats],
  ['redis-streams', redisStreams],
] as const;

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

type Deliveries = {
  deliveries: Array<{ id: string; state: string; eventId: string; attempts: Array<{ error?: string }> }>;
};

describe.each(BACKENDS.flatMap((backend) => BROKERS.map(([kind, open]) => [backend, kind, open] as const)))(
  'broker destination end to end, %s, %s',
  (backend, _kind, open) => {
    let dataDir: string;
    let database: TestDatabase | undefined;
    let broker: Broker;
    const children: ChildProcess[] = [];

    const spawnHost = (port: number) =>
      spawnHostProcess(port, {
        PLATFORM_DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database.url } : {}),
      });

    beforeAll(async () => {
      buildWorkspace();
      dataDir = await mkdtemp(join(tmpdir(), 'platform-dest-'));
      if (backend === 'postgres') database = await createTestDatabase();
      broker = await open();
    });
    afterAll(async () => {
      for (const c of children) c.kill('SIGKILL');
      await broker?.close();
      await rm(dataDir, { recursive: true, force: true });
      await database?.drop();
    });

    it('puts every accepted event in the broker, also when the host is killed mid-stream; a broker that cannot be reached is retried', async () => {
      const port = await freeLoopbackPort();
      const first = await spawnHost(port);
      children.push(first);
      const base = `http://127.0.0.1:${port}`;
      const install = async (space: string, destination: Record<string, unknown>) => {
        const res = await fetch(`${base}/v1/installations`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify({
            integration: 'webhook',
            space,
            configuration: {
              destination: { kind: broker.kind, ...destination },
              space_content_updated: true,
            },
          }),
        });
        const body = (await res.json()) as { id: string; status: string; configurationErrors?: unknown };
        expect(res.status, JSON.stringify(body)).toBe(201);
        expect(body.configurationErrors).toEqual([]);
        return body.id;
      };
      const post = async (space: string, i: number) => {
        const res = await fetch(`${base}/v1/events`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify({ type: 'space_content_updated', spaceId: space, revisionId: `r${i}` }),
        });
        expect(res.status).toBe(202);
        return ((await res.json()) as { eventId: string }).eventId;
      };

      // A bad destination is refused when saved, naming the field, and creates nothing.
      const refused = await fetch(`${base}/v1/installations`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({
          integration: 'webhook',
          space: 'refused',
          configuration: { destination: { kind: broker.kind, port: 'x' }, space_content_updated: true },
        }),
      });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toMatch(/destination\./);

      const id = await install('dest', await broker.create());
      const accepted: string[] = [];
      for (let i = 0; i < 30; i++) accepted.push(await post('dest', i));
      // Killed at once after the last acceptance: whatever was not yet published is taken up again.
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));

      const second = await spawnHost(port);
      children.push(second);
      const list = await waitFor(
        () =>
          fetch(`${base}/v1/installations/${id}/deliveries?limit=100`, { headers: HEADERS }).then(
            (r) => r.json() as Promise<Deliveries>,
          ),
        (l) => l.deliveries.length === accepted.length && l.deliveries.every((d) => d.state === 'succeeded'),
        45_000,
      );
      expect(list.deliveries.filter((d) => d.state !== 'succeeded')).toEqual([]);
      expect(new Set(list.deliveries.map((d) => d.eventId))).toEqual(new Set(accepted));
      // The attempt log shows the broker's acknowledgement (no HTTP status, no error).
      const last = list.deliveries[0]?.attempts.at(-1) as
        | { acknowledged?: boolean; error?: string }
        | undefined;
      expect(last?.acknowledged).toBe(true);
      expect(last?.error).toBeUndefined();
      const arrived = await broker.eventIds();
      // Every accepted event is in the broker; a repeat (a publish whose record the kill cut off) only
      // with an event id that was accepted.
      expect(accepted.filter((e) => !arrived.includes(e))).toEqual([]);
      expect(arrived.filter((e) => !accepted.includes(e))).toEqual([]);

      // A broker nobody answers at: the attempt fails with a broker code and is retried (spec schedule:
      // 1 s, 2 s, 4 s), recorded in the same attempt log as HTTP.
      const down = await install('down', broker.unreachable(await closedPort()));
      await post('down', 0);
      const failing = await waitFor(
        () =>
          fetch(`${base}/v1/installations/${down}/deliveries?limit=10`, { headers: HEADERS }).then(
            (r) => r.json() as Promise<Deliveries>,
          ),
        (l) => (l.deliveries[0]?.attempts.length ?? 0) >= 2,
        30_000,
      );
      const attempts = failing.deliveries[0]?.attempts ?? [];
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(failing.deliveries[0]?.state).not.toBe('succeeded');
      for (const attempt of attempts)
        expect(attempt.error).toMatch(/^(connection_refused|broker_unavailable):/);

      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }, 120_000);
  },
);
