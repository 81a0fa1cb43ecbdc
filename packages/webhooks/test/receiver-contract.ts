// The behaviour every receiver helper (fetch, node:http, Express) must have, run against each.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import type { WebhookEvent } from '../src/events.js';
import type { WebhookHandlerOptions, WebhookMeta } from '../src/receiver.js';
import { sign } from '../src/signature.js';

export const SECRET = 'whsec_contract_secret';

export interface SentRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Received {
  status: number;
  headers: Headers;
  json: unknown;
}

/** Starts a receiver with the given options and returns a way to send it requests. */
export type StartReceiver = (
  options: WebhookHandlerOptions,
) => Promise<{ send: (req: SentRequest) => Promise<Received>; close: () => Promise<void> }>;

export function event(eventId: string): WebhookEvent {
  return { eventId, type: 'space_content_updated', spaceId: 's1', installationId: 'i1', revisionId: 'r1' };
}

export async function signedPost(
  body: string,
  secret = SECRET,
  headers: Record<string, string> = {},
): Promise<SentRequest> {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-platform-signature': await sign(body, secret),
      'x-platform-delivery-id': 'dlv_1',
      'x-platform-delivery-attempt': '2',
      ...headers,
    },
    body,
  };
}

/** Registers the shared contract tests for one adapter. */
export function receiverContract(start: StartReceiver): void {
  const withReceiver = async (
    onEvent: WebhookHandlerOptions['onEvent'],
    run: (send: (req: SentRequest) => Promise<Received>) => Promise<void>,
    extra: Partial<WebhookHandlerOptions> = {},
  ) => {
    const receiver = await start({ secret: SECRET, onEvent, onError: () => {}, ...extra });
    try {
      await run(receiver.send);
    } finally {
      await receiver.close();
    }
  };

  it('answers 405 with Allow: POST to other methods', async () => {
    await withReceiver(
      () => {},
      async (send) => {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const res = await send({ method, headers: {} });
          expect(res.status).toBe(405);
          expect(res.headers.get('allow')).toBe('POST');
          expect(res.json).toMatchObject({ error: { code: 'method_not_allowed' } });
        }
      },
    );
  });

  it('answers 401 JSON to missing, malformed, wrong and expired signatures, without calling onEvent', async () => {
    const calls: string[] = [];
    await withReceiver(
      (e) => void calls.push(e.eventId),
      async (send) => {
        const body = JSON.stringify(event('evt_bad'));
        const expired = await sign(body, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 301 });
        const cases: Array<[Record<string, string>, string]> = [
          [{}, 'missing_signature'],
          [{ 'x-platform-signature': 't=abc' }, 'malformed_signature'],
          [{ 'x-platform-signature': await sign(body, 'whsec_wrong') }, 'signature_mismatch'],
          [{ 'x-platform-signature': expired }, 'timestamp_out_of_tolerance'],
        ];
        for (const [headers, code] of cases) {
          const res = await send({
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body,
          });
          expect(res.status, code).toBe(401);
          expect(res.headers.get('content-type')).toMatch(/^application\/json/);
          expect(res.json).toMatchObject({ error: { code, message: expect.any(String) } });
          expect(JSON.stringify(res.json)).not.toContain(SECRET);
        }
      },
    );
    expect(calls).toEqual([]);
  });

  it('answers 200 received, passes event and meta, then 200 duplicate without calling onEvent again', async () => {
    const calls: Array<[WebhookEvent, WebhookMeta]> = [];
    await withReceiver(
      (e, meta) => void calls.push([e, meta]),
      async (send) => {
        const body = JSON.stringify(event('evt_ok'));
        const first = await send(await signedPost(body));
        expect(first.status).toBe(200);
        expect(first.json).toEqual({ received: true });
        const again = await send(await signedPost(body));
        expect(again.status).toBe(200);
        expect(again.json).toEqual({ received: true, duplicate: true });
      },
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[0]).toEqual(event('evt_ok'));
    expect(calls[0]?.[1]).toMatchObject({ deliveryId: 'dlv_1', attempt: 2, timestamp: expect.any(Number) });
  });

  it('answers 500 when onEvent throws, and accepts the retry', async () => {
    let attempts = 0;
    await withReceiver(
      () => {
        attempts++;
        if (attempts === 1) throw new Error('database down');
      },
      async (send) => {
        const body = JSON.stringify(event('evt_retry'));
        const failed = await send(await signedPost(body));
        expect(failed.status).toBe(500);
        expect(failed.json).toMatchObject({ error: { code: 'handler_failed' } });
        expect(JSON.stringify(failed.json)).not.toContain('database down');
        const retried = await send(await signedPost(body));
        expect(retried.status).toBe(200);
        expect(retried.json).toEqual({ received: true });
        expect((await send(await signedPost(body))).json).toEqual({ received: true, duplicate: true });
      },
    );
    expect(attempts).toBe(2);
  });

  it('answers 400 to a signed body that is not an event and 413 to an oversized one', async () => {
    await withReceiver(
      () => {},
      async (send) => {
        const notEvent = await send(await signedPost('[1,2]'));
        expect(notEvent.status).toBe(400);
        expect(notEvent.json).toMatchObject({ error: { code: 'invalid_body' } });
        const big = await send(
          await signedPost(JSON.stringify({ ...event('evt_big'), pad: 'x'.repeat(2000) })),
        );
        expect(big.status).toBe(413);
        expect(big.json).toMatchObject({ error: { code: 'body_too_large' } });
      },
      { maxBodyBytes: 1000 },
    );
  });

  it('processes every delivery when dedupe is false', async () => {
    let calls = 0;
    await withReceiver(
      () => void calls++,
      async (send) => {
        const body = JSON.stringify(event('evt_nodedupe'));
        expect((await send(await signedPost(body))).json).toEqual({ received: true });
        expect((await send(await signedPost(body))).json).toEqual({ received: true });
      },
      { dedupe: false },
    );
    expect(calls).toBe(2);
  });
}

/** Sends a request to a real server with fetch. */
export async function sendTo(baseUrl: string, req: SentRequest): Promise<Received> {
  const res = await fetch(baseUrl, { method: req.method, headers: req.headers, body: req.body ?? null });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    json: text === '' ? null : (JSON.parse(text) as unknown),
  };
}

/** Starts a real server on a free loopback port. */
export async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
