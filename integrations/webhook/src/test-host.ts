import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IntegrationEnvironment } from '@platform/api-client';
import { testEnvironment } from '@platform/runtime/testing';

/** A request the stand-in host received. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

/** What the stand-in host answers: status and JSON body, per `METHOD path`. */
export type HostRoutes = Record<string, { status: number; body: unknown }>;

/**
 * A real HTTP server on 127.0.0.1 standing in for the host API (tests only).
 * @example const host = await startTestHost({ 'GET /v1/x': { status: 200, body: {} } });
 */
export async function startTestHost(routes: HostRoutes): Promise<{
  url: string;
  requests: RecordedRequest[];
  routes: HostRoutes;
  close(): Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization });
      const route = routes[`${req.method} ${path}`] ?? {
        status: 404,
        body: { error: { code: 'not_found', message: `No route ${req.method} ${path}` } },
      };
      res.writeHead(route.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(route.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** Installation token used by the test environments. */
export const TEST_TOKEN = 'pit_webhook_test_token_0123456789';

/**
 * The environment of a webhook installation in a space or a site (tests only).
 * @example const env = webhookEnvironment('site', 'http://127.0.0.1:1234', { url: 'https://x', site_view: true });
 */
export function webhookEnvironment(
  place: 'space' | 'site',
  apiEndpoint: string,
  configuration: Record<string, unknown>,
  installationId = `inst_${place}`,
): IntegrationEnvironment {
  const publicEndpoint = `${apiEndpoint}/v1/integrations/webhook/installations/${installationId}/public`;
  const urls = { publicEndpoint, publicContentEndpoint: publicEndpoint };
  const shape = { status: 'active' as const, configuration, externalIds: [], urls };
  const owner = { integration: 'webhook', installation: installationId };
  return testEnvironment({
    apiEndpoint,
    apiTokens: { installation: TEST_TOKEN },
    integration: { name: 'webhook', version: '0.1.0', title: 'Webhooks', urls },
    installation: {
      id: installationId,
      target: place,
      ...shape,
      space_selection: { mode: 'all', spaces: [] },
    },
    ...(place === 'site' ? { siteInstallation: { site: 'site_1', ...owner, ...shape } } : {}),
    ...(place === 'space' ? { spaceInstallation: { space: 'spc_1', ...owner, ...shape } } : {}),
  });
}
