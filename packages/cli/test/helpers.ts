import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Host, loadConfig, startHost } from '@platform/host';
import { afterAll, beforeAll } from 'vitest';
import { type Backend, createTestDatabase } from '../../host/test/backends.js';
import { buildCli, ROOT } from './build.js';

export { ROOT };

/** The result of a finished CLI run. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh, isolated environment: its own config home, no PLATFORM_* or color variables. */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ...process.env,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    PLATFORM_URL: undefined,
    PLATFORM_TOKEN: undefined,
    XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'platform-config-')),
    ...extra,
  };
}

/** Runs `node ...argv` to completion, collecting its output. */
function runProcess(argv: string[], cwd: string, env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `platform ...args` to completion as a process. */
export async function run(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<Run> {
  const bin = await buildCli();
  return runProcess([bin, ...args], options.cwd ?? ROOT, options.env ?? cliEnv());
}

/** A long-running `platform` process (dev, listen, tail) whose output a test waits on. */
export interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout matches (checked on every chunk); rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends SIGINT and resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

export async function start(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<Running> {
  const bin = await buildCli();
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? cliEnv(),
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(pattern);
          if (match) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        listeners.add(check);
        check();
        void closed.then(() => {
          if (listeners.has(check)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`process exited before ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
          }
        });
      });
    },
    async interrupt() {
      if (child.exitCode === null) child.kill('SIGINT');
      return closed;
    },
  };
}

/**
 * A host on a free loopback port with its own data folder, on SQLite or (`backend: 'postgres'`) a fresh
 * PostgreSQL database (`packages/host/test/backends.ts`); `close` stops it and drops that database.
 */
export async function startTestHost(
  env: Record<string, string> = {},
  backend: Backend = 'sqlite',
): Promise<{ host: Host; token: string; close: () => Promise<void> }> {
  await buildCli(); // the host loads the built-in webhook integration from its dist
  const token = 'pat_cli_test_operator_token_0123';
  const database = backend === 'postgres' ? await createTestDatabase() : null;
  const host = await startHost(
    loadConfig({
      ...(database ? { DATABASE_URL: database.url } : {}),
      PORT: '0',
      PLATFORM_DATA_DIR: mkdtempSync(join(tmpdir(), 'platform-cli-host-')),
      PLATFORM_ADMIN_TOKEN: token,
      LOG_LEVEL: 'silent',
      PLATFORM_DELIVERY_TIMEOUT_MS: '2000',
      ...env,
    }),
  );
  const close = async () => {
    await host.stop();
    await database?.drop();
  };
  return { host, token, close };
}

/** The host of a test file: {@link useTestHost}. */
export interface TestHost {
  readonly host: Host;
  /** Its operator token. */
  readonly token: string;
  /** `--url <host> --token <operator token>`, for `platform` commands. */
  readonly flags: string[];
}

/**
 * A {@link startTestHost} host (SQLite, with `env`) for the tests of a file: started before them, stopped
 * after them. Read its fields inside the tests (they exist once the host started).
 *
 * @example
 * ```ts
 * const t = useTestHost();
 * it('publishes', async () => expect((await run(['publish', ...t.flags], { cwd })).code).toBe(0));
 * ```
 */
export function useTestHost(env: Record<string, string> = {}): TestHost {
  let started: Awaited<ReturnType<typeof startTestHost>> | undefined;
  beforeAll(async () => {
    started = await startTestHost(env);
  });
  afterAll(async () => {
    await started?.close();
  });
  const get = () => {
    if (!started) throw new Error('useTestHost: the host is not started yet (read it inside a test)');
    return started;
  };
  return {
    get host() {
      return get().host;
    },
    get token() {
      return get().token;
    },
    get flags() {
      return ['--url', get().host.url, '--token', get().token];
    },
  };
}

/**
 * Links a scaffolded integration's dependencies the way `npm install` does for its `file:`
 * dependencies (symlinks into this monorepo), without touching the network.
 */
export function linkScaffold(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '@platform'), { recursive: true });
  for (const name of ['runtime', 'api-client', 'cli']) {
    symlinkSync(join(ROOT, 'packages', name), join(dir, 'node_modules', '@platform', name), 'dir');
  }
  symlinkSync(join(ROOT, 'node_modules', 'esbuild'), join(dir, 'node_modules', 'esbuild'), 'dir');
}

/** Runs `node --test` in a folder. */
export function nodeTest(dir: string): Promise<Run> {
  return runProcess(['--test'], dir, cliEnv());
}

/**
 * Scaffolds an integration with `platform new <name> --yes --no-install --organization acme` in a
 * fresh temp folder; returns its folder.
 */
export async function scaffold(
  name: string,
  env: Record<string, string | undefined>,
  extra: string[] = [],
): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), `platform-${name}-`));
  const created = await run(['new', name, '--yes', '--no-install', '--organization', 'acme', ...extra], {
    cwd: work,
    env,
  });
  if (created.code !== 0) throw new Error(`platform new failed: ${created.stderr}`);
  return join(work, name);
}
