import { execFileSync } from 'node:child_process';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repoRoot, type TestHost } from '../../packages/host/test/helpers.js';

export { repoRoot };

/**
 * Starts an HTTP server on `address` (a free port) answering with `listener`; returns it and its port.
 * @example const { server, port } = await listenOn('127.0.0.1', (_req, res) => res.end('reached'));
 */
export async function listenOn(
  address: string,
  listener: RequestListener,
): Promise<{ server: Server; port: number }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A one-file manifest for the integrations these checks publish. */
export function manifest(name: string, scopes: string[] = ['space:content:read']): string {
  return `name: ${name}\ntitle: ${name}\ndescription: security check\norganization: test\nvisibility: private\nscopes:\n${scopes.map((s) => `  - ${s}`).join('\n')}\n`;
}

/** Publishes a raw ESM bundle under `name` and installs it into a new space; returns the installation. */
export async function publishAndInstall(
  t: TestHost,
  name: string,
  bundle: string,
  space = `space-${name}`,
): Promise<{ id: string; urls: { publicEndpoint: string } }> {
  const published = await t.api('POST', '/v1/integrations', { manifest: manifest(name), bundle });
  if (published.status !== 201) throw new Error(`publish ${name}: ${JSON.stringify(published.body)}`);
  const installed = await t.api<{ id: string; urls: { publicEndpoint: string } }>(
    'POST',
    '/v1/installations',
    {
      integration: name,
      space,
      configuration: {},
    },
  );
  if (installed.status !== 201) throw new Error(`install ${name}: ${JSON.stringify(installed.body)}`);
  return installed.body;
}

/** Builds the dashboard's assets (the host serves them at `/`). */
export function buildDashboard(): void {
  execFileSync(process.execPath, [join(repoRoot, 'packages/dashboard/scripts/build-assets.mjs')], {
    stdio: 'pipe',
  });
}

export { CHROMIUM } from '../../packages/dashboard/test/chromium.js';
