import { createHash } from 'node:crypto';
import { num, str } from '../rows.js';
import type { Sql } from '../sql.js';
import type { AssetRecord } from '../types.js';

/**
 * Image files of integrations (icons, preview images), stored once by the SHA-256 of their bytes:
 * publishing the same icon again, in any version or integration, stores nothing new. Rows are never
 * changed; an integration version refers to them by hash (`IntegrationRecord.assets`).
 *
 * @example
 * const hash = await storage.assets.put({ contentType: 'image/png', data: bytes });
 * const asset = await storage.assets.get(hash); // { hash, contentType, data, createdAt }
 */
export interface AssetsRepo {
  /** Stores the bytes (unless already stored) and returns their hash. */
  put(input: { contentType: string; data: Uint8Array }, now?: number): Promise<string>;
  /** The asset with this hash, or null. */
  get(hash: string): Promise<AssetRecord | null>;
}

/** SHA-256 of the bytes, lowercase hex: the key of an asset. */
export function assetHash(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Builds the assets repository on an adapter (or transaction handle). Bytes are kept as base64 TEXT. */
export function assetsRepo(sql: Sql): AssetsRepo {
  return {
    async put({ contentType, data }, now = Date.now()) {
      const hash = assetHash(data);
      await sql.run(
        `INSERT INTO assets (hash, content_type, size, data, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (hash) DO NOTHING`,
        [hash, contentType, data.byteLength, Buffer.from(data).toString('base64'), now],
      );
      return hash;
    },
    async get(hash) {
      const row = await sql.get('SELECT hash, content_type, data, created_at FROM assets WHERE hash = ?', [
        hash,
      ]);
      if (!row) return null;
      return {
        hash: str(row, 'hash'),
        contentType: str(row, 'content_type'),
        data: Buffer.from(str(row, 'data'), 'base64'),
        createdAt: num(row, 'created_at'),
      };
    },
  };
}
