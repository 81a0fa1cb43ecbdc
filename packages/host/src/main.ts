import { format } from 'node:util';
import { type Logger, pino } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { startHost } from './host.js';
import { createHostLogger, logFormat } from './log-format.js';

/**
 * Sends `console.*` of this process (built-in integrations run in it, and print their log lines) to
 * `logger` at debug, so the host's output stays one record a line. The integrations' lines are
 * logged again, with their installation, by the invoker (src/invocation/invoker.ts).
 */
function routeConsoleTo(logger: Logger): void {
  const write = (...args: unknown[]) => logger.debug({ source: 'console' }, format(...args));
  for (const method of ['log', 'info', 'debug', 'warn', 'error', 'trace'] as const) console[method] = write;
}

/**
 * `npm start` / `platform-host`: runs the host until SIGINT/SIGTERM, then stops gracefully (in-flight
 * deliveries and invocations finish). It prints pino JSON lines, readable lines on a terminal
 * (`PLATFORM_LOG_FORMAT`, src/log-format.ts; packages/host/README.md "Logs").
 */
async function main(logger: Logger): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.fatal({ code: error.code }, `platform host: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  logger.level = config.logLevel;
  routeConsoleTo(logger);
  const host = await startHost(config, logger);
  // A one-click sign-in link for the local default (token kept in the data folder); an operator who
  // set PLATFORM_ADMIN_TOKEN signs in with it instead, so it is never printed.
  const dashboard = config.adminToken
    ? `${host.url}/`
    : `${host.url}/#token=${encodeURIComponent(host.adminToken)}`;
  const data = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `${config.dataDir}/platform.db`;
  logger.info(
    {
      url: host.url,
      dashboard,
      apiReference: `${host.url}/api`,
      content: host.contentUrl,
      openapi: `${host.url}/openapi.json`,
      metrics: `${host.url}/metrics`,
      data,
    },
    `Platform host ${host.url} — dashboard ${dashboard} · API reference ${host.url}/api · integration content ${host.contentUrl} · data ${data}`,
  );
  if (host.generatedAdminToken)
    logger.info(
      { adminToken: host.adminToken, file: `${config.dataDir}/admin-token` },
      `Admin token ${host.adminToken} (generated; kept in ${config.dataDir}/admin-token)`,
    );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, `${signal}: stopping (in-flight work finishes; send it again to force)`);
    host.stop().then(
      () => {
        logger.info({ signal }, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

let outputFormat: ReturnType<typeof logFormat>;
try {
  outputFormat = logFormat(process.env.PLATFORM_LOG_FORMAT, process.stdout.isTTY === true);
} catch (error) {
  console.error(`platform host: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const logger = createHostLogger(outputFormat);
main(logger).catch((error: unknown) => {
  // Said whatever LOG_LEVEL is (even `silent`): one JSON line on stderr, written before the exit.
  pino({ level: 'fatal' }, pino.destination({ fd: 2, sync: true })).fatal(
    { err: error },
    `platform host failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
