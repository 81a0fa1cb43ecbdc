import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort, listenOnLoopback } from '../../test/ports.js';
import { createGuardedDispatcher } from '../net/dispatcher.js';
import { parseAllowPrivateTargets } from '../net/policy.js';
import { type SendWebhookInput, sendWebhook } from './sender.js';

interface Received {
  headers: IncomingMessage['headers'];
  rawHeaderNames: string[];
  body: Buffer;
  path: string;
}

const received: Received[] = [];
const closedAt = new Map<string, number>();
let base: string;
let closedPort: number;

function route(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const path = req.url ?? '/';
  received.push({
    headers: req.headers,
    rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase()),
    body,
    path,
  });
  if (path === '/ok') res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  else if (path === '/redirect') res.writeHead(302, { location: `${base}/ok` }).end('moved');
  else if (path === '/hang') {
    // never answers
  } else if (path === '/slow-body') {
    res.writeHead(200);
    res.write('partial');
  } else if (path === '/reset') req.socket.destroy();
  else if (path === '/huge') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) {}
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => closedAt.set('/huge', Date.now()));
    pump();
  } else if (path === '/multibyte') res.writeHead(200).end('é'.repeat(3000));
  else res.writeHead(404).end();
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => route(req, res, Buffer.concat(chunks)));
});

beforeAll(async () => {
  base = await listenOnLoopback(server);
  closedPort = await freeLoopbackPort();
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const dispatcher = createGuardedDispatcher(parseAllowPrivateTargets('127.0.0.0/8'));
const secret = 'whsec_test_secret_value';
const event = JSON.stringify({
  type: 'space_content_updated',
  eventId: 'evt_1',
  spaceId: 'sp',
  revisionId: 'r',
});

function input(path: string, overrides: Partial<SendWebhookInput> = {}): SendWebhookInput {
  return {
    url: `${base}${path}`,
    body: event,
    secrets: [secret],
    eventId: 'evt_1',
    eventType: 'space_content_updated',
    deliveryId: 'dlv_1',
    attempt: 1,
    dispatcher,
    userAgentVersion: '1.2.3',
    ...overrides,
  };
}

function hmac(key: string, t: string, body: Buffer): string {
  return createHmac('sha256', Buffer.from(key, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${t}.`), body]))
    .digest('hex');
}

describe('sendWebhook', () => {
  it('sends exactly the documented headers, a verifiable signature and the same bytes on every attempt', async () => {
    const oldSecret = 'whsec_previous';
    const first = await sendWebhook(input('/ok', { attempt: 1, secrets: [secret, oldSecret] }));
    const second = await sendWebhook(input('/ok', { attempt: 2, now: () => Date.now() + 5000 }));
    expect(first).toMatchObject({ statusCode: 200, responseExcerpt: '{"received":true}' });
    expect(first.error).toBeUndefined();
    expect(second.statusCode).toBe(200);
    const [a, b] = received.slice(-2) as [Received, Received];

    expect(a.headers).toMatchObject({
      'content-type': 'application/json',
      'x-platform-event-id': 'evt_1',
      'x-platform-event-type': 'space_content_updated',
      'x-platform-delivery-id': 'dlv_1',
      'x-platform-delivery-attempt': '1',
      'user-agent': 'Platform-Webhooks/1.2.3',
    });
    expect(b.headers['x-platform-delivery-attempt']).toBe('2');
    expect(b.headers['x-platform-delivery-id']).toBe('dlv_1');
    const transport = new Set(['host', 'connection', 'content-length']);
    expect(a.rawHeaderNames.filter((h) => !transport.has(h)).sort()).toEqual([
      'content-type',
      'user-agent',
      'x-platform-delivery-attempt',
      'x-platform-delivery-id',
      'x-platform-event-id',
      'x-platform-event-type',
      'x-platform-signature',
    ]);

    expect(a.body.equals(Buffer.from(event, 'utf8'))).toBe(true);
    expect(b.body.equals(a.body)).toBe(true);

    // Independent verification: t=<secs>,v1=<hex>,v1=<hex> (one per secret).
    const parts = String(a.headers['x-platform-signature']).split(',');
    const t = parts.find((p) => p.startsWith('t='))?.slice(2) ?? '';
    const v1 = parts.filter((p) => p.startsWith('v1=')).map((p) => p.slice(3));
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(5);
    expect(v1).toHaveLength(2);
    const expected = [hmac(secret, t, a.body), hmac(oldSecret, t, a.body)];
    for (const [i, digest] of v1.entries()) {
      expect(timingSafeEqual(Buffer.from(digest, 'hex'), Buffer.from(expected[i] ?? '', 'hex'))).toBe(true);
    }
    // Signed afresh: the second attempt carries its own timestamp.
    const tb = /t=(\d+)/.exec(String(b.headers['x-platform-signature']))?.[1] ?? '';
    expect(Number(tb)).toBeGreaterThanOrEqual(Number(t) + 4);
    expect(String(b.headers['x-platform-signature'])).toContain(`v1=${hmac(secret, tb, b.body)}`);
  });

  it('does not follow redirects: a 3xx is just a status', async () => {
    const before = received.length;
    const result = await sendWebhook(input('/redirect'));
    expect(result.statusCode).toBe(302);
    expect(result.responseExcerpt).toBe('moved');
    expect(received.length).toBe(before + 1);
  });

  it('keeps only the first 4 KiB of a huge body and stops reading it', async () => {
    const result = await sendWebhook(input('/huge'));
    expect(result.statusCode).toBe(200);
    expect(result.responseExcerpt).toBe('x'.repeat(4096));
    await expect.poll(() => closedAt.has('/huge'), { timeout: 2000 }).toBe(true);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('never cuts a UTF-8 character in half', async () => {
    const result = await sendWebhook(input('/multibyte'));
    expect(result.responseExcerpt).toBe('é'.repeat(2048));
  });

  it('times out against a receiver that never answers', async () => {
    const result = await sendWebhook(input('/hang', { timeoutMs: 300 }));
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toEqual({
      code: 'timeout',
      message: 'The receiver did not answer in time (300 ms)',
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(295);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('the deadline covers the body excerpt: a stalled body keeps the status and what arrived', async () => {
    const result = await sendWebhook(input('/slow-body', { timeoutMs: 300 }));
    expect(result.statusCode).toBe(200);
    expect(result.responseExcerpt).toBe('partial');
    expect(result.durationMs).toBeGreaterThanOrEqual(295);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('maps a connection reset', async () => {
    const result = await sendWebhook(input('/reset'));
    expect(result.error?.code).toBe('connection_reset');
    expect(result.statusCode).toBeUndefined();
  });

  it('maps a refused connection', async () => {
    const result = await sendWebhook(input('/', { url: `http://127.0.0.1:${closedPort}/in` }));
    expect(result.error?.code).toBe('connection_refused');
    expect(result.error?.message).toContain('ECONNREFUSED');
  });

  it('maps a TLS failure (https to a plain HTTP port)', async () => {
    const result = await sendWebhook(input('/', { url: `${base.replace('http:', 'https:')}/ok` }));
    expect(result.error?.code).toBe('tls_error');
  });

  it('maps a DNS failure', async () => {
    const dnsFailing = createGuardedDispatcher(parseAllowPrivateTargets('1'), {
      lookup: ((hostname: string, _options: unknown, callback: (error: Error) => void) => {
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      }) as never,
    });
    const result = await sendWebhook(
      input('/', { url: 'https://nowhere.invalid/in', dispatcher: dnsFailing }),
    );
    expect(result.error?.code).toBe('dns_error');
    await dnsFailing.close();
  });

  it('maps a target refused by the address policy', async () => {
    const blocking = createGuardedDispatcher(parseAllowPrivateTargets(undefined));
    const before = received.length;
    const result = await sendWebhook(input('/ok', { dispatcher: blocking }));
    expect(result.error?.code).toBe('target_blocked');
    expect(result.error?.message).toContain('127.0.0.1 (loopback)');
    expect(received.length).toBe(before);
    await blocking.close();
  });

  it('reports a signing problem without throwing', async () => {
    const result = await sendWebhook(input('/ok', { secrets: [] }));
    expect(result.error?.code).toBe('signing_error');
  });
});
