import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Log, LogLevel } from 'miniflare';
import { truncate } from './errors.js';
import type { ExecutorLogger } from './types.js';

/** Longest workerd output line kept in the host log (characters). */
const MAX_LINE = 2_000;

/**
 * Miniflare's logger, redirected to the host logger instead of the console.
 *
 * @example
 * new Miniflare({ log: new HostLog(logger), ... });
 */
export class HostLog extends Log {
  constructor(
    private readonly logger: ExecutorLogger,
    level: LogLevel = LogLevel.INFO,
  ) {
    super(level);
  }

  override logWithLevel(level: LogLevel, message: string): void {
    if (level > this.level) return;
    const fields = { source: 'miniflare' };
    const line = truncate(message, MAX_LINE);
    if (level <= LogLevel.ERROR) this.logger.error(fields, line);
    else if (level === LogLevel.WARN) this.logger.warn(fields, line);
    else if (level === LogLevel.INFO) this.logger.info(fields, line);
    else this.logger.debug(fields, line);
  }

  protected override log(message: string): void {
    this.logger.info({ source: 'miniflare' }, truncate(message, MAX_LINE));
  }
}

/**
 * Forwards workerd's stdout (debug: mostly integrations' `console.*`, already captured per
 * invocation in `X-Platform-Logs`) and stderr (warn) to the host logger, one entry per line.
 *
 * @example
 * new Miniflare({ handleRuntimeStdio: pipeRuntimeStdio(logger), ... });
 */
export function pipeRuntimeStdio(logger: ExecutorLogger): (stdout: Readable, stderr: Readable) => void {
  return (stdout, stderr) => {
    createInterface({ input: stdout }).on('line', (line) => {
      if (line.trim() !== '') logger.debug({ source: 'workerd', stream: 'stdout' }, truncate(line, MAX_LINE));
    });
    createInterface({ input: stderr }).on('line', (line) => {
      if (line.trim() !== '') logger.warn({ source: 'workerd', stream: 'stderr' }, truncate(line, MAX_LINE));
    });
  };
}
