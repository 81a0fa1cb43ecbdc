/** @jsxImportSource preact */
import { api } from '../api';
import { isOperator, usePrincipal } from '../session';
import { EmptyState, ErrorNotice, Link, StatusBadge, Time, useLoad, When } from '../ui';
import { placeOfInstallation } from './installation';
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
              <ul class="plain inline-list">
                {r.spaces.map((s) => (
                  <li key={s}>
                    {operator ? (
                      <Link href={`/spaces/${encodeURIComponent(s)}`}>
                        <code>{s}</code>
                      </Link>
                    ) : (
                      <code>{s}</code>
                    )}
                  </li>
                ))}
              </ul>
            ) : (
              <span class="muted">none</span>
            )}
          </dd>
          <dt>Sites</dt>
          <dd>
            {r.sites.length ? (
              <ul class="plain inline-list">
                {r.sites.map((s) => (
                  <li key={s}>
                    <code>{s}</code>
                  </li>
                ))}
              </ul>
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
        <table class="table stack" aria-label="Installations of the organization">
          <thead>
            <tr>
              <th scope="col">Integration</th>
              <th scope="col">Installed in</th>
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((i) => (
              <tr key={i.id}>
                <td data-label="Integration">
                  <Link href={`/installations/${encodeURIComponent(i.id)}`}>{i.integration}</Link>
                  <div class="meta">
                    <code>{i.id}</code>
                  </div>
                </td>
                <td data-label="Installed in">{placeOfInstallation(i)}</td>
                <td data-label="Status">
                  <StatusBadge status={i.status} />
                </td>
                <td data-label="Updated">
                  <Time iso={i.updatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
