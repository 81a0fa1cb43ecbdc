import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import { PinoPretty } from 'pino-pretty';

/** How the host prints its log: JSON lines, or readable lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * `PLATFORM_LOG_FORMAT`: `json` (one object a line, for log collectors), `pretty` (readable lines), or
 * `auto`, the default: pretty when standard output is a terminal, JSON otherwise (a pipe, a file, a
 * container's log driver). Anything else is an error naming the choices.
 *
 * @example
 * logFormat(process.env.PLATFORM_LOG_FORMAT, process.stdout.isTTY === true); // 'pretty' in a terminal
 */
export function logFormat(setting: string | undefined, isTerminal: boolean): LogFormat {
  const value = setting?.trim() || 'auto';
  if (value === 'json' || value === 'pretty') return value;
  if (value === 'auto') return isTerminal ? 'pretty' : 'json';
  throw new Error(`PLATFORM_LOG_FORMAT must be auto, json or pretty; got "${value}".`);
}

/**
 * The host's logger in `format`: pino's JSON lines, or the same records through pino-pretty (time,
 * level, message, then the fields), written synchronously so nothing is lost at exit.
 *
 * @example
 * const logger = createHostLogger(logFormat(process.env.PLATFORM_LOG_FORMAT, process.stdout.isTTY === true));
 */
export function createHostLogger(
  format: LogFormat,
  options: LoggerOptions = {},
  destination?: DestinationStream,
): Logger {
  if (format === 'json') return destination ? pino(options, destination) : pino(options);
  const pretty = PinoPretty({
    colorize: destination === undefined && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: false,
    sync: true,
    ...(destination ? { destination } : {}),
  });
  return pino(options, pretty);
}
