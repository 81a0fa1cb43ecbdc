import { ConfigError, loadConfig } from './config.js';
import { startHost } from './host.js';

/** `npm start`: runs the host until SIGINT/SIGTERM, then stops gracefully. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`platform host: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const host = await startHost(config);
  const lines = [
    '',
    `  Platform host ${host.url}`,
    // A one-click sign-in link for the local default (token kept in the data folder); an operator who
    // set PLATFORM_ADMIN_TOKEN signs in with it instead, so it is never printed.
    config.adminToken
      ? `  Dashboard    ${host.url}/`
      : `  Dashboard    ${host.url}/#token=${encodeURIComponent(host.adminToken)}`,
    `  API docs     ${host.url}/openapi.json`,
    `  Metrics      ${host.url}/metrics  (bearer: ${config.metricsToken ? 'PLATFORM_METRICS_TOKEN' : 'the admin token'})`,
    `  Data         ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `${config.dataDir}/platform.db`}`,
    host.generatedAdminToken
      ? `  Admin token  ${host.adminToken}  (generated; kept in ${config.dataDir}/admin-token)`
      : `  Admin token  ${config.adminToken ? 'from PLATFORM_ADMIN_TOKEN' : `in ${config.dataDir}/admin-token`}`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stdout.write(`\n${signal}: stopping (in-flight work finishes; press Ctrl+C again to force)\n`);
    host.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `platform host failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
