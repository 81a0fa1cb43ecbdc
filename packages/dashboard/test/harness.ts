import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { bundleIntegration } from '@platform/cli/bundle';
import { type Host, loadConfig, startHost } from '@platform/host';
import { pino } from 'pino';
import { dashboardAssets, serveDashboard } from '../src/index';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const ADMIN_TOKEN = 'pat_dashboard_test_token_0123456789';

/** Builds the workspace (built-in integrations) and the dashboard assets. */
export function buildAll(): void {
  execFileSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { stdio: 'pipe' });
  execFileSync(process.execPath, [join(repoRoot, 'packages/dashboard/scripts/build-assets.mjs')], {
    stdio: 'pipe',
  });
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * A real host on loopback with the dashboard in front of it, on ONE origin (the front's URL is the
 * host's public URL), as `dashboardRoutes()` does inside the host: dashboard paths from the built
 * assets, everything else forwarded to the host untouched.
 */
export interface DashboardHost {
  url: string;
  host: Host;
  api<T>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export async function startDashboardHost(env: Record<string, string> = {}): Promise<DashboardHost> {
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-dashboard-'));
  const [frontPort, hostPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${frontPort}`;
  const host = await startHost(
    loadConfig({
      PORT: String(hostPort),
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      PLATFORM_PUBLIC_URL: url,
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      PLATFORM_INVOCATION_TIMEOUT_MS: '5000',
      PLATFORM_DELIVERY_TIMEOUT_MS: '2000',
      ...env,
    }),
    pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  );
  const { dir } = dashboardAssets();
  const inner = `http://127.0.0.1:${hostPort}`;
  const front = serve({
    port: frontPort,
    hostname: '127.0.0.1',
    fetch: async (request: Request) => {
      const page = await serveDashboard(request, dir);
      if (page) return page;
      const target = new URL(request.url);
      const headers = new Headers(request.headers);
      for (const h of ['host', 'connection', 'content-length']) headers.delete(h);
      const hasBody = !['GET', 'HEAD'].includes(request.method);
      const answer = await fetch(`${inner}${target.pathname}${target.search}`, {
        method: request.method,
        headers,
        redirect: 'manual',
        ...(hasBody ? { body: new Uint8Array(await request.arrayBuffer()) } : {}),
      });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    },
  }) as Server;
  return {
    url,
    host,
    async api(method, path, body, token = ADMIN_TOKEN) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as never };
    },
    async close() {
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
      await host.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Bundles examples/hello the way `platform build` does. */
export async function helloPublishBody(env: Record<string, string>) {
  const dir = join(repoRoot, 'examples/hello');
  const { code } = await bundleIntegration(dir, { entry: 'src/index.tsx', mode: 'dev' });
  return {
    manifest: await readFile(join(dir, 'platform-manifest.yaml'), 'utf8'),
    bundle: code,
    env,
  };
}

/** A webhook receiver on 127.0.0.1 that answers each request with the next status of `script`. */
export async function startReceiver(script: number[]) {
  const received: Array<{ body: string; signature: string | undefined }> = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-platform-signature'] as string | undefined });
      const status = script[received.length - 1] ?? 200;
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(status < 300 ? '{"received":true}' : '{"error":"receiver is down for maintenance"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
