import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../packages/host/test/helpers.js';
import { listenOn, publishAndInstall } from './support.js';

/**
 * Webhook URLs and integration `fetch` aimed at private addresses never reach a listener
 * (docs/security.md "What integrations can and cannot reach"). A real listener waits on 127.0.0.1 and
 * counts what arrives; the host runs with the default policy (every private target blocked), except
 * for the redirect check, which allows 127.0.0.2 only.
 */

let t: TestHost;
let trap: Server;
let trapPort: number;
let hits = 0;
let allowed: Server;
let allowedPort: number;
let allowedHits = 0;

beforeAll(async () => {
  ({ server: trap, port: trapPort } = await listenOn('127.0.0.1', (_req, res) => {
    hits++;
    res.end('reached');
  }));
  // On 127.0.0.2 (allowed below): redirects to the trap on 127.0.0.1.
  ({ server: allowed, port: allowedPort } = await listenOn('127.0.0.2', (_req, res) => {
    allowedHits++;
    res.writeHead(302, { location: `http://127.0.0.1:${trapPort}/after-redirect` }).end();
  }));
  t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '127.0.0.2/32' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  for (const server of [trap, allowed]) server?.close();
});

/** Host forms of loopback, private, link-local, CGNAT and metadata addresses. */
const privateHosts = (port: number) => [
  `127.0.0.1:${port}`,
  `2130706433:${port}`, // decimal
  `0177.0.0.1:${port}`, // octal
  `0x7f.0.0.1:${port}`, // hex
  `0x7f000001:${port}`,
  `127.1:${port}`,
  `[::ffff:127.0.0.1]:${port}`, // IPv6-mapped
  `[::ffff:7f00:1]:${port}`,
  `[::1]:${port}`,
  `[::]:${port}`,
  `0.0.0.0:${port}`,
  `localhost:${port}`,
  `localhost.:${port}`,
  `LOCALHOST:${port}`,
  `app.localhost:${port}`,
  '169.254.169.254',
  '[fe80::1]',
  '100.64.0.1', // CGNAT
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '[fd00::1]',
  '[::ffff:169.254.169.254]',
  'metadata.google.internal',
];

describe('webhook URLs aimed at private addresses', () => {
  it('are refused when configured, in every form, and nothing reaches the listener', async () => {
    const blocking = await startTestHost(); // the default policy: every private target blocked
    try {
      const good = await blocking.api<{ status: string }>('POST', '/v1/installations', {
        integration: 'webhook',
        space: 'control',
        configuration: { url: 'https://hooks.example.com/in', space_content_updated: true },
      });
      expect(good.body.status).toBe('active'); // the same request with a public URL is accepted
      let checked = 0;
      for (const host of privateHosts(trapPort)) {
        for (const scheme of ['https', 'http']) {
          const url = `${scheme}://${host}/hook`;
          const res = await blocking.api<{ status?: string; configurationErrors?: Array<{ key: string }> }>(
            'POST',
            '/v1/installations',
            {
              integration: 'webhook',
              space: `s-${checked}`,
              configuration: { url, space_content_updated: true },
            },
          );
          const text = JSON.stringify(res.body);
          // Refused outright, or kept pending with the URL named as the problem: never active.
          if (res.status === 201) {
            expect(res.body.status, `${url}: ${text}`).not.toBe('active');
            expect(
              res.body.configurationErrors?.map((e) => e.key),
              url,
            ).toContain('url');
          } else {
            expect(res.status, `${url}: ${text}`).toBe(400);
          }
          checked++;
        }
      }
      expect(checked).toBe(privateHosts(0).length * 2);
      expect(hits).toBe(0);
    } finally {
      await blocking.close();
    }
  }, 60_000);
});

describe('integration fetch aimed at private addresses', () => {
  it('throws inside the integration for every form, and for a redirect to loopback; nothing reaches the listener', async () => {
    const prober = await publishAndInstall(
      t,
      'prober',
      `export default { async fetch(request) {
        const event = JSON.parse((await request.formData()).get('event'));
        if (event.type !== 'fetch') return new Response('{}');
        const target = new URL(event.request.url).searchParams.get('target');
        try { const r = await fetch(target); return Response.json({ reached: true, status: r.status, body: await r.text() }); }
        catch (e) { return Response.json({ reached: false, error: String(e && e.message || e) }); }
      } };`,
    );
    const targets = [
      ...privateHosts(trapPort).map((h) => `http://${h}/x`),
      // the machine's own name, as is and fully qualified (resolved at connection time)
      `http://${hostname()}:${trapPort}/x`,
      `http://${hostname().toUpperCase()}.:${trapPort}/x`,
      `http://127.0.0.2:${allowedPort}/redirect`,
    ];
    for (const target of targets) {
      const res = await fetch(`${prober.urls.publicEndpoint}?target=${encodeURIComponent(target)}`);
      const body = (await res.json()) as { reached: boolean; error?: string; body?: string };
      expect(body.body, target).not.toBe('reached');
      expect(body.reached === false || body.body !== 'reached', `${target}: ${JSON.stringify(body)}`).toBe(
        true,
      );
    }
    expect(hits).toBe(0);
    expect(allowedHits).toBe(1); // the redirect was followed up to the refused hop
  }, 60_000);
});
