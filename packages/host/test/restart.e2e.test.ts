import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildWorkspace, type Receiver, repoRoot, startReceiver } from './helpers.js';

/** A free loopback port (closed again before the host binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `npm start`'s entry as a real process, on a given data folder. */
async function spawnHost(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(repoRoot, 'packages/host/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      PLATFORM_DELIVERY_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`host exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('host did not become healthy');
}

describe('crash safety (kill -9)', () => {
  let dataDir: string;
  let receiver: Receiver;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    buildWorkspace();
    dataDir = await mkdtemp(join(tmpdir(), 'platform-crash-'));
    // A slow receiver, so that deliveries are in flight when the host dies.
    receiver = await startReceiver((_req, res) =>
      setTimeout(() => res.writeHead(200).end('{"received":true}'), 150),
    );
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers every accepted event at least once after the host is killed mid-stream', async () => {
    const port = await freePort();
    const first = await spawnHost(dataDir, port);
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
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const deliveredBeforeCrash = new Set(receiver.received.map((r) => JSON.parse(r.body).eventId)).size;
    expect(deliveredBeforeCrash).toBeLessThan(accepted.length);

    const second = await spawnHost(dataDir, port);
    children.push(second);
    const deadline = Date.now() + 45_000;
    let seen = new Set<string>();
    while (Date.now() < deadline) {
      seen = new Set(receiver.received.map((r) => JSON.parse(r.body).eventId as string));
      if (accepted.every((e) => seen.has(e))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(accepted.filter((e) => !seen.has(e))).toEqual([]);
    // Every delivery ends succeeded, and carries the same event id as before the crash.
    const list = await fetch(`${base}/v1/installations/${id}/deliveries?limit=100`, { headers }).then(
      (r) => r.json() as Promise<{ deliveries: Array<{ state: string; eventId: string }> }>,
    );
    expect(list.deliveries).toHaveLength(accepted.length);
    expect(new Set(list.deliveries.map((d) => d.eventId))).toEqual(new Set(accepted));
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  }, 90_000);
});
