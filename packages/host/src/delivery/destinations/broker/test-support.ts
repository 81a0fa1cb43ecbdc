import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { type AddressPolicy, parseAllowPrivateTargets } from '../../../net/index.js';
import type { DestinationMessage } from '../types.js';

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
