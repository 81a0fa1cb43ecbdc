import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import * as prompts from '@clack/prompts';
import { SCOPES, VISIBILITIES } from '@platform/manifest';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { withProgress } from '../progress.js';
import { sdkSpecs } from '../scaffold/sdk.js';
import {
  GITIGNORE,
  iconTemplate,
  indexTemplate,
  manifestTemplate,
  packageTemplate,
  readmeTemplate,
  type ScaffoldAnswers,
  TSCONFIG,
  testTemplate,
} from '../scaffold/templates.js';
import { colors } from './shared.js';

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

interface NewOptions {
  name?: string;
  title?: string;
  description?: string;
  organization?: string;
  scopes?: string;
  visibility?: string;
  yes?: boolean;
  install: boolean;
  force?: boolean;
}

function titleOf(name: string): string {
  return name
    .split('-')
    .map((w) => (w[0]?.toUpperCase() ?? '') + w.slice(1))
    .join(' ');
}

/**
 * A folder name as an integration name: lowercase letters and digits, runs of anything else as one
 * hyphen (`Hello_World` -> `hello-world`); empty when nothing is left.
 *
 * @example
 * ```ts
 * slugify('Hello_World'); // 'hello-world'
 * ```
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Validates the name prompt: empty takes the default (the placeholder), else a slug.
 *
 * @example
 * ```ts
 * validateName('Hello World'); // 'lowercase letters, digits and single hyphens, e.g. hello-world'
 * ```
 */
export function validateName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return NAME.test(value)
    ? undefined
    : `lowercase letters, digits and single hyphens, e.g. ${slugify(value) || 'my-integration'}`;
}

/**
 * Validates a required prompt that has no default: an empty (or blank) answer is refused.
 *
 * @example
 * ```ts
 * required('organization')(''); // 'the organization is required'
 * ```
 */
export function required(what: string): (value: string | undefined) => string | undefined {
  return (value) => (value?.trim() ? undefined : `the ${what} is required`);
}

/** Checks flag values; returns the answers with defaults for what is not given. */
export function answersFromFlags(options: NewOptions, dirName: string | undefined): ScaffoldAnswers {
  const name = options.name ?? ((dirName && slugify(dirName)) || 'my-integration');
  if (!NAME.test(name)) {
    throw new CliError(
      'usage',
      `--name must be a lowercase slug like my-integration, got "${name}".`,
      EXIT.usage,
    );
  }
  const scopes = (options.scopes ?? 'space:content:read')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new CliError(
      'usage',
      `unknown scope ${unknown.join(', ')}; scopes: ${SCOPES.join(', ')}.`,
      EXIT.usage,
    );
  }
  const visibility = options.visibility ?? 'private';
  if (!(VISIBILITIES as readonly string[]).includes(visibility)) {
    throw new CliError(
      'usage',
      `--visibility must be one of ${VISIBILITIES.join(', ')}, got "${visibility}".`,
      EXIT.usage,
    );
  }
  return {
    name,
    title: options.title ?? titleOf(name),
    description: options.description ?? `${titleOf(name)} integration.`,
    organization: options.organization ?? 'my-org',
    scopes,
    visibility: visibility as ScaffoldAnswers['visibility'],
  };
}

function orCancel<T>(value: T): Exclude<T, symbol> {
  if (typeof value === 'symbol' || prompts.isCancel(value)) {
    throw new CliError('cancelled', 'cancelled; nothing was written.', EXIT.usage);
  }
  return value as Exclude<T, symbol>;
}

async function ask(defaults: ScaffoldAnswers, given: NewOptions): Promise<ScaffoldAnswers> {
  prompts.intro('Create a new integration');
  // Defaults are placeholders (Enter takes them; typing replaces them), never editable text.
  const name = orCancel(
    await prompts.text({
      message: 'Name (unique slug)',
      placeholder: defaults.name,
      defaultValue: defaults.name,
      validate: validateName,
    }),
  );
  const titleDefault = defaults.title === titleOf(defaults.name) ? titleOf(name) : defaults.title;
  const title = orCancel(
    await prompts.text({ message: 'Title', placeholder: titleDefault, defaultValue: titleDefault }),
  );
  const descriptionDefault = given.description ?? `${title} integration.`;
  const description = orCancel(
    await prompts.text({
      message: 'Description',
      placeholder: descriptionDefault,
      defaultValue: descriptionDefault,
    }),
  );
  const organization = orCancel(
    await prompts.text({
      message: 'Organization (id or subdomain)',
      ...(given.organization
        ? { placeholder: given.organization, defaultValue: given.organization }
        : { placeholder: 'e.g. acme', validate: required('organization') }),
    }),
  ).trim();
  const scopes = orCancel(
    await prompts.multiselect({
      message: 'Scopes (space to toggle)',
      options: SCOPES.filter((s) => !s.startsWith('site:script:')).map((s) => ({
        value: s as string,
        label: s,
      })),
      initialValues: defaults.scopes,
      required: false,
    }),
  );
  const visibility = orCancel(
    await prompts.select({
      message: 'Visibility',
      options: VISIBILITIES.map((v) => ({ value: v as ScaffoldAnswers['visibility'], label: v })),
      initialValue: defaults.visibility,
    }),
  );
  return { name, title, description, organization, scopes, visibility };
}

function npmInstall(dir: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['install', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', (error) =>
      reject(new CliError('npm_failed', `could not run npm: ${error.message}`, EXIT.failure)),
    );
    child.on('close', (code) =>
      code === 0
        ? resolvePromise()
        : reject(
            new CliError(
              'npm_failed',
              `npm install failed (exit ${code}):\n${stderr.trim().slice(-2000)}\nFix it and run \`npm install\` in ${dir}.`,
              EXIT.failure,
            ),
          ),
    );
  });
}

/**
 * Registers `platform new [dir]`: scaffolds an integration (manifest, src/index.ts, test,
 * tsconfig, package.json pinned to the SDK), interactively or from flags.
 *
 * @example
 * ```ts
 * registerNew(program, context); // platform new my-integration --yes
 * ```
 */
export function registerNew(program: Command, context: CommandContext): void {
  const { io } = context;
  program
    .command('new')
    .description('create a new integration (prompts on a terminal; flags or --yes otherwise)')
    .argument('[dir]', 'folder to create (default: the name)')
    .option('--name <name>', 'unique slug, e.g. my-integration (default: the folder name)')
    .option('--title <title>', 'name shown in the platform')
    .option('--description <text>', 'short description')
    .option('--organization <id>', 'owning organization (id or subdomain)', undefined)
    .option('--scopes <list>', 'comma-separated scopes (default: space:content:read)')
    .option('--visibility <visibility>', 'private, unlisted or public (default: private)')
    .option('-y, --yes', 'do not prompt: use the flags and defaults')
    .option('--no-install', 'do not run npm install')
    .option('--force', 'write into a folder that is not empty')
    .addHelpText(
      'after',
      `
Examples:
  $ platform new                                   # asks for everything
  $ platform new my-integration --yes
  $ platform new acme-sync --organization acme --scopes space:content:read,space:metadata:read --yes --no-install`,
    )
    .action(async (dir: string | undefined, options: NewOptions) => {
      const defaults = answersFromFlags(options, dir ? basename(resolve(io.cwd, dir)) : undefined);
      const interactive = !options.yes && io.stdinIsTTY === true && io.stdoutIsTTY;
      const answers = interactive ? await ask(defaults, options) : defaults;
      const target = resolve(io.cwd, dir ?? answers.name);
      if (existsSync(target) && readdirSync(target).length > 0 && !options.force) {
        throw new CliError(
          'usage',
          `${relative(io.cwd, target) || target} is not empty; choose another folder or pass --force.`,
          EXIT.usage,
        );
      }
      const files: Record<string, string> = {
        'platform-manifest.yaml': manifestTemplate(answers),
        'src/index.ts': indexTemplate(answers),
        'assets/icon.svg': iconTemplate(answers),
        'test/index.test.js': testTemplate(answers),
        'package.json': packageTemplate(answers, sdkSpecs(target)),
        'tsconfig.json': TSCONFIG,
        '.gitignore': GITIGNORE,
        'README.md': readmeTemplate(answers),
      };
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(target, file)), { recursive: true });
        writeFileSync(join(target, file), content);
      }
      const shown = relative(io.cwd, target) || '.';
      if (options.install)
        await withProgress(io, 'Installing dependencies (npm install)', () => npmInstall(target));
      const c = colors(context);
      if (interactive) prompts.outro('Done');
      io.stdout(
        `${c.green('Created')} ${answers.name} in ${shown}: ${Object.keys(files).join(', ')}\n\nNext:\n` +
          `  cd ${shown}\n` +
          (options.install ? '' : '  npm install\n') +
          '  npm test\n  npx platform check\n  npx platform dev\n',
      );
    });
}
