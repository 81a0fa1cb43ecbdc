/**
 * Entry of the delivery thread (built to `dist/delivery/host/thread-entry.js`, export
 * `@platform/host/delivery-thread`; started by `startDeliveryThread` in thread.ts when
 * `PLATFORM_DELIVERY_THREAD=1`): the webhook delivery engine on its own storage handle and its own
 * guarded dispatcher. The main thread only accepts requests and writes events + jobs; it wakes this
 * thread with `{type: 'notify'}` after committing deliveries and stops it with `{type: 'stop'}`; a
 * `{type: 'metrics'}` request gets the engine's attempt metrics back (for `GET /metrics`).
 * Errors go back to the main thread's logger as `{type: 'log'}` messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createDeliveryMetrics } from '../../metrics/index.js';
import { createGuardedDispatcher, parseAllowPrivateTargets } from '../../net/index.js';
import { openStorage, postgresStatementsSent } from '../../storage/index.js';
import { startTracing } from '../../tracing/index.js';
import { deliverySocketsPerOrigin, startDeliveryEngine } from './queue-engine.js';
import { DeliverySlots } from './slots.js';
import {
  type DeliveryThreadData,
  type FromDeliveryThread,
  serializeError,
  type ToDeliveryThread,
} from './thread-protocol.js';

if (!parentPort) {
  throw new Error(
    'delivery/host/thread-entry.js runs as the delivery thread started by the host (startHost), not on its own.',
  );
}
const port = parentPort;
const data = workerData as DeliveryThreadData;
const post = (message: FromDeliveryThread) => port.postMessage(message);

const logAt = (level: 'error' | 'warn') => (fields: Record<string, unknown>, message: string) => {
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    plain[key] = value instanceof Error || key === 'err' ? serializeError(value) : value;
  }
  post({ type: 'log', level, message, fields: plain });
};
const logger = { error: logAt('error'), warn: logAt('warn') };

// The thread's own connection pool (PostgreSQL): its statements are counted here, not in the main thread.
const attemptMetrics = createDeliveryMetrics(
  undefined,
  'databaseUrl' in data.storage ? { statements: postgresStatementsSent } : {},
);
// This thread's own tracer provider and exporter (tracing on): its attempt spans are exported from here.
const tracing = data.config.tracing
  ? startTracing(data.config.tracing, { thread: 'delivery', version: data.version })
  : undefined;

const running = (async () => {
  const storage = await openStorage(data.storage);
  const policy = parseAllowPrivateTargets(data.config.allowPrivateTargets);
  const dispatcher = createGuardedDispatcher(policy, {
    connectionsPerOrigin: deliverySocketsPerOrigin(data.config.deliveryConcurrency),
  });
  const engine = startDeliveryEngine(
    { config: data.config, storage, policy, logger, attemptMetrics, tracing },
    dispatcher,
    data.version,
    data.slots ? DeliverySlots.from(data.slots) : undefined,
    (installationId, slow) => post({ type: 'slow', installationId, slow }),
  );
  return { storage, dispatcher, engine };
})();

/** Reports the error to the main thread, then lets the thread end with exit code 1. */
function fail(error: unknown): void {
  post({ type: 'failed', error: serializeError(error) });
  process.exitCode = 1;
  port.close();
}

let stopRequested = false;
async function stop(): Promise<void> {
  const { storage, dispatcher, engine } = await running;
  await engine.stop({ graceful: true }); // in-flight attempts finish and are recorded
  await dispatcher.close();
  await storage.close();
  await tracing?.shutdown().catch(() => undefined); // the spans still buffered are exported
  post({ type: 'stopped' });
  port.close(); // nothing is left: the thread ends
}

port.on('message', (message: ToDeliveryThread) => {
  if (message.type === 'notify') {
    running.then(
      ({ engine }) => engine.notify(),
      () => undefined,
    );
  } else if (message.type === 'adopt') {
    running.then(
      ({ engine }) => engine.adoptRecords(message.jobs, message.routingEpoch),
      () => undefined,
    );
  } else if (message.type === 'metrics') {
    attemptMetrics.registry.metrics().then(
      (text) => post({ type: 'metrics', id: message.id, text }),
      () => post({ type: 'metrics', id: message.id, text: '' }),
    );
  } else if (message.type === 'stop') {
    if (stopRequested) return;
    stopRequested = true;
    stop().catch(fail);
  }
});

running.then(() => post({ type: 'ready' }), fail);
