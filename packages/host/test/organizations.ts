import { join } from 'node:path';
import { expect } from 'vitest';
import type { Scope } from '../src/access/principal.js';
import { openPostgres } from '../src/storage/postgres.js';
import type { Sql } from '../src/storage/sql.js';
import { openSqlite } from '../src/storage/sqlite.js';
import type { TestHost } from './helpers.js';

/** What the end-to-end suites of organizations share: tokens, tiny integrations, the host's database. */

/** A bundle that answers every invocation with `{}`. */
export const TINY_BUNDLE = 'export default { fetch: () => new Response("{}") }';

/**
 * A one-file manifest: `organization` only when given (an organization token publishes as itself), a
 * `channel` setting for space and organization installations.
 *
 * @example
 * tinyManifest('hello', 'public'); // 'name: hello\n...visibility: public\n...'
 */
export function tinyManifest(name: string, visibility: string, organization?: string): string {
  return [
    `name: ${name}`,
    `title: ${name}`,
    'description: test integration',
    ...(organization ? [`organization: ${organization}`] : []),
    `visibility: ${visibility}`,
    'scopes:',
    '  - space:content:read',
    'configurations:',
    '  account:',
    '    properties:',
    '      channel:',
    '        type: string',
    '        title: Channel',
    '        description: where to post',
    '',
  ].join('\n');
}

/**
 * Creates an organization token (operator) and answers it with its id.
 *
 * @example
 * const { token } = await createToken(t, 'org-a', 'ci', ['deliveries:read']);
 */
export async function createToken(
  t: TestHost,
  organization: string,
  name: string,
  scopes: readonly Scope[],
): Promise<{ token: string; id: string }> {
  const res = await t.api<{ token: string; id: string }>('POST', `/v1/organizations/${organization}/tokens`, {
    name,
    scopes,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/**
 * The SQL adapter on a running test host's own database (its SQLite file, or its PostgreSQL database):
 * for what no API does, such as moving a token's expiry into the past. Close it after use.
 *
 * @example
 * const sql = await hostSql(t);
 * await sql.run('UPDATE organization_tokens SET expires_at = ? WHERE id = ?', [Date.now() - 1000, id]);
 * await sql.close();
 */
export async function hostSql(t: TestHost): Promise<Sql> {
  const { databaseUrl, dataDir } = t.host.context.config;
  return databaseUrl ? openPostgres(databaseUrl, { max: 1 }) : openSqlite(join(dataDir, 'platform.db'));
}

/**
 * Publishes an integration with a token (the operator's unless given) and expects 201.
 *
 * @example
 * await publishTiny(t, tinyManifest('hello', 'private'), tokenOfA);
 */
export async function publishTiny(t: TestHost, manifest: string, token?: string): Promise<void> {
  const res = await t.api('POST', '/v1/integrations', { manifest, bundle: TINY_BUNDLE }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
