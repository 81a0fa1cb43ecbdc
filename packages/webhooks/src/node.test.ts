import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen, receiverContract, sendTo } from '../test/receiver-contract.js';
import { createNodeWebhookListener } from './node.js';

describe('createNodeWebhookListener (node:http)', () => {
  receiverContract(async (options) => {
    const { url, close } = await listen(createServer(createNodeWebhookListener(options)));
    return { send: (req) => sendTo(url, req), close };
  });
});

describe('createNodeWebhookListener limits', () => {
  it('answers 413 to an oversized chunked body (no content-length) and keeps the connection usable', async () => {
    const { url, close } = await listen(
      createServer(createNodeWebhookListener({ secret: 'whsec_x', onEvent: () => {}, maxBodyBytes: 1024 })),
    );
    try {
      const chunk = new TextEncoder().encode('x'.repeat(4096));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 8; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const res = await fetch(url, { method: 'POST', body, duplex: 'half' } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: { code: 'body_too_large' } });
    } finally {
      await close();
    }
  });
});
