// The queue's hot statements (claim, nextDueAt, the statistics, pruning) must each read one range of one
// partial index in order, cut at the claim's limit, on both dialects and whatever the planner knows about
// the table: a plan that scans or sorts every queued row makes each claim cost O(backlog), which is what
// kept PostgreSQL far behind SQLite under a burst (storage/README.md, "The queue's indexes").
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../contract/fixtures.js';
import type { Sql, SqlValue } from '../sql.js';
import {
  claimStatement,
  claimValues,
  nextDueStatement,
  nextDueValues,
  QUEUE_STATS,
  queueRepo,
} from './queue.js';

const LANE_INDEXES = ['jobs_first_due', 'jobs_retry_due', 'jobs_leases'];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function openDialect(dialect: Sql['dialect']): Promise<Sql> {
  const { sql, remove } = await migratedDatabase(dialect, 'queue_plans');
  cleanups.push(remove);
  return sql;
}

/**
 * A queue as a burst leaves it: 3 000 first attempts waiting, 1 000 finished (dead rows at the head of
 * the index on PostgreSQL), 64 running, 50 retries, a few invocations. No ANALYZE unless asked.
 */
async function fill(sql: Sql): Promise<void> {
  const queue = queueRepo(sql);
  const inputs = Array.from({ length: 4_000 }, (_, i) => ({
    kind: 'deliver' as const,
    installationId: `inst_${i % 7}`,
    payload: { n: i },
    runAt: 1_000 + i,
  }));
  await queue.enqueue(inputs, 1_000);
  await queue.enqueue([{ kind: 'invoke', installationId: 'inst_0', payload: {} }], 1_000);
  const finished = await queue.claim({ kinds: ['deliver'], limit: 1_000, leaseMs: 60_000, now: 10_000 });
  await sql.run(`UPDATE jobs SET state = 'succeeded', finished_at = 10000 WHERE lease_token = ?`, [
    finished[0]?.leaseToken ?? '',
  ]);
  const running = await queue.claim({ kinds: ['deliver'], limit: 114, leaseMs: 60_000, now: 10_000 });
  const retried = running.slice(64).map((job) => job.id);
  await sql.run(
    `UPDATE jobs SET state = 'queued', attempt = 1, run_at = 20000, lease_until = NULL, lease_token = NULL
     WHERE id IN (${retried.map(() => '?').join(', ')})`,
    retried,
  );
}

/** SQLite: the indexes EXPLAIN QUERY PLAN names, and every full scan of `jobs`. */
async function sqlitePlan(sql: Sql, statement: string): Promise<{ indexes: string[]; fullScans: string[] }> {
  const count = statement.split('?').length - 1;
  const rows = await sql.all(`EXPLAIN QUERY PLAN ${statement}`, Array(count).fill(1));
  const details = rows.map((row) => String(row.detail));
  return {
    indexes: details.flatMap((d) => /USING (?:COVERING )?INDEX (\w+)/.exec(d)?.[1] ?? []),
    fullScans: details.filter((d) => /^SCAN jobs\b/.test(d) && !/USING (COVERING )?INDEX/.test(d)),
  };
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PgNode[];
}

/** PostgreSQL: the generic plan of a prepared statement (what a pooled named statement runs after 5 uses). */
async function pgPlan(sql: Sql, statement: string, values: readonly SqlValue[]): Promise<PgNode> {
  return sql.transaction(async (tx) => {
    await tx.exec('SET LOCAL plan_cache_mode = force_generic_plan');
    let n = 0;
    await tx.exec(`PREPARE plan_probe AS ${statement.replace(/\?/g, () => `$${++n}`)}`);
    const args = values.map((v) => (typeof v === 'number' ? String(v) : `'${v}'`)).join(', ');
    try {
      const [row] = await tx.all(`EXPLAIN (FORMAT JSON) EXECUTE plan_probe(${args})`);
      const plan = row?.['QUERY PLAN'];
      const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PgNode }[];
      return (parsed[0] as { Plan: PgNode }).Plan;
    } finally {
      await tx.exec('DEALLOCATE plan_probe');
    }
  });
}

function walk(
  node: PgNode,
  visit: (node: PgNode, parent: PgNode | null) => void,
  parent: PgNode | null = null,
) {
  visit(node, parent);
  for (const child of node.Plans ?? []) walk(child, visit, node);
}

/** Every read of `jobs` in a PostgreSQL plan: node type and index, and what reads it (LockRows, Limit...). */
function pgReads(plan: PgNode): { type: string; index: string | null; parent: string | null }[] {
  const reads: { type: string; index: string | null; parent: string | null }[] = [];
  walk(plan, (node, parent) => {
    if (node['Relation Name'] === 'jobs' && node['Node Type'] !== 'ModifyTable')
      reads.push({
        type: node['Node Type'],
        index: node['Index Name'] ?? null,
        parent: parent?.['Node Type'] ?? null,
      });
  });
  return reads;
}

describe.each(['sqlite', 'postgres'] as const)(
  '%s: the queue reads its partial indexes in order',
  (dialect) => {
    it('claim and nextDueAt (and on SQLite statistics and pruning) use the indexes made for them, before and after ANALYZE', async () => {
      const sql = await openDialect(dialect);
      await fill(sql);
      for (const analyzed of [false, true]) {
        if (analyzed) await sql.exec('ANALYZE');
        const claim = claimStatement(dialect, 1, 0, null);
        const shared = claimStatement(dialect, 1, 1, { partial: 1 });
        const input = { leaseUntil: 90_000, token: 'token', now: 20_000, dueBy: 20_000, limit: 32 };
        const claimValue = claimValues(dialect, { ...input, kinds: ['deliver'], exclude: [], partial: [] });
        const sharedValues = claimValues(dialect, {
          ...input,
          kinds: ['deliver'],
          exclude: ['inst_2'],
          partial: ['inst_1', 4],
        });
        const nextDue = nextDueStatement(dialect, 0);
        const prune = `SELECT id FROM jobs WHERE state IN ('succeeded', 'failed', 'exhausted', 'cancelled') AND run_at < ? LIMIT ?`;
        if (dialect === 'sqlite') {
          for (const statement of [claim, shared]) {
            const { indexes, fullScans } = await sqlitePlan(sql, statement);
            expect(indexes.filter((i) => LANE_INDEXES.includes(i)).sort()).toEqual([...LANE_INDEXES].sort());
            expect(fullScans).toEqual([]);
          }
          expect((await sqlitePlan(sql, nextDue)).indexes).toEqual(LANE_INDEXES);
          const stats = await sqlitePlan(sql, QUEUE_STATS);
          expect(stats.indexes).toEqual(['jobs_first_due', 'jobs_retry_due', 'jobs_held', 'jobs_leases']);
          expect(stats.fullScans).toEqual([]);
          expect((await sqlitePlan(sql, prune)).indexes).toEqual(['jobs_finished']);
          continue;
        }
        for (const [statement, values] of [
          [claim, claimValue],
          [shared, sharedValues],
        ] as const) {
          const reads = pgReads(await pgPlan(sql, statement, values));
          const lanes = reads.filter((r) => r.index !== 'jobs_pkey');
          // One ordered index scan per lane, read directly by its LockRows (no Sort, no bitmap in between).
          expect(lanes.map((r) => r.index).sort(), `analyzed: ${analyzed}`).toEqual([...LANE_INDEXES].sort());
          for (const read of lanes) {
            expect(read.type, `analyzed: ${analyzed}`).toMatch(/^Index (Only )?Scan$/);
            expect(read.parent).toBe('LockRows');
          }
        }
        const due = pgReads(await pgPlan(sql, nextDue, nextDueValues(dialect, 'deliver', [])));
        expect(due.map((r) => r.index)).toEqual(LANE_INDEXES);
        for (const read of due) {
          expect(read.type).toMatch(/^Index (Only )?Scan$/);
          expect(read.parent).toBe('Limit');
        }
        // The statistics (a /metrics scrape) and pruning (a batch a minute) are off the hot path: when much
        // of the table matches, a Seq Scan cut by LIMIT is the planner's right choice there, so only
        // SQLite's plans of those two are pinned above.
      }
      // And the statements give the right answers on this queue.
      const queue = queueRepo(sql);
      expect(await queue.nextDueAt(['deliver'])).toBe(2_114); // 1 000 finished, 114 claimed
      expect(await queue.nextDueAt(['invoke', 'deliver'])).toBe(1_000);
      const [first] = await queue.claim({ kinds: ['deliver'], limit: 1, leaseMs: 1_000, now: 30_000 });
      expect(first?.attempt).toBe(1); // due retries before first attempts
    });
  },
);

it('postgres: the queue table is vacuumed after 10 000 changed rows plus 1 % of it (migration 11), not a fifth', async () => {
  const sql = await openDialect('postgres');
  const row = await sql.get(`SELECT reloptions FROM pg_class WHERE oid = to_regclass('jobs')`);
  const options = new Map(
    ((row?.reloptions ?? []) as string[]).map((option) => option.split('=') as [string, string]),
  );
  const threshold = (rows: number) =>
    Number(options.get('autovacuum_vacuum_threshold')) +
    Number(options.get('autovacuum_vacuum_scale_factor')) * rows;
  // A history of a million jobs: vacuumed after 20 000 dead row versions (PostgreSQL's default: 200 050).
  expect(threshold(1_000_000)).toBe(20_000);
  expect(Number(options.get('autovacuum_analyze_scale_factor'))).toBe(0.02);
});
