import { afterAll, expect, it } from 'vitest';
import { migratedSqlite } from '../contract/fixtures.js';
import type { Sql } from '../sql.js';
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
  const { sql, remove } = await migratedSqlite('platform-stats-plans-');
  cleanups.push(remove);
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
