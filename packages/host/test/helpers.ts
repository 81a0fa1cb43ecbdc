import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleIntegration as bundle } from '@platform/bundler';
import { type Logger, pino } from 'pino';
import { expect } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Host, startHost } from '../src/host.js';
import { type Backend, createTestDatabase } from './backends.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const ADMIN_TOKEN = 'pat_test_operator_token_0123456789';

/** Builds the workspace dists once (the host loads built-in integration bundles from them). */
let built = false;
export function buildWorkspace(): void {
  if (built) return;
  execFileSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { stdio: 'pipe' });
  built = true;
}

/** A host on a free loopback port with its own temporary data folder. */
export interface TestHost {
  host: Host;
  dataDir: string;
  api<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * Installs `integration` in `space` through the API (operator token), failing the test unless the host
 * answers 201; the installation as the API returns it.
 *
 * @example
 * const inst = await createInstallation<{ id: string }>(t, 'webhook', 'space-1', { url, space_content_updated: true });
 */
export async function createInstallation<T = Record<string, unknown>>(
  t: TestHost,
  integration: string,
  space: string,
  configuration: Record<string, unknown>,
): Promise<T> {
  const res = await t.api<T>('POST', '/v1/installations', { integration, space, configuration });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/**
 * Starts a host in this process. On `postgres` (unless `env` names a `DATABASE_URL`) it gets a fresh
 * database of its own, dropped by `close()`. `logger`: where the host logs (default: silent, or
 * `TEST_LOG_LEVEL`).
 */
export async function startTestHost(
  env: Record<string, string> = {},
  backend: Backend = 'sqlite',
  logger?: Logger,
): Promise<TestHost> {
  buildWorkspace();
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-host-'));
  const database = backend === 'postgres' && !env.DATABASE_URL ? await createTestDatabase() : null;
  const config = loadConfig({
    ...(database ? { DATABASE_URL: database.url } : {}),
    PORT: '0',
    PLATFORM_DATA_DIR: dataDir,
    PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
    PLATFORM_INVOCATION_TIMEOUT_MS: '3000',
    PLATFORM_DELIVERY_TIMEOUT_MS: '2000',
    ...env,
  });
  const host = await startHost(config, logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }));
  return {
    host,
    dataDir,
    async api(method, path, body, token = ADMIN_TOKEN) {
      const response = await fetch(`${host.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON
      }
      return { status: response.status, body: parsed as never, headers: response.headers };
    },
    async close() {
      await host.stop();
      await rm(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

/**
 * Bundles an integration folder's script (`dir` relative to the repository, or absolute) with the
 * project's one bundler (`platform build`'s).
 *
 * @example
 * const code = await bundleIntegration('examples/hello', 'src/index.tsx');
 */
export async function bundleIntegration(dir: string, entry: string): Promise<string> {
  return (await bundle(resolve(repoRoot, dir), { entry, mode: 'dev' })).code;
}

/**
 * What `platform deliveries list --installation <id>` prints (no colours) against a test host.
 *
 * @example
 * expect(await cliDeliveriesList(t, id)).toContain('Endpoint disabled since');
 */
export async function cliDeliveriesList(t: TestHost, installationId: string): Promise<string> {
  const cli = join(repoRoot, 'packages/cli/bin/platform.js');
  const args = ['deliveries', 'list', '--installation', installationId, '--url', t.host.url];
  const { stdout } = await promisify(execFile)(process.execPath, [cli, ...args, '--token', ADMIN_TOKEN], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  return stdout;
}

/** Reads a file of the repository. */
export const readRepoFile = (path: string) => readFile(join(repoRoot, path), 'utf8');

/** One request a test receiver got. */
export interface Received {
  at: number;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP receiver on 127.0.0.1 whose answers a test scripts. */
export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
  /** Resolves once `count` requests arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
}

export async function startReceiver(
  answer: (request: Received, res: ServerResponse) => void = (_r, res) =>
    res.writeHead(200).end('{"received":true}'),
): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        at: Date.now(),
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      for (const w of waiters.splice(0)) w();
      answer(entry, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
      return received;
    },
  };
}

/** Polls `fn` until it returns a truthy value (or throws after `timeoutMs`). */
export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `npm start`'s entry (`packages/host/dist/main.js`) as a real process on 127.0.0.1:`port`, with the test
 * operator token, private targets allowed and 2 s attempts unless `env` says otherwise; resolves once it
 * answers `/healthz`.
 */
export async function spawnHostProcess(port: number, env: Record<string, string>): Promise<ChildProcess> {
  buildWorkspace();
  const child = spawn(process.execPath, [join(repoRoot, 'packages/host/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      PLATFORM_DELIVERY_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`host exited with ${child.exitCode}: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`host did not become healthy: ${output}`);
}
