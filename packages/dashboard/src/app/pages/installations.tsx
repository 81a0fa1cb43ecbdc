/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { api, type Installation } from '../api';
import { InlineField, StackTable } from '../controls';
import { navigate } from '../router';
import { isOperator, usePrincipal } from '../session';
import { EmptyState, ErrorNotice, Link, StatusBadge, Time, useLoad } from '../ui';
import { ownerOfInstallation, placeOfInstallation } from './installation';

/** Every installation, and the spaces they are in (each with a link to its editor). */
export function InstallationsPage() {
  const who = usePrincipal();
  const operator = isOperator(who);
  const data = useLoad(async () => {
    const [{ installations }, { integrations }] = await Promise.all([
      api('GET /v1/installations'),
      api('GET /v1/integrations'),
    ]);
    return { installations, titles: new Map(integrations.map((i) => [i.name, i.title])) };
  }, []);
  const [space, setSpace] = useState('');
  const spaces = [
    ...new Set((data.data?.installations ?? []).flatMap((i) => (i.space ? [i.space] : []))),
  ].sort();
  return (
    <main id="main" class="page">
      <h1>Installations</h1>
      {operator ? null : (
        <p class="lead">The installations organization {who.organization?.id ?? ''} owns.</p>
      )}
      <ErrorNotice message={data.error} onRetry={() => void data.reload()} />
      {data.loading && !data.data ? <p class="muted">Loading installations…</p> : null}
      {data.data?.installations.length === 0 ? (
        <EmptyState title="Nothing is installed yet.">
          Go to <Link href="/integrations">Integrations</Link> and install one into a space, a site or the
          organization.
        </EmptyState>
      ) : null}
      {data.data?.installations.length ? (
        <InstallationsTable
          installations={data.data.installations}
          titleOf={(name) => data.data?.titles.get(name) ?? name}
          withOwner={operator}
        />
      ) : null}
      {operator ? (
        <section class="card" aria-labelledby="spaces-title">
          <h2 id="spaces-title">Space editor</h2>
          <p class="muted">Open a space's document surface and insert blocks with the quick insert menu.</p>
          {spaces.length ? (
            <ul class="plain inline-list">
              {spaces.map((s) => (
                <li key={s}>
                  <Link href={`/spaces/${encodeURIComponent(s)}`} class="btn btn-secondary">
                    Open space {s}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          <form
            class="install-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (space.trim()) navigate(`/spaces/${encodeURIComponent(space.trim())}`);
            }}
          >
            <InlineField
              id="open-space"
              label="Space id"
              value={space}
              placeholder="e.g. docs"
              onValue={setSpace}
            />
            <button type="submit" class="btn btn-secondary" disabled={!space.trim()}>
              Open editor
            </button>
          </form>
        </section>
      ) : null}
    </main>
  );
}

/**
 * A table of installations: each linked to its page (by `titleOf` its integration's name), where it is
 * installed (and, `withOwner`, who owns it), its status and when it last changed.
 *
 * @example
 * <InstallationsTable installations={list} label="Installations of the organization" withOwner={false} />
 */
export function InstallationsTable({
  installations,
  titleOf = (name) => name,
  withOwner,
  label,
}: {
  installations: Installation[];
  titleOf?: (integration: string) => string;
  withOwner: boolean;
  label?: string;
}) {
  return (
    <StackTable
      label={label}
      columns={['Integration', 'Installed in', 'Status', 'Updated']}
      rows={installations}
      keyOf={(i) => i.id}
      cells={(i) => [
        <>
          <Link href={`/installations/${encodeURIComponent(i.id)}`}>{titleOf(i.integration)}</Link>
          <div class="meta">
            <code>{i.id}</code>
          </div>
        </>,
        <>
          {placeOfInstallation(i)}
          {withOwner ? <div class="meta">{ownerOfInstallation(i)}</div> : null}
        </>,
        <StatusBadge status={i.status} />,
        <Time iso={i.updatedAt} />,
      ]}
    />
  );
}
