import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIntegration } from '@platform/bundler';
import { type Host, loadConfig, startHost } from '@platform/host';
import { loadManifest, readAssetFiles } from '@platform/manifest';
import { pino } from 'pino';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { CHROMIUM } from './chromium.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const ADMIN_TOKEN = 'pat_dashboard_test_token_0123456789';
/** Where the browser tests write the screenshots the README shows. */
export const SHOTS = join(repoRoot, 'docs/screenshots');

/**
 * The secrets examples/hello is published with, its OAuth provider at `oauthBase`.
 * @example await helloPublishBody(helloEnv(provider.issuer.url));
 */
export function helloEnv(oauthBase: string): Record<string, string> {
  return {
    HELLO_CLIENT_ID: 'client-1',
    HELLO_CLIENT_SECRET: 'client-secret-1',
    HELLO_OAUTH_AUTHORIZE_URL: `${oauthBase}/authorize`,
    HELLO_OAUTH_TOKEN_URL: `${oauthBase}/token`,
    HELLO_WEBHOOK_SECRET: 'hello-webhook-secret',
  };
}

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
  /**
   * Installs the published `integration` on a space or site with `configuration`; returns the
   * installation's id (throws with the host's answer unless it is a 201).
   */
  install(
    integration: string,
    target: { space: string } | { site: string },
    configuration: Record<string, unknown>,
  ): Promise<string>;
  /** {@link DashboardHost.install} of the built-in `webhook` integration. */
  installWebhook(
    target: { space: string } | { site: string },
    configuration: Record<string, unknown>,
  ): Promise<string>;
  /** Posts a `space_content_updated` event of `spaceId`; the host's answer. */
  contentUpdated(spaceId: string, revisionId: string): Promise<{ status: number; body: unknown }>;
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
  const t: DashboardHost = {
    url,
    host,
    contentUpdated: (spaceId, revisionId) =>
      t.api('POST', '/v1/events', { type: 'space_content_updated', spaceId, revisionId }),
    installWebhook: (target, configuration) => t.install('webhook', target, configuration),
    async install(integration, target, configuration) {
      const res = await t.api<{ id: string }>('POST', '/v1/installations', {
        integration,
        ...target,
        configuration,
      });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      return res.body.id;
    },
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
  return t;
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

/**
 * Debian's Chromium (`/usr/bin/chromium`) through playwright-core, headless, with a profile folder of
 * its own (a persistent context: storage behaves as in a real browser, shared by its tabs).
 *
 * @example
 * const context = await launchChromium(profile, { width: 1200, height: 860 });
 */
export function launchChromium(
  profile: string,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, { ...CHROMIUM, viewport });
}

/** What a browser test drives: the host, a receiver, and one Chromium page with a profile of its own. */
export interface DashboardSession {
  t: DashboardHost;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  context: BrowserContext;
  page: Page;
  /** Closes the browser, the receiver and the host, and removes the profile. */
  close(): Promise<void>;
}

/**
 * Builds everything, starts a host with `hello` published (its OAuth issuer at `issuerUrl`), a receiver
 * answering `receiverStatuses` in turn, and Chromium (1200×860, `timeoutMs` per action).
 *
 * @example
 * const session = await startDashboardSession({ issuerUrl: 'http://127.0.0.1:9', receiverStatuses: [200], profilePrefix: 'x-', timeoutMs: 15_000 });
 * await session.page.goto(session.t.url);
 */
export async function startDashboardSession(options: {
  issuerUrl: string;
  receiverStatuses: number[];
  profilePrefix: string;
  timeoutMs: number;
}): Promise<DashboardSession> {
  buildAll();
  await mkdir(SHOTS, { recursive: true });
  const t = await startDashboardHost();
  const published = await t.api(
    'POST',
    '/v1/integrations',
    await helloPublishBody(helloEnv(options.issuerUrl)),
  );
  if (published.status !== 201) throw new Error(`publishing hello failed: ${JSON.stringify(published.body)}`);
  const receiver = await startReceiver(options.receiverStatuses);
  const profile = await mkdtemp(join(tmpdir(), options.profilePrefix));
  const context = await launchChromium(profile, { width: 1200, height: 860 });
  context.setDefaultTimeout(options.timeoutMs);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    t,
    receiver,
    context,
    page,
    async close() {
      await context.close();
      await receiver.close();
      await t.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * {@link launchChromium} with a temporary profile of its own (removed by `close`) and its first page.
 *
 * @example
 * const browser = await launchBrowser(); await browser.page.goto(url); await browser.close();
 */
export async function launchBrowser(viewport = { width: 1100, height: 900 }) {
  const profile = await mkdtemp(join(tmpdir(), 'platform-chromium-'));
  const context = await launchChromium(profile, viewport);
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** A dashboard host and a browser on it, for the examples' browser tests (valid inside their tests). */
export interface ExampleSession {
  readonly t: DashboardHost;
  readonly page: Page;
  readonly context: BrowserContext;
  /** The example's folder (absolute); the repository's when the session names no example. */
  readonly dir: string;
  /** Publishes the example (bundled as `platform build` does) with `env`: the host's answer. */
  publish(env?: Record<string, string>): Promise<{ status: number; body: unknown }>;
}

/**
 * Registers the hooks of the browser test of the example in `folder` (e.g. `examples/embed`): before all,
 * builds the workspace, starts a dashboard host and a Chromium on it; after all, closes both. The
 * returned session is usable inside the tests.
 *
 * @example
 * const example = useExampleSession('examples/embed');
 * it('opens', async () => { await example.publish(); await example.page.goto(example.t.url); });
 */
export function useExampleSession(folder = '', viewport?: { width: number; height: number }): ExampleSession {
  let host: DashboardHost | undefined;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  beforeAll(async () => {
    buildAll();
    host = await startDashboardHost();
    browser = await launchBrowser(viewport);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the example session is used outside its tests');
    return value;
  };
  return {
    get t() {
      return started(host);
    },
    get page() {
      return started(browser).page;
    },
    get context() {
      return started(browser).context;
    },
    dir: join(repoRoot, folder),
    publish(env = {}) {
      if (!folder) throw new Error('this session names no example folder to publish');
      return publishFolder(started(host), folder, env);
    },
  };
}

/** Publishes an integration folder of this repository (bundled as `platform build` does). */
export async function publishFolder(
  t: DashboardHost,
  folder: string,
  env: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const dir = join(repoRoot, folder);
  const loaded = loadManifest(dir);
  if (!loaded.ok) throw new Error(`${folder}/platform-manifest.yaml: ${loaded.errors[0]?.message}`);
  const { code } = await bundleIntegration(dir, {
    mode: 'dev',
    ...(loaded.manifest.script ? { entry: loaded.manifest.script } : {}),
  });
  return t.api('POST', '/v1/integrations', {
    manifest: await readFile(join(dir, 'platform-manifest.yaml'), 'utf8'),
    bundle: code,
    env,
  });
}

/**
 * Opens the editor's insert menu with Ctrl+/, types `query` and waits for the option `option`
 * (then Enter inserts it, Escape closes the menu).
 *
 * @example
 * await openInsertMenu(page, 'diagram', /Diagram/); await page.keyboard.press('Enter');
 */
export async function openInsertMenu(page: Page, query: string, option: RegExp): Promise<void> {
  await page.keyboard.press('Control+/');
  await page.keyboard.type(query);
  await page.getByRole('dialog', { name: 'Insert a block' }).getByRole('option', { name: option }).waitFor();
}

/**
 * Signs `page` in as the operator through the `/#token=` link and waits for the Integrations page.
 *
 * @example
 * await signInAsOperator(page, t.url);
 */
export async function signInAsOperator(page: Page, url: string): Promise<void> {
  // A new document: from `/` the link would change only the fragment and not reload the page.
  await page.goto('about:blank');
  await page.goto(`${url}/#token=${encodeURIComponent(ADMIN_TOKEN)}`);
  await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
}

/**
 * Fails unless the page is at most `width` px wide (it does not scroll sideways).
 *
 * @example
 * await page.setViewportSize({ width: 390, height: 844 }); await expectFitsWidth(page, 390);
 */
export async function expectFitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** A host and a Chromium page (1400×900) for it; `close` closes both. */
export interface HostAndBrowser {
  t: DashboardHost;
  page: Page;
  close(): Promise<void>;
}

/**
 * Builds everything, starts a dashboard host with `env` and Chromium (1400×900, not signed in yet).
 *
 * @example
 * const session = await startHostAndBrowser({ PLATFORM_STATS_INTERVAL_MS: '300' });
 * await signInAsOperator(session.page, session.t.url);
 */
export async function startHostAndBrowser(env: Record<string, string> = {}): Promise<HostAndBrowser> {
  buildAll();
  const t = await startDashboardHost(env);
  const browser = await launchBrowser({ width: 1400, height: 900 });
  return {
    t,
    page: browser.page,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/**
 * Registers the hooks of a browser test: before all, {@link startHostAndBrowser} with `env`, then `setUp`
 * (installations, events: it receives the host and page to keep), then signs in as the operator; after
 * all, closes the browser and the host.
 *
 * @example
 * let t: DashboardHost;
 * let page: Page;
 * useHostAndBrowser({}, async (session) => ({ t, page } = session));
 */
export function useHostAndBrowser(
  env: Record<string, string>,
  setUp: (session: HostAndBrowser) => Promise<unknown>,
): void {
  let session: HostAndBrowser | undefined;
  beforeAll(async () => {
    session = await startHostAndBrowser(env);
    await setUp(session);
    await signInAsOperator(session.page, session.t.url);
  }, 90_000);
  afterAll(() => session?.close());
}

/**
 * Registers the hooks of a dashboard browser test: before all, {@link startDashboardSession} (hello's
 * OAuth issuer at `issuerUrl()`, default a closed port; 15 s per browser action), handing the session to
 * `keep`; after all, closes it.
 *
 * @example
 * let page: Page;
 * useDashboardSession({ receiverStatuses: [200], profilePrefix: 'x-' }, (session) => ({ page } = session));
 */
export function useDashboardSession(
  options: { issuerUrl?: () => string; receiverStatuses: number[]; profilePrefix: string },
  keep: (session: DashboardSession) => unknown,
): void {
  let session: DashboardSession | undefined;
  beforeAll(async () => {
    session = await startDashboardSession({
      issuerUrl: options.issuerUrl?.() ?? 'http://127.0.0.1:9',
      receiverStatuses: options.receiverStatuses,
      profilePrefix: options.profilePrefix,
      timeoutMs: 15_000,
    });
    await keep(session);
  }, 90_000);
  afterAll(() => session?.close());
}
