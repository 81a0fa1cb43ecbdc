import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/program.js';
import { TRIGGER_EVENT_TYPES } from '../src/samples.js';
import { cliEnv, run, start, startTestHost, useTestHost } from './helpers.js';

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A receiver that checks signatures itself (node:crypto) once it knows the secret. */
async function startReceiver(statuses: number[]) {
  const received: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function signatureValid(delivery: Delivery, secret: string): boolean {
  const header = String(delivery.headers['x-platform-signature'] ?? '');
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = [...header.matchAll(/v1=([0-9a-f]{64})/g)].map((m) => m[1] ?? '');
  if (!t || v1.length === 0) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest();
  return v1.some((hex) => timingSafeEqual(Buffer.from(hex, 'hex'), expected));
}

async function until<T>(fn: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const env = cliEnv();
const t = useTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' });

describe('platform trigger and login', () => {
  it('posts a sample of every event type the host accepts', async () => {
    // In process (the same program as the bin) to spare 7 process start-ups; the host is real.
    for (const type of TRIGGER_EVENT_TYPES) {
      const out: string[] = [];
      const err: string[] = [];
      const io = {
        stdout: (t: string) => out.push(t),
        stderr: (t: string) => err.push(t),
        stdoutIsTTY: false,
        stderrIsTTY: false,
        env: cliEnv(),
        cwd: tmpdir(),
      };
      expect(
        await runCli(['node', 'platform', 'trigger', type, '--json', ...t.flags], io),
        `${type}: ${err.join('')}`,
      ).toBe(0);
      expect(JSON.parse(out.join('')).eventId).toMatch(/^evt_/);
    }
    const bad = await run(['trigger', 'space_exploded', ...t.flags], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown event type "space_exploded"; use one of space_content_updated/);
  });

  it('login checks the token, saves it with mode 0600, and later commands use it', async () => {
    const own = cliEnv();
    const wrong = await run(['login', '--url', t.host.url, '--token', 'pat_wrong_wrong_wrong'], { env: own });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/refused the token/);
    const ok = await run(['login', '--url', t.host.url, '--token', t.token], { env: own });
    expect(ok.code, ok.stderr).toBe(0);
    const file = join(own.XDG_CONFIG_HOME ?? '', 'platform', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ok.stdout).toBe(`Logged in to ${t.host.url}; saved in ${file}\n`);
    const triggered = await run(['trigger', 'space_view'], { env: own });
    expect(triggered.code, triggered.stderr).toBe(0);
  });
});

describe('platform listen', () => {
  it('creates a webhook installation, prints its secret and every attempt, and uninstalls on Ctrl+C with --forget', async () => {
    const receiver = await startReceiver([500]); // first attempt fails, the retry succeeds
    const listen = await start(
      ['listen', '--forward-to', receiver.url, '--space', 'space_listen', '--json', '--forget', ...t.flags],
      { env },
    );
    try {
      const [first] = await listen.waitFor(/^\{.*\}\n/);
      const { installationId, secret } = JSON.parse(first) as { installationId: string; secret: string };
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

      const trigger = await run(
        ['trigger', 'space_content_updated', '--space', 'space_listen', '--json', ...t.flags],
        { env },
      );
      expect(trigger.code, trigger.stderr).toBe(0);
      const { eventId } = JSON.parse(trigger.stdout) as { eventId: string };

      await until(() => receiver.received.length >= 2);
      for (const delivery of receiver.received) {
        expect(signatureValid(delivery, secret)).toBe(true);
        expect(JSON.parse(delivery.body)).toMatchObject({
          type: 'space_content_updated',
          eventId,
          spaceId: 'space_listen',
        });
      }
      expect(signatureValid(receiver.received[0] as Delivery, 'whsec_wrong')).toBe(false);

      await listen.waitFor(/"number":2[^\n]*"statusCode":200/);
      const attempts = listen
        .stdout()
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l) as { eventId: string; number: number; statusCode?: number });
      expect(attempts.map((a) => [a.eventId, a.number, a.statusCode])).toEqual([
        [eventId, 1, 500],
        [eventId, 2, 200],
      ]);

      const list = await run(['deliveries', 'list', '--installation', installationId, '--json', ...t.flags], {
        env,
      });
      const [delivery] = (JSON.parse(list.stdout) as { deliveries: Array<{ id: string; state: string }> })
        .deliveries;
      expect(delivery?.state).toBe('succeeded');
      const show = await run(
        ['deliveries', 'show', delivery?.id ?? '', '--installation', installationId, ...t.flags],
        { env },
      );
      expect(show.stdout).toMatch(/attempt 1 → 500[\s\S]*attempt 2 → 200/);
      const again = await run(
        ['deliveries', 'redeliver', delivery?.id ?? '', '--installation', installationId, ...t.flags],
        { env },
      );
      expect(again.stdout).toMatch(/Redelivering .* \(series 2\)/);
      await until(() => receiver.received.length >= 3);
      await listen.waitFor(/"series":2/);

      const off = await run(
        ['configure', 'space_content_updated=false', '--installation', installationId, ...t.flags],
        { env },
      );
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toMatch(
        new RegExp(
          `Installation ${installationId} of webhook in space space_listen: pending\n {2}! configuration\\.`,
        ),
      );

      expect(await listen.interrupt()).toBe(0);
      expect(listen.stderr()).toMatch(new RegExp(`Removed webhook installation ${installationId}`));
      const gone = await fetch(`${t.host.url}/v1/installations/${installationId}`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      expect(gone.status).toBe(404);
    } finally {
      await listen.interrupt();
      await receiver.close();
    }
  });

  it('keeps one installation and secret per forward URL across runs, adds --headers, says what is final', async () => {
    const receiver = await startReceiver([400, 500, 500, 500, 500]);
    const own = cliEnv();
    const args = ['listen', '--forward-to', receiver.url, '--space', 'space_keep', ...t.flags];
    const trigger = async () =>
      expect(
        (await run(['trigger', 'space_content_updated', '--space', 'space_keep', ...t.flags], { env })).code,
      ).toBe(0);
    const first = await start([...args, '--headers', 'X-Env: dev, Authorization: Bearer local'], {
      env: own,
    });
    let id = '';
    let secret = '';
    try {
      [, secret = '', id = ''] = await first.waitFor(
        /signing secret is (whsec_\S+) \(installation (inst_[\w-]+);/,
      );
      expect(first.stdout()).toContain('Adding headers: x-env, authorization\n');
      await trigger();
      await first.waitFor(
        /attempt 1 → 400[^\n]*\n {2}400 is not retried \(only network errors, 429 and 5xx are\); fix the receiver, then `platform deliveries redeliver dlv_[\w-]+ --installation inst_[\w-]+` sends it again\n/,
      );
      const [delivery] = receiver.received;
      expect(delivery?.headers).toMatchObject({ 'x-env': 'dev', authorization: 'Bearer local' });
      expect(signatureValid(delivery as Delivery, secret)).toBe(true);
    } finally {
      expect(await first.interrupt()).toBe(0);
    }
    expect(first.stderr()).toContain(
      `Paused webhook installation ${id}; \`platform listen --forward-to ${receiver.url}\` resumes it`,
    );
    expect((await t.host.context.storage.installations.get(id))?.status).toBe('paused');

    const second = await start([...args, '--forget'], { env: own });
    try {
      const [, again = '', sameId = ''] = await second.waitFor(
        /signing secret is (whsec_\S+) \(installation (inst_[\w-]+), the same as last time;/,
      );
      expect([sameId, again]).toEqual([id, secret]);
      await trigger();
      await second.waitFor(
        /attempt 4 → 500[^\n]*\n {2}gave up: delivery dlv_[\w-]+ is exhausted after 4 attempts; `platform deliveries redeliver/,
        20_000,
      );
      expect(receiver.received.at(-1)?.headers['x-env']).toBeUndefined(); // no --headers this time
    } finally {
      expect(await second.interrupt()).toBe(0);
      await receiver.close();
    }
    expect(second.stderr()).toContain(`Removed webhook installation ${id}`);
    expect(await t.host.context.storage.installations.get(id)).toBeNull();
    expect(
      JSON.parse(readFileSync(join(own.XDG_CONFIG_HOME ?? '', 'platform', 'listen.json'), 'utf8')),
    ).toEqual({});
  }, 60_000);

  /** POSTs `body` to the host's API with the operator token (`t.token`); the answer's JSON. */
  const post = (path: string, body: unknown) =>
    fetch(`${t.host.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ id: string }>);

  it('deliveries list and status say when the endpoint is slow (an attempt runs past 500 ms)', async () => {
    const silent = createServer(() => {}); // takes the request, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/webhook`;
      const { id } = await post('/v1/installations', {
        integration: 'webhook',
        space: 'space_slow',
        configuration: { url, space_content_updated: true },
      });
      await post('/v1/events', { type: 'space_content_updated', spaceId: 'space_slow', revisionId: 'r' });
      // The attempt hangs; past 500 ms the delivery engine holds the endpoint for slow.
      let out = '';
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        out = (await run(['deliveries', 'list', '--installation', id, ...t.flags], { env })).stdout;
        if (out.includes('Endpoint slow')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(out).toMatch(/^Endpoint slow: .* at most 16 of its deliveries are in flight at once/);
      // ... and `platform status` lists it among the host's slow endpoints, by origin. Polled: on a loaded
      // machine an attempt may reach its timeout between two commands, and the endpoint is slow again
      // once its retry hangs.
      const line = `${new URL(url).origin}  ${id} (webhook in space space_slow)`;
      let status = await run(['status', ...t.flags], { env });
      for (const deadline = Date.now() + 15_000; !status.stdout.includes(line) && Date.now() < deadline; ) {
        status = await run(['status', ...t.flags], { env });
      }
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(/^Deliveries +\d+ waiting, \d+ due, \d+ in flight, /m);
      expect(status.stdout).toContain(line);
      let slow: string[] = [];
      for (const deadline = Date.now() + 15_000; Date.now() < deadline && !slow.includes(id); ) {
        const json = JSON.parse((await run(['status', '--json', ...t.flags], { env })).stdout);
        slow = json.slowEndpoints.map((e: { installationId: string }) => e.installationId);
      }
      expect(slow).toContain(id);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('configure sets endpoint settings and shows their credentials masked; deliveries list counts filtered events', async () => {
    const { id } = await post('/v1/installations', {
      integration: 'webhook',
      space: 'space_filtered',
      configuration: { url: 'http://127.0.0.1:9/hook', space_content_updated: true },
    });
    const set = await run(
      [
        'configure',
        'headers={"X-Api-Key":"cli-key-123"}',
        'filter={"field":"revisionId","prefix":"keep-"}',
        '--installation',
        id,
        '--json',
        ...t.flags,
      ],
      { env },
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).not.toContain('cli-key-123');
    expect(JSON.parse(set.stdout).configuration.headers).toEqual({ 'X-Api-Key': '********' });
    const refused = await run(['configure', 'headers={"Host":"x"}', '--installation', id, ...t.flags], {
      env,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('configuration.headers: header "Host"');
    await post('/v1/events', {
      type: 'space_content_updated',
      spaceId: 'space_filtered',
      revisionId: 'drop-1',
    });
    const out = (await run(['deliveries', 'list', '--installation', id, ...t.flags], { env })).stdout;
    expect(out).toContain('Filtered out: 1 event(s)');
  });

  it('says clearly when the host refuses a local URL', async () => {
    const strict = await startTestHost();
    try {
      const r = await run(
        [
          'listen',
          '--forward-to',
          'http://127.0.0.1:3000/webhook',
          '--url',
          strict.host.url,
          '--token',
          strict.token,
        ],
        { env },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^error: the host at .* refused to deliver to http:\/\/127\.0\.0\.1:3000\/webhook \(url: .*\)/,
      );
      expect(r.stderr).toMatch(/PLATFORM_ALLOW_PRIVATE_TARGETS=1/);
      const left = await strict.host.context.storage.installations.list({ integrationName: 'webhook' });
      expect(left).toEqual([]);
    } finally {
      await strict.host.stop();
    }
  });
});
