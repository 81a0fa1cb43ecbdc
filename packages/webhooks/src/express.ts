// Express (4 or 5) receiver. Uses only node *types*: an Express request/response is a node one.
import type { ServerResponse } from 'node:http';
import { createWebhookProcessor, type WebhookHandlerOptions } from '@platform/webhooks';
import { handleNodeWebhook, type NodeWebhookRequest } from '@platform/webhooks/node';

export type { WebhookHandlerOptions, WebhookMeta } from '@platform/webhooks';

/**
 * An Express route handler receiving webhooks. Works with no body parser on the route (it reads the
 * raw body), with `express.raw({ type: 'application/json' })` or `express.text()`. If `express.json()`
 * already parsed the body it answers 500 `body_already_parsed` and logs how to fix the route order:
 * the signature covers the raw bytes, which a parsed object no longer has.
 *
 * @example
 * import express from 'express';
 * import { createExpressWebhookHandler } from '@platform/webhooks/express';
 * const app = express();
 * app.post('/webhooks', createExpressWebhookHandler({ secret: process.env.WEBHOOK_SECRET!, onEvent: console.log }));
 * app.use(express.json()); // other routes may parse JSON; mount it after the webhook route
 */
export function createExpressWebhookHandler(
  options: WebhookHandlerOptions,
): (req: NodeWebhookRequest, res: ServerResponse, next?: (error?: unknown) => void) => void {
  const process = createWebhookProcessor(options);
  return (req, res) => {
    void handleNodeWebhook(process, req, res);
  };
}
