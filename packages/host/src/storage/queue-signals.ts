import { hostname } from 'node:os';
import pg from 'pg';
import type { Sql } from './sql.js';
import type { JobKind, QueueSignal } from './types.js';

/**
 * Queue signals between hosts on one PostgreSQL database (docs/operations.md, "Several hosts"): a write
 * that schedules a retry (also one deferred to its endpoint's turn) sends `pg_notify` on
 * the channel of the job's kind ({@link queueChannel}), delivered to every host listening for that kind
 * when it commits (at most one per kind and window: signal-coalescer.ts), and each host arms its timer for
 * that due time. Work queued due now is its home's ({@link HOME_GRACE_MS}) and sends no signal, unless its
 * home asks for help ({@link signalHelp}: it cannot keep up, or gives jobs back); then every host with room
 * to spare claims it at once ({@link HomeHelp}). The embedded default (SQLite, one host) has no signals.
 */

/**
 * The PostgreSQL channel of one kind's queue signals (one per database and kind; the schema is part of
 * each payload): each worker listens only for the kind it claims.
 *
 * @example
 * queueChannel('deliver'); // 'platform_jobs_deliver'
 */
export function queueChannel(kind: JobKind): string {
  return `platform_jobs_${kind}`;
}

/** This process (its threads share it): a host ignores its own signals, its threads tell each other. */
export const PROCESS_TAG = `${hostname()}:${process.pid}`;

/**
 * How long a first attempt waits for its home before other hosts may claim it, in ms, counted from its due
 * time and before a claim's look-ahead (docs/architecture.md, "Claims"). A job's home is the process that
 * queued it or last claimed it ({@link homeOf}); on PostgreSQL with several hosts, the others take its
 * first attempts only once `run_at <= dueBy - HOME_GRACE_MS`, so a host does not race its peers for the
 * work it has just queued itself (each such race leaves one of them an empty claim). A delivery claim looks
 * 50 ms ahead, so other hosts' claims help with a home's deliveries 200 ms after they fall due, with its
 * invocations 250 ms after: only when the home has fallen behind or is gone (docs/benchmarks.md measured
 * 80 and 250).
 */
export const HOME_GRACE_MS = 250;

/**
 * The home this process writes on the jobs it queues or claims: its {@link PROCESS_TAG} on PostgreSQL;
 * none on SQLite (one host, no preference).
 *
 * @example
 * homeOf('postgres'); // 'host-a:4242'
 */
export function homeOf(dialect: 'sqlite' | 'postgres'): string | null {
  return dialect === 'postgres' ? PROCESS_TAG : null;
}

export type { QueueSignal } from './types.js';

/**
 * The payload of a signal: `schema|process|kind|dueAt`.
 *
 * @example
 * encodeSignal('platform', { kind: 'deliver', dueAt: 1_700_000_000_000 }); // 'platform|host:123|deliver|1700000000000'
 */
export function encodeSignal(schema: string, signal: QueueSignal): string {
  return `${schema}|${PROCESS_TAG}|${signal.kind}|${signal.dueAt}`;
}

/**
 * Reads a payload: null when it is another schema's, this process's own, or not a signal.
 *
 * @example
 * decodeSignal('platform|other:9|deliver|5', 'platform'); // { kind: 'deliver', dueAt: 5 }
 */
export function decodeSignal(payload: string, schema: string): QueueSignal | null {
  const parts = payload.split('|');
  if (parts.length !== 4) return null;
  const [from, origin, kind, due] = parts as [string, string, string, string];
  if (from !== schema || origin === PROCESS_TAG) return null;
  if (kind !== 'deliver' && kind !== 'invoke') return null;
  const dueAt = Number(due);
  return Number.isSafeInteger(dueAt) ? { kind, dueAt } : null;
}

/** What a listener is told. */
export interface QueueListenerHandlers {
  /** Another host queued work of this kind, due at `dueAt`. */
  onSignal(signal: QueueSignal): void;
  /**
   * The listening connection was lost and is back: signals may have been missed, so look at the queue
   * afresh (claim, and read the next due time).
   */
  onResync(): void;
  /** The listening connection failed (it reconnects by itself); for the log. */
  onError?(error: unknown): void;
}

/** A running listener; `close()` ends it. */
export interface QueueListener {
  close(): Promise<void>;
}

/** A listener that hears nothing (the embedded default: one host, no signals). */
export const silentListener: QueueListener = { close: async () => undefined };

/** Reconnection back-off of the listening connection: 100 ms doubling up to 5 s. */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * Listens for queue signals on a dedicated connection, and reconnects by itself (with back-off) when the
 * connection is lost, calling `onResync` once it is back.
 *
 * @example
 * const listener = listenForSignals('postgres://127.0.0.1/platform', 'public', 'deliver', {
 *   onSignal: ({ dueAt }) => (dueAt <= Date.now() ? engine.notify() : engine.jobLoop.notifyDue(dueAt)),
 *   onResync: () => engine.notify(),
 * });
 * await listener.close();
 */
export function listenForSignals(
  databaseUrl: string,
  schema: string,
  kind: JobKind,
  handlers: QueueListenerHandlers,
): QueueListener {
  const channel = queueChannel(kind);
  let closed = false;
  let client: pg.Client | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let delay = RECONNECT_MIN_MS;
  let connectedBefore = false;

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
    retryTimer.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
    client = next;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      if (!closed) handlers.onError?.(error);
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      scheduleReconnect();
    };
    next.on('error', fail);
    next.on('end', () => fail(new Error('the listening connection ended')));
    next.on('notification', (message) => {
      if (message.channel !== channel || message.payload === undefined) return;
      const signal = decodeSignal(message.payload, schema);
      if (signal) handlers.onSignal(signal);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      fail(error);
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    delay = RECONNECT_MIN_MS;
    if (connectedBefore) handlers.onResync();
    connectedBefore = true;
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = undefined;
      const current = client;
      client = undefined;
      current?.removeAllListeners('end');
      current?.removeAllListeners('error');
      current?.on('error', () => undefined);
      await current?.end().catch(() => undefined);
    },
  };
}

/**
 * Tells other hosts (PostgreSQL; see queue-signals.ts) the earliest due time of each kind among `jobs`
 * that falls due later than `now` (a retry: any host takes it at its time). Work due
 * now is its home's ({@link HOME_GRACE_MS}): not signalled here, but by {@link signalHelp} when its home
 * cannot keep up or gives it back. Nothing on SQLite. Inside a transaction the signal goes out when it
 * commits.
 *
 * @example
 * await signalDue(tx, [{ kind: 'deliver', runAt: Date.now() + 30_000 }]);
 */
export async function signalDue(
  sql: Sql,
  jobs: Iterable<{ kind: JobKind; runAt: number }>,
  now = Date.now(),
): Promise<void> {
  if (!sql.signal) return;
  const earliest = new Map<JobKind, number>();
  for (const { kind, runAt } of jobs) earliest.set(kind, Math.min(earliest.get(kind) ?? runAt, runAt));
  for (const [kind, dueAt] of earliest) if (dueAt > now) await sql.signal({ kind, dueAt });
}

/**
 * Asks other hosts (PostgreSQL) to help with work of `kind` due now: this process cannot keep up with its
 * own, or gave it back. A host with room claims it at once, without its home's grace ({@link HomeHelp}).
 * Nothing on SQLite.
 *
 * @example
 * await signalHelp(sql, 'deliver');
 */
export async function signalHelp(sql: Sql, kind: JobKind, now = Date.now()): Promise<void> {
  if (sql.signal) await sql.signal({ kind, dueAt: now });
}

/** What {@link wakeOnSignals} wakes: a job loop (`createJobLoop`) with a {@link HomeHelp}, or the like. */
export interface SignalledLoop {
  /** Claim now. */
  notify(): void;
  /** Work falls due at `dueAt` (ms since the epoch): claim at once if it is due, else arm the timer. */
  notifyDue(dueAt: number): void;
  /**
   * Another host asks for help with its work due now (it cannot keep up, or gave jobs back): claim it at
   * once, without waiting out its home's grace, if there is room here ({@link HomeHelp.asked}).
   */
  help(): void;
}

/**
 * Help between homes, for one worker. Asking: after each claim the worker calls {@link HomeHelp.claimed};
 * one that filled every free slot and still left due jobs behind is behind, and two such claims in a row
 * ask the other hosts for help (`ask`, at most once per {@link ASK_GAP_MS}). Answering: when another host
 * asks and this worker has room, its claims of the next {@link HELP_WINDOW_MS} help (the worker passes
 * `help: homeHelp.active` to `QueueRepo.claim`), taking other homes' first attempts without their grace.
 *
 * @example
 * const help = new HomeHelp(() => loop.inFlight < 16, () => loop.notify(), () => jobs.askForHelp('invoke'), onError);
 * const woken = { notify: () => loop.notify(), notifyDue: (at: number) => loop.notifyDue(at), help: () => help.asked() };
 * wakeOnSignals(storage.listenQueue, 'invoke', woken, onError);
 */
export class HomeHelp {
  #until = Number.NEGATIVE_INFINITY;
  #askedAt = Number.NEGATIVE_INFINITY;
  /** The last claim was behind too. */
  #behind = false;
  constructor(
    private readonly hasRoom: () => boolean,
    private readonly wake: () => void,
    private readonly ask: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * A claim took `taken` jobs of the `limit` asked for and said whether due jobs were left (`moreDue`;
   * null where the queue does not count): all taken and more left means this worker is behind. It asks
   * on the second such claim in a row: a home behind once usually takes what was left with its next
   * claim, before a helper's claim would get there (which then comes back empty).
   */
  claimed(taken: number, limit: number, moreDue: boolean | null): void {
    // A claim that took nothing says nothing of keeping up: there was nothing it could take now (another
    // host's claim got there first, or a slow endpoint's share was full). It neither counts nor breaks a run.
    if (taken === 0) return;
    const behindBefore = this.#behind;
    this.#behind = moreDue === true && taken >= limit;
    if (!this.#behind || !behindBefore) return;
    const now = Date.now();
    if (now - this.#askedAt < ASK_GAP_MS) return;
    this.#askedAt = now;
    this.ask().catch(this.onError);
  }

  /** Another host asks for help with its work due now. */
  asked(): void {
    if (!this.hasRoom()) return;
    this.#until = Date.now() + HELP_WINDOW_MS;
    this.wake();
  }

  /** The claim made now is one that answers a call for help. */
  get active(): boolean {
    return Date.now() <= this.#until;
  }
}

/** How long after a call for help a claim still answers it, in ms. */
export const HELP_WINDOW_MS = 20;

/** The shortest time between two calls for help of one worker, in ms. */
export const ASK_GAP_MS = 100;

/**
 * Wakes `loop` on other hosts' signals of one job kind (and looks at the queue afresh after the listening
 * connection was lost): work due later at its due time, work due now as help (`loop.help`), not at the next
 * idle check.
 *
 * @example
 * const listener = wakeOnSignals(storage.listenQueue, 'deliver', woken, (error) =>
 *   logger.error({ err: error }, 'queue signals: the listening connection failed; reconnecting'),
 * );
 * await listener.close();
 */
export function wakeOnSignals(
  listen: (kind: JobKind, handlers: QueueListenerHandlers) => QueueListener,
  kind: JobKind,
  loop: SignalledLoop,
  onError: (error: unknown) => void,
): QueueListener {
  return listen(kind, {
    onSignal: (signal) => {
      if (signal.kind !== kind) return;
      // Work due now is signalled only as a call for help (HOME_GRACE_MS): answered by a worker with room.
      // Work due later (a retry) at its time, as any host may.
      if (signal.dueAt > Date.now()) loop.notifyDue(signal.dueAt);
      else loop.help();
    },
    onResync: () => loop.notify(),
    onError,
  });
}
