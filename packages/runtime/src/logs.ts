import { toBase64Url, utf8 } from '@platform/webhooks/bytes';

/** Level of an invocation log line. @example const l: LogLevel = 'warn'; */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One captured line, as sent in `X-Platform-Logs`. @example const l: LogLine = { level: 'info', message: 'hi', time: Date.now() }; */
export interface LogLine {
  level: LogLevel;
  message: string;
  /** Milliseconds since the epoch. */
  time: number;
}

/**
 * `context.logger`: lines go to the invocation's log (returned to the host) and to the console.
 * @example context.logger.info('synced', { pages: 3 });
 */
export interface Logger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** Name of the response header carrying the invocation's log lines. */
export const LOGS_HEADER = 'X-Platform-Logs';
/** At most this many lines per invocation (the truncation marker included). */
export const MAX_LOG_LINES = 100;
/** At most this many UTF-8 bytes of messages per invocation. */
export const MAX_LOG_BYTES = 8 * 1024;
const MARKER_BUDGET = 96;
const HARD_CAP = 1000;

/** Renders console-style arguments as one line. @example formatArgs(['a', { b: 1 }]); // 'a {"b":1}' */
export function formatArgs(args: readonly unknown[]): string {
  return args
    .map((arg) => {
      if (typeof arg === 'string') return arg;
      if (arg instanceof Error) return `${arg.name}: ${arg.message}`;
      if (typeof arg === 'bigint' || typeof arg === 'symbol' || typeof arg === 'function') return String(arg);
      try {
        return JSON.stringify(arg) ?? String(arg);
      } catch {
        return String(arg);
      }
    })
    .join(' ');
}

function cutToBytes(text: string, max: number): string {
  const bytes = utf8(text);
  if (bytes.length <= max) return text;
  return new TextDecoder().decode(bytes.subarray(0, max)).replace(/\uFFFD+$/, '');
}

/**
 * The log of one invocation. Closed when the runtime's answer is built: later lines
 * (e.g. from `waitUntil` work) are dropped. Values in `redact` are replaced by `[redacted]`.
 *
 * @example
 * const log = new InvocationLog([token]);
 * log.add('info', ['hello']);
 * response.headers.set(LOGS_HEADER, log.toHeader());
 */
export class InvocationLog {
  readonly lines: LogLine[] = [];
  #closed = false;
  #overflow = 0;
  readonly #redact: string[];

  constructor(redact: readonly string[] = []) {
    this.#redact = redact.filter((s) => s.length >= 6);
  }

  /** Appends a line unless the log is closed. */
  add(level: LogLevel, args: readonly unknown[]): void {
    if (this.#closed) return;
    if (this.lines.length >= HARD_CAP) {
      this.#overflow++;
      return;
    }
    let message = formatArgs(args);
    for (const secret of this.#redact) message = message.split(secret).join('[redacted]');
    this.lines.push({ level, message, time: Date.now() });
  }

  /** Stops capturing. */
  close(): void {
    this.#closed = true;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The lines within the limits, with a final `warn` marker when some were cut. */
  limited(): LogLine[] {
    const out: LogLine[] = [];
    let budget = MAX_LOG_BYTES - MARKER_BUDGET;
    let dropped = this.#overflow;
    for (const line of this.lines) {
      if (out.length >= MAX_LOG_LINES - 1 || budget <= 0) {
        dropped++;
        continue;
      }
      const size = utf8(line.message).length;
      if (size <= budget) {
        out.push(line);
        budget -= size;
      } else {
        out.push({ ...line, message: `${cutToBytes(line.message, Math.max(0, budget - 16))} …[cut]` });
        budget = 0;
      }
    }
    if (dropped > 0 || budget === 0) {
      out.push({
        level: 'warn',
        message: `[truncated: ${dropped} more log line(s) not shown]`,
        time: Date.now(),
      });
    }
    return out;
  }

  /** base64url of the UTF-8 JSON of {@link InvocationLog.limited}. */
  toHeader(): string {
    return toBase64Url(utf8(JSON.stringify(this.limited())));
  }
}

/**
 * A {@link Logger} writing to an invocation log and to the original console.
 * @example const logger = createLogger(log);
 */
export function createLogger(log: InvocationLog): Logger {
  const write =
    (level: LogLevel) =>
    (...args: unknown[]) => {
      log.add(level, args);
      ORIGINAL_CONSOLE[level](...args);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

type ConsoleMethod = (...args: unknown[]) => void;
const ORIGINAL_CONSOLE: Record<LogLevel, ConsoleMethod> = {
  debug: console.debug.bind(console),
  info: console.info.bind(console),
  warn: console.warn.bind(console),
  error: console.error.bind(console),
};

/** Reads the Node built-in module registry when the platform has one (Node >= 20.16, workerd with nodejs_compat). */
interface AsyncStorage<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
  /** Node.js: turns the storage off until the next `run` (the last one off takes its hooks away). */
  disable?(): void;
}

/**
 * Finds `AsyncLocalStorage` without importing `node:*` (so the bundle stays neutral):
 * `process.getBuiltinModule('node:async_hooks')` exists in Node >= 20.16 and in
 * workerd with `nodejs_compat`. Returns undefined elsewhere.
 */
export function findAsyncStorage<T>(): AsyncStorage<T> | undefined {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:async_hooks') as
      | { AsyncLocalStorage?: new () => AsyncStorage<T> }
      | undefined;
    return mod?.AsyncLocalStorage ? new mod.AsyncLocalStorage() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Captures `console.*` calls into the log of the invocation that made them.
 *
 * Guarantee: with AsyncLocalStorage (Node, workerd + nodejs_compat) every console
 * line goes to exactly the invocation whose async work produced it, even when
 * invocations overlap. Without it, console lines are captured only while exactly
 * one invocation is in flight; when several overlap, console lines are not captured
 * (still printed) rather than attributed to the wrong one. `context.logger` is
 * always exact. Console output always reaches the real console too.
 *
 * @example
 * const capture = new ConsoleCapture();
 * const result = await capture.run(log, () => handler());
 */
export class ConsoleCapture {
  readonly #storage: AsyncStorage<InvocationLog> | null;
  readonly #active = new Set<InvocationLog>();
  #installed = false;
  #canTurnOff = true;

  /** `storage`: AsyncLocalStorage to use; found automatically; `null` forces the fallback. */
  constructor(storage: AsyncStorage<InvocationLog> | null = findAsyncStorage<InvocationLog>() ?? null) {
    this.#storage = storage;
  }

  /** True when console lines are attributed through AsyncLocalStorage. */
  get exact(): boolean {
    return this.#storage !== null;
  }

  /**
   * Runs `fn` with console capture into `log` (the caller closes `log` when it answers). When the last
   * invocation in flight ends, the storage is turned off until the next one: on Node.js 20 an enabled
   * AsyncLocalStorage runs a hook on every promise and async resource of its thread, so an integration
   * run inside a host process (the host's built-in ones) would otherwise tax all of that host's work
   * for good after its first invocation (docs/benchmarks.md, "An integration's console capture").
   */
  async run<T>(log: InvocationLog, fn: () => Promise<T>): Promise<T> {
    this.#install();
    this.#active.add(log);
    try {
      return await (this.#storage ? this.#storage.run(log, fn) : fn());
    } finally {
      this.#active.delete(log);
      if (this.#active.size === 0) this.#turnOff();
    }
  }

  /**
   * Turns the storage off between invocations where that is possible (Node.js). workerd's
   * AsyncLocalStorage (with `nodejs_compat`) has a `disable()` that throws "not implemented": the first
   * throw ends the attempts, and the invocation's own result stands.
   */
  #turnOff(): void {
    if (!this.#canTurnOff || !this.#storage?.disable) return;
    try {
      this.#storage.disable();
    } catch {
      this.#canTurnOff = false;
    }
  }

  #current(): InvocationLog | undefined {
    if (this.#storage) return this.#storage.getStore();
    if (this.#active.size !== 1) return undefined;
    const [only] = this.#active;
    return only;
  }

  #install(): void {
    if (this.#installed) return;
    this.#installed = true;
    const target = console as unknown as Record<string, ConsoleMethod>;
    const levels: [string, LogLevel][] = [
      ['log', 'info'],
      ['info', 'info'],
      ['debug', 'debug'],
      ['warn', 'warn'],
      ['error', 'error'],
    ];
    for (const [method, level] of levels) {
      const previous = target[method];
      if (typeof previous !== 'function') continue;
      target[method] = (...args: unknown[]) => {
        this.#current()?.add(level, args);
        previous.apply(console, args);
      };
    }
  }
}
