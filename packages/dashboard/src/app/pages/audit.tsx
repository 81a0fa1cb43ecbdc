/** @jsxImportSource preact */
import { useEffect, useState } from 'preact/hooks';
import { type AuditEntry, api, describeError } from '../api';
import { TableHead } from '../controls';
import { isOperator, usePrincipal } from '../session';
import { EmptyState, ErrorNotice, useLoad, When } from '../ui';

/** Entries asked for per page. */
const PAGE_SIZE = 50;

/** Actions the host records today (the `audit(…)` calls of its services and routes), offered as suggestions. */
const KNOWN_ACTIONS = [
  'organization.create',
  'space.owner',
  'site.owner',
  'token.create',
  'token.revoke',
  'integration.publish',
  'integration.visibility',
  'integration.delete',
  'integration.install_link_rotate',
  'installation.create',
  'installation.configure',
  'installation.pause',
  'installation.resume',
  'installation.delete',
  'portal_session.create',
  'portal_session.revoke',
];

/**
 * Who did it, in words.
 * @example actorInWords({ kind: 'organization', organization: 'acme', tokenName: 'ci' }); // 'organization acme · token ci'
 */
export function actorInWords(actor: AuditEntry['actor']): string {
  if (actor.kind === 'operator') return 'operator';
  const parts = [actor.organization ? `${actor.kind} ${actor.organization}` : actor.kind];
  if (actor.tokenName) parts.push(actor.kind === 'portal' ? actor.tokenName : `token ${actor.tokenName}`);
  else if (actor.tokenId) parts.push(actor.tokenId);
  return parts.join(' · ');
}

/**
 * What changed, as compact JSON (empty when nothing is recorded).
 * @example changesInWords({ scopes: ['audit:read'] }); // '{"scopes":["audit:read"]}'
 */
export function changesInWords(changes: Record<string, unknown>): string {
  return Object.keys(changes).length ? JSON.stringify(changes) : '';
}

interface Filters {
  organization: string;
  action: string;
}

/**
 * The audit log, newest first: who did what to which resource. The operator reads everything (and may
 * keep one organization's); an organization token with `audit:read` reads what concerns its organization.
 * Filter by action; "Load more" follows `nextCursor`.
 */
export function AuditPage() {
  const who = usePrincipal();
  const operator = isOperator(who);
  const organizations = useLoad(
    async () => (operator ? (await api('GET /v1/organizations')).organizations : []),
    [operator],
  );
  const [draft, setDraft] = useState<Filters>({ organization: '', action: '' });
  const [filters, setFilters] = useState<Filters>({ organization: '', action: '' });
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  const fetchPage = (after: string | null) =>
    api('GET /v1/audit', {
      query: {
        limit: PAGE_SIZE,
        ...(after ? { cursor: after } : {}),
        ...(filters.action ? { action: filters.action } : {}),
        ...(operator && filters.organization ? { organization: filters.organization } : {}),
      },
    });

  useEffect(() => {
    let stale = false;
    setLoading(true);
    fetchPage(null).then(
      (page) => {
        if (stale) return;
        setEntries(page.entries);
        setCursor(page.nextCursor);
        setError(null);
        setLoading(false);
      },
      (e: unknown) => {
        if (stale) return;
        setError(describeError(e));
        setLoading(false);
      },
    );
    return () => {
      stale = true;
    };
  }, [filters.organization, filters.action, attempt]);

  const loadMore = async () => {
    if (!cursor) return;
    setLoading(true);
    try {
      const page = await fetchPage(cursor);
      setEntries((current) => [...current, ...page.entries]);
      setCursor(page.nextCursor);
      setError(null);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <main id="main" class="page">
      <h1>Audit log</h1>
      <p class="lead">
        {operator
          ? 'Every change made through the host API, newest first: who did what to which resource.'
          : `What concerns organization ${who.organization?.id ?? ''}, newest first: who did what to which resource.`}
      </p>
      <form
        class="filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ organization: draft.organization, action: draft.action.trim() });
        }}
      >
        {operator ? (
          <div class="field-inline">
            <label for="audit-organization">Organization</label>
            <select
              id="audit-organization"
              value={draft.organization}
              onChange={(e) => {
                const organization = (e.currentTarget as HTMLSelectElement).value;
                setDraft((d) => ({ ...d, organization }));
                setFilters((f) => ({ ...f, organization }));
              }}
            >
              <option value="">All</option>
              {(organizations.data ?? []).map((o) => (
                <option key={o.id} value={o.id}>
                  {o.id}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div class="field-inline">
          <label for="audit-action">Action</label>
          <input
            id="audit-action"
            list="audit-actions"
            value={draft.action}
            placeholder="e.g. token.create"
            onInput={(e) => {
              const action = (e.currentTarget as HTMLInputElement).value;
              setDraft((d) => ({ ...d, action }));
            }}
          />
          <datalist id="audit-actions">
            {KNOWN_ACTIONS.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </div>
        <button type="submit" class="btn btn-secondary">
          Filter
        </button>
        {filters.action || filters.organization ? (
          <button
            type="button"
            class="btn btn-link"
            onClick={() => {
              setDraft({ organization: '', action: '' });
              setFilters({ organization: '', action: '' });
            }}
          >
            Clear filters
          </button>
        ) : null}
      </form>
      <ErrorNotice message={error} onRetry={() => setAttempt((n) => n + 1)} />
      {!loading && !error && entries.length === 0 ? (
        <EmptyState
          title={filters.action || filters.organization ? 'No entry matches.' : 'Nothing recorded yet.'}
        />
      ) : null}
      {entries.length ? (
        <table class="table stack audit" aria-label="Audit entries">
          <TableHead columns={['Time', 'Who', 'Action', 'Resource', 'What changed']} />
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td data-label="Time">
                  <When iso={e.at} />
                </td>
                <td data-label="Who">{actorInWords(e.actor)}</td>
                <td data-label="Action">
                  <code>{e.action}</code>
                </td>
                <td data-label="Resource">
                  {e.resource.type} <code>{e.resource.id}</code>
                  {e.organization && e.organization !== e.actor.organization ? (
                    <div class="meta">of {e.organization}</div>
                  ) : null}
                </td>
                <td data-label="What changed">
                  <code class="changes">{changesInWords(e.changes)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {loading ? <p class="muted">Loading…</p> : null}
      {cursor && !loading ? (
        <button type="button" class="btn btn-secondary load-more" onClick={() => void loadMore()}>
          Load more
        </button>
      ) : null}
    </main>
  );
}
