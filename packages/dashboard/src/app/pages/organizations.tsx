/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { InlineField, StackTable, useAction } from '../controls';
import { navigate } from '../router';
import { EmptyState, ErrorNotice, Link, useLoad, When } from '../ui';

const ID_RULE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function CreateOrganization({ onCreated }: { onCreated(): void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const { busy, error, setError, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = id.trim();
    if (!ID_RULE.test(trimmed)) {
      setError(
        'The id is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.',
      );
      return;
    }
    await run(async () => {
      const created = await api('POST /v1/organizations', {
        body: { id: trimmed, ...(name.trim() ? { name: name.trim() } : {}) },
      });
      onCreated();
      navigate(`/organizations/${encodeURIComponent(created.id)}`);
    });
  };
  return (
    <section class="card" aria-labelledby="new-org-title">
      <h2 id="new-org-title">New organization</h2>
      <p class="muted">
        The platform also records organizations by naming them (the owner of a space or site, or the
        <code>organization</code> of a manifest). Its id is what tokens, installations and the audit log name.
      </p>
      <form class="stack-form" onSubmit={(e) => void submit(e)} noValidate>
        <InlineField
          id="org-id"
          label="Id"
          value={id}
          placeholder="e.g. acme"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'org-error' : undefined}
          onValue={(value) => {
            setId(value);
            setError(null);
          }}
        />
        <InlineField
          id="org-name"
          label="Name"
          value={name}
          placeholder="optional, e.g. Acme Inc."
          onValue={setName}
        />
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
      {error ? (
        <p id="org-error" class="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** Operator only: every organization, and a form to create one. */
export function OrganizationsPage() {
  const list = useLoad(() => api('GET /v1/organizations'), []);
  const organizations = list.data?.organizations ?? [];
  return (
    <main id="main" class="page">
      <h1>Organizations</h1>
      <p class="lead">
        Each organization owns spaces, sites, installations and integrations, and has tokens of its own with
        the scopes you give them.
      </p>
      <ErrorNotice message={list.error} onRetry={() => void list.reload()} />
      {list.loading && !list.data ? <p class="muted">Loading organizations…</p> : null}
      {list.data && organizations.length === 0 ? (
        <EmptyState title="No organization yet.">Create one below, then give it tokens.</EmptyState>
      ) : null}
      {organizations.length ? (
        <StackTable
          label="Organizations"
          columns={['Organization', 'Id', 'Created']}
          rows={organizations}
          keyOf={(o) => o.id}
          cells={(o) => [
            <Link href={`/organizations/${encodeURIComponent(o.id)}`}>{o.name}</Link>,
            <code>{o.id}</code>,
            <When iso={o.createdAt} />,
          ]}
        />
      ) : null}
      <CreateOrganization onCreated={() => void list.reload()} />
    </main>
  );
}
