import type { Logger as LoggerShape } from '../logs';

/**
 * A logger: `debug`/`info`/`warn`/`error`. Lines reach the invocation's log (returned to the host
 * with the answer, `platform tail`) like `context.logger`'s.
 * @example const logger: Logger = context.logger;
 */
export type Logger = LoggerShape;

/**
 * Named loggers for module scope, before a context exists: `Logger.for('sync')` prefixes each line
 * with `[sync]` and writes to the console, which the runtime captures into the current invocation's
 * log (secrets redacted, size-capped).
 *
 * @example
 * const logger = Logger.for('github-sync');
 * logger.info('pushed', { commits: 3 }); // "[github-sync] pushed {"commits":3}"
 */
export const Logger = {
  for(name: string): Logger {
    const prefix = `[${name}]`;
    return {
      debug: (...args: unknown[]) => console.debug(prefix, ...args),
      info: (...args: unknown[]) => console.info(prefix, ...args),
      warn: (...args: unknown[]) => console.warn(prefix, ...args),
      error: (...args: unknown[]) => console.error(prefix, ...args),
    };
  },
};
