import { describe, expect, it } from 'vitest';
import { generateSigningKeyPair } from './ed25519.js';
import { WebhookConfigurationError } from './errors.js';
import { createWebhookHandler } from './handler.js';
import { generateSecret } from './secret.js';
import { sign } from './signature.js';
import { signStandard, standardSecret } from './standard.js';

const body = JSON.stringify({
  type: 'page_feedback',
  eventId: 'evt_scheme',
  siteId: 'site_1',
  pageId: 'p',
  rating: 'good',
  comment: '',
  visitor: {},
});

async function post(handler: (r: Request) => Promise<Response>, headers: Record<string, string>) {
  const res = await handler(
    new Request('http://receiver.test/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    }),
  );
  return { status: res.status, json: (await res.json()) as { error?: { code: string } } };
}

describe('createWebhookHandler with a scheme', () => {
  it('standard-webhooks: accepts v1 with the secret (either spelling), refuses X-Platform-Signature alone', async () => {
    const secret = generateSecret();
    const seen: string[] = [];
    for (const spelling of [secret, standardSecret(secret)]) {
      const handler = createWebhookHandler({
        scheme: 'standard-webhooks',
        secret: spelling,
        dedupe: false,
        onEvent: (event) => void seen.push(event.eventId),
      });
      const headers = await signStandard(body, { id: 'evt_scheme', secrets: [secret] });
      expect((await post(handler, { ...headers })).status).toBe(200);
      const platformOnly = await post(handler, { 'x-platform-signature': await sign(body, secret) });
      expect(platformOnly).toMatchObject({ status: 401, json: { error: { code: 'missing_signature' } } });
    }
    expect(seen).toEqual(['evt_scheme', 'evt_scheme']);
  });

  it('ed25519: accepts v1a with the public key, refuses a v1 signature and another key', async () => {
    const pair = await generateSigningKeyPair();
    const handler = createWebhookHandler({
      scheme: 'ed25519',
      publicKey: pair.publicKey,
      dedupe: false,
      onEvent: () => {},
    });
    const good = await signStandard(body, { id: 'evt_scheme', privateKeys: [pair.privateKey] });
    expect((await post(handler, { ...good })).status).toBe(200);
    const hmac = await signStandard(body, { id: 'evt_scheme', secrets: [generateSecret()] });
    expect((await post(handler, { ...hmac })).json.error?.code).toBe('malformed_signature');
    const other = await signStandard(body, {
      id: 'evt_scheme',
      privateKeys: [(await generateSigningKeyPair()).privateKey],
    });
    expect((await post(handler, { ...other })).json.error?.code).toBe('signature_mismatch');
  });

  it('platform stays the default; a scheme without its key is a configuration error naming what to pass', () => {
    expect(() => createWebhookHandler({ scheme: 'ed25519', onEvent: () => {} })).toThrow(/needs publicKey/);
    expect(() => createWebhookHandler({ scheme: 'standard-webhooks', onEvent: () => {} })).toThrow(
      WebhookConfigurationError,
    );
    expect(() =>
      createWebhookHandler({ scheme: 'hmac' as 'platform', secret: 's', onEvent: () => {} }),
    ).toThrow(/"platform", "standard-webhooks" or "ed25519"/);
  });
});
