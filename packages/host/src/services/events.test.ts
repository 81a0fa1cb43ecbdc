import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { installationTokens } from '../auth.js';
import { loadConfig } from '../config.js';
import { parseAllowPrivateTargets } from '../net/index.js';
import { openStorage, type Storage } from '../storage/index.js';
import { publishBuiltins } from './builtins.js';
import type { HostContext } from './context.js';
import { acceptEvent } from './events.js';

let dir: string;
let storage: Storage;
let ctx: HostContext;
let transactions: number;
let wakeUps: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'accept-'));
  storage = await openStorage({ sqlitePath: join(dir, 'p.db') });
  transactions = 0;
  wakeUps = 0;
  // The real storage, counting the transactions the service opens.
  const counted: Storage = {
    ...storage,
    transaction: (fn) => {
      transactions++;
      return storage.transaction(fn);
    },
  };
  ctx = {
    config: loadConfig({ PLATFORM_DATA_DIR: dir }),
    storage: counted,
    logger: pino({ level: 'silent' }),
    policy: parseAllowPrivateTargets('1'),
    tokens: installationTokens('test-key'),
    baseUrl: () => 'http://127.0.0.1:1',
    notify: { deliveries: () => wakeUps++, invocations: () => undefined },
  };
  await publishBuiltins(ctx);
  await storage.installations.create({
    integrationName: 'webhook',
    target: 'space',
    spaceId: 'sp1',
    configuration: { url: 'https://example.com/hook', space_content_updated: true },
    status: 'active',
    tokenHash: 'unused',
  });
  transactions = 0;
});

afterEach(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

const event = (n: number) => ({
  type: 'space_content_updated' as const,
  spaceId: 'sp1',
  revisionId: `rev_${n}`,
});

it('concurrent events share one transaction, and each is stored with its delivery', async () => {
  const results = await Promise.all(Array.from({ length: 40 }, (_, n) => acceptEvent(ctx, event(n))));
  expect(transactions).toBe(1);
  expect(wakeUps).toBe(1);
  expect(new Set(results.map((r) => r.eventId)).size).toBe(40);
  for (const result of results) {
    expect(result).toMatchObject({ duplicate: false, jobs: 1 });
    expect(await storage.events.get(result.eventId)).toMatchObject({
      type: 'space_content_updated',
      spaceId: 'sp1',
    });
  }
  const installation = (await storage.installations.list())[0];
  const page = await storage.jobs.listDeliveries(installation?.id ?? '', { limit: 100 });
  expect(page.items.map((d) => d.eventId).sort()).toEqual(results.map((r) => r.eventId).sort());
});

it('the same eventId twice in one group: stored once, the second reported as a duplicate', async () => {
  const [a, b] = await Promise.all([
    acceptEvent(ctx, { ...event(1), eventId: 'evt_same' }),
    acceptEvent(ctx, { ...event(2), eventId: 'evt_same' }),
  ]);
  expect(transactions).toBe(1);
  expect(a).toEqual({ eventId: 'evt_same', duplicate: false, jobs: 1 });
  expect(b).toEqual({ eventId: 'evt_same', duplicate: true, jobs: 0 });
  expect((await storage.events.get('evt_same'))?.payload).toMatchObject({ revisionId: 'rev_1' });
});

it('an event accepted later (another turn) gets its own transaction, and a repeat changes nothing', async () => {
  const first = await acceptEvent(ctx, event(1));
  const again = await acceptEvent(ctx, { ...event(9), eventId: first.eventId });
  expect(transactions).toBe(2);
  expect(again).toEqual({ eventId: first.eventId, duplicate: true, jobs: 0 });
  expect((await storage.events.get(first.eventId))?.payload).toMatchObject({ revisionId: 'rev_1' });
});
