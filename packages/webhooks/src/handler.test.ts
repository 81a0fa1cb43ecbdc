import { describe, expect, it } from 'vitest';
import { event, receiverContract, SECRET, type SentRequest, signedPost } from '../test/receiver-contract.js';
import { createWebhookHandler } from './handler.js';
import type { WebhookHandlerOptions } from './receiver.js';

function toRequest(req: SentRequest): Request {
  return new Request('http://receiver.test/webhooks', {
    method: req.method,
    headers: req.headers,
    body: req.body ?? null,
  });
}

async function call(handler: (r: Request) => Promise<Response>, req: SentRequest) {
  const res = await handler(toRequest(req));
  return { status: res.status, headers: res.headers, json: (await res.json()) as unknown };
}

/** A promise (`gate`) that resolves when `release()` is called. */
function gated(): { gate: Promise<void>; release: () => void } {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  return { gate, release };
}

describe('createWebhookHandler (fetch style)', () => {
  receiverContract(async (options: WebhookHandlerOptions) => {
    const handler = createWebhookHandler(options);
    return { send: (req) => call(handler, req), close: async () => {} };
  });

  it('runs onEvent once for concurrent redeliveries and reports the rest as duplicates', async () => {
    let calls = 0;
    const { gate, release } = gated();
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: async () => {
        calls++;
        await gate;
      },
    });
    const body = JSON.stringify(event('evt_concurrent'));
    const pending = [call(handler, await signedPost(body)), call(handler, await signedPost(body))];
    while (calls === 0) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 20));
    release();
    const results = await Promise.all(pending);
    expect(calls).toBe(1);
    // in either order: signature checks finish in any order, so either request may be the one processed
    expect(results.map((r) => r.json)).toEqual(
      expect.arrayContaining([{ received: true }, { received: true, duplicate: true }]),
    );
  });

  it('lets a concurrent redelivery process the event when the first attempt fails', async () => {
    let calls = 0;
    const { gate, release } = gated();
    const handler = createWebhookHandler({
      secret: SECRET,
      onError: () => {},
      onEvent: async () => {
        calls++;
        if (calls === 1) {
          await gate;
          throw new Error('first attempt fails');
        }
      },
    });
    const body = JSON.stringify(event('evt_concurrent_fail'));
    const pending = [call(handler, await signedPost(body)), call(handler, await signedPost(body))];
    // whichever request reaches onEvent first is the failing one (signature checks finish in any order)
    while (calls === 0) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 20)); // the other one is now waiting on the first
    release();
    const answers = await Promise.all(pending);
    const failed = answers.filter((a) => a?.status === 500);
    const processed = answers.filter((a) => a?.status === 200);
    expect(failed).toHaveLength(1);
    expect(processed.map((a) => a?.json)).toEqual([{ received: true }]);
    expect(calls).toBe(2);
  });

  it('uses a custom DedupeStore and answers 500 when it fails', async () => {
    const seen = new Set<string>(['evt_known']);
    let broken = false;
    const handler = createWebhookHandler({
      secret: SECRET,
      onError: () => {},
      onEvent: () => {},
      dedupe: {
        has: async (id) => {
          if (broken) throw new Error('redis down');
          return seen.has(id);
        },
        add: async (id) => void seen.add(id),
      },
    });
    expect((await call(handler, await signedPost(JSON.stringify(event('evt_known'))))).json).toMatchObject({
      duplicate: true,
    });
    expect((await call(handler, await signedPost(JSON.stringify(event('evt_new'))))).json).toEqual({
      received: true,
    });
    expect(seen.has('evt_new')).toBe(true);
    broken = true;
    const res = await call(handler, await signedPost(JSON.stringify(event('evt_other'))));
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ error: { code: 'dedupe_failed' } });
  });

  it('reports why a request was rejected through onError', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: () => {},
      onError: (error, info) => seen.push(`${info.stage}:${(error as { code?: string }).code}`),
    });
    await call(handler, { method: 'POST', headers: {}, body: '{}' });
    expect(seen).toEqual(['verification:missing_signature']);
  });

  it('explains a body that was already read', async () => {
    const handler = createWebhookHandler({ secret: SECRET, onEvent: () => {}, onError: () => {} });
    const request = toRequest(await signedPost(JSON.stringify(event('evt_used'))));
    await request.text();
    const res = await handler(request);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { code: 'body_already_parsed' } });
  });

  it('refuses a missing secret at construction', () => {
    expect(() => createWebhookHandler({ secret: '', onEvent: () => {} })).toThrow(/secret/);
    expect(() => createWebhookHandler({ secret: [], onEvent: () => {} })).toThrow(/No webhook secret/);
  });
});
