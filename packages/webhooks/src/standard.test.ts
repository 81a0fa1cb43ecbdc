import { createHmac, createPublicKey, verify as nodeVerify } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import { fromBase64 } from './bytes.js';
import { ed25519Implementations, generateSigningKeyPair, publicKeyBytes, publicKeyOf } from './ed25519.js';
import { WebhookConfigurationError, WebhookVerificationError } from './errors.js';
import { generateSecret } from './secret.js';
import { signStandard, standardSecret, standardSecretKey, verifyStandard } from './standard.js';

const body = JSON.stringify({ type: 'site_view', eventId: 'evt_1', text: 'héllo' });
const now = () => 1_700_000_000_000;
const timestamp = 1_700_000_000;

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe('standardSecret', () => {
  it('spells the generated secret as padded standard base64 of the same 32 bytes', () => {
    const secret = generateSecret();
    const spelled = standardSecret(secret);
    expect(spelled).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(standardSecretKey(spelled))).toEqual(
      Buffer.from(secret.slice('whsec_'.length), 'base64url'),
    );
  });

  it('refuses a secret that is not whsec_ + base64, naming the expected form', () => {
    expect(() => standardSecretKey('sk_live_123')).toThrow(WebhookConfigurationError);
    expect(() => standardSecretKey('whsec_!!')).toThrow(/whsec_" followed by base64/);
  });
});

describe('signStandard / verifyStandard (v1, HMAC)', () => {
  it('signs id.timestamp.body with the secret bytes (checked with node:crypto)', async () => {
    const secret = generateSecret();
    const headers = await signStandard(body, { id: 'evt_1', timestamp, secrets: [secret] });
    const expected = createHmac('sha256', Buffer.from(standardSecretKey(secret)))
      .update(`evt_1.${timestamp}.${body}`)
      .digest('base64');
    expect(headers).toEqual({
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${expected}`,
    });
    await expect(verifyStandard(body, headers, { secret }, { now })).resolves.toEqual({
      id: 'evt_1',
      timestamp,
    });
  });

  it('is verified unchanged by the standardwebhooks and svix libraries, with the standard spelling', async () => {
    const secret = generateSecret();
    const headers = await signStandard(body, { id: 'evt_2', secrets: [secret] });
    expect(new Webhook(standardSecret(secret)).verify(body, { ...headers })).toMatchObject({
      eventId: 'evt_1',
    });
    expect(new SvixWebhook(standardSecret(secret)).verify(body, { ...headers })).toMatchObject({
      eventId: 'evt_1',
    });
    // And the other way round: what the library signs, verifyStandard accepts.
    const signed = new Webhook(standardSecret(secret)).sign('msg_9', new Date(now()), body);
    await expect(
      verifyStandard(
        body,
        { 'webhook-id': 'msg_9', 'webhook-timestamp': String(timestamp), 'webhook-signature': signed },
        { secret },
        { now },
      ),
    ).resolves.toEqual({ id: 'msg_9', timestamp });
  });

  it('carries one v1 per secret during a rotation; either secret verifies', async () => {
    const [next, previous] = [generateSecret(), generateSecret()];
    const headers = await signStandard(body, { id: 'evt_1', secrets: [next, previous] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    await verifyStandard(body, headers, { secret: previous });
    await verifyStandard(body, headers, { secret: next });
    expect(new Webhook(standardSecret(previous)).verify(body, { ...headers })).toBeTruthy();
    const other = generateSecret();
    expect((await rejection(verifyStandard(body, headers, { secret: other }))).code).toBe(
      'signature_mismatch',
    );
  });

  it('rejects a changed body, id or timestamp, an old timestamp and missing headers with stable codes', async () => {
    const secret = generateSecret();
    const headers = await signStandard(body, { id: 'evt_1', timestamp, secrets: [secret] });
    const check = (b: string, h: Record<string, string>, clock = now) =>
      rejection(verifyStandard(b, h, { secret }, { now: clock }));
    expect((await check(`${body} `, headers)).code).toBe('signature_mismatch');
    expect((await check(body, { ...headers, 'webhook-id': 'evt_2' })).code).toBe('signature_mismatch');
    expect((await check(body, { ...headers, 'webhook-timestamp': String(timestamp + 1) })).code).toBe(
      'signature_mismatch',
    );
    expect((await check(body, headers, () => now() + 301_000)).code).toBe('timestamp_out_of_tolerance');
    const missing = await check(body, { 'webhook-id': 'evt_1' });
    expect(missing.code).toBe('missing_signature');
    expect(missing.message).toContain('webhook-timestamp, webhook-signature');
    expect((await check(body, { ...headers, 'webhook-timestamp': 'soon' })).code).toBe('malformed_signature');
    expect((await check(body, { ...headers, 'webhook-signature': 'v2,abc' })).code).toBe(
      'malformed_signature',
    );
  });
});

describe('ed25519 (v1a)', () => {
  it('makes whsk_/whpk_ pairs of 32 bytes; the public key derives from the private one', async () => {
    const pair = await generateSigningKeyPair();
    expect(pair.privateKey).toMatch(/^whsk_[A-Za-z0-9+/]{43}=$/);
    expect(pair.publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(await publicKeyOf(pair.privateKey)).toBe(pair.publicKey);
  });

  it('signs id.timestamp.body; node:crypto verifies it with the public key alone', async () => {
    const pair = await generateSigningKeyPair();
    const headers = await signStandard(body, { id: 'evt_1', timestamp, privateKeys: [pair.privateKey] });
    const [version, signature] = headers['webhook-signature'].split(',');
    expect(version).toBe('v1a');
    const spki = Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      publicKeyBytes(pair.publicKey),
    ]);
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    expect(
      nodeVerify(
        null,
        Buffer.from(`evt_1.${timestamp}.${body}`),
        key,
        fromBase64(signature ?? '') ?? new Uint8Array(),
      ),
    ).toBe(true);
    await expect(verifyStandard(body, headers, { publicKey: pair.publicKey }, { now })).resolves.toEqual({
      id: 'evt_1',
      timestamp,
    });
  });

  it('node:crypto and Web Crypto sign the same bytes (ed25519 is deterministic)', async () => {
    const pair = await generateSigningKeyPair();
    const message = new TextEncoder().encode('evt.1.{}') as Uint8Array<ArrayBuffer>;
    expect(ed25519Implementations.node).toBeDefined();
    const a = await ed25519Implementations.node?.(pair.privateKey, message);
    const b = await ed25519Implementations.webCrypto(pair.privateKey, message);
    expect(Buffer.from(a ?? [])).toEqual(Buffer.from(b));
  });

  it('verifies a header holding both v1 and v1a with either kind of key; another key does not', async () => {
    const secret = generateSecret();
    const pair = await generateSigningKeyPair();
    const headers = await signStandard(body, {
      id: 'evt_1',
      secrets: [secret],
      privateKeys: [pair.privateKey],
    });
    await verifyStandard(body, headers, { secret });
    await verifyStandard(body, headers, { publicKey: pair.publicKey });
    expect(new Webhook(standardSecret(secret)).verify(body, { ...headers })).toBeTruthy();
    const stranger = await generateSigningKeyPair();
    expect((await rejection(verifyStandard(body, headers, { publicKey: stranger.publicKey }))).code).toBe(
      'signature_mismatch',
    );
    const hmacOnly = await signStandard(body, { id: 'evt_1', timestamp, secrets: [secret] });
    const noV1a = await rejection(verifyStandard(body, hmacOnly, { publicKey: pair.publicKey }, { now }));
    expect(noV1a.code).toBe('malformed_signature');
    expect(noV1a.message).toContain('not signed with ed25519');
  });

  it('refuses keys that are not whsk_/whpk_ with a message naming the form', async () => {
    await expect(signStandard(body, { id: 'e', privateKeys: ['whpk_abc'] })).rejects.toThrow(/whsk_/);
    const secret = generateSecret();
    const headers = await signStandard(body, { id: 'evt_1', timestamp, secrets: [secret] });
    await expect(verifyStandard(body, headers, { publicKey: secret }, { now })).rejects.toThrow(
      WebhookConfigurationError,
    );
    await expect(signStandard(body, { id: 'a.b', secrets: [secret] })).rejects.toThrow(
      /without spaces or periods/,
    );
    await expect(signStandard(body, { id: 'e' })).rejects.toThrow(/at least one secret or private key/);
  });
});
