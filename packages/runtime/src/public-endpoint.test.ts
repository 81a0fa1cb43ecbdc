import { toHex } from '@platform/webhooks/bytes';
import { describe, expect, it } from 'vitest';
import { hmacKey, hmacSign } from './hmac';
import { createIntegration } from './integration';
import { createPublicEndpointHandler } from './public-endpoint';
import { envelopeRequest, testEnvironment, testExecutionContext } from './testing';

function fetchEvent(method: string, headers: Record<string, string> = {}) {
  return { type: 'fetch', eventId: 'e', request: { method, url: 'https://p/public/webhook', headers } };
}

describe('createPublicEndpointHandler', () => {
  it('answers {"received":true} at once and runs the handler afterwards through waitUntil', async () => {
    let received: unknown;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const integration = createIntegration({
      fetch: createPublicEndpointHandler(async (request) => {
        await gate;
        received = await request.json();
      }),
    });
    const ctx = testExecutionContext();
    const response = await integration.fetch(
      envelopeRequest(fetchEvent('POST'), { body: '{"hello":"world"}' }),
      {},
      ctx,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ received: true });
    expect(received).toBeUndefined();
    release();
    await ctx.settle();
    expect(received).toEqual({ hello: 'world' });
  });

  it('answers 405 plain text to other methods', async () => {
    const integration = createIntegration({ fetch: createPublicEndpointHandler(() => undefined) });
    const response = await integration.fetch(envelopeRequest(fetchEvent('GET')));
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('Method Not Allowed');
  });

  it('verifies a third-party signature over the raw fetch-body before acknowledging', async () => {
    const secret = 'gh_webhook_secret';
    const raw = new TextEncoder().encode('{"zen":"Keep it logically awesome.",\n  "spaces" : 1 }');
    const digest = toHex(await hmacSign(await hmacKey(secret), raw));
    let runs = 0;
    const integration = createIntegration({
      fetch: createPublicEndpointHandler(
        () => {
          runs++;
        },
        {
          signature: (ctx) => ({
            secret: ctx.environment.secrets.WEBHOOK_SECRET ?? '',
            header: 'x-hub-signature-256',
            prefix: 'sha256=',
          }),
        },
      ),
    });
    const environment = testEnvironment({ secrets: { WEBHOOK_SECRET: secret } });
    const ctx = testExecutionContext();
    const signed = fetchEvent('POST', { 'x-hub-signature-256': `sha256=${digest}` });
    const post = (body: Uint8Array<ArrayBuffer> | string) =>
      integration.fetch(envelopeRequest(signed, { body, environment }), {}, ctx);
    expect((await post(raw)).status).toBe(200);
    // the same JSON re-serialized is not the signed byte sequence
    const bad = await post(JSON.stringify(JSON.parse(new TextDecoder().decode(raw))));
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_signature');
    await ctx.settle();
    expect(runs).toBe(1);
  });
});
