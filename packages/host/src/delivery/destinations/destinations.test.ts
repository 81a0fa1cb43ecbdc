import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import {
  type AddressInfo,
  connect,
  createServer as createTcpServer,
  type Server as TcpServer,
} from 'node:net';
import { verify } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../../test/ports.js';
import type { FinalState } from '../../jobs/policy.js';
import { createGuardedDispatcher, parseAllowPrivateTargets } from '../../net/index.js';
import {
  type AttemptEnd,
  createDeliveryEngine,
  type DeliveryJob,
  type DeliveryQueue,
  type DeliveryTarget,
  type RecordedAttempt,
} from '../engine.js';
import type { AttemptResult } from '../sender.js';
import {
  DESTINATIONS,
  type Destination,
  type DestinationClient,
  DestinationClients,
  declaredDestination,
  destinationOf,
  destinationProblems,
  httpDestination,
  safeUrl,
} from './index.js';

const SECRET = 'whsec_destinations_test_secret_0123456789';
const policy = parseAllowPrivateTargets('127.0.0.1/32');

describe('the registry', () => {
  it('has HTTP by default, and the kind an installation declares', () => {
    expect(DESTINATIONS.http).toBe(httpDestination);
    expect(Object.keys(DESTINATIONS)).toEqual(['http', 'rabbitmq', 'nats', 'redis-streams']);
    expect(declaredDestination({ url: 'https://hooks.example.com/in' })).toEqual({
      kind: 'http',
      config: { url: 'https://hooks.example.com/in' },
    });
    const destination = { kind: 'nats', url: 'nats://127.0.0.1:4222', subject: 'events' };
    expect(declaredDestination({ url: 'https://ignored.example.com', destination })).toEqual({
      kind: 'nats',
      config: { url: 'nats://127.0.0.1:4222', subject: 'events' },
    });
    expect(declaredDestination({ destination: 'rabbitmq' })).toEqual({ kind: '', config: 'rabbitmq' });
    expect(declaredDestination({})).toBeNull();
  });

  it('names the kinds there are when one is unknown, and checks the settings of a known one', () => {
    expect(destinationOf('http')).toEqual({ destination: httpDestination });
    expect(destinationOf('toString')).toEqual({
      problem:
        'destination.kind: "toString" is not a destination; use one of: http, rabbitmq, nats, redis-streams',
    });
    expect(destinationProblems({ destination: { kind: 'smtp' } })).toEqual([
      'destination.kind: "smtp" is not a destination; use one of: http, rabbitmq, nats, redis-streams',
    ]);
    expect(destinationProblems({ destination: {} })).toEqual([
      'destination.kind: required; use one of: http, rabbitmq, nats, redis-streams',
    ]);
    expect(destinationProblems({ destination: { kind: 'http' } })).toEqual([
      'destination.url: Invalid input: expected string, received undefined',
    ]);
    expect(
      destinationProblems({ destination: { kind: 'http', url: 'https://hooks.example.com/in' } }),
    ).toEqual([]);
    expect(destinationProblems({ url: 'https://hooks.example.com/in' })).toEqual([]);
  });

  it('describes an HTTP destination without credentials or query', () => {
    const config = httpDestination.parse({ url: 'https://user:pw@hooks.example.com:8443/in?token=abc' });
    expect(httpDestination.describe(config)).toBe('http https://hooks.example.com:8443/in');
    expect(httpDestination.addresses(config)).toEqual([{ host: 'hooks.example.com', port: 8443 }]);
    expect(httpDestination.addresses({ url: 'http://127.0.0.1/x' })).toEqual([
      { host: '127.0.0.1', port: 80 },
    ]);
    expect(safeUrl('nope')).toBe('(not a URL)');
  });
});

describe('DestinationClients', () => {
  it('keeps one client per installation while its configuration stays, and closes the one it replaces', async () => {
    const events: string[] = [];
    const counting: Destination<{ n: number }> = {
      kind: 'counting',
      parse: (config) => config as { n: number },
      describe: (config) => `counting ${config.n}`,
      addresses: () => [],
      open(config) {
        events.push(`open ${config.n}`);
        return {
          send: async () => ({ startedAt: 0, durationMs: 0, acknowledged: true }),
          close: async () => {
            events.push(`close ${config.n}`);
          },
        };
      },
    };
    const clients = new DestinationClients({ policy });
    const first = clients.client('inst_1', counting, { n: 1 });
    expect(clients.client('inst_1', counting, { n: 1 })).toBe(first);
    const second = clients.client('inst_1', counting, { n: 2 });
    expect(second).not.toBe(first);
    clients.client('inst_2', counting, { n: 1 });
    await clients.close();
    expect(events).toEqual(['open 1', 'close 1', 'open 2', 'open 1', 'close 2', 'close 1']);
  });
});

describe('the HTTP destination', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        res.writeHead(req.url === '/busy' ? 503 : 204).end();
      });
    });
    url = await listenOnLoopback(server);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends one signed POST with sendWebhook, and checks the URL against the address policy', async () => {
    const dispatcher = createGuardedDispatcher(policy);
    const message = {
      body: '{"type":"page_created","eventId":"evt_1"}',
      eventId: 'evt_1',
      eventType: 'page_created',
      deliveryId: 'dlv_1',
      attempt: 2,
      headers: { 'X-Custom': 'yes' },
      signing: { secrets: [SECRET] },
    };
    const client = httpDestination.open(httpDestination.parse({ url: `${url}/in` }), {
      policy,
      dispatcher,
      userAgentVersion: '9.9.9',
    });
    const result = await client.send(message, { timeoutMs: 2_000 });
    expect(result.statusCode).toBe(204);
    const [request] = seen.splice(0);
    expect(request?.body).toBe(message.body);
    expect(request?.headers['x-custom']).toBe('yes');
    expect(request?.headers['x-platform-delivery-attempt']).toBe('2');
    expect(request?.headers['user-agent']).toBe('Platform-Webhooks/9.9.9');
    await expect(
      verify(message.body, String(request?.headers['x-platform-signature']), SECRET),
    ).resolves.toBeTruthy();

    const blocked = httpDestination.open(
      { url: `${url}/in` },
      { policy: parseAllowPrivateTargets(undefined) },
    );
    const refused = await blocked.send(message, { timeoutMs: 2_000 });
    expect(refused.error?.code).toBe('invalid_target');
    expect(seen).toEqual([]);
    await client.close();
    await dispatcher.close();
  });
});

/**
 * A destination for the seam's own test: a line protocol over a real TCP socket on 127.0.0.1. The broker
 * answers `ok` to each JSON line it stores; a refused connection is `broker_unavailable`, as a broker's.
 */
const lineDestination: Destination<{ port: number }> = {
  kind: 'line',
  parse: (config) => ({ port: Number((config as { port?: unknown }).port) }),
  describe: (config) => `line 127.0.0.1:${config.port}`,
  addresses: (config) => [{ host: '127.0.0.1', port: config.port }],
  open(config): DestinationClient {
    return {
      send: (message, options) =>
        new Promise<AttemptResult>((resolve) => {
          const startedAt = Date.now();
          const socket = connect(config.port, '127.0.0.1');
          const end = (result: Omit<AttemptResult, 'startedAt' | 'durationMs'>) => {
            socket.destroy();
            resolve({ startedAt, durationMs: Date.now() - startedAt, ...result });
          };
          socket.setTimeout(options.timeoutMs, () => end({ error: { code: 'timeout', message: 'no ack' } }));
          socket.on('error', () =>
            end({ error: { code: 'broker_unavailable', message: 'connection refused' } }),
          );
          socket.on('connect', () => socket.write(`${JSON.stringify(message)}\n`));
          socket.on('data', (data) => end(String(data).startsWith('ok') ? { acknowledged: true } : {}));
        }),
      close: async () => undefined,
    };
  },
};

type Job = DeliveryJob;

class MemoryQueue implements DeliveryQueue<Job> {
  readonly attempts: RecordedAttempt[] = [];
  #queued: Array<{ job: Job; runAt: number }> = [];
  #done = new Map<string, (state: FinalState) => void>();

  enqueue(job: Job): Promise<FinalState> {
    this.#queued.push({ job, runAt: Date.now() });
    return new Promise((resolve) => this.#done.set(job.id, resolve));
  }
  async claim(limit: number): Promise<Job[]> {
    const now = Date.now();
    const due = this.#queued.filter((entry) => entry.runAt <= now).slice(0, limit);
    this.#queued = this.#queued.filter((entry) => !due.includes(entry));
    return due.map((entry) => entry.job);
  }
  async finish(job: Job, attempt: RecordedAttempt, end: AttemptEnd): Promise<void> {
    this.attempts.push(attempt);
    if ('state' in end) this.#done.get(job.id)?.(end.state);
    else this.#queued.push({ job: { ...job, attempt: job.attempt + 1 }, runAt: end.runAt });
  }
  async nextDueAt(): Promise<number | null> {
    return this.#queued.length === 0 ? null : Math.min(...this.#queued.map((entry) => entry.runAt));
  }
}

describe('the delivery engine on a destination other than HTTP', () => {
  let broker: TcpServer | undefined;
  const stored: Array<{ body: string; headers: Record<string, string> }> = [];

  afterAll(() => new Promise<void>((resolve) => (broker ? broker.close(() => resolve()) : resolve())));

  it('signs like HTTP, retries while the broker is down, and ends succeeded on its acknowledgement', async () => {
    // A free port, closed again: the broker is down for the first attempt.
    const probe = createTcpServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const clients = new DestinationClients({ policy });
    const target: DeliveryTarget = {
      url: lineDestination.describe({ port }),
      secrets: [SECRET],
      destination: { kind: 'line', client: clients.client('inst_1', lineDestination, { port }) },
    };
    const queue = new MemoryQueue();
    const engine = createDeliveryEngine({
      queue,
      resolveTarget: () => target,
      dispatcher: createGuardedDispatcher(policy),
      policy,
      userAgentVersion: '0.1.0',
      rng: () => 0,
      timeoutMs: 2_000,
      idleCheckMs: 50,
    });
    engine.start();
    const body = '{"type":"page_created","eventId":"evt_2"}';
    const done = queue.enqueue({
      id: 'dlv_2',
      eventId: 'evt_2',
      eventType: 'page_created',
      body,
      attempt: 1,
    });
    // The broker comes up during the first retry's wait (1 s).
    setTimeout(() => {
      broker = createTcpServer((socket) => {
        socket.setEncoding('utf8');
        socket.on('data', (line: string) => {
          stored.push(JSON.parse(line) as { body: string; headers: Record<string, string> });
          socket.write('ok\n');
        });
      }).listen(port, '127.0.0.1');
    }, 200);
    await expect(done).resolves.toBe('succeeded');
    await engine.stop();
    await clients.close();

    expect(
      queue.attempts.map((a) => a.error?.code ?? (a.acknowledged ? 'acknowledged' : a.statusCode)),
    ).toEqual(['broker_unavailable', 'acknowledged']);
    expect(stored).toHaveLength(1);
    const [message] = stored;
    expect(message?.body).toBe(body);
    expect(message?.headers['x-platform-delivery-id']).toBe('dlv_2');
    expect(message?.headers['x-platform-delivery-attempt']).toBe('2');
    await expect(verify(body, message?.headers['x-platform-signature'], SECRET)).resolves.toBeTruthy();
  }, 15_000);

  it('fails a delivery at once when the declared destination cannot be used', async () => {
    const queue = new MemoryQueue();
    const engine = createDeliveryEngine({
      queue,
      resolveTarget: () => ({
        url: 'smtp:',
        secrets: [SECRET],
        destination: { kind: 'smtp', problem: 'unknown' },
      }),
      dispatcher: createGuardedDispatcher(policy),
      policy,
      userAgentVersion: '0.1.0',
      idleCheckMs: 50,
    });
    engine.start();
    const done = queue.enqueue({
      id: 'dlv_3',
      eventId: 'evt_3',
      eventType: 'page_created',
      body: '{}',
      attempt: 1,
    });
    await expect(done).resolves.toBe('failed');
    await engine.stop();
    expect(queue.attempts.map((a) => a.error)).toEqual([{ code: 'invalid_target', message: 'unknown' }]);
  });
});
