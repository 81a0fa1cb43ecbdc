import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIntegration } from '@platform/cli/bundle';
import { type Host, loadConfig, startHost } from '@platform/host';
import { loadManifest, readAssetFiles } from '@platform/manifest';
import { pino } from 'pino';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const ADMIN_TOKEN = 'pat_dashboard_test_token_0123456789';

/** Builds the workspace (built-in integrations) and the dashboard assets. */
export function buildAll(): void {
  execFileSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { stdio: 'pipe' });
  execFileSync(process.execPath, [join(repoRoot, 'packages/dashboard/scripts/build-assets.mjs')], {
    stdio: 'pipe',
  });
}

/** A real host on loopback, serving the dashboard and the API on one origin (`host.url`). */
export interface DashboardHost {
  url: string;
  host: Host;
  api<T>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export async function startDashboardHost(env: Record<string, string> = {}): Promise<DashboardHost> {
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-dashboard-'));
  const host = await startHost(
    loadConfig({
      PORT: '0',
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      PLATFORM_INVOCATION_TIMEOUT_MS: '5000',
      PLATFORM_DELIVERY_TIMEOUT_MS: '2000',
      ...env,
    }),
    pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  );
  const url = host.url;
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
      await host.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Bundles examples/hello the way `platform build` does. */
export async function helloPublishBody(env: Record<string, string>) {
  const dir = join(repoRoot, 'examples/hello');
  const { code } = await bundleIntegration(dir, { entry: 'src/index.tsx', mode: 'dev' });
  const loaded = loadManifest(dir);
  if (!loaded.ok) throw new Error(`examples/hello/platform-manifest.yaml: ${loaded.errors[0]?.message}`);
  return {
    manifest: await readFile(join(dir, 'platform-manifest.yaml'), 'utf8'),
    bundle: code,
    env,
    assets: readAssetFiles(dir, loaded.manifest),
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
