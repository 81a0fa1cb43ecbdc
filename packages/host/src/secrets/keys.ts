import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generateKey, type KeyRing, parseKey } from './box.js';
import { SecretsError } from './errors.js';

/** Where the host's secrets key comes from (docs/operations.md "Secrets key"). */
export interface SecretsKeySettings {
  /** `PLATFORM_SECRETS_KEY`: the key itself; when set, no file is read or written. */
  key?: string | undefined;
  /** `PLATFORM_SECRETS_KEY_FILE`: the file holding the key, created at first start (default `<dataDir>/secrets-key`). */
  keyFile: string;
  /** `PLATFORM_SECRETS_OLD_KEYS`: keys that still open what they sealed, until the next start re-seals it. */
  oldKeys: readonly string[];
}

/** The key ring a host runs with, and where its current key came from (for the start-up log). */
export interface ResolvedKeyRing {
  ring: KeyRing;
  source: 'environment' | 'file' | 'generated';
}

/**
 * The host's key ring: `PLATFORM_SECRETS_KEY` when given; else the key file, generated at first start
 * (32 random bytes, base64url, mode 0600) like the admin token. Old keys come from
 * `PLATFORM_SECRETS_OLD_KEYS`. Every key is validated (`SecretsError('invalid_key')` naming where).
 *
 * @example
 * const { ring, source } = await resolveKeyRing({ keyFile: '.platform/secrets-key', oldKeys: [] });
 */
export async function resolveKeyRing(settings: SecretsKeySettings): Promise<ResolvedKeyRing> {
  const old = settings.oldKeys.map((key, i) => {
    parseKey(key, `PLATFORM_SECRETS_OLD_KEYS (key #${i + 1})`);
    return key.trim();
  });
  if (settings.key) {
    parseKey(settings.key, 'PLATFORM_SECRETS_KEY');
    return { ring: { current: settings.key.trim(), old }, source: 'environment' };
  }
  const existing = await readKeyFile(settings.keyFile);
  if (existing !== null) return { ring: { current: existing, old }, source: 'file' };
  await mkdir(dirname(settings.keyFile), { recursive: true });
  const key = generateKey();
  // Written whole to a file of its own, then linked to its name: a process starting at the same time on
  // the same folder sees no file or the whole key, never a half-written one, and the first link wins.
  const draft = `${settings.keyFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(draft, `${key}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await chmod(draft, 0o600);
    await link(draft, settings.keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const raced = await readKeyFile(settings.keyFile);
    if (raced !== null) return { ring: { current: raced, old }, source: 'file' };
    throw error;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  return { ring: { current: key, old }, source: 'generated' };
}

async function readKeyFile(file: string): Promise<string | null> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw new SecretsError(
      'invalid_key',
      `cannot read the secrets key file ${file}: ${error.code ?? error.message}`,
    );
  });
  if (text === null) return null;
  parseKey(text, `the secrets key file ${file}`);
  return text.trim();
}
