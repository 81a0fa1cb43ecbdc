import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.js';
import { hmacImplementations, sign, verify } from './signature.js';

const T = 1_700_000_000;
const opts = { now: () => T * 1000 };
const secretArb = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });
const bodyArb = fc.uint8Array({ maxLength: 300 });

/**
 * Declares the property that a delivery signed by `sign`, then changed by `tamper` (its body or its
 * header, by a random `change`), fails `verify` with `signature_mismatch`.
 */
function itFailsAfter<C>(
  what: string,
  bodies: fc.Arbitrary<Uint8Array>,
  change: fc.Arbitrary<C>,
  tamper: (body: Uint8Array, header: string, change: C) => [Uint8Array, string],
  numRuns: number,
): void {
  it(`fails after ${what}`, async () => {
    await fc.assert(
      fc.asyncProperty(bodies, secretArb, change, async (body, secret, c) => {
        const [changedBody, changedHeader] = tamper(body, await sign(body, secret, { timestamp: T }), c);
        const error = await verify(changedBody, changedHeader, secret, opts).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WebhookVerificationError);
        expect((error as WebhookVerificationError).code).toBe('signature_mismatch');
      }),
      { numRuns },
    );
  });
}

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

  itFailsAfter(
    'any single-byte change of the body',
    bodyArb.filter((b) => b.length > 0),
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })),
    (body, header, [index, delta]) => {
      const changed = body.slice();
      const i = index % changed.length;
      changed[i] = (changed[i]! + delta) % 256;
      return [changed, header];
    },
    60,
  );

  itFailsAfter(
    'any single-character change of the signature',
    bodyArb,
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 15 })),
    (body, header, [index, delta]) => {
      const i = header.indexOf('v1=') + 3 + (index % 64);
      const digit = ((Number.parseInt(header[i]!, 16) + delta) % 16).toString(16);
      return [body, header.slice(0, i) + digit + header.slice(i + 1)];
    },
    60,
  );

  itFailsAfter(
    'any change of the timestamp',
    bodyArb,
    fc.integer({ min: -299, max: 299 }).filter((d) => d !== 0),
    (body, header, d) => [body, header.replace(`t=${T}`, `t=${T + d}`)],
    30,
  );
});
