import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { createColors } from 'picocolors';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { type HostClient, hostClient } from '../host/client.js';
import { type HostFlags, resolveTarget } from '../host/target.js';
import { useColor } from '../io.js';

/** Adds `--url` and `--token` to a command that talks to a host. */
export function withHostOptions(command: Command): Command {
  return command
    .option(
      '--url <url>',
      'host URL (default: PLATFORM_URL, the running `platform dev`, or `platform login`)',
    )
    .option(
      '--token <token>',
      'operator or organization token (default: PLATFORM_TOKEN, the dev host, or `platform login`)',
    );
}

/**
 * Registers `<parent> <name> <argument>`: a host command that removes one thing, the argument names
 * it. `remove` calls the host and answers the line to print (without its newline).
 *
 * @example
 * ```ts
 * registerRemoval(program, context, {
 *   name: 'uninstall',
 *   description: 'remove an installation',
 *   argument: ['<installationId>', 'installation id'],
 *   examples: ['platform uninstall inst_4f2a9c'],
 *   remove: async (host, id) => (await host.call('DELETE /v1/installations/{id}', { params: { id } }), `Uninstalled ${id}`),
 * });
 * ```
 */
export function registerRemoval(
  parent: Command,
  context: CommandContext,
  spec: {
    name: string;
    description: string;
    argument: [name: string, description: string];
    examples: readonly string[];
    remove(host: HostClient, id: string): Promise<string>;
  },
): void {
  withHostOptions(
    parent
      .command(spec.name)
      .description(spec.description)
      .argument(...spec.argument),
  )
    .addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}`)
    .action(async (id: string, options: HostFlags) => {
      context.io.stdout(`${await spec.remove(connect(context, options), id)}\n`);
    });
}

/** The host client of a command, from its flags. */
export function connect(context: CommandContext, flags: HostFlags): HostClient {
  return hostClient(resolveTarget(context.io, flags));
}

/** Colors for stdout (off when piped or NO_COLOR). */
export function colors(context: CommandContext) {
  return createColors(useColor(context.io.env, context.io.stdoutIsTTY));
}

/** Prints data as indented JSON on stdout. */
export function printJson(context: CommandContext, value: unknown): void {
  context.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Parses `key=value` pairs; values that are JSON (`true`, `3`, `"x"`, `{...}`, `null`) are parsed,
 * anything else is a string.
 *
 * @example
 * ```ts
 * parseAssignments(['url=https://x', 'enabled=true']); // { url: 'https://x', enabled: true }
 * ```
 */
export function parseAssignments(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError('usage', `expected key=value, got "${pair}".`, EXIT.usage);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // a plain string
    }
    out[pair.slice(0, eq)] = value;
  }
  return out;
}

/** Reads a JSON file given on the command line, with a usage error naming it. */
export function readJsonFile(cwd: string, file: string): unknown {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new CliError('usage', `file not found: ${file}`, EXIT.usage);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError('usage', `${file} is not valid JSON: ${(error as Error).message}`, EXIT.usage);
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Resolves once the process gets Ctrl+C (SIGINT) or SIGTERM, or `signal` aborts. The CLI owns
 * these signals while waiting, so the command can stop gracefully: listeners others add
 * (Miniflare's exit hook calls `process.exit` at once) are removed as they come; their `exit`
 * hooks stay. A second Ctrl+C exits at once.
 */
export function untilInterrupted(signal?: AbortSignal): Promise<string> {
  const ours = new Set<(...args: unknown[]) => void>();
  const strip = (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if ((SIGNALS as readonly (string | symbol)[]).includes(event) && !ours.has(listener)) {
      queueMicrotask(() => process.off(event as NodeJS.Signals, listener));
    }
  };
  for (const name of SIGNALS) process.removeAllListeners(name);
  process.on('newListener', strip);
  return new Promise((resolvePromise) => {
    const done = (why: string) => {
      process.off('newListener', strip);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.once('SIGINT', () => process.exit(130));
      resolvePromise(why);
    };
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    ours.add(onInt);
    ours.add(onTerm);
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    signal?.addEventListener('abort', () => done('abort'), { once: true });
  });
}

/** Sleeps `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((r) => {
    const onAbort = () => {
      clearTimeout(t);
      r();
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      r();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The installation id from `--installation`, or the one of the running `platform dev`. */
export function installationOf(client: HostClient, explicit: string | undefined): string {
  const id = explicit ?? client.target.session?.installationId;
  if (!id) {
    throw new CliError(
      'usage',
      'which installation? pass --installation <id> (printed by `platform install` and `platform dev`), or run this in the folder of a running `platform dev`.',
      EXIT.usage,
    );
  }
  return id;
}
