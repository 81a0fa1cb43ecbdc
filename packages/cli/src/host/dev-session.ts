import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Data folder of the in-process host of `platform dev`, inside the integration folder. */
export const DEV_DATA_DIR = '.platform';

/** What a running `platform dev` tells the other commands run in the same folder. */
export interface DevSession {
  url: string;
  /** File holding the operator token of the dev host. */
  tokenFile: string;
  integration: string;
  installationId: string;
  space?: string;
  site?: string;
  pid: number;
}

const sessionFile = (dir: string) => join(dir, DEV_DATA_DIR, 'dev.json');

/**
 * Records the session (mode 0600) so `platform trigger`, `tail`, `configure` in the same folder
 * find the dev host without flags.
 *
 * @example
 * ```ts
 * writeDevSession(dir, { url, tokenFile, integration: 'hello', installationId, space: 'space_dev', pid: process.pid });
 * ```
 */
export function writeDevSession(dir: string, session: DevSession): void {
  mkdirSync(join(dir, DEV_DATA_DIR), { recursive: true });
  writeFileSync(sessionFile(dir), `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
  chmodSync(sessionFile(dir), 0o600);
}

/** Removes the session file (when `platform dev` stops). */
export function clearDevSession(dir: string): void {
  rmSync(sessionFile(dir), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The session of a `platform dev` still running in `dir`, with its token; undefined otherwise.
 *
 * @example
 * ```ts
 * const session = readDevSession(process.cwd());
 * ```
 */
export function readDevSession(dir: string): (DevSession & { token: string }) | undefined {
  try {
    const session = JSON.parse(readFileSync(sessionFile(dir), 'utf8')) as DevSession;
    if (typeof session.url !== 'string' || !alive(session.pid)) return undefined;
    const token = readFileSync(session.tokenFile, 'utf8').trim();
    return { ...session, token };
  } catch {
    return undefined;
  }
}
