/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { api, type Integration } from '../api';
import { useAction } from '../controls';
import { markdownToSafeHtml } from '../markdown';
import { navigate } from '../router';
import { scopeInWords, visibilityInWords } from '../scopes';
import { EmptyState, ErrorNotice, useLoad } from '../ui';

type Where = 'space' | 'site' | 'organization';

/**
 * An asset of the host, from the origin this dashboard is served from: the host names assets by its
 * public URL, which may not be the address the operator browses (and the CSP allows only 'self').
 */
const sameOrigin = (url: string) => {
  const parsed = new URL(url, window.location.href);
  return `${parsed.pathname}${parsed.search}`;
};

function Icon({ integration }: { integration: Integration }) {
  if (integration.iconUrl) {
    return <img class="icon" src={sameOrigin(integration.iconUrl)} alt="" width={48} height={48} />;
  }
  return (
    <span class="icon icon-monogram" aria-hidden="true">
      {(integration.title.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}

function InstallForm({ integration }: { integration: Integration }) {
  const [where, setWhere] = useState<Where>('space');
  const [target, setTarget] = useState('');
  const { busy, error, setError, run } = useAction();
  const base = `install-${integration.name}`;
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!target.trim()) {
      setError(`Enter the id of the ${where} to install into.`);
      return;
    }
    await run(async () => {
      const installation = await api('POST /v1/installations', {
        body: { integration: integration.name, [where]: target.trim(), configuration: {} },
      });
      navigate(`/installations/${encodeURIComponent(installation.id)}`);
    });
  };
  return (
    <form class="install-form" onSubmit={(e) => void submit(e)} aria-label={`Install ${integration.title}`}>
      <div class="field-inline">
        <label for={`${base}-where`}>Install into</label>
        <select
          id={`${base}-where`}
          value={where}
          onChange={(e) => setWhere((e.currentTarget as HTMLSelectElement).value as Where)}
        >
          <option value="space">a space</option>
          <option value="site">a site</option>
          <option value="organization">the organization</option>
        </select>
      </div>
      <div class="field-inline">
        <label for={`${base}-target`}>
          {where === 'organization' ? 'Organization id' : `${where === 'space' ? 'Space' : 'Site'} id`}
        </label>
        <input
          id={`${base}-target`}
          value={target}
          placeholder={where === 'space' ? 'e.g. docs' : where === 'site' ? 'e.g. help-center' : 'e.g. acme'}
          onInput={(e) => setTarget((e.currentTarget as HTMLInputElement).value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${base}-error` : undefined}
        />
      </div>
      <button type="submit" class="btn btn-primary" disabled={busy}>
        {busy ? 'Installing…' : 'Install'}
      </button>
      {error ? (
        <p id={`${base}-error`} class="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function IntegrationCard({ integration }: { integration: Integration }) {
  const m = integration.manifest;
  const summary = typeof m.summary === 'string' ? m.summary : '';
  const links = Array.isArray(m.externalLinks)
    ? (m.externalLinks as Array<{ label?: string; url?: string }>)
    : [];
  const previews = integration.previewImageUrls ?? [];
  return (
    <article class="card integration" aria-labelledby={`title-${integration.name}`}>
      <header class="integration-head">
        <Icon integration={integration} />
        <div>
          <h2 id={`title-${integration.name}`}>{integration.title}</h2>
          <p class="muted">{integration.description}</p>
          <p class="meta">
            <code>{integration.name}</code> · version {integration.version}
            {integration.firstParty ? ' · built in' : ''}
          </p>
        </div>
      </header>
      {summary ? (
        <div class="markdown" dangerouslySetInnerHTML={{ __html: markdownToSafeHtml(summary) }} />
      ) : null}
      <dl class="facts">
        <dt>Visibility</dt>
        <dd>{visibilityInWords(integration.visibility)}</dd>
        <dt>Permissions</dt>
        <dd>
          {integration.scopes.length ? (
            <ul class="plain">
              {integration.scopes.map((s) => (
                <li key={s} title={s}>
                  {scopeInWords(s)}
                </li>
              ))}
            </ul>
          ) : (
            'None'
          )}
        </dd>
        {links.length ? (
          <>
            <dt>Links</dt>
            <dd>
              <ul class="plain">
                {links.map((l) => (
                  <li key={l.url}>
                    <a href={l.url} target="_blank" rel="noopener noreferrer">
                      {l.label ?? l.url}
                    </a>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      {previews.length ? (
        <div class="previews">
          {previews.map((url, i) => (
            <img
              key={url}
              src={sameOrigin(url)}
              alt={`Preview ${i + 1} of ${integration.title}`}
              class="preview"
              loading="lazy"
            />
          ))}
        </div>
      ) : null}
      <InstallForm integration={integration} />
    </article>
  );
}

/** The published integrations, each with its details and an install form. */
export function IntegrationsPage() {
  const list = useLoad(() => api('GET /v1/integrations'), []);
  return (
    <main id="main" class="page">
      <h1>Integrations</h1>
      <p class="lead">
        Integrations published on this host. Install one into a space, a site or the organization, then
        configure it.
      </p>
      <ErrorNotice message={list.error} onRetry={() => void list.reload()} />
      {list.data && list.data.integrations.length === 0 ? (
        <EmptyState title="No integration is published yet.">
          Publish one with <code>POST /v1/integrations</code> (see{' '}
          <a href="/openapi.json">the API description</a>).
        </EmptyState>
      ) : null}
      {list.loading && !list.data ? <p class="muted">Loading integrations…</p> : null}
      <div class="cards">
        {list.data?.integrations.map((i) => (
          <IntegrationCard key={i.name} integration={i} />
        ))}
      </div>
    </main>
  );
}
