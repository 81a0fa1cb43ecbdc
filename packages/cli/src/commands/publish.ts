import { resolve } from 'node:path';
import type { Command } from 'commander';
import { buildIntegration } from '../build/build-integration.js';
import { publishOrganization } from '../build/manifest-env.js';
import { secretEnv } from '../build/secrets-env.js';
import type { CommandContext } from '../context.js';
import { formatBytes, withProgress } from '../progress.js';
import { colors, connect, printJson, withHostOptions } from './shared.js';

interface PublishOptions {
  env?: string;
  organization?: string;
  release?: string;
  /** JSON file of the secret-manager references' values. */
  secrets?: string;
  dev?: boolean;
  json?: boolean;
  url?: string;
  token?: string;
}

/** ", 2 images" for the publish line: how many image files (icon, previews) went with the bundle. */
function assetNote(assets: Record<string, string>): string {
  const count = Object.keys(assets).length;
  return count === 0 ? '' : `, ${count} image${count === 1 ? '' : 's'}`;
}

/**
 * Registers `platform publish [dir]`: builds (minified) and publishes manifest + bundle, with the
 * values of the environment variables the manifest secrets reference.
 *
 * @example
 * ```ts
 * registerPublish(program, context); // platform publish --env production
 * ```
 */
export function registerPublish(program: Command, context: CommandContext): void {
  const { io } = context;
  withHostOptions(
    program
      .command('publish')
      .description('build and publish the integration to the host (secrets resolved from the environment)')
      .argument('[dir]', 'integration folder', '.')
      .option(
        '--env <name>',
        'publish the manifest as seen in envs.<name>, with secret values from .env.<name> (the process environment wins)',
      )
      .option(
        '--organization <id>',
        'owning organization (default: envs.<name>.organization with --env, else the manifest organization)',
      )
      .option(
        '--secrets <file>',
        'JSON file with the values of the manifest\'s secret-manager references such as "op://vault/item/field" (default: .secrets.json)',
      )
      .option('--release <version>', 'version label, e.g. 1.2.0 (default: the next whole number)')
      .option('--dev', 'development mode: the version "dev" can be published again')
      .option('--json', 'print the published integration as JSON'),
  )
    .addHelpText(
      'after',
      `
Environments: --env <name> publishes the manifest with the keys of \`envs.<name>\` replacing the
top-level ones (\`envs\` itself is not published). Without \`envs\` in the manifest, --env only
picks the secrets file .env.<name>.

Organization: --organization, else envs.<name>.organization (with --env), else \`organization\`
of the manifest, else (with an organization token) the token's organization. With the operator
token, publishing refuses when none is set; an organization token publishes only its own
organization's integrations (the host refuses another one).

Secrets: every \${{ env.NAME }} of the manifest \`secrets\` is sent from the environment, else from
.env.<name> (--env) or .env. Only referenced variables are sent. Every secret-manager reference
\${{ "op://vault/item/field" }} is sent from a JSON file mapping it to its value: --secrets <file>,
else .secrets.json in the folder (e.g. written with the secret manager's CLI; keep it out of git).

Examples:
  $ platform publish
  $ platform publish --env production --release 1.2.0
  $ platform publish --organization acme
  $ PLATFORM_URL=https://host.example.com platform publish --token $TOKEN`,
    )
    .action(async (dir: string, options: PublishOptions) => {
      const folder = resolve(io.cwd, dir);
      const host = connect(context, options);
      const built = await withProgress(io, 'Bundling', () =>
        buildIntegration(folder, {
          mode: 'publish',
          ...(options.env === undefined ? {} : { env: options.env }),
          ...(options.organization === undefined ? {} : { organization: options.organization }),
        }),
      );
      // an organization token publishes as its organization: the host fills a missing `organization`
      const organization =
        built.manifest.organization ??
        (await host.call('GET /v1/whoami')).organization?.id ??
        publishOrganization(built.manifest, options);
      const env = secretEnv(folder, built.manifest, io.env, options.env, options.secrets);
      const published = await withProgress(io, `Publishing to ${host.target.url}`, () =>
        host.call('POST /v1/integrations', {
          body: {
            manifest: built.manifestText,
            bundle: built.bundle.code,
            ...(options.dev ? { dev: true } : {}),
            ...(options.release ? { version: options.release } : {}),
            ...(Object.keys(env).length ? { env } : {}),
            ...(Object.keys(built.assets).length ? { assets: built.assets } : {}),
          },
        }),
      );
      if (options.json) return printJson(context, published);
      const c = colors(context);
      const owner =
        typeof published.manifest.organization === 'string' ? published.manifest.organization : organization;
      io.stdout(
        `${c.green('Published')} ${published.name} version ${c.bold(published.version)} (${formatBytes(built.bundle.bytes)}${assetNote(built.assets)}) to ${host.target.url}` +
          ` for organization ${owner}${built.env ? ` (env ${built.env})` : ''}\n` +
          `Install it: platform install --space <space-id>\n`,
      );
    });
}
