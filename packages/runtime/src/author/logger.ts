import type { Logger as LoggerShape } from '../logs';

/**
 * A logger: `debug`/`info`/`warn`/`error`. Lines reach the invocation's log (returned to the host
 * with the answer, `platform tail`) like `context.logger`'s.
 * @example const logger: Logger = context.logger;
 */
export type Logger = LoggerShape;

/**
 * Named loggers for module scope, before a context exists: `Logger('sync')` (or `Logger.for('sync')`,
 * the same function) prefixes each line with `[sync]` and writes to the console, which the runtime
 * captures into the current invocation's log (secrets redacted, size-capped). The console method is
 * looked up at each call, so a logger created at module load still reaches the capture installed
 * later for each invocation. `ReturnType<typeof Logger>` is {@link Logger}.
 *
 * @example
 * const logger = Logger('github-sync');
 * logger.info('pushed', { commits: 3 }); // "[github-sync] pushed {"commits":3}"
 */
export function Logger(name: string): Logger {
  const prefix = `[${name}]`;
  return {
    debug: (...args: unknown[]) => console.debug(prefix, ...args),
    info: (...args: unknown[]) => console.info(prefix, ...args),
    warn: (...args: unknown[]) => console.warn(prefix, ...args),
    error: (...args: unknown[]) => console.error(prefix, ...args),
  };
}

/**
 * The same as calling {@link Logger}: `Logger.for('sync')` equals `Logger('sync')`.
 * @example const logger = Logger.for('sync');
 */
Logger.for = (name: string): Logger => Logger(name);
