import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND_MODES, createTestDatabase, type TestDatabase } from './backends.js';
import { ADMIN_TOKEN, buildWorkspace, type Receiver, spawnHostProcess, startReceiver } from './helpers.js';
import { freeLoopbackPort } from './ports.js';

/** `npm start`'s entry as a real process, on a given data folder (SQLite) or database (PostgreSQL). */
function spawnHost(dataDir: string, port: number, thread: string, databaseUrl: string | undefined) {
  return spawnHostProcess(port, {
    PLATFORM_DATA_DIR: dataDir,
    PLATFORM_DELIVERY_THREAD: thread,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
}

describe.each(BACKEND_MODES)('crash safety (kill -9), %s, %s', (backend, _mode, thread) => {
  let dataDir: string;
  let database: TestDatabase | undefined;
  let receiver: Receiver;
  const children: ChildProcess[] = [];
  /** Answers held this long: while the first host lives, the last accepted events cannot be answered before it dies. */
  let holdMs = 1000;
  const answered = new Set<string>();

  beforeAll(async () => {
    buildWorkspace();
    dataDir = await mkdtemp(join(tmpdir(), 'platform-crash-'));
    if (backend === 'postgres') database = await createTestDatabase();
    // A slow receiver, so that deliveries are in flight (sent, not answered) when the host dies.
    receiver = await startReceiver((req, res) =>
      setTimeout(() => {
        answered.add(JSON.parse(req.body).eventId as string);
        res.writeHead(200).end('{"received":true}');
      }, holdMs),
    );
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  it('delivers every accepted event at least once after the host is killed mid-stream', async () => {
    const port = await freeLoopbackPort();
    const first = await spawnHost(dataDir, port, thread, database?.url);
    children.push(first);
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const inst = await fetch(`${base}/v1/installations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        integration: 'webhook',
        space: 'crash',
        configuration: { url: receiver.url, space_content_updated: true },
      }),
    });
    expect(inst.status).toBe(201);
    const { id } = (await inst.json()) as { id: string };

    const accepted: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${base}/v1/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'space_content_updated', spaceId: 'crash', revisionId: `r${i}` }),
      });
      expect(res.status).toBe(202);
      accepted.push(((await res.json()) as { eventId: string }).eventId);
    }
    await receiver.waitFor(3, 10_000);
    const answeredBeforeCrash = answered.size;
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    // Killed mid-stream: some deliveries were not answered (the last event was accepted < holdMs ago).
    expect(answeredBeforeCrash).toBeLessThan(accepted.length);
    holdMs = 150;

    const second = await spawnHost(dataDir, port, thread, database?.url);
    children.push(second);
    // Every delivery ends succeeded (those in flight at the crash are taken again when their lease
    // expires), with the same event ids as before the crash, and every event reached the receiver.
    type List = { deliveries: Array<{ state: string; eventId: string }> };
    const deadline = Date.now() + 45_000;
    let list: List = { deliveries: [] };
    while (Date.now() < deadline) {
      list = await fetch(`${base}/v1/installations/${id}/deliveries?limit=100`, { headers }).then(
        (r) => r.json() as Promise<List>,
      );
      if (list.deliveries.every((d) => d.state === 'succeeded')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(list.deliveries.filter((d) => d.state !== 'succeeded')).toEqual([]);
    expect(list.deliveries).toHaveLength(accepted.length);
    expect(new Set(list.deliveries.map((d) => d.eventId))).toEqual(new Set(accepted));
    const seen = new Set(receiver.received.map((r) => JSON.parse(r.body).eventId as string));
    expect(accepted.filter((e) => !seen.has(e))).toEqual([]);
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  }, 90_000);
});
