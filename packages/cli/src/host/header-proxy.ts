import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { CliError, EXIT } from '../errors.js';

/**
 * Parses `--headers "Name: value, Other: value"` into a header map; throws a usage error naming
 * the bad entry.
 *
 * @example
 * ```ts
 * parseHeaders('Authorization: Bearer x, X-Env: dev'); // { authorization: 'Bearer x', 'x-env': 'dev' }
 * ```
 */
export function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(':');
    const name = colon > 0 ? entry.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new CliError(
        'usage',
        `--headers: "${entry}" is not "Name: value" (separate several with commas).`,
        EXIT.usage,
      );
    }
    out[name.toLowerCase()] = entry.slice(colon + 1).trim();
  }
  return out;
}

/** A local forwarder that adds headers to each request before passing it on to `target`. */
export interface HeaderProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a forwarder on 127.0.0.1 (any free port): every request goes to `target` (same method,
 * path below it, body and headers, plus `headers`), and its answer comes back unchanged. The body
 * is not touched, so signatures still verify.
 *
 * @example
 * ```ts
 * const proxy = await startHeaderProxy('http://localhost:3000/webhook', { 'x-env': 'dev' });
 * await proxy.close();
 * ```
 */
export async function startHeaderProxy(
  target: string,
  headers: Record<string, string>,
): Promise<HeaderProxy> {
  const base = new URL(target);
  const server: Server = createServer((req, res) => {
    const outgoing: IncomingHttpHeaders = { ...req.headers, ...headers, host: base.host };
    const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send(base, { method: req.method, headers: outgoing }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`platform listen could not reach ${target}: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
