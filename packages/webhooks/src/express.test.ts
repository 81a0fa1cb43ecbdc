import express from 'express';
import { describe, expect, it } from 'vitest';
import { event, listen, receiverContract, SECRET, sendTo, signedPost } from '../test/receiver-contract.js';
import { createExpressWebhookHandler } from './express.js';
import type { WebhookHandlerOptions } from './receiver.js';

async function startApp(setup: (app: express.Express) => void) {
  const app = express();
  setup(app);
  const server = await listen(app.listen(0, '127.0.0.1'));
  return server;
}

describe('createExpressWebhookHandler (Express 5)', () => {
  describe('with no body parser', () => {
    receiverContract(async (options) => {
      const { url, close } = await startApp((app) =>
        app.all('/webhooks', createExpressWebhookHandler(options)),
      );
      return { send: (req) => sendTo(url, req), close };
    });
  });

  describe("with express.raw({ type: 'application/json' })", () => {
    receiverContract(async (options) => {
      const { url, close } = await startApp((app) =>
        app.all('/webhooks', express.raw({ type: 'application/json' }), createExpressWebhookHandler(options)),
      );
      return { send: (req) => sendTo(url, req), close };
    });
  });

  it('works when express.json() is mounted globally but skipped (other content type)', async () => {
    const received: string[] = [];
    const options: WebhookHandlerOptions = { secret: SECRET, onEvent: (e) => void received.push(e.eventId) };
    const { url, close } = await startApp((app) => {
      app.use(express.json({ type: 'application/vnd.other+json' }));
      app.post('/webhooks', createExpressWebhookHandler(options));
    });
    try {
      const res = await sendTo(url, await signedPost(JSON.stringify(event('evt_express'))));
      expect(res.json).toEqual({ received: true });
      expect(received).toEqual(['evt_express']);
    } finally {
      await close();
    }
  });

  it('answers 500 body_already_parsed, explaining the fix, when express.json() parsed the body', async () => {
    const errors: string[] = [];
    const { url, close } = await startApp((app) => {
      app.use(express.json());
      app.post(
        '/webhooks',
        createExpressWebhookHandler({
          secret: SECRET,
          onEvent: () => {},
          onError: (error, info) => errors.push(`${info.stage}: ${(error as Error).message}`),
        }),
      );
    });
    try {
      const res = await sendTo(url, await signedPost(JSON.stringify(event('evt_parsed'))));
      expect(res.status).toBe(500);
      expect(res.json).toMatchObject({
        error: { code: 'body_already_parsed', message: expect.stringMatching(/express\.raw/) },
      });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^configuration: .*express\.json\(\)/);
    } finally {
      await close();
    }
  });
});
