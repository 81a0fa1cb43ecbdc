import { once } from 'node:events';
import type { Server } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';

/**
 * A loopback port that was free a moment ago (listened on, then closed): for a server a test
 * starts later, or as a port where connections are refused.
 *
 * @example
 * const refused = `http://127.0.0.1:${await freeLoopbackPort()}/hook`;
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `server` on 127.0.0.1, on a port the system picks, and answers its base URL.
 *
 * @example
 * const base = await listenOnLoopback(createServer((req, res) => res.end('ok'))); // 'http://127.0.0.1:41234'
 */
export async function listenOnLoopback(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
