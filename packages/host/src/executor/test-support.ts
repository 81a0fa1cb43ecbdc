import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutorLogger } from './types.js';

/** One log call captured by {@link collectingLogger}. */
export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  msg: string;
}

/**
 * A logger that keeps every entry, for tests.
 *
 * @example
 * const { logger, entries } = collectingLogger();
 */
export function collectingLogger(): { logger: ExecutorLogger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: LogEntry['level']) =>
    (fields: Record<string, unknown>, msg: string): void => {
      entries.push({ level, fields, msg });
    };
  return {
    entries,
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
  };
}

/**
 * A real HTTP server on 127.0.0.1 that counts hits and answers with `handler`.
 *
 * @example
 * const server = await startServer((req) => ({ status: 200, body: 'hi' }));
 * await server.close();
 */
export async function startServer(
  handler: (
    request: IncomingMessage,
    body: Buffer,
  ) => { status: number; body: string | Buffer; headers?: Record<string, string>; delayMs?: number },
): Promise<{ url: string; port: number; hits: () => number; close: () => Promise<void>; server: Server }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = handler(req, Buffer.concat(chunks));
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body);
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Median of a list of numbers.
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
