import { signPlatformBody } from '@platform/runtime';
import { decodeLogsHeader } from '@platform/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleHello, fetchEvent, helloEnvironment, startWorkerd, type Workerd } from './harness';

const SIGNING_SECRET = 'whsec_hello_signing';
const sign = (body: Uint8Array) => signPlatformBody(body, SIGNING_SECRET);
const environment = helloEnvironment();

async function hmacHex(secret: string, body: Uint8Array<ArrayBuffer>): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return [...new Uint8Array(await crypto.subtle.sign('HMAC', key, body))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

let script: string;
beforeAll(async () => {
  script = await bundleHello();
});

describe.each([
  ['with nodejs_compat (AsyncLocalStorage)', ['nodejs_compat']],
  ['without nodejs_compat (fallback capture)', []],
])('examples/hello in workerd %s', (_name, flags) => {
  let worker: Workerd;
  beforeAll(async () => {
    worker = await startWorkerd(script, flags, { PLATFORM_SIGNING_SECRET: SIGNING_SECRET });
  });
  afterAll(() => worker.dispose());

  it('the bundle imports no node: module', () => {
    expect(script).not.toMatch(/from\s*["']node:/);
  });

  it('handles a signed runtime event and returns its logs', async () => {
    const event = { type: 'space_content_updated', eventId: 'evt_1', spaceId: 'spc_1', revisionId: 'rev_7' };
    const response = await worker.post(event, { environment, sign });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const messages = decodeLogsHeader(response.headers.get('x-platform-logs')).map((l) => l.message);
    expect(messages).toEqual(['hello: space spc_1 now at revision rev_7', 'hello: greeting is Howdy']);
  });

  it('refuses an unsigned or wrongly signed envelope with 401', async () => {
    const event = { type: 'space_content_updated', eventId: 'evt_1', spaceId: 'spc_1', revisionId: 'rev_7' };
    expect((await worker.post(event, { environment })).status).toBe(401);
    const wrong = await worker.post(event, { environment, sign: (b) => signPlatformBody(b, 'not_it') });
    expect(wrong.status).toBe(401);
  });

  it('acknowledges an event without handler and answers 400 for a bad envelope or version', async () => {
    const ack = await worker.post(
      { type: 'space_gitsync_started', eventId: 'e', spaceId: 's' },
      { environment, sign },
    );
    expect(await ack.json()).toEqual({ ok: true, handled: false });
    const bad = await worker.post({ eventId: 'no-type' }, { environment, sign });
    expect(bad.status).toBe(400);
    const v2 = await fetch(new URL('/v2', worker.url), { method: 'POST', body: 'x' });
    expect(v2.status).toBe(400);
    expect(await v2.json()).toMatchObject({ error: { code: 'unsupported_version', supported: ['v1'] } });
  });

  it('renders the counter and applies actions', async () => {
    const first = await worker.post(
      { type: 'ui_render', eventId: 'r1', componentId: 'counter', props: {} },
      { environment, sign },
    );
    const initial = (await first.json()) as { element: unknown; state: unknown };
    expect(initial.state).toEqual({ count: 0 });
    expect(JSON.stringify(initial.element)).toContain('"text":"Count: 0"');
    const pressed = await worker.post(
      {
        type: 'ui_render',
        eventId: 'r2',
        componentId: 'counter',
        props: { step: 2 },
        state: { count: 3 },
        action: { action: 'increment' },
      },
      { environment, sign },
    );
    expect(await pressed.json()).toMatchObject({ state: { count: 5 } });
    const unknown = await worker.post(
      {
        type: 'ui_render',
        eventId: 'r3',
        componentId: 'counter',
        props: {},
        state: { count: 3 },
        action: { action: 'explode' },
      },
      { environment, sign },
    );
    expect(await unknown.json()).toMatchObject({ state: { count: 3 } });
    const missing = await worker.post(
      { type: 'ui_render', eventId: 'r4', componentId: 'nope', props: {} },
      { environment, sign },
    );
    expect(missing.status).toBe(404);
  });

  it('verifies a third-party webhook over the byte-exact fetch-body', async () => {
    const raw = new TextEncoder().encode('{"hello":  "world",\r\n"n":1}\u0000');
    const signature = `sha256=${await hmacHex('whk_hello', raw)}`;
    const good = await worker.post(fetchEvent('/webhook', 'POST', { 'x-hello-signature': signature }), {
      environment,
      body: raw,
      sign,
    });
    expect(good.status).toBe(200);
    expect(good.headers.get('content-type')).toBe('application/json');
    expect(await good.json()).toEqual({ received: true });
    const tampered = new Uint8Array(raw);
    tampered[3] = 0x45;
    const bad = await worker.post(fetchEvent('/webhook', 'POST', { 'x-hello-signature': signature }), {
      environment,
      body: tampered,
      sign,
    });
    expect(bad.status).toBe(401);
    const get = await worker.post(fetchEvent('/webhook'), { environment, sign });
    expect(get.status).toBe(405);
    expect(await get.text()).toBe('Method Not Allowed');
  });

  it('serves completion options and an IntegrationError', async () => {
    const options = await worker.post(fetchEvent('/channels?query=re'), { environment, sign });
    expect(await options.json()).toEqual({ options: [{ value: 'releases', label: '#releases' }] });
    const teapot = await worker.post(fetchEvent('/fail'), { environment, sign });
    expect(teapot.status).toBe(418);
    expect(await teapot.json()).toEqual({ error: { code: 'teapot', message: 'Nothing to see here' } });
  });

  it('redirects /oauth to the provider with a signed state', async () => {
    const response = await worker.post(fetchEvent('/oauth'), { environment, sign });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe('https://provider.example/oauth/authorize');
    expect(location.searchParams.get('client_id')).toBe('hello-client');
    expect(location.searchParams.get('redirect_uri')).toBe(
      `${environment.integration.urls.publicEndpoint}/oauth`,
    );
    expect(location.searchParams.get('scope')).toBe('profile messages:write');
    expect(location.searchParams.get('state')).toMatch(/\./);
  });
});
