import { StorageError } from '../errors.js';
import { homeOf } from '../queue-signals.js';
import { deleteOldest, json, num, rowMapper, str, strOrNull } from '../rows.js';
import type { Sql, SqlValue } from '../sql.js';
import type { EventRecord, JobRecord } from '../types.js';
import { COLUMNS as JOB_COLUMNS } from './job-rows.js';
import type { EnqueueInput } from './jobs-api.js';
import { enqueueValues, insertJobRecords, signalEnqueued, toJobRecords } from './queue.js';
import { epochOf, ROUTING_EPOCH } from './routing-epoch.js';

/** What `insertIfAbsent` takes; `receivedAt` defaults to now, spaceId/siteId to null. */
export interface EventInput {
  eventId: string;
  type: string;
  payload: Record<string, unknown>;
  spaceId?: string | null;
  siteId?: string | null;
  receivedAt?: number;
}

/** One event of `insertWithJobs` and the jobs it fans out to (their `eventId` is the event's). */
export interface EventWithJobs {
  event: EventInput;
  jobs: readonly EnqueueInput[];
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
  /**
   * Accepts a group of events with the jobs each fans out to, atomically: each event whose eventId is not
   * stored yet (nor earlier in `entries`) is inserted with its jobs; the others are duplicates and their
   * jobs are not stored. Returns, in order, whether each event was inserted, and the jobs stored (in
   * order, each with its event's `eventId`). On PostgreSQL this is one statement, with no transaction
   * round trips (docs/architecture.md, "Accepting events"); on SQLite one transaction. Inside a
   * transaction it is part of it.
   *
   * @example
   * With `routedAt` (the epoch of the `installations.routes` read the jobs were fanned out by), the
   * group is stored only if the routing epoch is still that one, checked in the same statement: otherwise
   * nothing is stored and the result is `{ stale: true, epoch }` with the current epoch, to route again.
   *
   * @example
   * const { epoch, routes } = await storage.installations.routes({ siteId });
   * const result = await storage.events.insertWithJobs(
   *   [{ event: { eventId: 'evt_1', type: 'site_view', payload: {} }, jobs: [{ kind: 'deliver', installationId, payload: {} }] }],
   *   Date.now(),
   *   epoch,
   * );
   * if (result.stale) {
   *   // an installation changed since the read: read the routes again
   * }
   */
  insertWithJobs(
    entries: readonly EventWithJobs[],
    now?: number,
    routedAt?: number | null,
  ): Promise<InsertWithJobsResult>;
  get(eventId: string): Promise<EventRecord | null>;
  /**
   * Deletes up to `limit` events received before `before` (oldest first); returns how many. The same
   * `eventId` posted again afterwards is accepted as a new event (idempotency lasts as long as retention).
   */
  prune(before: number, limit: number): Promise<number>;
}

/** What `insertWithJobs` did: stored (`inserted`, per entry, and the jobs), or nothing, its routing stale. */
export type InsertWithJobsResult =
  | { stale: false; inserted: boolean[]; jobs: JobRecord[] }
  | { stale: true; epoch: number };

const COLUMNS = 'event_id, type, payload, space_id, site_id, received_at';
/** Rows per multi-row INSERT of `insertManyIfAbsent` (6 bound values each). */
const INSERT_CHUNK = 100;
/**
 * At most this many bound values in `insertWithJobs`'s one statement on PostgreSQL (the protocol allows
 * 65 535); a bigger group takes the transaction path.
 */
const ONE_STATEMENT_VALUES = 30_000;
/** A job row of `insertWithJobs`'s statement, typed (a VALUES list's parameters would otherwise be text). */
const TYPED_JOB_ROW =
  '(?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::bigint, ?::bigint, ?::text, ?::bigint, ?::bigint)';
/** An event row of `insertWithJobs`'s statement, typed likewise (its VALUES list feeds a SELECT). */
const TYPED_EVENT_ROW = '(?::text, ?::text, ?::text, ?::text, ?::text, ?::bigint)';

const eventValues = (input: EventInput, now: number): SqlValue[] => [
  input.eventId,
  input.type,
  JSON.stringify(input.payload),
  input.spaceId ?? null,
  input.siteId ?? null,
  input.receivedAt ?? now,
];

/**
 * PostgreSQL: the events and their jobs in one statement. The jobs' INSERT reads the events' RETURNING
 * list, so only the jobs of events inserted now are stored; the statement is atomic by itself. With
 * `routedAt`, the events' INSERT keeps no row unless the routing epoch, read in the same snapshot, is
 * `routedAt`; the statement returns that epoch in an extra row (event_id NULL) either way.
 */
async function insertWithJobsInOneStatement(
  sql: Sql,
  events: readonly EventInput[],
  jobs: readonly JobRecord[],
  now: number,
  routedAt: number | null,
): Promise<{ storedIds: Set<string>; epoch: number | null }> {
  const jobsInsert =
    jobs.length === 0
      ? ''
      : `, stored_jobs AS (
           INSERT INTO jobs (${JOB_COLUMNS}, home)
           SELECT j.id, j.kind, j.installation_id, j.event_id, j.payload, j.state, 1, 0, j.run_at,
                  j.lease_until, j.lease_token, NULL, j.created_at, j.updated_at, NULL, CAST(? AS TEXT)
             FROM (VALUES ${jobs.map(() => TYPED_JOB_ROW).join(', ')})
                  AS j (id, kind, installation_id, event_id, payload, state, run_at, lease_until, lease_token,
                        created_at, updated_at)
            WHERE j.event_id IN (SELECT event_id FROM stored_events))`;
  const rows = await sql.all(
    `WITH stored_events AS (
       INSERT INTO events (${COLUMNS})
       SELECT * FROM (VALUES ${events.map(() => TYPED_EVENT_ROW).join(', ')}) AS e
        WHERE ${routedAt === null ? 'TRUE' : `${ROUTING_EPOCH} = ?::bigint`}
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id)${jobsInsert}
     SELECT event_id, NULL::bigint AS epoch FROM stored_events${routedAt === null ? '' : ` UNION ALL SELECT NULL::text, ${ROUTING_EPOCH}`}`,
    [
      ...events.flatMap((event) => eventValues(event, now)),
      ...(routedAt === null ? [] : [routedAt]),
      ...(jobs.length === 0 ? [] : [homeOf(sql.dialect), ...jobs.flatMap(enqueueValues)]),
    ],
  );
  const storedIds = new Set<string>();
  let epoch: number | null = null;
  for (const row of rows) {
    if (row.event_id === null) epoch = epochOf(row, 'epoch');
    else storedIds.add(str(row, 'event_id'));
  }
  return { storedIds, epoch };
}

const toRecord = rowMapper<EventRecord>({
  eventId: str,
  type: str,
  payload: json,
  spaceId: strOrNull,
  siteId: strOrNull,
  receivedAt: num,
});

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
          chunk.flatMap((input) => eventValues(input, now)),
        );
        for (const row of rows) inserted.add(str(row, 'event_id'));
      }
      // The first of several inputs with one eventId is the one stored.
      return inputs.map((input) => inserted.delete(input.eventId));
    },
    async insertWithJobs(entries, now = Date.now(), routedAt = null) {
      if (entries.length === 0) return { stale: false, inserted: [], jobs: [] };
      // The first entry of an eventId is the one that may be stored; the jobs of repeats never are.
      const firstOf = new Map<string, number>();
      for (const [index, { event }] of entries.entries())
        if (!firstOf.has(event.eventId)) firstOf.set(event.eventId, index);
      const candidates = entries.map(({ event, jobs }, index) =>
        firstOf.get(event.eventId) === index
          ? toJobRecords(
              jobs.map((job) => ({ ...job, eventId: event.eventId })),
              now,
            )
          : [],
      );
      const all = candidates.flat();
      const events = entries.map(({ event }) => event);
      let written: { storedIds: Set<string>; epoch: number | null };
      if (sql.dialect === 'postgres' && events.length * 6 + all.length * 11 + 1 <= ONE_STATEMENT_VALUES) {
        written = await insertWithJobsInOneStatement(sql, events, all, now, routedAt);
      } else {
        written = await sql.transaction(async (tx) => {
          // Read in the write's transaction: on SQLite the writer lock keeps it current until COMMIT; on
          // PostgreSQL a change committed after this read is concurrent with the group, as in one statement.
          const epoch =
            routedAt === null ? null : epochOf(await tx.get(`SELECT ${ROUTING_EPOCH} AS epoch`), 'epoch');
          if (epoch !== routedAt) return { storedIds: new Set<string>(), epoch };
          const inserted = await eventsRepo(tx).insertManyIfAbsent(
            events.map((event) => ({ ...event, receivedAt: event.receivedAt ?? now })),
          );
          const ids = new Set(events.filter((_event, i) => inserted[i]).map((event) => event.eventId));
          const rows = all.filter((job) => job.eventId !== null && ids.has(job.eventId));
          await insertJobRecords(tx, rows);
          return { storedIds: ids, epoch };
        });
      }
      // With routedAt, both paths read the epoch (epochOf throws if its row is gone): never null here.
      if (routedAt !== null && written.epoch !== routedAt) return { stale: true, epoch: written.epoch! };
      const { storedIds } = written;
      const inserted = entries.map(
        ({ event }, index) => firstOf.get(event.eventId) === index && storedIds.has(event.eventId),
      );
      const jobs = candidates.filter((_jobs, index) => inserted[index]).flat();
      await signalEnqueued(sql, jobs);
      return { stale: false, inserted, jobs };
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
