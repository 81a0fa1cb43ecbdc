/** @jsxImportSource preact */
import { api } from '../api';
import { isOperator, usePrincipal } from '../session';
import { CodeList, EmptyState, ErrorNotice, Link, useLoad, When } from '../ui';
import { InstallationsTable } from './installations';
import { TokensSection } from './tokens';

function Resources({ organization }: { organization: string }) {
  const who = usePrincipal();
  const resources = useLoad(
    () => api('GET /v1/organizations/{organization}/resources', { params: { organization } }),
    [organization],
  );
  const r = resources.data;
  const operator = isOperator(who);
  return (
    <section class="card" aria-labelledby="resources-title">
      <h2 id="resources-title">Spaces and sites</h2>
      <p class="muted">
        What the platform records as this organization's (<code>PUT /v1/spaces/{'{id}'}/owner</code>, operator
        token). It installs only there, and their events reach only its installations and the operator's.
      </p>
      <ErrorNotice message={resources.error} onRetry={() => void resources.reload()} />
      {r && r.spaces.length === 0 && r.sites.length === 0 ? (
        <EmptyState title="No space or site is recorded as this organization's." />
      ) : null}
      {r && (r.spaces.length > 0 || r.sites.length > 0) ? (
        <dl class="facts" data-testid="resources">
          <dt>Spaces</dt>
          <dd>
            {r.spaces.length ? (
              <CodeList
                class="inline-list"
                items={r.spaces}
                href={operator ? (s) => `/spaces/${encodeURIComponent(s)}` : undefined}
              />
            ) : (
              <span class="muted">none</span>
            )}
          </dd>
          <dt>Sites</dt>
          <dd>
            {r.sites.length ? (
              <CodeList class="inline-list" items={r.sites} />
            ) : (
              <span class="muted">none</span>
            )}
          </dd>
        </dl>
      ) : null}
    </section>
  );
}

function Installations({ organization }: { organization: string }) {
  const data = useLoad(async () => {
    const { installations } = await api('GET /v1/installations');
    return installations.filter((i) => i.owner === organization);
  }, [organization]);
  return (
    <section class="card" aria-labelledby="org-installations-title">
      <h2 id="org-installations-title">Installations</h2>
      <ErrorNotice message={data.error} onRetry={() => void data.reload()} />
      {data.data?.length === 0 ? <EmptyState title="This organization owns no installation." /> : null}
      {data.data?.length ? (
        <InstallationsTable
          installations={data.data}
          label="Installations of the organization"
          withOwner={false}
        />
      ) : null}
    </section>
  );
}

/**
 * One organization: its tokens, the spaces and sites it owns, and its installations. The operator sees
 * every organization's; an organization token with `tokens:manage`, its own.
 */
export function OrganizationPage({ id }: { id: string }) {
  const who = usePrincipal();
  const org = useLoad(
    () => api('GET /v1/organizations/{organization}', { params: { organization: id } }),
    [id],
  );
  const o = org.data;
  return (
    <main id="main" class="page">
      {isOperator(who) ? (
        <p>
          <Link href="/organizations">← Organizations</Link>
        </p>
      ) : null}
      <ErrorNotice message={org.error} onRetry={() => void org.reload()} />
      {org.loading && !o ? <p class="muted">Loading the organization…</p> : null}
      {o ? (
        <>
          <header class="page-head">
            <div>
              <h1>{o.name}</h1>
              <p class="muted">
                Organization <code>{o.id}</code> · created <When iso={o.createdAt} />
              </p>
            </div>
          </header>
          <TokensSection organization={o.id} />
          <Resources organization={o.id} />
          <Installations organization={o.id} />
        </>
      ) : null}
    </main>
  );
}
