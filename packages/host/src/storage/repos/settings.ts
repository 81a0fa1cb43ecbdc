import { reveal, type SecretBox } from '../../secrets/index.js';
import { str } from '../rows.js';
import type { Sql } from '../sql.js';

/**
 * A small key/value store for host settings (for example the operator token hash).
 *
 * @example
 * await storage.settings.set('admin_token_hash', hash);
 * const hash = await storage.settings.get('admin_token_hash'); // string | null
 */
export interface SettingsRepo {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, now?: number): Promise<void>;
  /** Sets the value only when the key is absent; returns the stored value (the existing one if any). */
  setIfAbsent(key: string, value: string, now?: number): Promise<string>;
  delete(key: string): Promise<boolean>;
  /**
   * Takes this host's turn at work several hosts on one database share out (e.g. the statistics rollup):
   * true, and the turn is recorded at `now`, when no host took one in the `gapMs` before `now`; else false.
   * One statement, so two hosts asking at once never both get it.
   */
  takeTurn(key: string, now: number, gapMs: number): Promise<boolean>;
}

/**
 * Settings whose values are secrets, sealed at rest (src/secrets/README.md): `installation_token_key`
 * derives every installation's API token (src/auth.ts).
 */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set(['installation_token_key']);

/** Builds the settings repository on an adapter (or transaction handle). */
export function settingsRepo(sql: Sql, box: SecretBox): SettingsRepo {
  const stored = (key: string, value: string) => (SECRET_SETTINGS.has(key) ? box.seal(value) : value);
  const get = async (key: string) => {
    const row = await sql.get('SELECT value FROM settings WHERE key = ?', [key]);
    if (!row) return null;
    return SECRET_SETTINGS.has(key) ? reveal(box, str(row, 'value')) : str(row, 'value');
  };
  return {
    get,
    async set(key, value, now = Date.now()) {
      await sql.run(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [key, stored(key, value), now],
      );
    },
    async setIfAbsent(key, value, now = Date.now()) {
      await sql.run(
        'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING',
        [key, stored(key, value), now],
      );
      return (await get(key)) ?? value;
    },
    async takeTurn(key, now, gapMs) {
      const { changes } = await sql.run(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
         WHERE settings.updated_at <= ?`,
        [key, String(now), now, now - gapMs],
      );
      return changes > 0;
    },
    async delete(key) {
      return (await sql.run('DELETE FROM settings WHERE key = ?', [key])).changes > 0;
    },
  };
}
