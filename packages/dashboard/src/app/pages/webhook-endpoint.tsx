/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { ApiError, api, describeError, type Installation } from '../api';
import { ErrorNotice } from '../ui';

/** What reads show in place of a write-only value; saved as is, it keeps the stored value. */
const MASKED = '********';
/** An RFC 7230 token (the host checks every rule; this only catches typing mistakes early). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

type AuthType = '' | 'basic' | 'bearer' | 'oauth2_client_credentials';
interface Row {
  name: string;
  value: string;
}
interface AuthFields {
  type: AuthType;
  username: string;
  password: string;
  token: string;
  token_url: string;
  client_id: string;
  client_secret: string;
  scope: string;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

function initialAuth(auth: unknown): AuthFields {
  const a = (typeof auth === 'object' && auth !== null ? auth : {}) as Record<string, unknown>;
  const type = text(a.type) as AuthType;
  return {
    type,
    username: text(a.username),
    password: text(a.password),
    token: text(a.token),
    token_url: text(a.token_url),
    client_id: text(a.client_id),
    client_secret: text(a.client_secret),
    scope: text(a.scope),
  };
}

function rowsOf(headers: unknown): Row[] {
  const entries = typeof headers === 'object' && headers !== null ? Object.entries(headers) : [];
  return entries.map(([name, value]) => ({ name, value: text(value) }));
}

function authPatch(a: AuthFields): Record<string, string> | null {
  switch (a.type) {
    case 'basic':
      return { type: a.type, username: a.username, password: a.password };
    case 'bearer':
      return { type: a.type, token: a.token };
    case 'oauth2_client_credentials':
      return {
        type: a.type,
        token_url: a.token_url,
        client_id: a.client_id,
        client_secret: a.client_secret,
        ...(a.scope ? { scope: a.scope } : {}),
      };
    default:
      return null;
  }
}

/** The early check of one header row (the host's answer is the authority). */
function rowProblem(row: Row): string | null {
  if (row.name === '' && row.value === '') return null;
  if (!TOKEN.test(row.name))
    return "A header name is a token: letters, digits and !#$%&'*+-.^_`|~, no spaces.";
  if (/[\r\n]/.test(row.value)) return 'A header value may not contain a line break.';
  return null;
}

/** The host's configuration errors of a refused save, by configuration key. */
function errorsByKey(error: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const details =
    error instanceof ApiError ? (error.details as { configurationErrors?: unknown } | undefined) : undefined;
  const list = Array.isArray(details?.configurationErrors) ? details.configurationErrors : [];
  for (const e of list as Array<{ key?: unknown; message?: unknown }>) {
    const key = text(e.key);
    out.set(key, [...(out.get(key) ?? []), text(e.message)]);
  }
  return out;
}

/** The errors of a setting under it: the host's messages, or the one problem the form found (none: nothing). */
function FieldErrors({
  id,
  messages,
}: {
  id: string;
  messages: readonly string[] | string | null | undefined;
}) {
  if (!messages?.length) return null;
  return (
    <p id={id} class="field-error" data-testid={id}>
      {typeof messages === 'string' ? messages : messages.join(' ')}
    </p>
  );
}

/**
 * The endpoint settings of a webhook installation (docs/contracts.md "Endpoint settings"): custom headers,
 * authentication, payload filter, rate limit. Write-only values show as `********` (kept when saved
 * unchanged); the host's verdict on a refused save is shown under the setting it names.
 *
 * @example
 * <WebhookEndpoint installation={inst} onSaved={setInstallation} />
 */
export function WebhookEndpoint({
  installation,
  onSaved,
}: {
  installation: Installation;
  onSaved(i: Installation): void;
}) {
  const config = installation.configuration;
  const [rows, setRows] = useState<Row[]>(() => rowsOf(config.headers));
  const [auth, setAuth] = useState<AuthFields>(() => initialAuth(config.auth));
  const [filter, setFilter] = useState(() => (config.filter ? JSON.stringify(config.filter, null, 2) : ''));
  const [rate, setRate] = useState(() =>
    typeof config.rate_limit === 'number' ? String(config.rate_limit) : '',
  );
  const [serverErrors, setServerErrors] = useState<Map<string, string[]>>(() => new Map());
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);

  let filterProblem: string | null = null;
  let parsedFilter: unknown = null;
  if (filter.trim() !== '') {
    try {
      parsedFilter = JSON.parse(filter);
    } catch {
      filterProblem = 'The filter is JSON, e.g. {"field": "rating", "equals": "bad"}.';
    }
  }
  const rateProblem = rate !== '' && !/^\d+$/.test(rate) ? 'A whole number of deliveries per second.' : null;
  const rowProblems = rows.map(rowProblem);
  const blocked = filterProblem !== null || rateProblem !== null || rowProblems.some((p) => p !== null);

  const setAuthField = (key: keyof AuthFields, value: string) => {
    setSaved(false);
    setAuth((a) => ({ ...a, [key]: value }));
  };
  /** An `onInput` that stores the field's new text with `set` (the form is no longer saved). */
  const edited = (set: (value: string) => void) => (e: Event) => {
    setSaved(false);
    set((e.target as HTMLInputElement | HTMLTextAreaElement).value);
  };
  const setRow = (i: number, row: Row) => {
    setSaved(false);
    setRows((all) => all.map((r, j) => (j === i ? row : r)));
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (blocked) return;
    setSaving(true);
    try {
      const headers = Object.fromEntries(rows.filter((r) => r.name !== '').map((r) => [r.name, r.value]));
      const updated = await api('PATCH /v1/installations/{id}', {
        params: { id: installation.id },
        body: {
          configuration: {
            headers: Object.keys(headers).length > 0 ? headers : null,
            auth: authPatch(auth),
            filter: parsedFilter,
            rate_limit: rate === '' ? null : Number(rate),
          },
        },
      });
      onSaved(updated);
      // What is stored now: the write-only values come back masked.
      setRows(rowsOf(updated.configuration.headers));
      setAuth(initialAuth(updated.configuration.auth));
      setServerErrors(new Map());
      setError(null);
      setSaved(true);
    } catch (e) {
      const byKey = errorsByKey(e);
      setServerErrors(byKey);
      setError(byKey.size > 0 ? null : describeError(e));
    } finally {
      setSaving(false);
    }
  };

  const input = (key: keyof AuthFields, label: string, secret = false) => (
    <label class="field">
      <span>{label}</span>
      <input
        id={`endpoint-auth-${key}`}
        type={secret ? 'password' : 'text'}
        autocomplete="off"
        value={auth[key]}
        onInput={(e) => setAuthField(key, (e.target as HTMLInputElement).value)}
      />
    </label>
  );

  return (
    <section class="card" aria-labelledby="endpoint-title">
      <h2 id="endpoint-title">Endpoint settings</h2>
      <p class="muted">
        Optional; without them each delivery is the standard signed request. Header values and credentials are
        write-only: they show as <code>{MASKED}</code>, which keeps the stored value when saved.
      </p>
      <form class="config-form" aria-label="Endpoint settings" noValidate onSubmit={(e) => void submit(e)}>
        <fieldset>
          <legend>Custom headers</legend>
          {rows.map((row, i) => (
            <div class="header-row" key={i}>
              <input
                aria-label={`Header ${i + 1} name`}
                data-testid={`header-name-${i}`}
                placeholder="X-Api-Key"
                value={row.name}
                aria-invalid={rowProblems[i] ? true : undefined}
                onInput={(e) => setRow(i, { ...row, name: (e.target as HTMLInputElement).value })}
              />
              <input
                aria-label={`Header ${i + 1} value`}
                data-testid={`header-value-${i}`}
                value={row.value}
                onInput={(e) => setRow(i, { ...row, value: (e.target as HTMLInputElement).value })}
              />
              <button
                type="button"
                class="btn btn-secondary"
                onClick={() => setRows(rows.filter((_, j) => j !== i))}
              >
                Remove
              </button>
              <FieldErrors id={`error-header-${i}`} messages={rowProblems[i]} />
            </div>
          ))}
          <button
            type="button"
            class="btn btn-secondary"
            onClick={() => setRows([...rows, { name: '', value: '' }])}
          >
            Add header
          </button>
          <FieldErrors id="error-endpoint-headers" messages={serverErrors.get('headers')} />
        </fieldset>
        <fieldset>
          <legend>Authentication</legend>
          <label class="field">
            <span>Type</span>
            <select
              id="endpoint-auth-type"
              value={auth.type}
              onChange={(e) => setAuthField('type', (e.target as HTMLSelectElement).value)}
            >
              <option value="">None</option>
              <option value="basic">Basic</option>
              <option value="bearer">Bearer token</option>
              <option value="oauth2_client_credentials">OAuth2 client credentials</option>
            </select>
          </label>
          {auth.type === 'basic'
            ? [input('username', 'Username'), input('password', 'Password', true)]
            : null}
          {auth.type === 'bearer' ? input('token', 'Token', true) : null}
          {auth.type === 'oauth2_client_credentials'
            ? [
                input('token_url', 'Token URL'),
                input('client_id', 'Client id'),
                input('client_secret', 'Client secret', true),
                input('scope', 'Scope (optional)'),
              ]
            : null}
          <FieldErrors id="error-endpoint-auth" messages={serverErrors.get('auth')} />
        </fieldset>
        <fieldset>
          <legend>Filter</legend>
          <label class="field">
            <span>Deliver only events whose payload matches (JSON; empty: every selected event)</span>
            <textarea
              id="endpoint-filter"
              rows={4}
              value={filter}
              aria-invalid={filterProblem ? true : undefined}
              placeholder='{"field": "rating", "equals": "bad"}'
              onInput={edited(setFilter)}
            />
          </label>
          <FieldErrors id="error-endpoint-filter-json" messages={filterProblem} />
          <FieldErrors id="error-endpoint-filter" messages={serverErrors.get('filter')} />
        </fieldset>
        <fieldset>
          <legend>Rate limit</legend>
          <label class="field">
            <span>
              Deliveries per second at most (empty: no limit; deliveries beyond it wait, none is dropped)
            </span>
            <input
              id="endpoint-rate-limit"
              inputMode="numeric"
              value={rate}
              aria-invalid={rateProblem ? true : undefined}
              onInput={edited(setRate)}
            />
          </label>
          <FieldErrors id="error-endpoint-rate-limit-input" messages={rateProblem} />
          <FieldErrors id="error-endpoint-rate_limit" messages={serverErrors.get('rate_limit')} />
        </fieldset>
        <div class="actions">
          <button type="submit" class="btn" disabled={saving || blocked}>
            Save endpoint settings
          </button>
          {saved ? (
            <span class="muted" role="status">
              Saved.
            </span>
          ) : null}
        </div>
        {error ? <ErrorNotice message={error} /> : null}
      </form>
    </section>
  );
}
