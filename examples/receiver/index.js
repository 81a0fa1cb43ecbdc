// @ts-check
// Example webhook receiver: WEBHOOK_SECRET=whsec_... PORT=3000 node examples/receiver
// Verifies X-Platform-Signature, deduplicates on eventId, prints one line per event.
import { createServer } from 'node:http';

const USAGE =
  'Usage: WEBHOOK_SECRET=whsec_...[,whsec_old...] [PORT=3000] [HOST=127.0.0.1] node examples/receiver';

/** @param {string} message */
function fail(message) {
  console.error(`error: ${message}\n${USAGE}`);
  process.exit(2);
}

const secrets = (process.env.WEBHOOK_SECRET ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');
if (secrets.length === 0) {
  fail(
    'WEBHOOK_SECRET is not set. Use the secret shown when the webhook was installed (several, comma-separated, during a rotation).',
  );
}
const portText = process.env.PORT ?? '3000';
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65535)
  fail(`PORT must be a number from 0 to 65535, got "${portText}".`);
const host = process.env.HOST ?? '127.0.0.1';

/** @type {typeof import('@platform/webhooks/node')} */
let webhooks;
try {
  webhooks = await import('@platform/webhooks/node');
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(
    `error: cannot load @platform/webhooks (${reason}). Build the workspace first: node scripts/build.mjs`,
  );
  process.exit(1);
}

const listener = webhooks.createNodeWebhookListener({
  secret: secrets,
  onEvent(event, meta) {
    const installation = 'installationId' in event ? event.installationId : '-';
    const attempt = meta.attempt === null ? '' : ` attempt=${meta.attempt}`;
    console.log(`${event.type} ${event.eventId} installation=${installation}${attempt}`);
  },
  onError(error, info) {
    const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : 'error';
    const message = error instanceof Error ? error.message : String(error);
    console.error(`rejected (${info.stage}) ${code}${info.eventId ? ` ${info.eventId}` : ''}: ${message}`);
  },
});

const server = createServer(listener);
server.on('error', (error) => {
  console.error(`error: cannot listen on ${host}:${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const address = server.address();
  const actualPort = address && typeof address === 'object' ? address.port : port;
  const shown = host.includes(':') ? `[${host}]` : host;
  const plural = secrets.length === 1 ? '' : 's';
  console.log(
    `Webhook receiver listening on http://${shown}:${actualPort}/ (POST, ${secrets.length} secret${plural})`,
  );
});

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
