import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { verify as verifyPlatform, verifyStandard } from '@platform/webhooks';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { type Received, type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

// Interoperability (docs/contracts.md "Signature schemes"): a running host delivers to real receivers
// that verify each request AT RECEIPT with the independent npm libraries — `standardwebhooks` and svix's
// `Webhook`, called unchanged — and answer 401 when verification fails, so a delivery only succeeds when the
// library accepted it. ed25519 (v1a, which neither library implements) is checked with node:crypto alone.

type Verifier = (request: Received) => void;
type Scheme = 'platform' | 'standard-webhooks' | 'ed25519' | 'standard-both' | 'ed25519-both';

const CONFIGURATIONS: Record<Scheme, Record<string, unknown>> = {
  platform: {},
  'standard-webhooks': { signature_scheme: 'standard-webhooks' },
  ed25519: { signature_scheme: 'ed25519' },
  'standard-both': { signature_scheme: 'standard-webhooks', signature_both_headers: true },
  'ed25519-both': { signature_scheme: 'ed25519', signature_both_headers: true },
};

function headersOf(request: Received): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** node:crypto, independently of @platform/webhooks: the v1a entries of a request under a whpk_ key. */
function verifyEd25519WithNode(request: Received, publicKey: string): boolean {
  const raw = Buffer.from(publicKey.slice('whpk_'.length), 'base64');
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
    format: 'der',
    type: 'spki',
  });
  const h = headersOf(request);
  const content = Buffer.from(`${h['webhook-id']}.${h['webhook-timestamp']}.${request.body}`);
  return (h['webhook-signature'] ?? '')
    .split(' ')
    .filter((entry) => entry.startsWith('v1a,'))
    .some((entry) => nodeVerify(null, content, key, Buffer.from(entry.slice(4), 'base64')));
}

function schemesSuite(backend: Backend) {
  let t: TestHost;
  let receiver: Receiver;
  const verifiers = new Map<string, Verifier>();
  const ids = {} as Record<Scheme, string>;
  const secrets = {} as Record<Scheme, { secret: string; standard?: string }>;
  const publicKeys = {} as Partial<Record<Scheme, string>>;
  const space = `space-sig-${backend}`;
  const schemeOf = (request: Received) =>
    new URL(request.url, 'http://x').searchParams.get('scheme') as Scheme;

  beforeAll(async () => {
    t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' }, backend);
    receiver = await startReceiver((request, res) => {
      try {
        verifiers.get(schemeOf(request))?.(request);
        res.writeHead(200).end('{"received":true}');
      } catch (error) {
        res.writeHead(401).end(JSON.stringify({ error: String(error) }));
      }
    });
    for (const scheme of Object.keys(CONFIGURATIONS) as Scheme[]) {
      const installed = await t.api<{ id: string; status: string }>('POST', '/v1/installations', {
        integration: 'webhook',
        space,
        configuration: {
          url: `${receiver.url}?scheme=${scheme}`,
          space_content_updated: true,
          ...CONFIGURATIONS[scheme],
        },
      });
      expect(installed.status, JSON.stringify(installed.body)).toBe(201);
      expect(installed.body.status).toBe('active');
      ids[scheme] = installed.body.id;
      const secret = await t.api<{ secret: string; standardWebhooks?: { secret: string } }>(
        'GET',
        `/v1/installations/${installed.body.id}/webhook-secret`,
      );
      secrets[scheme] = {
        secret: secret.body.secret,
        ...(secret.body.standardWebhooks ? { standard: secret.body.standardWebhooks.secret } : {}),
      };
      if (scheme.startsWith('ed25519')) {
        const key = await t.api<{ publicKey: string; algorithm: string; scheme: string }>(
          'GET',
          `/v1/installations/${installed.body.id}/webhook-public-key`,
        );
        expect(key.status, JSON.stringify(key.body)).toBe(200);
        expect(key.body).toMatchObject({ algorithm: 'ed25519', scheme: 'ed25519' });
        publicKeys[scheme] = key.body.publicKey;
      }
    }
    // What each receiver checks, with the library a subscriber would use (throws: 401).
    const libraries = (request: Received, standardSecret: string) => {
      const headers = headersOf(request);
      new Webhook(standardSecret).verify(request.body, headers);
      new SvixWebhook(standardSecret).verify(request.body, headers);
    };
    const platform = (request: Received, scheme: Scheme) => {
      const header = headersOf(request)['x-platform-signature'];
      if (!header) throw new Error('no X-Platform-Signature');
      return verifyPlatform(request.body, header, secrets[scheme].secret);
    };
    verifiers.set('platform', (r) => void platform(r, 'platform'));
    verifiers.set('standard-webhooks', (r) => libraries(r, secrets['standard-webhooks'].standard ?? ''));
    verifiers.set('standard-both', (r) => libraries(r, secrets['standard-both'].standard ?? ''));
    for (const scheme of ['ed25519', 'ed25519-both'] as const) {
      verifiers.set(scheme, (r) => {
        if (!verifyEd25519WithNode(r, publicKeys[scheme] ?? '')) throw new Error('no v1a entry verifies');
      });
    }
  });

  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const deliveriesOf = async (scheme: Scheme) =>
    (
      await t.api<{ deliveries: { state: string; eventId: string }[] }>(
        'GET',
        `/v1/installations/${ids[scheme]}/deliveries`,
      )
    ).body.deliveries;

  async function postEvent(revisionId: string): Promise<string> {
    const posted = await t.api<{ eventId: string }>('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: space,
      revisionId,
    });
    expect(posted.status).toBe(202);
    return posted.body.eventId;
  }

  it('delivers with every scheme; the libraries accept each real delivery unchanged (all succeed)', async () => {
    const eventId = await postEvent('rev-1');
    for (const scheme of Object.keys(CONFIGURATIONS) as Scheme[]) {
      await expect
        .poll(async () => (await deliveriesOf(scheme))[0]?.state, { timeout: 15_000 })
        .toBe('succeeded');
    }
    const byScheme = new Map(receiver.received.map((r) => [schemeOf(r), r]));
    const headers = (scheme: Scheme) => headersOf(byScheme.get(scheme) as Received);
    // platform: today's headers only; the Standard Webhooks set never appears.
    expect(Object.keys(headers('platform')).filter((n) => n.startsWith('webhook-'))).toEqual([]);
    // standard-webhooks: webhook-id is the event id, v1 base64, no X-Platform-Signature unless both are asked.
    expect(headers('standard-webhooks')).toMatchObject({ 'webhook-id': eventId });
    expect(headers('standard-webhooks')['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(headers('standard-webhooks')['x-platform-signature']).toBeUndefined();
    expect(headers('standard-both')['x-platform-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await verifyPlatform(
      byScheme.get('standard-both')?.body ?? '',
      headers('standard-both')['x-platform-signature'],
      secrets['standard-both'].secret,
    );
    // ed25519: v1a only; @platform/webhooks verifies it with the public key too, and the libraries (v1 only) do not.
    const ed = byScheme.get('ed25519') as Received;
    expect(headers('ed25519')['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]+=*$/);
    await verifyStandard(ed.body, headers('ed25519'), { publicKey: publicKeys.ed25519 ?? '' });
    expect(() => new Webhook(secrets.ed25519.standard ?? '').verify(ed.body, headers('ed25519'))).toThrow(
      /No matching signature/,
    );
    expect(headers('ed25519')['x-platform-signature']).toBeUndefined();
    await verifyPlatform(
      byScheme.get('ed25519-both')?.body ?? '',
      headers('ed25519-both')['x-platform-signature'] ?? '',
      secrets['ed25519-both'].secret,
    );
  });

  it('during a secret rotation the Standard Webhooks header holds two v1 signatures; the old and the new secret both verify', async () => {
    const rotated = await t.api<{ secret: string }>(
      'POST',
      `/v1/installations/${ids['standard-webhooks']}/webhook-secret/rotate`,
    );
    expect(rotated.status).toBe(200);
    const after = await t.api<{ standardWebhooks: { secret: string; previous: string[] } }>(
      'GET',
      `/v1/installations/${ids['standard-webhooks']}/webhook-secret`,
    );
    expect(after.body.standardWebhooks.previous).toEqual([secrets['standard-webhooks'].standard]);
    const before = receiver.received.length;
    // The receiver still holds the old secret: the delivery succeeds through the previous secret's v1.
    await postEvent('rev-2');
    await expect
      .poll(
        async () => (await deliveriesOf('standard-webhooks')).filter((d) => d.state === 'succeeded').length,
        {
          timeout: 15_000,
        },
      )
      .toBe(2);
    const latest = receiver.received
      .slice(before)
      .find((r) => schemeOf(r) === 'standard-webhooks') as Received;
    expect(headersOf(latest)['webhook-signature']?.split(' ')).toHaveLength(2);
    new Webhook(after.body.standardWebhooks.secret).verify(latest.body, headersOf(latest));
    new SvixWebhook(after.body.standardWebhooks.secret).verify(latest.body, headersOf(latest));
  });

  it('during an ed25519 key rotation two v1a signatures go out; the old and the new public key both verify', async () => {
    const rotated = await t.api<{ publicKey: string; previous: { publicKey: string; expiresAt: string } }>(
      'POST',
      `/v1/installations/${ids.ed25519}/webhook-public-key/rotate`,
    );
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.previous.publicKey).toBe(publicKeys.ed25519);
    expect(rotated.body.publicKey).not.toBe(publicKeys.ed25519);
    expect(Date.parse(rotated.body.previous.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const before = receiver.received.length;
    // The receiver still holds the old public key: the delivery succeeds through the previous key's v1a.
    await postEvent('rev-3');
    await expect
      .poll(async () => (await deliveriesOf('ed25519')).filter((d) => d.state === 'succeeded').length, {
        timeout: 15_000,
      })
      .toBe(3);
    const latest = receiver.received.slice(before).find((r) => schemeOf(r) === 'ed25519') as Received;
    expect(
      headersOf(latest)
        ['webhook-signature']?.split(' ')
        .map((e) => e.split(',')[0]),
    ).toEqual(['v1a', 'v1a']);
    expect(verifyEd25519WithNode(latest, rotated.body.publicKey)).toBe(true);
    await verifyStandard(latest.body, headersOf(latest), { publicKey: rotated.body.publicKey });
    const none = await t.api('POST', `/v1/installations/${ids.platform}/webhook-public-key/rotate`);
    expect(none.status).toBe(404);
  });

  it('refuses a wrong setting with 400 naming it (nothing installed); an edit that makes it wrong leaves the installation pending', async () => {
    const bad = await t.api<{ error: { code: string; message: string } }>('POST', '/v1/installations', {
      integration: 'webhook',
      space,
      configuration: { url: receiver.url, space_content_updated: true, signature_scheme: 'hmac' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_configuration');
    expect(bad.body.error.message).toContain('configuration.signature_scheme');
    const both = await t.api<{ error: { message: string } }>('POST', '/v1/installations', {
      integration: 'webhook',
      space,
      configuration: { url: receiver.url, space_content_updated: true, signature_both_headers: true },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('choose standard-webhooks or ed25519');
    const list = await t.api<{ installations: unknown[] }>('GET', `/v1/installations?space=${space}`);
    expect(list.body.installations).toHaveLength(Object.keys(CONFIGURATIONS).length);

    const edited = await t.api<{ status: string; configurationErrors: { key: string }[] }>(
      'PATCH',
      `/v1/installations/${ids.platform}`,
      { configuration: { signature_both_headers: true } },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.status).toBe('pending');
    expect(edited.body.configurationErrors.map((e) => e.key)).toEqual(['signature_both_headers']);
    const fixed = await t.api<{ status: string }>('PATCH', `/v1/installations/${ids.platform}`, {
      configuration: { signature_both_headers: null },
    });
    expect(fixed.body.status).toBe('active');
  });

  it('makes the key pair when a scheme becomes ed25519 and keeps it; a platform installation has none (404 saying how)', async () => {
    const none = await t.api<{ error: { code: string; message: string } }>(
      'GET',
      `/v1/installations/${ids.platform}/webhook-public-key`,
    );
    expect(none.status).toBe(404);
    expect(none.body.error.message).toContain('signature_scheme');
    const id = ids['standard-webhooks'];
    await t.api('PATCH', `/v1/installations/${id}`, { configuration: { signature_scheme: 'ed25519' } });
    const first = await t.api<{ publicKey: string }>('GET', `/v1/installations/${id}/webhook-public-key`);
    expect(first.body.publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    await t.api('PATCH', `/v1/installations/${id}`, { configuration: { signature_scheme: 'platform' } });
    await t.api('PATCH', `/v1/installations/${id}`, { configuration: { signature_scheme: 'ed25519' } });
    const again = await t.api<{ publicKey: string; scheme: string }>(
      'GET',
      `/v1/installations/${id}/webhook-public-key`,
    );
    expect(again.body).toMatchObject({ publicKey: first.body.publicKey, scheme: 'ed25519' });
  });
}

describe.each(BACKENDS)('signature schemes against a running host (%s)', (backend) => schemesSuite(backend));
