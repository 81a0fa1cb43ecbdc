// The core must run in workerd (Cloudflare Workers): bundle src/index.ts for a neutral platform, as
// scripts/build.mjs does, and serve createWebhookHandler from a real workerd through Miniflare.
import { createHmac } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECRET = 'whsec_workerd';

const workerEntry = `import { createWebhookHandler, generateSecret, sign } from './src/index.ts';
let handler;
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/sign') {
      return new Response(await sign('{"a":1}', env.WEBHOOK_SECRET, { timestamp: 1700000000 }) + ' ' + generateSecret());
    }
    handler ??= createWebhookHandler({ secret: env.WEBHOOK_SECRET, onEvent: () => {} });
    return handler(request);
  },
};`;

describe('@platform/webhooks in workerd', () => {
  let mf: Miniflare;

  beforeAll(async () => {
    const result = await build({
      absWorkingDir: pkgDir,
      stdin: { contents: workerEntry, resolveDir: pkgDir, loader: 'js' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
    });
    const script = result.outputFiles[0]?.text ?? '';
    expect(script).not.toMatch(/from\s*["']node:/);
    mf = new Miniflare({
      modules: true,
      script,
      cf: false,
      compatibilityDate: '2025-09-01',
      bindings: { WEBHOOK_SECRET: SECRET },
    });
  });

  afterAll(async () => {
    await mf?.dispose();
  });

  it('signs like node:crypto and generates secrets', async () => {
    const text = await (await mf.dispatchFetch('http://worker/sign')).text();
    const [header, secret] = text.split(' ');
    const expected = createHmac('sha256', SECRET).update('1700000000.{"a":1}').digest('hex');
    expect(header).toBe(`t=1700000000,v1=${expected}`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it('verifies, deduplicates and rejects inside the worker', async () => {
    const body = JSON.stringify({ eventId: 'evt_w', type: 'site_view' });
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
    const post = (sig: string) =>
      mf.dispatchFetch('http://worker/hook', {
        method: 'POST',
        headers: { 'x-platform-signature': sig },
        body,
      });
    expect(await (await post(signature)).json()).toEqual({ received: true });
    expect(await (await post(signature)).json()).toEqual({ received: true, duplicate: true });
    const bad = await post(`t=${t},v1=${'0'.repeat(64)}`);
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: { code: 'signature_mismatch' } });
    expect((await mf.dispatchFetch('http://worker/hook')).status).toBe(405);
  });
});
