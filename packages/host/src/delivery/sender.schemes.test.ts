import { createServer, type IncomingMessage } from 'node:http';
import {
  generateSecret,
  generateSigningKeyPair,
  standardSecret,
  verify,
  verifyStandard,
} from '@platform/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../test/ports.js';
import { createGuardedDispatcher } from '../net/dispatcher.js';
import { parseAllowPrivateTargets } from '../net/policy.js';
import { type SendWebhookInput, sendWebhook } from './sender.js';

// Each scheme's headers on the wire, read by a real receiver; the default path byte for byte as before.
interface Seen {
  names: string[];
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({
      names: req.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase()),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    res.writeHead(200).end('{}');
  });
});
let url = '';
beforeAll(async () => {
  url = `${await listenOnLoopback(server)}/hook`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const secret = generateSecret();
const body = JSON.stringify({ type: 'site_view', eventId: 'evt_scheme_1', siteId: 'site_1' });
const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets('127.0.0.0/8'));

function attempt(extra: Partial<SendWebhookInput>) {
  return sendWebhook({
    url,
    body,
    secrets: [secret],
    eventId: 'evt_scheme_1',
    eventType: 'site_view',
    deliveryId: 'dlv_1',
    attempt: 1,
    dispatcher,
    userAgentVersion: '0.1.0',
    ...extra,
  });
}

async function send(extra: Partial<SendWebhookInput> = {}): Promise<Seen> {
  const before = seen.length;
  const result = await attempt(extra);
  expect(result.statusCode, JSON.stringify(result.error)).toBe(200);
  expect(seen.length).toBe(before + 1);
  return seen[before] as Seen;
}

const fixed = () => 1_700_000_000_000;
const platformNames = [
  'content-type',
  'x-platform-signature',
  'x-platform-event-id',
  'x-platform-event-type',
  'x-platform-delivery-id',
  'x-platform-delivery-attempt',
  'user-agent',
];

describe('sendWebhook signature schemes', () => {
  it('platform, explicit or absent, sends the same headers and the same signature', async () => {
    const absent = await send({ now: fixed });
    const explicit = await send({
      now: fixed,
      signing: { scheme: 'platform', bothHeaders: true, privateKeys: [] },
    });
    expect(absent.names.filter((n) => platformNames.includes(n))).toEqual(platformNames);
    expect(absent.names.some((n) => n.startsWith('webhook-'))).toBe(false);
    expect(explicit.names).toEqual(absent.names);
    expect(explicit.headers['x-platform-signature']).toBe(absent.headers['x-platform-signature']);
  });

  it('standard-webhooks: webhook-id is the event id; standardwebhooks verifies it unchanged; no X-Platform-Signature', async () => {
    const got = await send({ signing: { scheme: 'standard-webhooks', bothHeaders: false, privateKeys: [] } });
    expect(got.headers['webhook-id']).toBe('evt_scheme_1');
    expect(got.headers['x-platform-signature']).toBeUndefined();
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const headers = got.headers as Record<string, string>;
    expect(new Webhook(standardSecret(secret)).verify(got.body, headers)).toMatchObject({
      eventId: 'evt_scheme_1',
    });
  });

  it('ed25519 with both header sets: v1a verifies with the public key, X-Platform-Signature with the secret', async () => {
    const pair = await generateSigningKeyPair();
    const got = await send({
      signing: { scheme: 'ed25519', bothHeaders: true, privateKeys: [pair.privateKey] },
    });
    expect(got.headers['webhook-signature']).toMatch(/^v1a,/);
    expect(got.headers['webhook-timestamp']).toBe(
      /t=(\d+)/.exec(String(got.headers['x-platform-signature']))?.[1],
    );
    await verifyStandard(got.body, got.headers, { publicKey: pair.publicKey });
    await verify(got.body, String(got.headers['x-platform-signature']), secret);
  });

  it('ed25519 without a key is a signing_error and sends nothing', async () => {
    const before = seen.length;
    const result = await attempt({ signing: { scheme: 'ed25519', bothHeaders: false, privateKeys: [] } });
    expect(result.error?.code).toBe('signing_error');
    expect(seen.length).toBe(before);
  });
});
