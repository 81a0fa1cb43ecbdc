import { SCOPES } from './principal.js';
import { ACCESS, type AccessRule, type Ownership } from './rules.js';

/** Where docs/security.md holds the generated table, between these two lines. */
export const ACCESS_TABLE_MARKERS = {
  start: '<!-- access-table:start (generated from packages/host/src/access/rules.ts: npm run gen:access) -->',
  end: '<!-- access-table:end -->',
} as const;

const OWNS: Record<Ownership, string> = {
  installation: 'own installations',
  integration: 'own integrations',
  'visible-integration': 'own or public',
  organization: 'own organization',
  'portal-session': 'own sessions',
  'query-installation': 'own installations (`installation` query required)',
  listed: 'answers what it may see',
};

function organizationCell(rule: AccessRule): string {
  if (!rule.organization) return '—';
  const scope = rule.organization.scope ? `\`${rule.organization.scope}\`` : 'any token';
  return `${scope}, ${OWNS[rule.organization.owns]}`;
}

function installationCell(rule: AccessRule): string {
  if (rule.installation === 'own') return 'its own';
  if (rule.installation === 'any') return 'yes';
  if (rule.installation === 'integration') return "its integration's";
  if (rule.installation === 'route') return 'by scope and place (docs/documents.md)';
  return '—';
}

function portalCell(rule: AccessRule): string {
  if (rule.portal === 'own') return "the session's";
  if (rule.portal === 'any') return "the session's";
  return '—';
}

/**
 * The markdown table of who may call each route (docs/security.md, "Who may do what"), rendered from
 * {@link ACCESS}, and the list of scopes; a test keeps the committed copy current.
 *
 * @example
 * renderAccessTable().startsWith('| route |'); // true
 */
export function renderAccessTable(): string {
  const rows = Object.entries(ACCESS).map(([key, rule]: [string, AccessRule]) => {
    const operator = rule.public ? 'anyone, no token' : 'yes';
    return `| \`${key}\` | ${operator} | ${organizationCell(rule)} | ${installationCell(rule)} | ${portalCell(rule)} |`;
  });
  const scopes = Object.entries(SCOPES).map(([scope, what]) => `| \`${scope}\` | ${what} |`);
  return [
    '| route | operator | organization token (scope, what it must own) | installation token | portal session |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'Scopes of organization tokens:',
    '',
    '| scope | allows |',
    '|---|---|',
    ...scopes,
  ].join('\n');
}

/**
 * `document` with the text between the markers replaced by {@link renderAccessTable}; throws when a
 * marker is missing.
 *
 * @example
 * const next = withAccessTable(readFileSync('docs/security.md', 'utf8'));
 */
export function withAccessTable(document: string): string {
  const start = document.indexOf(ACCESS_TABLE_MARKERS.start);
  const end = document.indexOf(ACCESS_TABLE_MARKERS.end);
  if (start < 0 || end < start) throw new Error('docs/security.md lacks the access-table markers');
  return `${document.slice(0, start + ACCESS_TABLE_MARKERS.start.length)}\n${renderAccessTable()}\n${document.slice(end)}`;
}
