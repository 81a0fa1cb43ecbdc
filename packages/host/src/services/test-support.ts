import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { installationTokens } from '../auth.js';
import { loadConfig } from '../config.js';
import { noDelivery } from '../delivery/host/port.js';
import { createHostMetrics } from '../metrics/index.js';
import { parseAllowPrivateTargets } from '../net/index.js';
import { type InstallationRecord, openStorage, type Storage } from '../storage/index.js';
import { publishBuiltins } from './builtins.js';
import type { HostContext } from './context.js';

/**
 * A SQLite storage in a new temporary folder whose name starts with `prefix`; {@link removeTempStorage}
 * closes it and deletes the folder.
 *
 * @example
 * beforeAll(async () => {
 *   ({ dir, storage } = await openTempStorage('portal-'));
 * });
 * afterAll(() => removeTempStorage(dir, storage));
 */
export async function openTempStorage(prefix: string): Promise<{ dir: string; storage: Storage }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, storage: await openStorage({ sqlitePath: join(dir, 'p.db') }) };
}

/**
 * Closes a storage opened by {@link openTempStorage} and deletes its folder.
 *
 * @example
 * afterAll(() => removeTempStorage(dir, storage));
 */
export async function removeTempStorage(dir: string, storage: Storage): Promise<void> {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
}

/**
 * A temporary storage shared by a test file's tests: opened before them, closed and removed after them.
 *
 * @example
 * const temp = useTempStorage('portal-');
 * it('…', async () => { const ctx = await testContext(temp.dir, temp.storage); });
 */
export function useTempStorage(prefix: string): { readonly dir: string; readonly storage: Storage } {
  const temp: { dir: string; storage: Storage } = { dir: '', storage: undefined as unknown as Storage };
  beforeAll(async () => {
    Object.assign(temp, await openTempStorage(prefix));
  });
  afterAll(() => removeTempStorage(temp.dir, temp.storage));
  return temp;
}

/**
 * A host context on a real storage for service tests, with the built-in integrations published:
 * silent logger, loopback allowed, workers not running (`notify` does nothing unless overridden).
 *
 * @example
 * const ctx = await testContext(dir, storage, { notify: { deliveries: () => wakeUps++, invocations: () => {} } });
 */
export async function testContext(
  dataDir: string,
  storage: Storage,
  overrides: Partial<Pick<HostContext, 'notify' | 'delivery'>> = {},
): Promise<HostContext> {
  const ctx: HostContext = {
    config: loadConfig({ PLATFORM_DATA_DIR: dataDir }),
    storage,
    logger: pino({ level: 'silent' }),
    policy: parseAllowPrivateTargets('1'),
    tokens: installationTokens('test-key'),
    metrics: createHostMetrics({ queueStats: (now) => storage.jobs.queueStats(now), slowEndpoints: () => 0 }),
    baseUrl: () => 'http://127.0.0.1:1',
    notify: { deliveries: () => undefined, invocations: () => undefined },
    delivery: noDelivery,
    ...overrides,
  };
  await publishBuiltins(ctx);
  return ctx;
}

/**
 * An active webhook installation in space `spaceId` that selected `space_content_updated`.
 *
 * @example
 * const installation = await installSpaceWebhook(storage, 'sp1');
 */
export function installSpaceWebhook(
  storage: Storage,
  spaceId: string,
  url = 'https://example.com/hook',
): Promise<InstallationRecord> {
  return storage.installations.create({
    integrationName: 'webhook',
    target: 'space',
    spaceId,
    configuration: { url, space_content_updated: true },
    status: 'active',
    tokenHash: `unused-${url}`,
  });
}

/**
 * A real pino logger (level info) whose JSON lines are collected in `lines`: what the host would log.
 *
 * @example
 * const { lines, logger } = captureLogs();
 * logger.error({ code: 'x' }, 'failed');
 * expect(lines[0]).toMatchObject({ msg: 'failed', code: 'x' });
 */
export function captureLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}
