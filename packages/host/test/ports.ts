import { createServer } from 'node:net';

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
