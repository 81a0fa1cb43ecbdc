// The rollup's reads stay off the history: a minute of attempts is one range of job_attempts_started,
// the backlog is read from the partial indexes of waiting jobs. A plan that scanned job_attempts or jobs
// would cost the main thread O(history) every minute (docs/operations.md "Charts").
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { migrate } from '../migrate.js';
import type { Sql } from '../sql.js';
import { openSqlite } from '../sqlite.js';
import { attemptsStatement, BACKLOG_STATEMENT } from './delivery-stats.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function plan(sql: Sql, statement: string): Promise<string[]> {
  const count = statement.split('?').length - 1;
  const rows = await sql.all(`EXPLAIN QUERY PLAN ${statement}`, Array(count).fill(1));
  return rows.map((row) => String(row.detail));
}

it('SQLite reads a page of attempts through job_attempts_started and each job by its key, the backlog through the waiting-job indexes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-stats-plans-'));
  const sql = openSqlite(join(dir, 'p.db'));
  cleanups.push(async () => {
    await sql.close();
    await rm(dir, { recursive: true, force: true });
  });
  await migrate(sql);
  for (const cursor of [false, true]) {
    const details = await plan(sql, attemptsStatement(cursor));
    expect(
      details.some((d) =>
        /SEARCH a USING INDEX job_attempts_started \(started_at>\? AND started_at<\?\)/.test(d),
      ),
      details.join('\n'),
    ).toBe(true);
    expect(
      details.some((d) => /SEARCH j USING INDEX sqlite_autoindex_jobs_1 \(id=\?\)/.test(d)),
      details.join('\n'),
    ).toBe(true);
    expect(details.filter((d) => /^SCAN (a|j)\b/.test(d))).toEqual([]);
  }
  const backlog = await plan(sql, BACKLOG_STATEMENT);
  const indexes = backlog.flatMap((d) => /USING (?:COVERING )?INDEX (\w+)/.exec(d)?.[1] ?? []);
  expect(indexes).toEqual(['jobs_first_due', 'jobs_retry_due', 'jobs_held']);
  expect(backlog.filter((d) => /^SCAN jobs\b/.test(d) && !/INDEX/.test(d))).toEqual([]);
});
