import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { expect, it } from 'vitest';
import { ZodError } from 'zod';
import { type AddressPolicy, blockPrivateTargets, parseAllowPrivateTargets } from '../../../net/index.js';
import type { AttemptResult } from '../../sender.js';
import type { Destination, DestinationAddress, DestinationClient, DestinationMessage } from '../types.js';

/**
 * Test helpers of the broker destinations' suites (real brokers on 127.0.0.1).
 *
 * @example
 * const client = rabbitmqDestination.open(config, { policy: loopbackPolicy() });
 * const result = await client.send(testMessage(), { timeoutMs: 5000 });
 */
export function loopbackPolicy(): AddressPolicy {
  return parseAllowPrivateTargets('127.0.0.0/8,::1/128');
}

/** A name no other test run uses (queue, subject, stream, key). */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** A signed-looking message; each call gets new event and delivery ids. */
export function testMessage(overrides: Partial<DestinationMessage> = {}): DestinationMessage {
  const eventId = `evt_${randomUUID()}`;
  return {
    body: JSON.stringify({ eventId, type: 'page.updated', data: { title: 'héllo', n: 1 } }),
    eventId,
    eventType: 'page.updated',
    deliveryId: `dlv_${randomUUID()}`,
    attempt: 1,
    headers: { 'x-platform-signature': 't=1767225600,v1=abc123', 'user-agent': 'Platform-Webhooks/0.1.0' },
    ...overrides,
  };
}

/** A client of `destination` opened on the saved configuration `input`, loopback addresses allowed. */
export function openOnLoopback<C>(destination: Destination<C>, input: unknown): DestinationClient {
  return destination.open(destination.parse(input), { policy: loopbackPolicy() });
}

/** Opens a client on `input`, sends `message` once (5 s deadline) and closes it: the attempt's result. */
export async function sendOnce<C>(
  destination: Destination<C>,
  input: unknown,
  message: DestinationMessage = testMessage(),
): Promise<AttemptResult> {
  const client = openOnLoopback(destination, input);
  const result = await client.send(message, { timeoutMs: 5000 });
  await client.close();
  return result;
}

/** The configuration checks of a broker destination's suite, for {@link brokerSuite}'s `itValidatesTheConfiguration`. */
export interface ConfigurationCases<C> {
  /** Saved configurations `parse` refuses, each with the field (path) one of its zod issues names. */
  invalid: readonly (readonly [input: unknown, field: string])[];
  /** A valid configuration with credentials in it. */
  valid: unknown;
  /** What the parsed `valid` connects to (a part of its endpoint, credentials included). */
  endpoint: DestinationAddress & Record<string, unknown>;
  /** What `describe()` gives for it: no credentials. */
  text: string;
  /** More checks of the parsed `valid` configuration. */
  check?: (config: C) => void;
}

/**
 * The configuration test of a broker destination: each invalid input is refused naming its field; the valid
 * one connects to `endpoint`, is checked against the policy at the endpoint's address only, and `describe()`
 * gives `text`, which shows neither the user name nor the password.
 */
function itValidatesTheConfiguration<C extends { endpoint: DestinationAddress }>(
  destination: Destination<C>,
  cases: ConfigurationCases<C>,
): void {
  it('validates the configuration, naming the field; describe() shows no credentials', () => {
    for (const [input, field] of cases.invalid) {
      expect(
        zodIssuePaths(() => destination.parse(input)),
        JSON.stringify(input),
      ).toContain(field);
    }
    const config = destination.parse(cases.valid);
    cases.check?.(config);
    expect(config.endpoint).toMatchObject(cases.endpoint);
    expect(destination.addresses(config)).toEqual([{ host: cases.endpoint.host, port: cases.endpoint.port }]);
    const described = destination.describe(config);
    expect(described).toBe(cases.text);
    for (const credential of [cases.endpoint.username, cases.endpoint.password]) {
      if (typeof credential === 'string') expect(described).not.toContain(credential);
    }
  });
}

/**
 * The helpers of one broker destination's suite, bound to the destination and its real broker on
 * 127.0.0.1:`brokerPort`: clients opened on a saved configuration (loopback allowed), the configuration
 * test, and the cases every broker destination passes.
 *
 * @example
 * const broker = brokerSuite(natsDestination, 4222);
 * const result = await broker.sendOnce({ url: 'nats://127.0.0.1:4222', subject });
 */
export function brokerSuite<C extends { endpoint: DestinationAddress }>(
  destination: Destination<C>,
  brokerPort: number,
) {
  return {
    /** {@link openOnLoopback} on this destination. */
    open: (input: unknown) => openOnLoopback(destination, input),
    /** {@link sendOnce} on this destination. */
    sendOnce: (input: unknown, message?: DestinationMessage) => sendOnce(destination, input, message),
    /** The configuration test: invalid inputs, and what a valid one connects to and shows. */
    itValidatesTheConfiguration: (cases: ConfigurationCases<C>) =>
      itValidatesTheConfiguration(destination, cases),
    /** {@link itBehavesLikeABrokerDestination} on this destination and broker. */
    itBehavesLikeABrokerDestination: (newTarget: () => Promise<BrokerTarget>) =>
      itBehavesLikeABrokerDestination(destination, brokerPort, newTarget),
  };
}

/** A loopback port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers: a broker that hangs. */
export async function stalledServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `read` until it returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`nothing arrived within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A TCP proxy on 127.0.0.1 in front of a broker: `cut()` resets every connection through it, as a
 * broker restart or a network cut would.
 */
export async function tcpProxy(
  targetPort: number,
): Promise<{ port: number; cut: () => void; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const cut = () => {
    for (const socket of sockets) socket.resetAndDestroy();
  };
  return {
    port,
    cut,
    close: async () => {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fresh place on the broker to publish to (queue, stream, key), for {@link itBehavesLikeABrokerDestination}. */
export interface BrokerTarget {
  /** The destination's configuration, with the broker at `host:port`. */
  config(host: string, port: number): unknown;
  /** The event ids stored at the target, as read back with the bare client. */
  storedEventIds(): Promise<string[]>;
}

/**
 * The cases every broker destination passes, against the real broker on 127.0.0.1:`brokerPort`: it
 * reconnects after the connection is cut, a closed port is `connection_refused` quickly, a loopback
 * broker under a blocking policy is `target_blocked`, and a broker that accepts and never answers
 * ends the attempt at its deadline with `timeout`.
 *
 * @example
 * itBehavesLikeABrokerDestination(natsDestination, 4222, async () => ({ config: ..., storedEventIds: ... }));
 */
export function itBehavesLikeABrokerDestination<C>(
  destination: Destination<C>,
  brokerPort: number,
  newTarget: () => Promise<BrokerTarget>,
): void {
  const open = (target: BrokerTarget, port: number, policy = loopbackPolicy()) =>
    destination.open(destination.parse(target.config('127.0.0.1', port)), { policy });

  it('reconnects after the connection is cut (a broker restart), losing nothing', async () => {
    const target = await newTarget();
    const proxy = await tcpProxy(brokerPort);
    const client = open(target, proxy.port);
    const first = testMessage();
    expect((await client.send(first, { timeoutMs: 5000 })).acknowledged).toBe(true);
    proxy.cut();
    const second = testMessage();
    // The cut may reach the client before or during this attempt: at most one failure, then a new connection.
    let result = await client.send(second, { timeoutMs: 5000 });
    if (!result.acknowledged) {
      expect(['broker_unavailable', 'connection_reset']).toContain(result.error?.code);
      result = await client.send(second, { timeoutMs: 5000 });
    }
    expect(result.acknowledged).toBe(true);
    await client.close();
    await proxy.close();
    const stored = await eventually(async () => {
      const ids = await target.storedEventIds();
      return ids.includes(second.eventId) ? ids : undefined;
    });
    expect(stored).toContain(first.eventId);
  });

  it('reports a closed port as connection_refused, quickly', async () => {
    const client = open(await newTarget(), await closedPort());
    const result = await client.send(testMessage(), { timeoutMs: 5000 });
    await client.close();
    expect(result.error?.code).toBe('connection_refused');
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('refuses a private address under a blocking policy (target_blocked), before connecting', async () => {
    const client = open(await newTarget(), brokerPort, blockPrivateTargets());
    const result = await client.send(testMessage(), { timeoutMs: 5000 });
    await client.close();
    expect(result.error?.code).toBe('target_blocked');
    expect(result.error?.message).toContain('loopback');
  });

  it('ends the attempt at its deadline against a broker that accepts and never answers', async () => {
    const stalled = await stalledServer();
    const client = open(await newTarget(), stalled.port);
    const started = performance.now();
    const result = await client.send(testMessage(), { timeoutMs: 400 });
    const took = performance.now() - started;
    await client.close();
    await stalled.close();
    expect(result.error?.code).toBe('timeout');
    expect(took).toBeGreaterThanOrEqual(390);
    // A busy 2-core machine may be late by a few hundred ms; a missing deadline would take 10 s or more.
    expect(took).toBeLessThan(400 + 1500);
  });
}

/** The paths (`port`, `url`, `routingKey`...) of the zod issues `parse` throws; fails if it does not throw. */
function zodIssuePaths(parse: () => unknown): string[] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ZodError);
    return (error as ZodError).issues.map((issue) => issue.path.join('.'));
  }
  throw new Error('the configuration parsed');
}
