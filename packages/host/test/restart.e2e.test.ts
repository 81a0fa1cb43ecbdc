import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildWorkspace, type Receiver, repoRoot, startReceiver } from './helpers.js';
import { freeLoopbackPort } from './ports.js';

/** `npm start`'s entry as a real process, on a given data folder. */
async function spawnHost(dataDir: string, port: number, thread: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(repoRoot, 'packages/host/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
      PLATFORM_DELIVERY_TIMEOUT_MS: '2000',
      PLATFORM_DELIVERY_THREAD: thread,
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

describe.each([
  ['delivery thread', '1'],
  ['main-thread delivery', '0'],
])('crash safety (kill -9), %s', (_mode, thread) => {
  let dataDir: string;
  let receiver: Receiver;
  const children: ChildProcess[] = [];
  /** Answers held this long: while the first host lives, the last accepted events cannot be answered before it dies. */
  let holdMs = 1000;
  const answered = new Set<string>();

  beforeAll(async () => {
    buildWorkspace();
    dataDir = await mkdtemp(join(tmpdir(), 'platform-crash-'));
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
  });

  it('delivers every accepted event at least once after the host is killed mid-stream', async () => {
    const port = await freeLoopbackPort();
    const first = await spawnHost(dataDir, port, thread);
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

    const second = await spawnHost(dataDir, port, thread);
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
