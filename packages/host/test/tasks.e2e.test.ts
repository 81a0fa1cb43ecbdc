import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDatabase, type TestDatabase } from './backends.js';
import {
  ADMIN_TOKEN,
  bundleIntegration,
  eventually,
  readRepoFile,
  repoRoot,
  spawnHostProcess,
  startTestHost,
  type TestHost,
} from './helpers.js';
import { freeLoopbackPort } from './ports.js';

/**
 * Integration tasks (docs/tasks.md) end to end: examples/reminders in workerd queues a task with a delay
 * through the host API (`context.integration.queueTask`); the host keeps it in its durable queue and sends
 * it back as `integration_task` once due, across a SIGKILL of the host; a failing task is retried with
 * its id; bad requests are refused with what to fix.
 */

interface Invocation {
  eventType: string;
  eventId: string | null;
  status: number | 'error';
  lines: Array<{ level: string; message: string }>;
  createdAt: string;
}
const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
/** A task is not run before its delay (minus this, for the clocks of the log rows). */
const DELAY_S = 4;

async function publishReminders(base: string): Promise<void> {
  const manifest = await readRepoFile('examples/reminders/platform-manifest.yaml');
  const bundle = await bundleIntegration(join(repoRoot, 'examples/reminders'), 'src/index.ts');
  const res = await fetch(`${base}/v1/integrations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ manifest, bundle }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function invocations(base: string, id: string): Promise<Invocation[]> {
  const res = await fetch(`${base}/v1/installations/${id}/logs`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { invocations: Invocation[] }).invocations;
}

/** The id of the reminder the set-up queued, from the line the example logs. */
function queuedId(list: Invocation[]): string | undefined {
  for (const i of list)
    for (const l of i.lines) {
      const m = /queued reminder (\S+),/.exec(l.message);
      if (m) return m[1];
    }
  return undefined;
}

describe.each(BACKENDS)('integration tasks across kill -9, %s', (backend) => {
  let dataDir: string;
  let database: TestDatabase | undefined;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-tasks-'));
    if (backend === 'postgres') database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  it('runs a delayed task queued before the host was killed, after the restart, with its id', async () => {
    const port = await freeLoopbackPort();
    const env = {
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_INVOCATION_TIMEOUT_MS: '10000',
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    const first = await spawnHostProcess(port, env);
    children.push(first);
    const base = `http://127.0.0.1:${port}`;
    await publishReminders(base);
    const installed = await fetch(`${base}/v1/installations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        integration: 'reminders',
        organization: 'org_tasks',
        configuration: { message: 'survive', delay_seconds: DELAY_S },
      }),
    });
    expect(installed.status, await installed.clone().text()).toBe(201);
    const { id } = (await installed.json()) as { id: string };

    // The set-up invocation queued the reminder (through the host API, from workerd).
    const taskId = await eventually(
      async () => queuedId(await invocations(base, id)),
      30_000,
      'the reminder queued by installation_setup',
    );
    const before = await invocations(base, id);
    const queuedAt = Date.parse(before.find((i) => i.eventType === 'installation_setup')?.createdAt ?? '');
    // Still waiting for its delay when the host dies.
    expect(before.filter((i) => i.eventType === 'integration_task')).toEqual([]);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    const second = await spawnHostProcess(port, env);
    children.push(second);
    const runs = await eventually(
      async () => {
        const list = (await invocations(base, id)).filter((i) => i.eventType === 'integration_task');
        return list.some((i) => i.status === 200) ? list : null;
      },
      45_000,
      'the reminder to run after the restart',
    );
    // At least once, always the same task, never before its delay.
    expect(runs.map((r) => r.eventId)).toEqual(runs.map(() => taskId));
    const done = runs.find((r) => r.status === 200);
    expect(done?.lines.map((l) => l.message).join('\n')).toMatch(/reminder: survive \(queued \d+ s ago\)/);
    for (const r of runs)
      expect(Date.parse(r.createdAt)).toBeGreaterThanOrEqual(queuedAt + (DELAY_S - 1) * 1000);
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  }, 120_000);
});

/** The manifest of the fixture whose task handler fails the first attempt of each `flaky` task. */
const FLAKY = {
  manifest:
    'name: flaky-tasks\ntitle: Flaky tasks\ndescription: d\norganization: test\nvisibility: private\ntarget: organization\nscopes: []\n',
};

describe.each(BACKENDS)('integration tasks, %s', (backend) => {
  let t: TestHost;
  let installationId: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' }, backend);
    const bundle = await bundleIntegration('packages/host/test/fixtures/flaky-task', 'src/index.ts');
    const published = await t.api('POST', '/v1/integrations', { manifest: FLAKY.manifest, bundle });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const installed = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'flaky-tasks',
      organization: 'org_flaky',
    });
    expect(installed.status).toBe(201);
    installationId = installed.body.id;
    token = t.host.context.tokens.issue(installationId);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('retries a failing task with the same id until it succeeds, each attempt in the logs', async () => {
    const queued = await t.api<{ id: string; runAt: string }>('POST', '/v1/integrations/flaky-tasks/tasks', {
      installationId,
      task: { type: 'flaky', payload: { fail: 1 } },
    });
    expect(queued.status, JSON.stringify(queued.body)).toBe(201);
    const runs = await eventually(
      async () => {
        const res = await t.api<{ invocations: Invocation[] }>(
          'GET',
          `/v1/installations/${installationId}/logs`,
        );
        const list = res.body.invocations.filter((i) => i.eventId === queued.body.id);
        return list.some((i) => i.status === 200) ? list : null;
      },
      30_000,
      'the flaky task to succeed',
    );
    // Failed first (a throw is a 500), then succeeded once, always under the task's id.
    expect(runs.filter((r) => r.status === 200)).toHaveLength(1);
    expect(runs.some((r) => r.status === 500)).toBe(true);
    const lines = runs.flatMap((r) => r.lines.map((l) => l.message)).join('\n');
    expect(lines).toContain('retrying');
    expect(lines).toContain(`ran flaky task ${queued.body.id}`);
  }, 60_000);

  it('refuses bad requests with what to fix, and queues nothing', async () => {
    const cases: Array<[unknown, number, RegExp, string?]> = [
      [{ installationId, task: { type: '' } }, 400, /type/],
      [{ installationId, task: { type: 'x' }, schedule: 604_801 }, 400, /schedule/],
      [{ installationId, task: { type: 'x' }, schedule: 1.5 }, 400, /schedule/],
      [{ task: { type: 'x' } }, 400, /installationId/],
      [{ installationId, task: { type: 'x', payload: 'y'.repeat(70_000) } }, 413, /at most 65536/],
      [{ installationId: 'inst_nope', task: { type: 'x' } }, 404, /inst_nope/],
      // an installation token under another integration's name: refused before the body is read
      [{ task: { type: 'x' } }, 403, /another integration/, 'webhook'],
    ];
    for (const [body, status, message, name = 'flaky-tasks'] of cases) {
      const res = await t.api<{ error: { message: string } }>(
        'POST',
        `/v1/integrations/${name}/tasks`,
        body,
        name === 'webhook' ? token : ADMIN_TOKEN,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    const logs = await t.api<{ invocations: Invocation[] }>(
      'GET',
      `/v1/installations/${installationId}/logs`,
    );
    expect(
      logs.body.invocations.filter((i) => i.eventType === 'integration_task' && i.eventId === null),
    ).toEqual([]);
  });

  it('lets an installation token queue for its own installation only', async () => {
    const own = await t.api('POST', '/v1/integrations/flaky-tasks/tasks', { task: { type: 'x' } }, token);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const other = await t.api(
      'POST',
      '/v1/integrations/flaky-tasks/tasks',
      { installationId: 'inst_other', task: { type: 'x' } },
      token,
    );
    expect(other.status).toBe(400);
  });
});
