import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startTestHost, type TestHost } from './helpers.js';
import { LineCollector } from './log-lines.js';

/** The ```python block of docs/receivers.md: the test runs what the docs show. */
async function pythonReceiverOfDocs(): Promise<string> {
  const doc = await readFile(join(repoRoot, 'docs/receivers.md'), 'utf8');
  const match = /```python\n([\s\S]*?)```/.exec(doc);
  if (!match?.[1]) throw new Error('docs/receivers.md has no ```python block');
  return match[1];
}

// The Python receiver of docs/receivers.md, run with the machine's python3, verifies a real delivery
// from a host, refuses a forged one, and prints a redelivered event once.
describe('docs/receivers.md: the Python receiver', () => {
  let t: TestHost;
  let work: string;
  let python: ChildProcess;
  let out: LineCollector;
  let url: string;
  let installationId: string;

  beforeAll(async () => {
    t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' });
    work = await mkdtemp(join(tmpdir(), 'python-receiver-'));
    await writeFile(join(work, 'receiver.py'), await pythonReceiverOfDocs());
    const installed = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'space-py',
      configuration: { url: 'http://127.0.0.1:9/not-yet', space_content_updated: true },
    });
    installationId = installed.body.id;
    const { body } = await t.api<{ secret: string }>(
      'GET',
      `/v1/installations/${installationId}/webhook-secret`,
    );
    python = spawn('python3', [join(work, 'receiver.py')], {
      env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: body.secret, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    out = new LineCollector(python.stdout as NonNullable<ChildProcess['stdout']>);
    const listening = await out.waitFor((l) => l.text.startsWith('listening on '));
    url = `${listening.text.slice('listening on '.length)}webhook`;
    const patched = await t.api('PATCH', `/v1/installations/${installationId}`, {
      configuration: { url },
    });
    expect(patched.status).toBe(200);
  });

  afterAll(async () => {
    python?.kill();
    await t?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('verifies a real delivery, answers 2xx, and prints a redelivered event once', async () => {
    const posted = await t.api<{ eventId: string }>('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: 'space-py',
      revisionId: 'rev-py',
    });
    expect(posted.status).toBe(202);
    await out.waitFor((l) => l.text === `space_content_updated ${posted.body.eventId}`);
    const deliveries = async () =>
      (
        await t.api<{ deliveries: { id: string; state: string; attempts: unknown[] }[] }>(
          'GET',
          `/v1/installations/${installationId}/deliveries`,
        )
      ).body.deliveries;
    await expect.poll(async () => (await deliveries())[0]?.state).toBe('succeeded');
    const [delivery] = await deliveries();
    expect(delivery?.attempts).toHaveLength(1);

    const redelivered = await t.api(
      'POST',
      `/v1/installations/${installationId}/deliveries/${delivery?.id}/redeliver`,
    );
    expect(redelivered.status).toBeLessThan(300);
    await expect.poll(async () => (await deliveries())[0]?.attempts.length).toBe(2);
    expect((await deliveries())[0]?.state).toBe('succeeded');
    expect(out.lines.filter((l) => l.text.includes(posted.body.eventId))).toHaveLength(1);
  });

  it('refuses a body signed with another secret, or too old, with 401', async () => {
    const body = JSON.stringify({
      type: 'space_content_updated',
      eventId: 'evt_forged',
      spaceId: 'space-py',
    });
    const sign = (secret: string, t: number) =>
      `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
    const now = Math.floor(Date.now() / 1000);
    const { body: secret } = await t.api<{ secret: string }>(
      'GET',
      `/v1/installations/${installationId}/webhook-secret`,
    );
    const send = (signature: string) =>
      fetch(url, { method: 'POST', body, headers: { 'x-platform-signature': signature } });
    expect((await send(sign('whsec_not_the_secret', now))).status).toBe(401);
    expect((await send(sign(secret.secret, now - 600))).status).toBe(401);
    expect((await send(sign(secret.secret, now))).status).toBe(200);
    // The receiver prints the event after it answered: the line may come a moment after the 200.
    await expect.poll(() => out.lines.some((l) => l.text === 'space_content_updated evt_forged')).toBe(true);
  });
});
