import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCESS } from './rules.js';
import { renderAccessTable, withAccessTable } from './table.js';

const SECURITY_MD = join(__dirname, '../../../../docs/security.md');

describe('the access table of docs/security.md', () => {
  it('is the one ACCESS renders (run `npm run gen:access` after changing access/rules.ts)', () => {
    const committed = readFileSync(SECURITY_MD, 'utf8');
    expect(withAccessTable(committed)).toBe(committed);
  });

  it('has a row per route, saying what an organization token needs', () => {
    const table = renderAccessTable();
    for (const key of Object.keys(ACCESS)) expect(table).toContain(`| \`${key}\` |`);
    expect(table).toContain(
      "| `GET /v1/installations/{id}/deliveries` | yes | `deliveries:read`, own installations | — | the session's |",
    );
    expect(table).toContain('| `POST /v1/events` | yes | — | — | — |');
  });
});
