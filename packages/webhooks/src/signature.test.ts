import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { WebhookConfigurationError, WebhookVerificationError } from './errors.js';
import { hmacImplementations, KEY_CACHE_SIZE, sign, verify } from './signature.js';

const SECRET = 'whsec_test_secret';
const T = 1_700_000_000;
const BODY = '{"eventId":"evt_1","type":"space_content_updated"}';
// Computed independently: createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex').
const FIXED_V1 = '48c68a413ec4aa9d5774ec0c1d9cb3a317d5817eb348d8d73884cae14eb1e518';
const FIXED_OLD_V1 = 'a089528117e7581825597d1a1b12fc88aa63b09a7bb930c00ed28427f7f1d2bf';
const atT = (offsetSeconds = 0) => ({ now: () => (T + offsetSeconds) * 1000 });

function hmac(secret: string, message: string | Buffer): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    throw error;
  }
  return 'ok';
}

describe('sign', () => {
  it('produces the fixed vector', async () => {
    expect(await sign(BODY, SECRET, { timestamp: T })).toBe(`t=${T},v1=${FIXED_V1}`);
  });

  it('puts one v1 per secret, in order', async () => {
    expect(await sign(BODY, [SECRET, 'whsec_old'], { timestamp: T })).toBe(
      `t=${T},v1=${FIXED_V1},v1=${FIXED_OLD_V1}`,
    );
  });

  it('matches node:crypto for unicode strings and raw bytes', async () => {
    const text = '{"comment":"héllo – 日本 🎉"}';
    expect(await sign(text, 'k€y', { timestamp: 42 })).toBe(`t=42,v1=${hmac('k€y', `42.${text}`)}`);
    const bytes = new Uint8Array([0, 255, 1, 128, 10]);
    const expected = hmac(SECRET, Buffer.concat([Buffer.from('7.'), Buffer.from(bytes)]));
    expect(await sign(bytes, SECRET, { timestamp: 7 })).toBe(`t=7,v1=${expected}`);
  });

  it('defaults the timestamp to now', async () => {
    const before = Math.floor(Date.now() / 1000);
    const header = await sign(BODY, SECRET);
    const t = Number(/^t=(\d+),/.exec(header)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(before + 2);
  });

  it('refuses bad secrets and timestamps with configuration errors', async () => {
    await expect(sign(BODY, '')).rejects.toBeInstanceOf(WebhookConfigurationError);
    await expect(sign(BODY, [])).rejects.toThrow(/No webhook secret/);
    await expect(sign(BODY, SECRET, { timestamp: 1.5 })).rejects.toThrow(/non-negative integer/);
  });
});

describe('verify', () => {
  const header = `t=${T},v1=${FIXED_V1}`;

  it('accepts the fixed vector from a string, Uint8Array, Buffer and ArrayBuffer', async () => {
    const bytes = new TextEncoder().encode(BODY);
    for (const body of [BODY, bytes, Buffer.from(BODY), bytes.buffer]) {
      await expect(verify(body, header, SECRET, atT())).resolves.toEqual({ timestamp: T });
    }
  });

  it('accepts exactly the tolerance in both directions and rejects one second more', async () => {
    expect(await codeOf(verify(BODY, header, SECRET, atT(300)))).toBe('ok');
    expect(await codeOf(verify(BODY, header, SECRET, atT(-300)))).toBe('ok');
    expect(await codeOf(verify(BODY, header, SECRET, atT(301)))).toBe('timestamp_out_of_tolerance');
    expect(await codeOf(verify(BODY, header, SECRET, atT(-301)))).toBe('timestamp_out_of_tolerance');
    expect(await codeOf(verify(BODY, header, SECRET, { ...atT(30), tolerance: 29 }))).toBe(
      'timestamp_out_of_tolerance',
    );
    expect(await codeOf(verify(BODY, header, SECRET, { ...atT(3600), tolerance: 3600 }))).toBe('ok');
  });

  it('says which way the clock is off', async () => {
    await expect(verify(BODY, header, SECRET, atT(400))).rejects.toThrow(/400 s in the past/);
    await expect(verify(BODY, header, SECRET, atT(-400))).rejects.toThrow(/400 s in the future/);
  });

  it('gives each failure its code and a 401/400 status', async () => {
    const cases: Array<[unknown, string | null | undefined, string]> = [
      [BODY, undefined, 'missing_signature'],
      [BODY, null, 'missing_signature'],
      [BODY, '   ', 'missing_signature'],
      [BODY, 'garbage', 'malformed_signature'],
      [BODY, `v1=${FIXED_V1}`, 'malformed_signature'],
      [BODY, `t=${T}`, 'malformed_signature'],
      [BODY, `t=${T},v1=abc`, 'malformed_signature'],
      [BODY, `t=-5,v1=${FIXED_V1}`, 'malformed_signature'],
      [BODY, `t=1.5,v1=${FIXED_V1}`, 'malformed_signature'],
      [BODY, `t=${T},v1=${'0'.repeat(64)}`, 'signature_mismatch'],
      [`${BODY} `, header, 'signature_mismatch'],
      [{ eventId: 'evt_1' }, header, 'invalid_body'],
      [undefined, header, 'invalid_body'],
    ];
    for (const [body, h, code] of cases) {
      const error = await verify(body as string, h, SECRET, atT()).catch((e: unknown) => e);
      expect(error, `${String(h)} -> ${code}`).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).code).toBe(code);
      expect((error as WebhookVerificationError).status).toBe(code === 'invalid_body' ? 400 : 401);
    }
  });

  it('never puts the secret or the expected digest in a message', async () => {
    const error = (await verify('other body', header, SECRET, atT()).catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(hmac(SECRET, `${T}.other body`));
    expect(error.message).not.toContain(FIXED_V1);
  });

  it('refuses an already-parsed object with instructions to pass the raw body', async () => {
    const error = await verify(JSON.parse(BODY) as string, header, SECRET, atT()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_body' });
    expect((error as Error).message).toMatch(/already-parsed object/);
    expect((error as Error).message).toContain("express.raw({ type: 'application/json' })");
  });

  it('verifies when any v1 matches, ignoring entries it cannot use; refuses when none matches', async () => {
    const other = hmac('whsec_other', `${T}.${BODY}`);
    for (const h of [
      `t=${T},v1=deadbeef,v1=${FIXED_V1}`,
      `t=${T},v1=${FIXED_V1},v1=deadbeef`,
      `t=${T},v1=${other},v1=${'z'.repeat(64)},v1=${FIXED_V1.toUpperCase()}`,
      `t=${T},v1=,v1=${FIXED_V1},v0=${other}`,
    ]) {
      await expect(verify(BODY, h, SECRET, atT()), h).resolves.toEqual({ timestamp: T });
    }
    expect(await codeOf(verify(BODY, `t=${T},v1=deadbeef,v1=${other}`, SECRET, atT()))).toBe(
      'signature_mismatch',
    );
    expect(await codeOf(verify(BODY, `t=${T},v1=deadbeef,v1=${'0'.repeat(63)}`, SECRET, atT()))).toBe(
      'malformed_signature',
    );
  });

  it('accepts any of several secrets (rotation on the receiver side)', async () => {
    await expect(verify(BODY, header, ['whsec_new', SECRET], atT())).resolves.toEqual({ timestamp: T });
    expect(await codeOf(verify(BODY, header, ['whsec_a', 'whsec_b'], atT()))).toBe('signature_mismatch');
  });

  it('accepts a two-v1 header with either secret (rotation on the host side)', async () => {
    const rotated = await sign(BODY, ['whsec_new', 'whsec_old'], { timestamp: T });
    expect(rotated.split(',')).toHaveLength(3);
    expect(await codeOf(verify(BODY, rotated, 'whsec_new', atT()))).toBe('ok');
    expect(await codeOf(verify(BODY, rotated, 'whsec_old', atT()))).toBe('ok');
    expect(await codeOf(verify(BODY, rotated, 'whsec_other', atT()))).toBe('signature_mismatch');
  });

  it('ignores unknown keys, tolerates spaces, uppercase hex and empty parts', async () => {
    const variants = [
      `v0=deadbeef,t=${T},v2=${'f'.repeat(64)},v1=${FIXED_V1},foo=bar`,
      ` t = ${T} ,  v1 = ${FIXED_V1} `,
      `t=${T},v1=${FIXED_V1.toUpperCase()}`,
      `t=${T},,v1=${FIXED_V1},`,
      `t=${T},v1=${'1'.repeat(64)},v1=${FIXED_V1}`,
    ];
    for (const variant of variants)
      expect(await codeOf(verify(BODY, variant, SECRET, atT())), variant).toBe('ok');
  });

  it('rejects a duplicate t, even when both values agree', async () => {
    expect(await codeOf(verify(BODY, `t=${T},t=${T},v1=${FIXED_V1}`, SECRET, atT()))).toBe(
      'malformed_signature',
    );
  });

  it('checks the digest before the age, so a forged old request is a mismatch', async () => {
    const forged = `t=${T - 10_000},v1=${FIXED_V1}`;
    expect(await codeOf(verify(BODY, forged, SECRET, atT()))).toBe('signature_mismatch');
  });

  it('refuses bad options', async () => {
    await expect(verify(BODY, header, SECRET, { tolerance: -1 })).rejects.toBeInstanceOf(
      WebhookConfigurationError,
    );
    await expect(verify(BODY, header, [SECRET, ''])).rejects.toThrow(/secret #2/);
  });
});

describe('HMAC key cache', () => {
  it('imports a secret once for many signatures and verifications, and stays correct', async () => {
    const spy = vi.spyOn(crypto.subtle, 'importKey');
    try {
      const secret = `whsec_cache_${Math.random()}`;
      const headers = await Promise.all([1, 2, 3].map((i) => sign(`${BODY}${i}`, secret, { timestamp: T })));
      for (const [i, header] of headers.entries()) {
        expect(header).toBe(`t=${T},v1=${hmac(secret, `${T}.${BODY}${i + 1}`)}`);
        await verify(`${BODY}${i + 1}`, header, secret, atT());
      }
      expect(await codeOf(verify(`${BODY}x`, headers[0], secret, atT()))).toBe('signature_mismatch');
      // one import for verifying; signing in Node uses node:crypto's HMAC (no key import at all)
      expect(spy.mock.calls.filter((call) => call[0] === 'raw').length).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('is bounded: a secret evicted by KEY_CACHE_SIZE newer ones is imported again', async () => {
    // Web Crypto signing (what runtimes without node:crypto use) goes through the same cache.
    const { webCrypto } = hmacImplementations;
    const message = new TextEncoder().encode(`${T}.${BODY}`);
    const spy = vi.spyOn(crypto.subtle, 'importKey');
    try {
      const first = `whsec_first_${Math.random()}`;
      await webCrypto(first, message);
      for (let i = 0; i < KEY_CACHE_SIZE; i++) await webCrypto(`whsec_fill_${i}_${Math.random()}`, message);
      const before = spy.mock.calls.length;
      expect(await webCrypto(first, message)).toBe(hmac(first, `${T}.${BODY}`));
      expect(spy.mock.calls.length).toBe(before + 1);
    } finally {
      spy.mockRestore();
    }
  });
});
