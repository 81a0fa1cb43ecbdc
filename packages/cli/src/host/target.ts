import { CliError, EXIT } from '../errors.js';
import type { Io } from '../io.js';
import { configPath, readLogin } from './config-file.js';
import { type DevSession, readDevSession } from './dev-session.js';

/** Which host a command talks to, and where each part came from (for error messages). */
export interface HostTarget {
  url: string;
  token: string;
  urlSource: string;
  tokenSource: string;
  /** The `platform dev` session of the current folder, when the target came from it. */
  session?: DevSession;
}

/** Flags every host command accepts. */
export interface HostFlags {
  url?: string;
  token?: string;
}

/**
 * Resolves the host URL and token: flags (`--url`, `--token`), then the environment
 * (`PLATFORM_URL`, `PLATFORM_TOKEN`), then a `platform dev` running in the current folder, then
 * the file written by `platform login`. Throws a usage error naming every way to set what is missing.
 *
 * @example
 * ```ts
 * const target = resolveTarget(io, { url: 'http://127.0.0.1:8080' });
 * ```
 */
export function resolveTarget(io: Io, flags: HostFlags): HostTarget {
  const session = readDevSession(io.cwd);
  const login = readLogin(io.env);
  const pick = (
    candidates: Array<[string | undefined, string]>,
  ): { value: string; source: string } | undefined => {
    for (const [value, source] of candidates) if (value) return { value, source };
    return undefined;
  };
  const file = configPath(io.env);
  const url = pick([
    [flags.url, '--url'],
    [io.env.PLATFORM_URL, 'PLATFORM_URL'],
    [session?.url, 'the running `platform dev`'],
    [login.url, file],
  ]);
  if (!url) {
    throw new CliError(
      'no_host',
      'no host to talk to: pass --url, set PLATFORM_URL, run `platform login --url <url> --token <token>`, or start `platform dev` in this folder.',
      EXIT.usage,
    );
  }
  checkUrl(url.value, url.source);
  const fromSession = url.source === 'the running `platform dev`';
  const token = pick([
    [flags.token, '--token'],
    [io.env.PLATFORM_TOKEN, 'PLATFORM_TOKEN'],
    [fromSession ? session?.token : undefined, session?.tokenFile ?? ''],
    [login.token, file],
  ]);
  if (!token) {
    throw new CliError(
      'no_token',
      `no token for ${url.value}: pass --token, set PLATFORM_TOKEN or run \`platform login --token <token>\` (a local host keeps its operator token in <data dir>/admin-token).`,
      EXIT.usage,
    );
  }
  return {
    url: url.value.replace(/\/+$/, ''),
    token: token.value,
    urlSource: url.source,
    tokenSource: token.source,
    ...(fromSession && session ? { session } : {}),
  };
}

/**
 * Throws a usage error naming `source` when `url` is not an absolute http(s) URL, with the likely
 * fix (`127.0.0.1:8080` -> `http://127.0.0.1:8080`).
 *
 * @example
 * ```ts
 * checkUrl('127.0.0.1:8080', '--url'); // throws: --url "127.0.0.1:8080" has no scheme; ...
 * ```
 */
export function checkUrl(url: string, source: string): void {
  if (/^https?:\/\/[^/]+/i.test(url)) {
    try {
      new URL(url);
      return;
    } catch {
      // reported below
    }
  }
  const hint = /^[\w.-]+(:\d+)?(\/.*)?$/.test(url)
    ? ` has no scheme; use http://${url} (or https://${url})`
    : ' is not an http(s) URL; e.g. http://127.0.0.1:8080';
  throw new CliError('bad_url', `${source} "${url}"${hint}.`, EXIT.usage);
}
