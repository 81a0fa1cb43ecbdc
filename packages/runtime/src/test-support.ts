// What the runtime's tests share: an HTTP server on loopback that records each request (a real host
// API or OAuth provider), a site installation, and the answer of an event without its hook. Not part
// of the package's API (no entry point exports it).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { environmentUrls, type SiteInstallation } from '@platform/api-client';
import { expect } from 'vitest';
import { createIntegration } from './integration';
import { envelopeRequest } from './testing';

/** One request a {@link listenOnLoopback} server received, with its body read whole. */
export interface RecordedRequest {
  url: string;
  method: string;
  authorization: string | undefined;
  body: string;
}

/** Answers a request once its body is read. */
export type LoopbackHandler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A started {@link listenOnLoopback} server. */
export interface LoopbackServer {
  server: Server;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Every request received so far, oldest first (tests may empty it). */
  seen: RecordedRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 (a free port) that records every request in `seen` and lets
 * `handler` answer it.
 *
 * @example
 * const api = await listenOnLoopback((_req, _body, res) => res.writeHead(204).end());
 * afterAll(() => api.close());
 */
export async function listenOnLoopback(handler: LoopbackHandler): Promise<LoopbackServer> {
  const seen: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      seen.push({
        url: req.url ?? '',
        method: req.method ?? '',
        authorization: req.headers.authorization,
        body,
      });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An active installation of the integration on the site `site_1`, its public endpoint on loopback,
 * with `fields` replaced.
 *
 * @example
 * testEnvironment({ siteInstallation: testSiteInstallation({ configuration: { domain: 'x.example' } }) });
 */
export function testSiteInstallation(fields: Partial<SiteInstallation> = {}): SiteInstallation {
  return {
    site: 'site_1',
    integration: 'hello',
    installation: 'inst_test',
    configuration: {},
    status: 'active',
    externalIds: [],
    urls: environmentUrls({ publicEndpoint: 'http://127.0.0.1:8081/p' }),
    ...fields,
  };
}

/**
 * Expects an integration without a hook for `event` to answer it 404 with the error `code`.
 *
 * @example
 * await expectNoHookAnswer({ type: 'fetch_published_script', eventId: 'e', siteId: 's' }, 'no_published_script');
 */
export async function expectNoHookAnswer(event: Record<string, unknown>, code: string): Promise<void> {
  const response = await createIntegration({}).fetch(envelopeRequest(event));
  expect(response.status).toBe(404);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
}
