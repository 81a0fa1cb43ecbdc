import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { type JobRecord, WriterLock } from '../../storage/index.js';
import type { DeliveryHandOff, HandOffTicket } from './port.js';
import type { DeliveryRunner } from './runner.js';
import { DeliverySlots } from './slots.js';
import { slowInstallations } from './slow-installations.js';
import {
  type DeliveryThreadData,
  deserializeError,
  type FromDeliveryThread,
  type ToDeliveryThread,
} from './thread-protocol.js';
import { floorYoungGeneration } from './young-generation.js';

/** The delivery worker thread could not be started (its built file is missing, or it failed at start). */
export class DeliveryThreadError extends Error {
  constructor(
    readonly code: 'delivery_worker_not_built' | 'delivery_thread_failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DeliveryThreadError';
  }
}

/** The thread entry's path in `dist`, and the package export that names it. */
const ENTRY_FILE = 'delivery/host/thread-entry.js';
const ENTRY_EXPORT = './delivery-thread';

/**
 * The built entry of the delivery thread, `dist/delivery/host/thread-entry.js` of `@platform/host`: under
 * the running bundle's folder when the host runs from `dist`; through the package's `./delivery-thread`
 * export when it runs from its TypeScript sources (tests), which needs `npm run build` first.
 *
 * @example
 * new Worker(deliveryThreadEntryUrl(), { workerData });
 */
export function deliveryThreadEntryUrl(from: string = import.meta.url): URL {
  if (!from.endsWith('.ts')) {
    const beside = new URL(`./${ENTRY_FILE}`, from);
    if (existsSync(beside)) return beside;
  }
  const path = builtEntryPath(from);
  if (!path || !existsSync(path)) {
    throw new DeliveryThreadError(
      'delivery_worker_not_built',
      `The delivery thread is not built (${path ?? `@platform/host/dist/${ENTRY_FILE}`} is missing). ` +
        'Run `npm run build` at the repository root, or set PLATFORM_DELIVERY_THREAD=0 to deliver on the main thread.',
    );
  }
  return pathToFileURL(path);
}

/**
 * `@platform/host/delivery-thread`'s `default` (dist) file. Under the `source` condition (vitest) the
 * package resolves to `src/delivery/host/thread-entry.ts`, so the dist path is read from the package's `exports`.
 */
function builtEntryPath(from: string): string | undefined {
  let resolved: string;
  try {
    resolved = createRequire(from).resolve(`@platform/host/${ENTRY_EXPORT.slice(2)}`);
  } catch {
    return undefined;
  }
  if (resolved.endsWith('.js')) return resolved;
  for (let dir = dirname(resolved); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      exports?: Record<string, { default?: string } | undefined>;
    };
    const target = pkg.exports?.[ENTRY_EXPORT]?.default;
    return target ? join(dir, target) : undefined;
  }
  return undefined;
}

/**
 * The parent's `execArgv` without the `source` export condition (vitest runs with `--conditions source`):
 * the built worker must load the other workspace packages' built `dist`, not their TypeScript sources.
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] ?? '';
    if ((arg === '--conditions' || arg === '-C') && execArgv[i + 1] === 'source') {
      i++;
      continue;
    }
    if (arg === '--conditions=source' || arg === '-C=source') continue;
    out.push(arg);
  }
  return out;
}

/** Only the `--conditions` / `-C` options of an `execArgv` (the ones a worker needs to resolve modules). */
export function conditionArgs(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] ?? '';
    if (arg === '--conditions' || arg === '-C') {
      const value = execArgv[i + 1];
      if (value !== undefined) out.push(arg, value);
      i++;
    } else if (arg.startsWith('--conditions=') || arg.startsWith('-C=')) {
      out.push(arg);
    }
  }
  return out;
}

/**
 * A Worker with the parent's options (see {@link workerExecArgv}). Some options that `node` accepts are
 * refused by workers (V8 heap sizes such as `--max-old-space-size`, `--stack-size`, `--title`, ...:
 * ERR_WORKER_INVALID_EXEC_ARGV); they apply to the whole process anyway, so the worker then gets only the
 * module conditions. Without this, `node --max-old-space-size=4096 main.js` could not start the host.
 * The worker's young generation gets its floor ({@link floorYoungGeneration}) unless the command line sized it.
 */
export function createThreadWorker(
  url: URL,
  workerData: unknown,
  execArgv: readonly string[] = process.execArgv,
): Worker {
  floorYoungGeneration(execArgv);
  const inherited = workerExecArgv(execArgv);
  const options = { workerData, name: 'platform-delivery' };
  try {
    return new Worker(url, { ...options, execArgv: inherited });
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(url, { ...options, execArgv: conditionArgs(inherited) });
  }
}

/** Longest wait for the delivery thread's metrics in a scrape; past it the scrape goes on without them. */
const METRICS_TIMEOUT_MS = 2_000;

/** Options of {@link startDeliveryThread}. */
export interface DeliveryThreadOptions {
  workerData: DeliveryThreadData;
  logger: Logger;
  /** The worker entry. Default {@link deliveryThreadEntryUrl}(). */
  workerUrl?: URL;
  /** First delay before restarting a crashed worker (doubles per crash before `ready`, up to 5 s). Default 100 ms. */
  restartDelayMs?: number;
  /** Longest wait for a graceful stop before the thread is terminated. Default 15 s. */
  stopTimeoutMs?: number;
}

/** A worker that ended may have held (or waited for) the SQLite write lock it shares with this thread. */
function releaseWriterLock(data: DeliveryThreadData): void {
  const { storage } = data;
  if ('sqlitePath' in storage && storage.writerLock) {
    WriterLock.from(storage.writerLock.buffer).releaseAbandoned(storage.writerLock.slot);
  }
}

/**
 * Runs the delivery engine in a `node:worker_threads` Worker with its own storage handle and dispatcher.
 * Resolves once the worker is ready (rejects with {@link DeliveryThreadError} if it cannot start).
 * `notify()` calls of one event-loop turn become one message. A worker that crashes is restarted (logged);
 * the queue's leases bring its in-flight jobs back.
 *
 * @example
 * const delivery = await startDeliveryThread({ workerData: { config, storage: { sqlitePath }, version }, logger });
 * delivery.notify();
 * await delivery.stop();
 */
export async function startDeliveryThread(options: DeliveryThreadOptions): Promise<DeliveryRunner> {
  const url = options.workerUrl ?? deliveryThreadEntryUrl();
  const { logger } = options;
  const firstDelay = options.restartDelayMs ?? 100;
  const stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
  let current: Worker | undefined;
  let stopping = false;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  let restartDelay = firstDelay;
  let notifyQueued = false;

  /** The slots shared with `current` (new ones for each worker started: a crashed one's are void). */
  let slots: DeliverySlots | undefined;
  const share = options.workerData.config.deliveryConcurrencyPerInstallation;
  /** The installations `current` reported slow (its fair share): their deliveries are not handed over. */
  let slow = slowInstallations(logger, share);

  const send = (message: ToDeliveryThread) => current?.postMessage(message);
  /** Scrapes waiting for the worker's metrics, by request id. */
  const scrapes = new Map<number, (text: string) => void>();
  let scrapeId = 0;

  /** Starts one worker; resolves when it is ready, rejects if it ends before. */
  const spawn = () =>
    new Promise<void>((resolve, reject) => {
      const workerSlots = DeliverySlots.create();
      const worker = createThreadWorker(url, { ...options.workerData, slots: workerSlots.buffer });
      current = worker;
      slots = workerSlots;
      slow = slowInstallations(logger, share);
      let ready = false;
      let failure: Error | undefined;
      worker.on('message', (message: FromDeliveryThread) => {
        if (message.type === 'ready') {
          ready = true;
          restartDelay = firstDelay;
          resolve();
        } else if (message.type === 'slow') {
          if (current === worker) slow.update(message.installationId, message.slow);
        } else if (message.type === 'metrics') {
          scrapes.get(message.id)?.(message.text);
        } else if (message.type === 'failed') {
          failure = deserializeError(message.error);
        } else if (message.type === 'log') {
          const { err, ...fields } = message.fields;
          const error = err && typeof err === 'object' ? deserializeError(err as never) : undefined;
          logger[message.level](
            { ...fields, ...(error ? { err: error } : {}), thread: 'delivery' },
            message.message,
          );
        }
      });
      worker.on('error', (error) => {
        failure = error;
      });
      worker.on('exit', (exitCode) => {
        if (current === worker) {
          current = undefined;
          slots = undefined;
          for (const answer of scrapes.values()) answer('');
        }
        releaseWriterLock(options.workerData);
        if (!ready) {
          reject(
            new DeliveryThreadError(
              'delivery_thread_failed',
              `The delivery worker thread ended before it was ready (exit code ${exitCode})${failure ? `: ${failure.message}` : ''}`,
              { cause: failure },
            ),
          );
          return;
        }
        if (stopping) return;
        logger.error({ err: failure, exitCode }, 'delivery worker thread crashed; restarting it');
        scheduleRestart();
      });
    });

  const scheduleRestart = () => {
    if (stopping || restartTimer) return;
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopping) return;
      spawn().catch((error: unknown) => {
        if (stopping) return;
        logger.error({ err: error }, 'delivery worker thread failed to restart; retrying');
        restartDelay = Math.min(restartDelay * 2, 5_000);
        scheduleRestart();
      });
    }, restartDelay);
  };

  await spawn();

  const handOff: DeliveryHandOff = {
    reserve(installationIds) {
      const worker = current;
      if (stopping || !worker || !slots) return null;
      return reserveHandOff(
        slots,
        installationIds,
        (id) => slow.has(id),
        (jobs, routingEpoch) => {
          // Another worker (restarted after a crash) has other slots: these jobs wait for their lease. A
          // stopping worker still delivers what it is handed before it has stopped.
          if (current === worker)
            worker.postMessage({ type: 'adopt', jobs, routingEpoch } satisfies ToDeliveryThread);
        },
      );
    },
  };

  return {
    handOff,
    isSlow: (installationId) => slow.has(installationId),
    slowCount: () => slow.count(),
    slowInstallations: () => slow.list(),
    metrics() {
      const worker = current;
      if (!worker || stopping) return Promise.resolve('');
      const id = ++scrapeId;
      return new Promise<string>((resolve) => {
        const timer = setTimeout(() => answer(''), METRICS_TIMEOUT_MS);
        const answer = (text: string) => {
          clearTimeout(timer);
          scrapes.delete(id);
          resolve(text);
        };
        scrapes.set(id, answer);
        worker.postMessage({ type: 'metrics', id } satisfies ToDeliveryThread);
      });
    },
    notify() {
      if (notifyQueued || stopping) return;
      notifyQueued = true;
      // After every commit of this turn: one message, and no commit of this turn is missed.
      setImmediate(() => {
        notifyQueued = false;
        send({ type: 'notify' });
      });
    },
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = undefined;
      const worker = current;
      if (!worker) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        worker.on('message', (message: FromDeliveryThread) => {
          if (message.type === 'stopped') resolve();
        });
        worker.once('exit', () => resolve());
        timer = setTimeout(() => {
          logger.warn(
            'delivery worker thread did not stop in time; terminating it (leases bring its jobs back)',
          );
          resolve();
        }, stopTimeoutMs);
        worker.postMessage({ type: 'stop' } satisfies ToDeliveryThread);
      });
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}

/**
 * A hand-over ticket on shared slots (the runner's {@link DeliveryHandOff.reserve}): takes a free slot for
 * each delivery, in order, while the slots last, except those of installations the delivery thread
 * reported slow (they wait in the queue, where claims respect the installation's share); after the commit
 * `deliver` passes the leased records to `send` and gives back what was not used.
 *
 * @example
 * const ticket = reserveHandOff(slots, ids, (id) => slow.has(id), (jobs) => worker.postMessage({ type: 'adopt', jobs }));
 */
export function reserveHandOff(
  slots: DeliverySlots,
  installationIds: readonly string[],
  isSlow: (installationId: string) => boolean,
  send: (records: JobRecord[], routingEpoch?: number) => void,
): HandOffTicket | null {
  const wanted: number[] = [];
  for (let i = 0; i < installationIds.length; i++) {
    if (!isSlow(installationIds[i] as string)) wanted.push(i);
  }
  if (wanted.length === 0) return null;
  const granted = slots.reserve(wanted.length);
  if (granted === 0) return null;
  const admitted = wanted.slice(0, granted);
  let ended = false;
  return {
    admitted,
    deliver(records, routingEpoch) {
      if (ended) return;
      ended = true;
      const sent = records.slice(0, admitted.length);
      slots.give(admitted.length - sent.length);
      if (sent.length > 0) send(sent, routingEpoch);
    },
    release() {
      if (ended) return;
      ended = true;
      slots.give(admitted.length);
    },
  };
}
