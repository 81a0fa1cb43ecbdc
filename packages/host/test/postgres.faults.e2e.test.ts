import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorageError, openStorage } from '../src/storage/index.js';
import {
  ADMIN_TOKEN,
  buildWorkspace,
  eventually,
  type Receiver,
  repoRoot,
  startReceiver,
  startTestHost,
  type TestHost,
} from './helpers.js';
import { createPgCluster, type PgCluster } from './pg-cluster.js';

/**
 * PostgreSQL crashes (`pg_ctl stop -m immediate`) under a steady stream of events and comes back 10 s
 * later. The host must answer 503 + Retry-After meanwhile (never 202 for what it did not store, never
 * 500), keep running, reconnect by itself and deliver every event it answered 202 for. The server is a
 * cluster of this test's own (initdb on a free port), never the machine's shared one.
 */

const OUTAGE_MS = 10_000;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { eventId?: string; error?: { code?: string; message?: string } } | null;
}

async function call(host: TestHost, method: string, path: string, body?: unknown): Promise<Answer> {
  const answer = await host.api<Answer['body'] | string>(method, path, body);
  return {
    status: answer.status,
    retryAfter: answer.headers.get('retry-after'),
    // not JSON (the text): the assertions on `body` say so
    body: typeof answer.body === 'string' ? null : answer.body,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The 503 the host answers while its database is away. */
function expectUnavailable(answer: Answer, what: string): void {
  expect({ what, status: answer.status }).toEqual({ what, status: 503 });
  expect(answer.retryAfter, what).toBe('2');
  expect(answer.body?.error?.code, what).toBe('unavailable');
  expect(answer.body?.error?.message, what).toMatch(/retry the same request/);
}

type Phase = 'before' | 'crashing' | 'down' | 'restarting' | 'after';

describe.each([
  ['delivery thread', '1'],
  ['main-thread delivery', '0'],
])('PostgreSQL faults: the server crashes for 10 s and comes back (%s)', (_mode, thread) => {
  let cluster: PgCluster;
  let receiver: Receiver;
  let host: TestHost;

  beforeAll(async () => {
    cluster = await createPgCluster();
    receiver = await startReceiver();
    host = await startTestHost({
      DATABASE_URL: cluster.url,
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      PLATFORM_DELIVERY_THREAD: thread,
      PLATFORM_PG_CONNECT_TIMEOUT_MS: '2000',
    });
  }, 180_000);

  afterAll(async () => {
    await host?.close();
    await receiver?.close();
    await cluster?.destroy();
  }, 60_000);

  it('answers 503 + Retry-After while it is away, keeps running, reconnects, delivers every acknowledged event', async () => {
    const inst = await call(host, 'POST', '/v1/installations', {
      integration: 'webhook',
      space: 'faults',
      configuration: { url: receiver.url, space_content_updated: true },
    });
    expect(inst.status).toBe(201);
    const installationId = (inst.body as { id: string }).id;

    // A steady stream of events (two senders) from before the crash to after the restart.
    let phase: Phase = 'before';
    const outcomes: Array<Answer & { begun: Phase; ended: Phase }> = [];
    let sending = true;
    let next = 0;
    const sender = async () => {
      while (sending) {
        const begun = phase;
        const answer = await call(host, 'POST', '/v1/events', {
          type: 'space_content_updated',
          spaceId: 'faults',
          revisionId: `r${next++}`,
        });
        outcomes.push({ ...answer, begun, ended: phase });
        await sleep(20);
      }
    };
    const senders = [sender(), sender()];
    const acked = (during: Phase) => outcomes.filter((o) => o.begun === during && o.status === 202).length;

    try {
      await eventually(async () => acked('before') >= 20, 60_000, '20 events accepted before the crash');
      phase = 'crashing';
      await cluster.crash();
      phase = 'down';
      const downSince = Date.now();

      // Reads and other writes (the Hono app) answer 503 as well, and promptly: the pool gives up on a
      // refused connection instead of waiting for the server.
      await sleep(1_000);
      expectUnavailable(await call(host, 'GET', `/v1/installations/${installationId}`), 'GET installation');
      expectUnavailable(await call(host, 'GET', '/v1/installations'), 'GET installations');
      expectUnavailable(
        await call(host, 'POST', '/v1/installations', {
          integration: 'webhook',
          space: 'faults-2',
          configuration: { url: receiver.url, space_content_updated: true },
        }),
        'POST installation',
      );
      for (const path of [`/v1/installations/${installationId}/deliveries`, '/v1/status', '/metrics']) {
        expectUnavailable(await call(host, 'GET', path), `GET ${path}`);
      }

      // Liveness stays up: the process is fine and recovers by itself, so no orchestrator should kill it.
      const health = await fetch(`${host.host.url}/healthz`);
      expect(health.status).toBe(200);

      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - downSince)));
      phase = 'restarting';
      await cluster.start();
      phase = 'after';
      await eventually(async () => acked('after') >= 20, 60_000, '20 events accepted after the restart');
    } finally {
      sending = false;
      await Promise.all(senders);
    }

    // Never a 500, never anything but "stored" (202) or "not now" (503 + Retry-After).
    expect(outcomes.map((o) => o.status).filter((status) => status !== 202 && status !== 503)).toEqual([]);
    for (const o of outcomes.filter((o) => o.status === 503)) expectUnavailable(o, 'POST /v1/events');
    // Every event sent entirely while the server was down was refused, and there were such events.
    const whileDown = outcomes.filter((o) => o.begun === 'down' && o.ended === 'down');
    expect(whileDown.length).toBeGreaterThan(10);
    expect(whileDown.filter((o) => o.status !== 503)).toEqual([]);
    expect(outcomes.filter((o) => o.begun === 'before' && o.ended === 'before' && o.status !== 202)).toEqual(
      [],
    );

    // Every event answered 202 (before, during or after the outage) reaches the receiver.
    const ackedIds = outcomes.filter((o) => o.status === 202).map((o) => o.body?.eventId as string);
    expect(ackedIds.length).toBeGreaterThanOrEqual(40);
    const deliveredIds = () => new Set(receiver.received.map((r) => JSON.parse(r.body).eventId as string));
    await eventually(
      async () => ackedIds.every((id) => deliveredIds().has(id)),
      90_000,
      'every acknowledged event delivered',
    ).catch((error: unknown) => {
      const missing = ackedIds.filter((id) => !deliveredIds().has(id));
      throw new Error(`${String(error)}: ${missing.length} of ${ackedIds.length} not delivered`);
    });
    expect(ackedIds.filter((id) => !deliveredIds().has(id))).toEqual([]);

    // The host serves reads and writes again on fresh connections.
    expect((await call(host, 'GET', `/v1/installations/${installationId}`)).status).toBe(200);
  }, 240_000);
});

describe('the storage on a PostgreSQL that goes away', () => {
  let cluster: PgCluster;

  beforeAll(async () => {
    cluster = await createPgCluster();
  }, 180_000);

  afterAll(() => cluster?.destroy(), 60_000);

  it.each([
    ['crashes (pg_ctl stop -m immediate)', 'crash'],
    ['is shut down by its operator (pg_ctl stop -m fast, 57P01)', 'stop'],
  ] as const)(
    'a transaction cut between two queries when the server %s fails as unavailable (no process crash); the pool recovers',
    async (_how, how) => {
      const storage = await openStorage({ databaseUrl: cluster.url, poolSize: 3, connectTimeoutMs: 2000 });
      const key = `${how}-`;
      try {
        await storage.settings.set(`${key}before`, '1');
        // The connection of a checked-out client dies while the transaction waits between two queries: an
        // 'error' event nobody listened to would end this process.
        const cut = await storage
          .transaction(async (tx) => {
            await tx.settings.set(`${key}inside`, '1');
            await cluster[how]();
            await sleep(300);
            await tx.settings.get(`${key}inside`);
          })
          .catch((error: unknown) => error);
        expect(isStorageError(cut, 'unavailable')).toBe(true);
        // While it is away, every operation fails fast as unavailable (a refused connection, no hang).
        for (const op of [
          () => storage.settings.get(`${key}before`),
          () => storage.settings.set(`${key}during`, '1'),
          () => storage.transaction((tx) => tx.settings.set(`${key}during`, '1')),
        ]) {
          const error = await op().catch((e: unknown) => e);
          expect(isStorageError(error, 'unavailable'), String(error)).toBe(true);
        }
        await cluster.start();
        // Fresh connections: the broken ones were discarded.
        await eventually(
          async () => (await storage.settings.get(`${key}before`).catch(() => null)) === '1',
          30_000,
          'a read after the restart',
        );
        await storage.transaction((tx) => tx.settings.set(`${key}after`, '1'));
        expect(await storage.settings.get(`${key}after`)).toBe('1');
        expect(await storage.settings.get(`${key}inside`)).toBeNull(); // rolled back with the cut
      } finally {
        await storage.close();
      }
    },
    120_000,
  );
});

describe('PostgreSQL down when the host starts', () => {
  let cluster: PgCluster;
  let dataDir: string;

  beforeAll(async () => {
    cluster = await createPgCluster();
    await cluster.crash();
    dataDir = await mkdtemp(join(tmpdir(), 'platform-host-'));
    buildWorkspace();
  }, 180_000);

  afterAll(async () => {
    await cluster?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('the host exits with status 1 and says what it could not reach (a supervisor restarts it)', async () => {
    const child = spawn(process.execPath, [join(repoRoot, 'packages/host/dist/main.js')], {
      env: {
        ...process.env,
        DATABASE_URL: cluster.url,
        PORT: '0',
        PLATFORM_DATA_DIR: dataDir,
        PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
        PLATFORM_PG_CONNECT_TIMEOUT_MS: '2000',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(
      `platform host failed to start: cannot connect to PostgreSQL at 127.0.0.1:${cluster.port}/postgres as postgres`,
    );
    expect(stderr).toContain('ECONNREFUSED');
    expect(stderr).toContain('Check that the server runs and DATABASE_URL is right');
  }, 60_000);
});
