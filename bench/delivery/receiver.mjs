// Loopback webhook receiver of the delivery benchmark, run as its own child process (`node receiver.mjs`,
// spawned by run.mjs with an IPC channel). Every request is verified with @platform/webhooks `verify`
// (`verifyStandard` for a request signed with a Standard Webhooks scheme: v1 with the secret, v1a with the public key);
// a verified request is answered 200 {"received":true}, or 500 for a configurable fraction of attempts
// (drawn at random per attempt). Each request is recorded: body eventId, delivery id, attempt number,
// arrival and answer times (ms since the epoch, sub-millisecond, same clock as the parent's).
//
// With `delayMs` (configure), every answer waits that long first: an endpoint with that latency.
//
// IPC, parent → child: {type:'configure', secrets, publicKey?, failRate, delayMs?} | {type:'reset'} | {type:'watch', ids} |
// {type:'count', id} | {type:'dump', id} | {type:'stop'}. Child → parent: {type:'ready', port} and a reply {id, ...} per query.
//
// With RECEIVER_PROCESSES=K (K > 1) it is K processes (node:cluster): the first one, which the parent talks
// to, accepts the connections and hands them to K workers that answer; it joins their records (receiver-
// cluster.mjs). So a benchmark past one core's worth of deliveries does not measure its own receiver.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { verify, verifyStandard } from '@platform/webhooks';
import { countAnswer, runReceiverPrimary } from './receiver-cluster.mjs';

const PROCESSES = Number(process.env.RECEIVER_PROCESSES ?? '1');
if (cluster.isPrimary && PROCESSES > 1) {
  runReceiverPrimary(PROCESSES);
} else {
  runReceiver(cluster.isWorker);
}

function runReceiver(isWorker) {
  const now = () => performance.timeOrigin + performance.now();

  let secrets = [];
  /** An ed25519 installation's public key: requests without X-Platform-Signature verify v1a with it (else v1 with the secrets). */
  let publicKey;
  let failRate = 0;
  let delayMs = 0;
  /** [eventId, deliveryId, attempt, arrivedAt, answeredAt, status, bodyBytes] per request. */
  let records = [];
  let okEvents = new Set();
  /** Events with a 200, or a 500 on their last allowed attempt (4): nothing more will come. */
  let settledEvents = new Set();
  let cpuAtReset = process.cpuUsage();
  /** Event ids a phase waits for (`watch`): counted apart, so that stragglers of an earlier phase do not count. */
  let watched = [];
  /** In a cluster worker: the events that became ok / settled since the last `count` (the primary joins them). */
  let newOk = [];
  let newSettled = [];

  const server = createServer((req, res) => {
    const arrivedAt = now();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      void answer(req, res, Buffer.concat(chunks), arrivedAt);
    });
  });
  server.keepAliveTimeout = 30_000;

  async function answer(req, res, body, arrivedAt) {
    let status = 200;
    try {
      if (req.headers['x-platform-signature'] !== undefined)
        await verify(body, req.headers['x-platform-signature'], secrets);
      else
        await verifyStandard(
          body,
          req.headers,
          publicKey === undefined ? { secret: secrets } : { publicKey },
        );
    } catch {
      status = 401;
    }
    if (status === 200 && failRate > 0 && Math.random() < failRate) status = 500;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    let eventId = null;
    try {
      eventId = JSON.parse(body.toString('utf8')).eventId ?? null;
    } catch {
      // not JSON: recorded with a null eventId
    }
    const text =
      status === 200
        ? '{"received":true}'
        : status === 500
          ? '{"error":{"code":"bench_failure","message":"injected failure"}}'
          : '{"error":{"code":"signature_mismatch","message":"verification failed"}}';
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    const answeredAt = now();
    records.push([
      eventId,
      String(req.headers['x-platform-delivery-id'] ?? ''),
      Number(req.headers['x-platform-delivery-attempt'] ?? 0),
      arrivedAt,
      answeredAt,
      status,
      body.length,
    ]);
    if (status === 200 && eventId && !okEvents.has(eventId)) {
      okEvents.add(eventId);
      if (isWorker) newOk.push(eventId);
    }
    if (eventId && (status === 200 || records.at(-1)[2] >= 4) && !settledEvents.has(eventId)) {
      settledEvents.add(eventId);
      if (isWorker) newSettled.push(eventId);
    }
  }

  process.on('message', (message) => {
    switch (message.type) {
      case 'configure':
        secrets = message.secrets;
        publicKey = message.publicKey;
        failRate = message.failRate;
        delayMs = message.delayMs ?? 0;
        break;
      case 'reset':
        newOk = [];
        newSettled = [];
        records = [];
        okEvents = new Set();
        settledEvents = new Set();
        watched = [];
        cpuAtReset = process.cpuUsage();
        break;
      case 'watch':
        watched = message.ids;
        break;
      case 'count': {
        if (isWorker) {
          process.send({ id: message.id, okIds: newOk, settledIds: newSettled, requests: records.length });
          newOk = [];
          newSettled = [];
          break;
        }
        process.send(countAnswer(message.id, okEvents, settledEvents, watched, records.length));
        break;
      }
      case 'dump':
        process.send({ id: message.id, records, cpu: process.cpuUsage(cpuAtReset), processes: 1 });
        break;
      case 'stop':
        server.closeAllConnections();
        server.close(() => process.exit(0));
        break;
      default:
        break;
    }
  });
  // The parent is gone: never outlive it.
  process.on('disconnect', () => process.exit(0));

  server.listen(0, '127.0.0.1', () => {
    process.send({ type: 'ready', port: server.address().port });
  });
}
