import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { WEBHOOK_EVENT_TYPES_BY_PLACE } from '@platform/events';
import { type FSWatcher, watch } from 'chokidar';
import type { Command } from 'commander';
import { buildIntegration } from '../build/build-integration.js';
import { secretEnv } from '../build/secrets-env.js';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { type HostClient, hostClient } from '../host/client.js';
import { clearDevSession, writeDevSession } from '../host/dev-session.js';
import { followLogs } from '../host/follow.js';
import { formatInvocation } from '../host/format.js';
import { isReachable, type LocalHost, startLocalHost } from '../host/local-host.js';
import { checkUrl, resolveTarget } from '../host/target.js';
import { formatBytes, formatDuration, withProgress } from '../progress.js';
import { colors, untilInterrupted } from './shared.js';

interface DevOptions {
  url?: string;
  token?: string;
  port: string;
  space?: string;
  site?: string;
  env?: string;
  watch: boolean;
}

/** Paths whose changes do not rebuild. */
const IGNORED = /(^|[/\\])(node_modules|\.platform|dist|\.git)([/\\]|$)/;

/** The bundle with its source map appended as a `data:` URL comment (or unchanged without a map). */
export function withInlineMap(code: string, map: string | undefined): string {
  if (!map) return code;
  const body = code.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '');
  return `${body}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString('base64')}\n`;
}

/**
 * The organization `dev` publishes under when neither the manifest nor the environment sets one
 * (packages/manifest/README.md "Optional keys"): dev versions never leave the test host.
 */
export const DEV_ORGANIZATION = 'dev';

async function publishDev(dir: string, host: HostClient, io: CommandContext['io'], envName?: string) {
  const built = await buildIntegration(dir, {
    mode: 'dev',
    ...(envName === undefined ? {} : { env: envName }),
    fallbackOrganization: DEV_ORGANIZATION,
  });
  await host.call('POST /v1/integrations', {
    body: {
      manifest: built.manifestText,
      // The source map rides inline: the host maps stack traces of `integration.js` back to src/*.ts
      // in the invocation logs (what `dev`, `tail` and the dashboard show).
      bundle: withInlineMap(built.bundle.code, built.bundle.map),
      dev: true,
      ...(Object.keys(built.assets).length ? { assets: built.assets } : {}),
      ...(() => {
        const env = secretEnv(dir, built.manifest, io.env, envName);
        return Object.keys(env).length ? { env } : {};
      })(),
    },
  });
  return built;
}

/** Lines of the build's warnings (handlers that never run), for `dev` to print on each publish. */
function warningLines(built: { warnings: ReadonlyArray<{ path: string; message: string }> }, mark: string) {
  return built.warnings.map((w) => `  ${mark} ${w.path}: ${w.message}\n`).join('');
}

async function findOrInstall(
  host: HostClient,
  integration: string,
  place: { space?: string; site?: string },
) {
  const { installations } = await host.call('GET /v1/installations', { query: { integration, ...place } });
  const existing = installations.find((i) => i.integration === integration);
  if (existing) return existing;
  return host.call('POST /v1/installations', { body: { integration, ...place, configuration: {} } });
}

/**
 * Registers `platform dev [dir]`: a local host (in-process unless one is reachable at --url),
 * the integration published in dev mode and installed in a test space, rebuilt and republished on
 * every save, and its invocation logs streamed.
 *
 * @example
 * ```ts
 * registerDev(program, context); // platform dev my-integration
 * ```
 */
export function registerDev(program: Command, context: CommandContext): void {
  const { io } = context;
  program
    .command('dev')
    .description('run the integration on a local host: publish, install, reload on save, stream logs')
    .argument('[dir]', 'integration folder', '.')
    .option('--url <url>', 'use this running host instead of starting one (also PLATFORM_URL)')
    .option('--token <token>', 'operator token of --url (also PLATFORM_TOKEN)')
    .option('--port <port>', 'port of the local host (a free one when taken; 0 picks any)', '8080')
    .option('--space <id>', 'test space to install into (default: space_dev)')
    .option('--site <id>', 'install into this site instead of a space')
    .option(
      '--env <name>',
      'apply envs.<name> of the manifest and read secrets from .env.<name> (default .env)',
    )
    .option('--no-watch', 'publish once, do not rebuild on save')
    .addHelpText(
      'after',
      `
The local host keeps its data in <dir>/.platform (operator token: .platform/admin-token) and allows
private webhook targets. While it runs, \`platform trigger\`, \`tail\`, \`configure\` and \`listen\`
in the same folder find it without flags.

Examples:
  $ platform dev
  $ platform dev my-integration --port 0
  $ platform dev --url http://127.0.0.1:8080 --token "$PLATFORM_TOKEN" --site site_dev`,
    )
    .action(async (dir: string, options: DevOptions) => {
      const folder = resolve(io.cwd, dir);
      const c = colors(context);
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new CliError('usage', `--port must be 0-65535, got "${options.port}".`, EXIT.usage);
      }
      if (options.space && options.site)
        throw new CliError('usage', 'pass --space or --site, not both.', EXIT.usage);

      let local: LocalHost | undefined;
      let host: HostClient;
      const remoteUrl = options.url ?? io.env.PLATFORM_URL;
      if (remoteUrl) checkUrl(remoteUrl, options.url ? '--url' : 'PLATFORM_URL');
      if (remoteUrl && (await isReachable(remoteUrl))) {
        host = hostClient(resolveTarget(io, options));
      } else {
        if (remoteUrl) io.stderr(`No host answers at ${remoteUrl}; starting one in this process.\n`);
        const started = await withProgress(io, 'Starting a local host', () =>
          startLocalHost(folder, port, io.env),
        );
        if (started.movedFrom !== undefined)
          io.stderr(`Port ${started.movedFrom} is taken; using ${started.url}.\n`);
        local = started;
        host = hostClient({
          url: started.url,
          token: started.token,
          urlSource: 'the local host',
          tokenSource: started.tokenFile,
        });
      }
      const controller = new AbortController();
      let watcher: FSWatcher | undefined;
      try {
        const built = await withProgress(io, 'Building and publishing', () =>
          publishDev(folder, host, io, options.env),
        );
        const place = options.site ? { site: options.site } : { space: options.space ?? 'space_dev' };
        const installation = await findOrInstall(host, built.manifest.name, place);
        if (local) {
          writeDevSession(folder, {
            url: local.url,
            tokenFile: local.tokenFile,
            integration: built.manifest.name,
            installationId: installation.id,
            ...place,
            pid: process.pid,
          });
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        const changed = new Set<string>();
        let running: Promise<void> = Promise.resolve();
        const rebuild = (file: string) => {
          running = running.then(async () => {
            const started = performance.now();
            try {
              const next = await publishDev(folder, host, io, options.env);
              io.stdout(
                `${c.cyan('↻')} Reloaded after ${file} changed (${formatBytes(next.bundle.bytes)}, ${formatDuration(performance.now() - started)})\n${warningLines(next, c.yellow('!'))}`,
              );
            } catch (error) {
              io.stdout(
                `${c.red('✖')} Reload failed, the previous version keeps running:\n${(error as Error).message}\n`,
              );
            }
          });
        };
        if (options.watch) {
          // chokidar, not fs.watch: a save by rename (editors, `sed -i`, `git checkout`) replaces the
          // file's inode, after which fs.watch on Linux stops reporting it (see the package README).
          watcher = watch(folder, {
            ignored: (path: string) => IGNORED.test(relative(folder, path)),
            ignoreInitial: true,
            atomic: true,
          });
          await new Promise<void>((ready) => watcher?.once('ready', () => ready()));
          watcher.on('all', (_event, path) => {
            const file = relative(folder, path);
            if (!file) return;
            changed.add(file);
            clearTimeout(timer);
            timer = setTimeout(() => {
              // An atomic save also touches a temporary file that is gone by now: name the real ones.
              const files = [...changed];
              changed.clear();
              const present = files.filter((f) => existsSync(join(folder, f)));
              rebuild((present.length > 0 ? present : files).join(', '));
            }, 120);
          });
        }
        const where = place.site ? `site ${place.site}` : `space ${place.space}`;
        io.stdout(
          [
            `${c.green('Ready!')} ${c.bold(built.manifest.name)} (${formatBytes(built.bundle.bytes)}) installed in ${where}: ${installation.status}`,
            `  host:            ${host.target.url}`,
            ...(local ? [`  admin token:     ${relative(io.cwd, local.tokenFile) || local.tokenFile}`] : []),
            `  installation:    ${installation.id}`,
            `  public endpoint: ${installation.urls.publicEndpoint}`,
            `  try:             platform trigger ${WEBHOOK_EVENT_TYPES_BY_PLACE[place.site ? 'site' : 'space'][0]}`,
            '',
          ].join('\n'),
        );
        io.stdout(warningLines(built, c.yellow('!')));
        for (const problem of installation.configurationErrors) {
          io.stdout(
            `  ${c.yellow('!')} configuration.${problem.key}: ${problem.message} (platform configure ${problem.key}=...)\n`,
          );
        }

        const logs = followLogs(host, installation.id, (inv) => io.stdout(formatInvocation(inv, c)), {
          signal: controller.signal,
          since: Date.now(),
          onError: (error) => io.stderr(`warning: ${(error as Error).message}\n`),
        });
        await untilInterrupted();
        clearTimeout(timer);
        controller.abort();
        await logs;
        await running;
      } finally {
        controller.abort();
        await watcher?.close();
        if (local) {
          clearDevSession(folder);
          await local.stop();
          io.stderr('Stopped the local host.\n');
        }
      }
    });
}
