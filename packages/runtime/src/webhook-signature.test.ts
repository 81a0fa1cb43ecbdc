import { toBase64Url, toHex, utf8 } from '@platform/webhooks/bytes';
import { describe, expect, it } from 'vitest';
import { hmacKey, hmacSign } from './hmac';
import { verifyWebhookSignature } from './webhook-signature';

const secret = 'third_party_secret';
const body = new Uint8Array([123, 34, 97, 34, 58, 49, 125, 0, 255]);

async function mac(data: Uint8Array, algorithm: 'SHA-256' | 'SHA-1' = 'SHA-256') {
  return hmacSign(await hmacKey(secret, algorithm), new Uint8Array(data));
}

describe('verifyWebhookSignature', () => {
  it('verifies hex with a prefix from a Request header, leaving the body readable', async () => {
    const request = new Request('https://p/webhook', {
      method: 'POST',
      body,
      headers: { 'x-hub-signature-256': `sha256=${toHex(await mac(body))}` },
    });
    expect(
      await verifyWebhookSignature(request, { secret, header: 'x-hub-signature-256', prefix: 'sha256=' }),
    ).toBe(true);
    expect(new Uint8Array(await request.arrayBuffer())).toEqual(body);
  });

  it('verifies base64 (standard and url-safe) over raw bytes, and other algorithms', async () => {
    const digest = await mac(body);
    const standard = btoa(String.fromCharCode(...digest));
    expect(await verifyWebhookSignature(body, { secret, signature: standard, encoding: 'base64' })).toBe(
      true,
    );
    expect(
      await verifyWebhookSignature(body.buffer, {
        secret,
        signature: toBase64Url(digest),
        encoding: 'base64',
      }),
    ).toBe(true);
    const sha1 = toHex(await mac(body, 'SHA-1'));
    expect(await verifyWebhookSignature(body, { secret, signature: sha1, algorithm: 'SHA-1' })).toBe(true);
  });

  it('accepts any of several secrets', async () => {
    const signature = toHex(await mac(body));
    expect(await verifyWebhookSignature(body, { secret: ['old', secret], signature })).toBe(true);
  });

  it.each([
    ['a missing signature', { signature: null }],
    ['a wrong prefix', { signature: 'sha1=00', prefix: 'sha256=' }],
    ['non-hex', { signature: 'zz' }],
    ['a wrong digest', { signature: '00'.repeat(32) }],
  ])('rejects %s', async (_name, extra) => {
    expect(await verifyWebhookSignature(body, { secret, ...extra })).toBe(false);
  });

  it('rejects a body changed by one byte', async () => {
    const signature = toHex(await mac(body));
    const changed = new Uint8Array(body);
    changed[0] = 124;
    expect(await verifyWebhookSignature(changed, { secret, signature })).toBe(false);
    expect(await verifyWebhookSignature(utf8('{"a":1}'), { secret, signature })).toBe(false);
  });
});
