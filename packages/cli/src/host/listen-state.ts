import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Io } from '../io.js';
import { configPath } from './config-file.js';

/** What `platform listen` remembers of one (host, forward URL): the webhook installation it made. */
export interface ListenRecord {
  installationId: string;
}

/** `listen.json` beside the config file (`~/.config/platform/listen.json`). */
export function listenStatePath(env: Io['env']): string {
  return join(dirname(configPath(env)), 'listen.json');
}

const keyOf = (hostUrl: string, forwardTo: string) => `${hostUrl.replace(/\/+$/, '')} ${forwardTo}`;

function readAll(env: Io['env']): Record<string, ListenRecord> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(listenStatePath(env), 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, ListenRecord>) : {};
  } catch {
    return {};
  }
}

/**
 * The installation `platform listen` made earlier for this host and forward URL, if any.
 *
 * @example
 * ```ts
 * readListen(process.env, 'http://127.0.0.1:8080', 'http://localhost:3000/webhook')?.installationId;
 * ```
 */
export function readListen(env: Io['env'], hostUrl: string, forwardTo: string): ListenRecord | undefined {
  const record = readAll(env)[keyOf(hostUrl, forwardTo)];
  return typeof record?.installationId === 'string' ? record : undefined;
}

/**
 * Remembers (or, with `undefined`, forgets) the installation of a host and forward URL; mode 0600.
 *
 * @example
 * ```ts
 * writeListen(process.env, 'http://127.0.0.1:8080', 'http://localhost:3000/webhook', { installationId: 'inst_1' });
 * ```
 */
export function writeListen(
  env: Io['env'],
  hostUrl: string,
  forwardTo: string,
  record: ListenRecord | undefined,
): void {
  const all = readAll(env);
  const key = keyOf(hostUrl, forwardTo);
  if (record) all[key] = record;
  else delete all[key];
  const file = listenStatePath(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
