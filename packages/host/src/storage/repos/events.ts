import { StorageError } from '../errors.js';
import { deleteOldest, json, num, str, strOrNull } from '../rows.js';
import type { Row, Sql } from '../sql.js';
import type { EventRecord } from '../types.js';

/** What `insertIfAbsent` takes; `receivedAt` defaults to now, spaceId/siteId to null. */
export interface EventInput {
  eventId: string;
  type: string;
  payload: Record<string, unknown>;
  spaceId?: string | null;
  siteId?: string | null;
  receivedAt?: number;
}

/**
 * Accepted events, idempotent on `eventId`.
 *
 * @example
 * await storage.transaction(async (tx) => {
 *   const { inserted } = await tx.events.insertIfAbsent({ eventId, type, payload, spaceId });
 *   if (inserted) await tx.jobs.enqueue(jobs);
 * });
 */
export interface EventsRepo {
  /** Inserts the event unless one with its eventId exists; returns the stored event either way. */
  insertIfAbsent(event: EventInput): Promise<{ inserted: boolean; event: EventRecord }>;
  /**
   * Inserts each event whose eventId is not stored yet (nor earlier in `events`), in one statement per 100
   * events; returns, in order, whether each was inserted. For a group of events accepted together.
   */
  insertManyIfAbsent(events: readonly EventInput[]): Promise<boolean[]>;
  get(eventId: string): Promise<EventRecord | null>;
  /**
   * Deletes up to `limit` events received before `before` (oldest first); returns how many. The same
   * `eventId` posted again afterwards is accepted as a new event (idempotency lasts as long as retention).
   */
  prune(before: number, limit: number): Promise<number>;
}

const COLUMNS = 'event_id, type, payload, space_id, site_id, received_at';
/** Rows per multi-row INSERT of `insertManyIfAbsent` (6 bound values each). */
const INSERT_CHUNK = 100;

function toRecord(row: Row): EventRecord {
  return {
    eventId: str(row, 'event_id'),
    type: str(row, 'type'),
    payload: json(row, 'payload'),
    spaceId: strOrNull(row, 'space_id'),
    siteId: strOrNull(row, 'site_id'),
    receivedAt: num(row, 'received_at'),
  };
}

/** Builds the events repository on an adapter (or transaction handle). */
export function eventsRepo(sql: Sql): EventsRepo {
  const get = async (eventId: string) => {
    const row = await sql.get(`SELECT ${COLUMNS} FROM events WHERE event_id = ?`, [eventId]);
    return row ? toRecord(row) : null;
  };
  return {
    async insertManyIfAbsent(inputs) {
      const inserted = new Set<string>();
      const now = Date.now();
      for (let i = 0; i < inputs.length; i += INSERT_CHUNK) {
        const chunk = inputs.slice(i, i + INSERT_CHUNK);
        const rows = await sql.all(
          `INSERT INTO events (${COLUMNS}) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}
           ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
          chunk.flatMap((input) => [
            input.eventId,
            input.type,
            JSON.stringify(input.payload),
            input.spaceId ?? null,
            input.siteId ?? null,
            input.receivedAt ?? now,
          ]),
        );
        for (const row of rows) inserted.add(str(row, 'event_id'));
      }
      // The first of several inputs with one eventId is the one stored.
      return inputs.map((input) => inserted.delete(input.eventId));
    },
    async insertIfAbsent(input) {
      const payload = JSON.stringify(input.payload);
      const record: EventRecord = {
        eventId: input.eventId,
        type: input.type,
        payload: JSON.parse(payload) as Record<string, unknown>, // as it reads back: a JSON copy
        spaceId: input.spaceId ?? null,
        siteId: input.siteId ?? null,
        receivedAt: input.receivedAt ?? Date.now(),
      };
      const { changes } = await sql.run(
        `INSERT INTO events (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
        [record.eventId, record.type, payload, record.spaceId, record.siteId, record.receivedAt],
      );
      // Inserted: the row is what we just wrote, no need to read it back.
      if (changes > 0) return { inserted: true, event: record };
      const event = await get(input.eventId);
      if (!event) throw new StorageError('internal', `event ${input.eventId} vanished right after insert`);
      return { inserted: false, event };
    },
    get,
    prune: (before, limit) =>
      deleteOldest(sql, { table: 'events', key: 'event_id', column: 'received_at' }, before, limit),
  };
}
