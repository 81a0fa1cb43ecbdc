import { WEBHOOK_EVENT_TYPES_BY_PLACE } from '@platform/events';
import { Command, CommanderError } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import { registerBuild } from './commands/build.js';
import { registerCheck } from './commands/check.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfigure } from './commands/configure.js';
import { registerDeliveries } from './commands/deliveries.js';
import { registerDev } from './commands/dev.js';
import { registerEvents } from './commands/events.js';
import { registerInstall } from './commands/install.js';
import { registerListen } from './commands/listen.js';
import { registerLists } from './commands/lists.js';
import { registerLogin } from './commands/login.js';
import { registerManifest } from './commands/manifest.js';
import { registerNew } from './commands/new.js';
import { registerPortal } from './commands/portal.js';
import { registerPublish } from './commands/publish.js';
import { registerStatus } from './commands/status.js';
import { registerTail } from './commands/tail.js';
import { registerTokens } from './commands/tokens.js';
import { registerTrigger } from './commands/trigger.js';
import { registerUninstall } from './commands/uninstall.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerWhoami } from './commands/whoami.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { type Io, processIo } from './io.js';

/** Every command module: one file under `src/commands/`, registered here. */
const COMMANDS: ReadonlyArray<(program: Command, context: CommandContext) => void> = [
  registerNew,
  registerCheck,
  registerBuild,
  registerDev,
  registerPublish,
  registerInstall,
  registerConfigure,
  registerTrigger,
  registerListen,
  registerTail,
  registerDeliveries,
  registerStatus,
  registerLists,
  registerUninstall,
  registerEvents,
  registerLogin,
  registerWhoami,
  registerTokens,
  registerPortal,
  registerWebhooks,
  registerManifest,
  registerCompletion,
];

/**
 * Builds the `platform` program. Commander never exits the process: errors surface as
 * `CommanderError` (see {@link runCli}).
 *
 * @example
 * ```ts
 * const context = { io: processIo(), exitCode: 0 };
 * await createProgram(context).parseAsync(['check', '.'], { from: 'user' });
 * ```
 */
export function createProgram(context: CommandContext): Command {
  const { io } = context;
  const program = new Command('platform')
    .description('Build, check and run integrations of the platform')
    .version(pkg.version, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run `platform --help` for usage)')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .addHelpText(
      'after',
      `
Examples:
  $ platform new my-integration --yes     scaffold an integration
  $ platform check                        manifest + bundle + boot in workerd
  $ platform dev                          local host, reload on save, logs
  $ platform trigger ${WEBHOOK_EVENT_TYPES_BY_PLACE.space[0]}
  $ platform listen --forward-to http://localhost:3000/webhook
  $ platform publish --env production
  $ platform manifest schema > platform-manifest.schema.json
  $ platform events                       the events, their scopes and sample payloads
  $ platform login --token pot_...        log in with an organization token
  $ platform tokens create --name ci --scope integrations:publish
  $ source <(platform completion bash)    shell completion (bash, zsh)
  $ platform <command> --help           help and examples of one command`,
    );
  for (const register of COMMANDS) register(program, context);
  return program;
}

/**
 * Runs the CLI on `argv` (as in `process.argv`) and returns the exit code: 0 success, 1 failed
 * check, 2 usage error. Never calls `process.exit`.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv);
 * ```
 */
export async function runCli(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const context: CommandContext = { io, exitCode: EXIT.ok };
  const program = createProgram(context);
  try {
    await program.parseAsync([...argv]);
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof CliError) {
      io.stderr(`error: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
