import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Io } from '../io.js';

/** What `platform login` saves. */
export interface SavedLogin {
  url?: string;
  token?: string;
}

/**
 * Path of the CLI's config file: `$XDG_CONFIG_HOME/platform/config.json`, else
 * `~/.config/platform/config.json`.
 *
 * @example
 * ```ts
 * configPath({ HOME: '/home/ada' }); // '/home/ada/.config/platform/config.json'
 * ```
 */
export function configPath(env: Io['env']): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || env.USERPROFILE || '.', '.config');
  return join(base, 'platform', 'config.json');
}

/** Reads the saved login; `{}` when there is none or it is unreadable. */
export function readLogin(env: Io['env']): SavedLogin {
  try {
    const parsed: unknown = JSON.parse(readFileSync(configPath(env), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { url, token } = parsed as Record<string, unknown>;
    return { ...(typeof url === 'string' ? { url } : {}), ...(typeof token === 'string' ? { token } : {}) };
  } catch {
    return {};
  }
}

/**
 * Saves the login with mode 0600 (the folder 0700); returns the file's path.
 *
 * @example
 * ```ts
 * writeLogin(process.env, { url: 'http://127.0.0.1:8080', token: 'pat_...' });
 * ```
 */
export function writeLogin(env: Io['env'], login: SavedLogin): string {
  const file = configPath(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify({ ...readLogin(env), ...login }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/**
 * Removes the saved URL and token (`platform logout`); returns the file's path when it held a
 * login, undefined when there was none.
 *
 * @example
 * ```ts
 * removeLogin(process.env); // '/home/ada/.config/platform/config.json'
 * ```
 */
export function removeLogin(env: Io['env']): string | undefined {
  const file = configPath(env);
  const saved = readLogin(env);
  if (saved.url === undefined && saved.token === undefined) return undefined;
  let rest: Record<string, unknown> = {};
  try {
    rest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // unreadable: replaced by an empty file below
  }
  delete rest.url;
  delete rest.token;
  writeFileSync(file, `${JSON.stringify(rest, null, 2)}\n`, { mode: 0o600 });
  return file;
}
