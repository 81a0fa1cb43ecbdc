import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.js';
import { hmacImplementations, sign, verify } from './signature.js';

const T = 1_700_000_000;
const opts = { now: () => T * 1000 };
const secretArb = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });
const bodyArb = fc.uint8Array({ maxLength: 300 });

describe('sign/verify properties', () => {
  it('verify accepts whatever sign produced', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        fc.array(secretArb, { minLength: 1, maxLength: 3 }),
        async (body, secrets) => {
          const header = await sign(body, secrets, { timestamp: T });
          for (const secret of secrets)
            expect(await verify(body, header, secret, opts)).toEqual({ timestamp: T });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('agrees with node:crypto createHmac on random secrets and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200, unit: 'grapheme' }),
        secretArb,
        fc.nat(),
        async (body, secret, t) => {
          const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
            .update(`${t}.${body}`, 'utf8')
            .digest('hex');
          expect(await sign(body, secret, { timestamp: t })).toBe(`t=${t},v1=${expected}`);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the synchronous node:crypto HMAC (used in Node) and Web Crypto give the same digest', async () => {
    const { node, webCrypto } = hmacImplementations;
    expect(node).toBeTypeOf('function'); // Node 20.16+ hands out node:crypto via process.getBuiltinModule
    await fc.assert(
      fc.asyncProperty(bodyArb, secretArb, async (message, secret) => {
        const viaNode = node?.(secret, message);
        expect(viaNode).toMatch(/^[0-9a-f]{64}$/);
        expect(await webCrypto(secret, message)).toBe(viaNode);
      }),
      { numRuns: 100 },
    );
  });

  it('fails after any single-byte change of the body', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyArb.filter((b) => b.length > 0),
        secretArb,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (body, secret, index, delta) => {
          const header = await sign(body, secret, { timestamp: T });
          const changed = body.slice();
          const i = index % changed.length;
          changed[i] = (changed[i]! + delta) % 256;
          await expect(verify(changed, header, secret, opts)).rejects.toMatchObject({
            code: 'signature_mismatch',
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('fails after any single-character change of the signature', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        secretArb,
        fc.nat(),
        fc.integer({ min: 1, max: 15 }),
        async (body, secret, index, delta) => {
          const header = await sign(body, secret, { timestamp: T });
          const start = header.indexOf('v1=') + 3;
          const i = start + (index % 64);
          const digit = ((Number.parseInt(header[i]!, 16) + delta) % 16).toString(16);
          const tampered = header.slice(0, i) + digit + header.slice(i + 1);
          const error = await verify(body, tampered, secret, opts).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(WebhookVerificationError);
          expect((error as WebhookVerificationError).code).toBe('signature_mismatch');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('fails after any change of the timestamp', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        secretArb,
        fc.integer({ min: -299, max: 299 }).filter((d) => d !== 0),
        async (body, secret, d) => {
          const header = await sign(body, secret, { timestamp: T });
          const moved = header.replace(`t=${T}`, `t=${T + d}`);
          await expect(verify(body, moved, secret, opts)).rejects.toMatchObject({
            code: 'signature_mismatch',
          });
        },
      ),
      { numRuns: 30 },
    );
  });
});
