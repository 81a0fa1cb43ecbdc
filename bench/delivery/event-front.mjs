// The parts the benchmark's reference servers (relay.mjs, bullmq-service.mjs) share with each other: the
// HTTP front (`serveEvents`) and one signed POST to the receiver with the host's headers (`postSigned`).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { sign } from '@platform/webhooks';
import { request } from 'undici';

/**
 * Signs `job.body` with `secret` (@platform/webhooks, as the host) and POSTs it to `target` with the host's
 * headers; resolves with the receiver's status code (a network error rejects).
 *
 * @example
 * const status = await postSigned({ target, dispatcher, secret, job, deliveryId: 'dlv_1', attempt: 1, agent: 'relay' });
 */
export async function postSigned({ target, dispatcher, secret, job, deliveryId, attempt, agent }) {
  const bytes = Buffer.from(job.body, 'utf8');
  const signature = await sign(bytes, [secret], { timestamp: Math.floor(Date.now() / 1000) });
  const res = await request(target, {
    method: 'POST',
    dispatcher,
    body: bytes,
    headers: {
      'content-type': 'application/json',
      'x-platform-signature': signature,
      'x-platform-event-id': job.eventId,
      'x-platform-event-type': job.type,
      'x-platform-delivery-id': deliveryId,
      'x-platform-delivery-attempt': String(attempt),
      'user-agent': `Platform-Webhooks/${agent}`,
    },
  });
  await res.body.dump();
  return res.statusCode;
}

/**
 * The HTTP front: `GET /healthz`, and `POST /v1/events` read as JSON, given an event id if it has none,
 * turned into the body a host would deliver (the event plus `installationId`) and handed to `accept`; the
 * 202 goes out once `accept` has returned (or its promise resolved), a 503 if it threw. No auth, no
 * validation: a reference, not a host. Listens on $PORT / $HOST; `accept({ body, eventId, type })` takes each event.
 *
 * @example
 * const server = serveEvents('inst_1', (job) => queue.push(job));
 */
export function serveEvents(installationId, accept) {
  return createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/events') {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      event.eventId ??= `evt_${randomBytes(16).toString('base64url')}`;
      const job = {
        body: JSON.stringify({ ...event, installationId }),
        eventId: event.eventId,
        type: event.type,
      };
      const out = JSON.stringify({ eventId: event.eventId });
      Promise.resolve()
        .then(() => accept(job))
        .then(
          () =>
            res
              .writeHead(202, {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(out),
              })
              .end(out),
          (error) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`not accepted: ${error}`),
        );
    });
  }).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
}
