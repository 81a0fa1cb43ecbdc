// Runs `node examples/receiver` as a real process on a free loopback port and checks the acceptance
// contract from outside, signing with node:crypto (independent of the library).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(exampleDir, '..', '..');
const webhooksDir = join(repoRoot, 'packages', 'webhooks');

/** Builds @platform/webhooks' dist (what the example imports) from the current sources, like scripts/build.mjs. */
async function buildWebhooks(): Promise<void> {
  await build({
    absWorkingDir: webhooksDir,
    entryPoints: { index: 'src/index.ts', node: 'src/node.ts', express: 'src/express.ts' },
    outdir: join(webhooksDir, 'dist'),
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  });
}

interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
}

function startReceiver(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [exampleDir], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`receiver did not start: ${err}`)), 10_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1], stdout: () => out, stderr: () => err });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`receiver exited with ${code}: ${err}`));
    });
  });
}

function header(body: string, secret: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

async function post(url: string, body: string, signature?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-platform-signature'] = signature;
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, json: (await res.json()) as unknown };
}

const payload = (eventId: string) =>
  JSON.stringify({
    eventId,
    type: 'space_content_updated',
    spaceId: 'space_1',
    installationId: 'inst_42',
    revisionId: 'rev_1',
  });

describe('examples/receiver (real process)', () => {
  let receiver: Running;

  beforeAll(async () => {
    await buildWebhooks();
    receiver = await startReceiver({ WEBHOOK_SECRET: 'whsec_current, whsec_previous' });
  });

  afterAll(() => {
    receiver?.child.kill('SIGTERM');
  });

  it('answers 200 {"received": true} to a valid signature and prints the event', async () => {
    const body = payload('evt_example_1');
    const res = await post(receiver.url, body, header(body, 'whsec_current'));
    expect(res).toEqual({ status: 200, json: { received: true } });
    await expect
      .poll(() => receiver.stdout())
      .toContain('space_content_updated evt_example_1 installation=inst_42');
  });

  it('answers 200 with "duplicate": true to a repeated eventId', async () => {
    const body = payload('evt_example_dup');
    expect((await post(receiver.url, body, header(body, 'whsec_current'))).json).toEqual({ received: true });
    const again = await post(receiver.url, body, header(body, 'whsec_current'));
    expect(again).toEqual({ status: 200, json: { received: true, duplicate: true } });
    expect(receiver.stdout().match(/evt_example_dup/g)).toHaveLength(1);
  });

  it('accepts any of the comma-separated secrets', async () => {
    const body = payload('evt_example_old_secret');
    expect((await post(receiver.url, body, header(body, 'whsec_previous'))).status).toBe(200);
  });

  it('answers 401 JSON to missing, malformed, wrong and expired signatures', async () => {
    const body = payload('evt_example_bad');
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'missing_signature'],
      ['t=now,v1=zz', 'malformed_signature'],
      [header(body, 'whsec_wrong'), 'signature_mismatch'],
      [header(body, 'whsec_current', Math.floor(Date.now() / 1000) - 3600), 'timestamp_out_of_tolerance'],
    ];
    for (const [signature, code] of cases) {
      const res = await post(receiver.url, body, signature);
      expect(res.status, code).toBe(401);
      expect(res.json).toMatchObject({ error: { code, message: expect.any(String) } });
    }
    expect(receiver.stdout()).not.toContain('evt_example_bad');
    expect(receiver.stderr()).toContain('signature_mismatch');
    expect(receiver.stderr()).not.toContain('whsec_current');
  });

  it('answers 405 to GET', async () => {
    const res = await fetch(receiver.url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('exits 2 with a clear error when WEBHOOK_SECRET is missing', async () => {
    const child = spawn(process.execPath, [exampleDir], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/WEBHOOK_SECRET is not set/);
  });
});
