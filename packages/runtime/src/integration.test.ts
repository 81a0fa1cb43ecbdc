import { describe, expect, it } from 'vitest';
import { IntegrationError } from './errors';
import { createIntegration } from './integration';
import { signPlatformBody } from './platform-signature';
import { decodeLogsHeader, envelopeRequest, testEnvironment, testExecutionContext } from './testing';

const visitor = { anonymousId: 'a', userAgent: 'ua', ip: '203.0.113.1', cookies: {} };
const updated = { type: 'space_content_updated', eventId: 'evt_1', spaceId: 'spc_1', revisionId: 'rev_1' };

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string; supported?: string[] } })
    .error;
}

describe('createIntegration: routing and envelope', () => {
  const integration = createIntegration({});

  it('answers 400 naming the supported versions for another version', async () => {
    const response = await integration.fetch(envelopeRequest(updated, { url: 'http://i.local/v2' }));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'unsupported_version', supported: ['v1'] });
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    const notFound = await integration.fetch(new Request('http://i.local/events', { method: 'POST' }));
    expect(notFound.status).toBe(404);
    expect((await errorOf(notFound)).code).toBe('not_found');
    const wrongMethod = await integration.fetch(new Request('http://i.local/v1'));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it.each([
    [
      'not multipart',
      () =>
        new Request('http://i.local/v1', {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        }),
      /multipart\/form-data/,
    ],
    [
      'broken multipart',
      () =>
        new Request('http://i.local/v1', {
          method: 'POST',
          body: 'garbage',
          headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        }),
      /could not be parsed/,
    ],
    [
      'missing event',
      () => {
        const f = new FormData();
        f.set('environment', JSON.stringify(testEnvironment()));
        return new Request('http://i.local/v1', { method: 'POST', body: f });
      },
      /no "event" part/,
    ],
    [
      'invalid JSON',
      () => {
        const f = new FormData();
        f.set('event', '{nope');
        return new Request('http://i.local/v1', { method: 'POST', body: f });
      },
      /not valid JSON/,
    ],
    ['event without type', () => envelopeRequest({ eventId: 'e' }), /"type"/],
    [
      'missing environment',
      () => {
        const f = new FormData();
        f.set('event', JSON.stringify(updated));
        return new Request('http://i.local/v1', { method: 'POST', body: f });
      },
      /no "environment" part/,
    ],
    [
      'bad fetch request',
      () => envelopeRequest({ type: 'fetch', eventId: 'e', request: { url: 'x' } }),
      /fetch event/,
    ],
    ['bad ui_render', () => envelopeRequest({ type: 'ui_render', eventId: 'e', props: {} }), /ui_render/],
  ])('answers 400 bad_envelope for %s', async (_name, make, message) => {
    const response = await integration.fetch(make());
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('bad_envelope');
    expect(error.message).toMatch(message);
  });
});

describe('createIntegration: events', () => {
  it('dispatches to the handler with a normalized context', async () => {
    const seen: unknown[] = [];
    const integration = createIntegration({
      events: {
        space_content_updated: async (event, context) => {
          seen.push(event.revisionId, context.environment.secrets, context.environment.installation?.id);
        },
      },
    });
    const { secrets: _drop, ...environment } = testEnvironment();
    const response = await integration.fetch(envelopeRequest(updated, { environment }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual(['rev_1', {}, 'inst_test']);
  });

  it('acknowledges an event without a handler and logs it', async () => {
    const integration = createIntegration({ events: {} });
    const response = await integration.fetch(
      envelopeRequest({ type: 'space_view', eventId: 'e', spaceId: 's', visitor }),
    );
    expect(await response.json()).toEqual({ ok: true, handled: false });
    const lines = decodeLogsHeader(response.headers.get('x-platform-logs'));
    expect(lines.map((l) => l.message)).toContain('No handler for event "space_view"; acknowledged');
  });

  it('hides a crash behind a generic 500 without stack, but logs it', async () => {
    const integration = createIntegration({
      events: {
        space_content_updated: () => {
          throw new Error('database password is hunter2');
        },
      },
    });
    const response = await integration.fetch(envelopeRequest(updated));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'integration_error', message: 'The integration failed' },
    });
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('at ');
    const lines = decodeLogsHeader(response.headers.get('x-platform-logs'));
    expect(lines.some((l) => l.level === 'error' && l.message.includes('hunter2'))).toBe(true);
  });

  it('answers an IntegrationError with its status, code and message', async () => {
    const integration = createIntegration({
      events: {
        space_content_updated: () => {
          throw new IntegrationError('Channel missing', { status: 409, code: 'channel_missing' });
        },
      },
    });
    const response = await integration.fetch(envelopeRequest(updated));
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toEqual({ code: 'channel_missing', message: 'Channel missing' });
  });
});

describe('createIntegration: signature', () => {
  const secret = 'whsec_test_secret';
  const integration = createIntegration({ events: {} });

  async function signed(header: (body: Uint8Array) => Promise<string>) {
    const unsigned = envelopeRequest(updated);
    const body = new Uint8Array(await unsigned.arrayBuffer());
    return new Request('http://i.local/v1', {
      method: 'POST',
      body,
      headers: {
        'content-type': unsigned.headers.get('content-type') ?? '',
        'x-platform-signature': await header(body),
      },
    });
  }

  it('accepts a valid signature over the raw body', async () => {
    const response = await integration.fetch(await signed((b) => signPlatformBody(b, secret)), {
      PLATFORM_SIGNING_SECRET: secret,
    });
    expect(response.status).toBe(200);
  });

  it('accepts when one of two v1 digests matches (rotation)', async () => {
    const request = await signed(async (b) => {
      const good = await signPlatformBody(b, secret);
      const other = (await signPlatformBody(b, 'old_secret_x')).split(',')[1];
      return `${good.split(',')[0]},${other},${good.split(',')[1]}`;
    });
    expect((await integration.fetch(request, { PLATFORM_SIGNING_SECRET: secret })).status).toBe(200);
  });

  it.each([
    ['missing', async () => ''],
    ['wrong secret', (b: Uint8Array) => signPlatformBody(b, 'another_secret')],
    ['expired', (b: Uint8Array) => signPlatformBody(b, secret, Math.floor(Date.now() / 1000) - 301)],
    ['from the future', (b: Uint8Array) => signPlatformBody(b, secret, Math.floor(Date.now() / 1000) + 301)],
    ['malformed', async () => 't=abc,v1=zz'],
  ])('answers 401 when the signature is %s', async (_name, header) => {
    const response = await integration.fetch(await signed(header), { PLATFORM_SIGNING_SECRET: secret });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('invalid_signature');
  });

  it('detects a body altered after signing', async () => {
    const request = await signed((b) => signPlatformBody(b, secret));
    const body = new Uint8Array(await request.arrayBuffer());
    body[body.length - 3] = (body[body.length - 3] ?? 0) ^ 1;
    const altered = new Request('http://i.local/v1', { method: 'POST', body, headers: request.headers });
    expect((await integration.fetch(altered, { PLATFORM_SIGNING_SECRET: secret })).status).toBe(401);
  });
});

describe('createIntegration: fetch events', () => {
  const bytes = new Uint8Array([0, 1, 2, 255, 254, 13, 10, 45, 45, 0x7b]);

  it('rebuilds the request with the byte-exact body and returns the response untouched', async () => {
    const integration = createIntegration({
      fetch: async (request) => {
        const received = new Uint8Array(await request.arrayBuffer());
        return new Response(received, {
          status: 202,
          headers: {
            'x-method': request.method,
            'x-url': request.url,
            'x-custom': request.headers.get('x-custom') ?? '',
          },
        });
      },
    });
    const event = {
      type: 'fetch',
      eventId: 'e',
      request: {
        method: 'POST',
        url: 'https://pub.example/p/hook?x=1',
        headers: { 'x-custom': 'yes', 'content-length': '999' },
      },
    };
    const response = await integration.fetch(envelopeRequest(event, { body: bytes }));
    expect(response.status).toBe(202);
    expect(response.headers.get('x-method')).toBe('POST');
    expect(response.headers.get('x-url')).toBe('https://pub.example/p/hook?x=1');
    expect(response.headers.get('x-custom')).toBe('yes');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it('adds the logs header to an immutable response by cloning it', async () => {
    const immutable = Response.redirect('https://example.com/', 302);
    const integration = createIntegration({
      fetch: async (_request, context) => {
        context.logger.info('redirecting');
        return immutable;
      },
    });
    const event = {
      type: 'fetch',
      eventId: 'e',
      request: { method: 'GET', url: 'https://p/x', headers: {} },
    };
    const response = await integration.fetch(envelopeRequest(event));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/');
    expect(decodeLogsHeader(response.headers.get('x-platform-logs'))[0]?.message).toBe('redirecting');
  });

  it('answers 404 JSON when there is no fetch handler, 500 when it returns no Response', async () => {
    const event = {
      type: 'fetch',
      eventId: 'e',
      request: { method: 'GET', url: 'https://p/x', headers: {} },
    };
    const none = await createIntegration({}).fetch(envelopeRequest(event));
    expect(none.status).toBe(404);
    expect((await errorOf(none)).code).toBe('no_fetch_handler');
    const bad = createIntegration({ fetch: (async () => 'nope') as never });
    expect((await bad.fetch(envelopeRequest(event))).status).toBe(500);
  });

  it('gives waitUntil to the handler through the execution context', async () => {
    let ran = false;
    const integration = createIntegration({
      fetch: async (_request, context) => {
        context.waitUntil(
          new Promise((resolve) => setTimeout(resolve, 5)).then(() => {
            ran = true;
          }),
        );
        return new Response('ok');
      },
    });
    const ctx = testExecutionContext();
    const event = {
      type: 'fetch',
      eventId: 'e',
      request: { method: 'GET', url: 'https://p/x', headers: {} },
    };
    await integration.fetch(envelopeRequest(event), {}, ctx);
    expect(ran).toBe(false);
    await ctx.settle();
    expect(ran).toBe(true);
  });
});

describe('publicPath', () => {
  it('gives the path below the public endpoint', async () => {
    const { publicPath } = await import('./context');
    const paths: string[] = [];
    const integration = createIntegration({
      fetch: (request, context) => {
        paths.push(publicPath(request, context));
        return new Response('ok');
      },
    });
    const base = testEnvironment().installation?.urls.publicEndpoint ?? '';
    for (const url of [`${base}/oauth?x=1`, base, 'https://elsewhere.example/other']) {
      await integration.fetch(
        envelopeRequest({ type: 'fetch', eventId: 'e', request: { method: 'GET', url, headers: {} } }),
      );
    }
    expect(paths).toEqual(['/oauth', '/', '/other']);
  });
});
