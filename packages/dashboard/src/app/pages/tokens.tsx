/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { api, type CreatedToken, type OrganizationToken } from '../api';
import { ConfirmPrompt, InlineField, TableHead, useAction } from '../controls';
import { can, usePrincipal } from '../session';
import { TOKEN_SCOPES } from '../token-scopes';
import { CodeList, CopyButton, EmptyState, ErrorNotice, StatusBadge, Time, useLoad, When } from '../ui';

/**
 * The end of a chosen day (23:59:59.999 local time) as ISO 8601, or an error when the day is not in the
 * future.
 * @example expiryOf('2030-01-31'); // { iso: '2030-01-31T22:59:59.999Z' } in Paris
 */
export function expiryOf(day: string, now = Date.now()): { iso: string } | { error: string } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return { error: 'Choose a day, or leave the expiry empty for a token that never expires.' };
  const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999);
  if (end.getTime() <= now) return { error: 'The expiry must be a day to come.' };
  return { iso: end.toISOString() };
}

function CreateToken({
  organization,
  onCreated,
}: {
  organization: string;
  onCreated(t: CreatedToken): void;
}) {
  const who = usePrincipal();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const { busy, error, setError, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return setError('Give the token a name: it says where the token is used, e.g. "ci".');
    if (scopes.length === 0) return setError('Tick at least one scope.');
    const expires = expiry ? expiryOf(expiry) : null;
    if (expires && 'error' in expires) return setError(expires.error);
    await run(async () => {
      const created = await api('POST /v1/organizations/{organization}/tokens', {
        params: { organization },
        body: {
          name: name.trim(),
          scopes: TOKEN_SCOPES.map((s) => s.scope).filter((s) => scopes.includes(s)),
          ...(expires ? { expiresAt: expires.iso } : {}),
        },
      });
      setName('');
      setExpiry('');
      setScopes([]);
      onCreated(created);
    });
  };
  const toggle = (scope: string, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  return (
    <form class="token-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="new-token-title">
      <h3 id="new-token-title">New token</h3>
      <div class="token-form-row">
        <InlineField
          id="token-name"
          label="Name"
          value={name}
          placeholder="e.g. ci"
          maxLength={100}
          onValue={setName}
        />
        <InlineField
          id="token-expiry"
          label="Expires"
          type="date"
          value={expiry}
          aria-describedby="token-expiry-help"
          onValue={setExpiry}
        />
      </div>
      <p id="token-expiry-help" class="meta">
        Expires at the end of that day; empty: never expires (revoke it when it is no longer needed).
      </p>
      <fieldset class="scopes">
        <legend>Scopes</legend>
        {TOKEN_SCOPES.map((s) => {
          const grantable = can(who, s.scope);
          return (
            <label key={s.scope} class={grantable ? 'scope' : 'scope disabled'}>
              <input
                type="checkbox"
                checked={scopes.includes(s.scope)}
                disabled={!grantable}
                onChange={(e) => toggle(s.scope, (e.currentTarget as HTMLInputElement).checked)}
              />
              <span>
                <code>{s.scope}</code> <span class="muted">{s.words}</span>
                {grantable ? null : <span class="meta"> (this token lacks it, so it cannot give it)</span>}
              </span>
            </label>
          );
        })}
      </fieldset>
      {error ? (
        <p class="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" class="btn btn-primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create token'}
      </button>
    </form>
  );
}

function CreatedPanel({ created, onDone }: { created: CreatedToken; onDone(): void }) {
  return (
    <section class="created-token" aria-label="New token">
      <p class="alert alert-warning">
        <strong>Copy the token "{created.name}" now: it is shown only this once.</strong> The host keeps only
        a hash of it; if it is lost, revoke it and create another.
      </p>
      <div class="secret-row">
        <code class="secret" data-testid="created-token">
          {created.token}
        </code>
        <CopyButton value={created.token} label="Copy token" />
      </div>
      <button type="button" class="btn btn-secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

function RevokeButton({ token, onRevoked }: { token: OrganizationToken; onRevoked(): void }) {
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useAction();
  const revoke = async () => {
    await run(
      async () => {
        await api('DELETE /v1/organizations/{organization}/tokens/{tokenId}', {
          params: { organization: token.organization, tokenId: token.id },
        });
        onRevoked();
      },
      () => setConfirming(false),
    );
  };
  return (
    <>
      {confirming ? (
        <ConfirmPrompt
          question={`Revoke "${token.name}"? Calls with it are refused at once.`}
          yes="Yes, revoke"
          busy={busy}
          small
          onYes={() => void revoke()}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <button
          type="button"
          class="btn btn-danger-outline btn-small"
          aria-label={`Revoke ${token.name}`}
          onClick={() => setConfirming(true)}
        >
          Revoke…
        </button>
      )}
      <ErrorNotice message={error} />
    </>
  );
}

/**
 * An organization's tokens: create (scopes, name, optional expiry; the token shown once with a copy
 * button), list (status, scopes, last used, expiry), revoke with a confirmation.
 */
export function TokensSection({ organization }: { organization: string }) {
  const who = usePrincipal();
  const tokens = useLoad(
    () => api('GET /v1/organizations/{organization}/tokens', { params: { organization } }),
    [organization],
  );
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const list = tokens.data?.tokens ?? [];
  return (
    <section class="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Tokens</h2>
      <p class="muted">
        An organization token signs in to this dashboard, the CLI and the API as the organization, with the
        scopes it was given. It sees only what the organization owns.
      </p>
      <ErrorNotice message={tokens.error} onRetry={() => void tokens.reload()} />
      {created ? <CreatedPanel created={created} onDone={() => setCreated(null)} /> : null}
      {tokens.data && list.length === 0 ? <EmptyState title="No token yet." /> : null}
      {list.length ? (
        <table class="table stack" aria-label="Tokens">
          <TableHead
            columns={[
              'Name',
              'Status',
              'Scopes',
              'Last used',
              'Expires',
              <span class="sr-only">Actions</span>,
            ]}
          />
          <tbody>
            {list.map((t) => (
              <tr key={t.id} data-testid={`token-${t.name}`}>
                <td data-label="Name">
                  {t.name}
                  {who.token?.id === t.id ? <span class="meta"> (this token)</span> : null}
                  <div class="meta">
                    <code>{t.id}</code> · made by {t.createdBy} <Time iso={t.createdAt} />
                  </div>
                </td>
                <td data-label="Status">
                  <StatusBadge status={t.status} />
                </td>
                <td data-label="Scopes">
                  <CodeList class="scope-list" items={t.scopes} />
                </td>
                <td data-label="Last used">
                  {t.lastUsedAt ? <Time iso={t.lastUsedAt} /> : <span class="muted">never</span>}
                </td>
                <td data-label="Expires">
                  <When iso={t.expiresAt} empty="never" />
                  {t.revokedAt ? (
                    <div class="meta">
                      revoked <When iso={t.revokedAt} />
                    </div>
                  ) : null}
                </td>
                <td data-label="">
                  {t.status === 'active' ? (
                    <RevokeButton token={t} onRevoked={() => void tokens.reload()} />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {can(who, 'tokens:manage') ? (
        <CreateToken
          organization={organization}
          onCreated={(t) => {
            setCreated(t);
            void tokens.reload();
          }}
        />
      ) : null}
    </section>
  );
}
