import { StorageError } from '../errors.js';
import { json, num, str } from '../rows.js';
import type { Sql } from '../sql.js';
import type { Json, SpaceDocumentRecord } from '../types.js';

/**
 * The document of each space (the editor's page: docs/documents.md), stored as JSON with a revision
 * that every save increments. Saves are compare-and-set: given `baseRevision`, a save succeeds only
 * when the stored revision is still that one (0: no document yet), else `StorageError('conflict')`.
 * The repository does not look inside `nodes`; the host validates them.
 *
 * @example
 * const saved = await storage.documents.put('space_1', [{ type: 'text', text: 'Hi' }], { baseRevision: 0 });
 * saved.revision; // 1
 * await storage.documents.get('space_1'); // { spaceId, nodes, revision: 1, updatedAt }
 */
export interface DocumentsRepo {
  /**
   * The document of a space, or null when none was saved. With `lock` (inside a transaction), no
   * other transaction saves it until this one ends (PostgreSQL `FOR UPDATE`; a SQLite transaction
   * already holds the writer lock): a read-modify-write without a lost update.
   */
  get(spaceId: string, options?: { lock?: boolean }): Promise<SpaceDocumentRecord | null>;
  /**
   * Saves the nodes: revision + 1 (1 for the first save). With `baseRevision`, only if the stored
   * revision is that one (`conflict` otherwise); without, whatever is stored.
   */
  put(
    spaceId: string,
    nodes: Json[],
    options?: { baseRevision?: number; now?: number },
  ): Promise<SpaceDocumentRecord>;
}

const COLUMNS = 'space_id, document, revision, updated_at';

function fromRow(row: Record<string, unknown>): SpaceDocumentRecord {
  return {
    spaceId: str(row, 'space_id'),
    nodes: json<{ nodes: Json[] }>(row, 'document').nodes,
    revision: num(row, 'revision'),
    updatedAt: num(row, 'updated_at'),
  };
}

/**
 * Builds the documents repository on an adapter (or transaction handle).
 *
 * @example
 * const documents = documentsRepo(sql); await documents.get('space_1');
 */
export function documentsRepo(sql: Sql): DocumentsRepo {
  const get = async (spaceId: string, options: { lock?: boolean } = {}) => {
    const lock = options.lock && sql.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const row = await sql.get(`SELECT ${COLUMNS} FROM space_documents WHERE space_id = ?${lock}`, [spaceId]);
    return row ? fromRow(row) : null;
  };
  return {
    get,
    async put(spaceId, nodes, { baseRevision, now = Date.now() } = {}) {
      if (baseRevision !== undefined && (!Number.isSafeInteger(baseRevision) || baseRevision < 0))
        throw new StorageError('invalid', `baseRevision must be an integer >= 0; got ${baseRevision}`);
      const document = JSON.stringify({ nodes });
      const returning = `RETURNING ${COLUMNS}`;
      const row =
        baseRevision === undefined
          ? await sql.get(
              `INSERT INTO space_documents (${COLUMNS}) VALUES (?, ?, 1, ?)
               ON CONFLICT (space_id) DO UPDATE SET document = excluded.document,
                 revision = space_documents.revision + 1, updated_at = excluded.updated_at ${returning}`,
              [spaceId, document, now],
            )
          : baseRevision === 0
            ? await sql.get(
                `INSERT INTO space_documents (${COLUMNS}) VALUES (?, ?, 1, ?)
                 ON CONFLICT (space_id) DO NOTHING ${returning}`,
                [spaceId, document, now],
              )
            : await sql.get(
                `UPDATE space_documents SET document = ?, revision = revision + 1, updated_at = ?
                 WHERE space_id = ? AND revision = ? ${returning}`,
                [document, now, spaceId, baseRevision],
              );
      if (row) return fromRow(row);
      const stored = await get(spaceId);
      throw new StorageError(
        'conflict',
        `the document of space ${spaceId} is at revision ${stored?.revision ?? 0}, not ${baseRevision}`,
      );
    },
  };
}
