import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../src/secrets/index.js';
import { type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database per run, dropped afterwards: the host sees a real, empty PostgreSQL. */
describe.each([
  ['delivery thread', '1'],
  ['main-thread delivery', '0'],
])('scale-out on PostgreSQL: two hosts share one database (%s)', (_mode, thread) => {
  const dbName = `platform_e2e_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let a: TestHost;
  let b: TestHost;
  let receiver: Receiver;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect().catch((error: unknown) => {
      throw new Error(`PostgreSQL is required at ${ADMIN_URL} (set TEST_DATABASE_URL): ${String(error)}`);
    });
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    const env = {
      DATABASE_URL: url.toString(),
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      PLATFORM_DELIVERY_THREAD: thread,
      // Hosts on one database share the secrets key (docs/operations.md "Secrets key").
      PLATFORM_SECRETS_KEY: generateKey(),
    };
    // Both start at once: migrations and the built-in publish must be safe when raced.
    [a, b] = await Promise.all([startTestHost(env), startTestHost(env)]);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), receiver?.close()]);
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  it('an installation made on one host is served by both; every event is delivered once', async () => {
    const inst = await a.api<{ id: string; status: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'pg-space',
      configuration: { url: receiver.url, space_content_updated: true },
    });
    expect(inst.status).toBe(201);
    expect(inst.body.status).toBe('active');
    const seen = await b.api<{ id: string }>('GET', `/v1/installations/${inst.body.id}`);
    expect(seen.body.id).toBe(inst.body.id);

    const ids = await Promise.all(
      Array.from({ length: 60 }, async (_v, i) => {
        const host = i % 2 === 0 ? a : b;
        const res = await host.api<{ eventId: string }>('POST', '/v1/events', {
          type: 'space_content_updated',
          spaceId: 'pg-space',
          revisionId: `r${i}`,
        });
        expect(res.status).toBe(202);
        return res.body.eventId;
      }),
    );
    await receiver.waitFor(60, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    const delivered = receiver.received.map((r) => JSON.parse(r.body).eventId as string);
    expect(new Set(delivered)).toEqual(new Set(ids));
    expect(delivered).toHaveLength(60); // claimed with SKIP LOCKED: no event delivered twice
    const list = await b.api<{ deliveries: Array<{ state: string }> }>(
      'GET',
      `/v1/installations/${inst.body.id}/deliveries?limit=100`,
    );
    expect(list.body.deliveries.filter((d) => d.state === 'succeeded')).toHaveLength(60);
  }, 60_000);
});
