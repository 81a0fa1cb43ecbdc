/** @jsxImportSource preact */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, describeError, type Installation } from './api';
import { type ConfigField, type FormValues, initialValues, isConnected, toPatch } from './config-fields';

interface Option {
  value: string;
  label: string;
}

/** The fields a refused save named (`details.configurationErrors` of a 400), or none. */
function refusedFields(error: unknown): Array<{ key: string; message: string }> {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const details = error.details as { configurationErrors?: unknown } | undefined;
  if (!Array.isArray(details?.configurationErrors)) return [];
  return details.configurationErrors.filter(
    (e): e is { key: string; message: string } =>
      typeof e?.key === 'string' && typeof e?.message === 'string',
  );
}

/** Same-origin path of the installation's public endpoint (works behind any public URL). */
const endpointPath = (installation: Installation) => new URL(installation.urls.publicEndpoint).pathname;

function CompletionSelect({
  field,
  installation,
  value,
  onChange,
  describedBy,
  invalid,
}: {
  field: Extract<ConfigField, { kind: 'completion' }>;
  installation: Installation;
  value: string;
  onChange(value: string): void;
  describedBy: string;
  invalid: boolean;
}) {
  const [options, setOptions] = useState<Option[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const enabled = installation.status !== 'paused';
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    setOptions(null);
    setError(null);
    void (async () => {
      try {
        const response = await fetch(`${endpointPath(installation)}${field.url}`, {
          headers: { accept: 'application/json' },
        });
        const body = (await response.json().catch(() => null)) as {
          options?: unknown;
          error?: { message?: string };
        } | null;
        if (!response.ok)
          throw new Error(body?.error?.message ?? `the integration answered HTTP ${response.status}`);
        if (!Array.isArray(body?.options))
          throw new Error('the integration answered without an "options" list');
        const list = (body.options as Array<Record<string, unknown>>)
          .filter((o) => typeof o?.value === 'string')
          .map((o) => ({
            value: String(o.value),
            label: typeof o.label === 'string' ? o.label : String(o.value),
          }));
        if (!cancelled) setOptions(list);
      } catch (e) {
        if (!cancelled) setError(`Could not load the choices: ${describeError(e)}`);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [installation.id, installation.urls.publicEndpoint, field.url, attempt, enabled]);

  const id = `field-${field.key}`;
  if (!enabled) return <p class="muted">Resume the installation to load the choices.</p>;
  if (error) {
    return (
      <div class="alert alert-error" role="alert">
        <span>{error}</span>
        <button type="button" class="btn btn-secondary btn-small" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </button>
      </div>
    );
  }
  const known = options?.some((o) => o.value === value) ?? false;
  return (
    <select
      id={id}
      value={value}
      disabled={options === null}
      aria-busy={options === null}
      aria-required={field.required}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}
    >
      {options === null ? <option value={value}>Loading choices…</option> : <option value="">Choose…</option>}
      {options !== null && value && !known ? (
        <option value={value}>{value} (no longer offered)</option>
      ) : null}
      {options?.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

function OAuthButton({
  field,
  installation,
  onRefresh,
}: {
  field: Extract<ConfigField, { kind: 'oauth' }>;
  installation: Installation;
  onRefresh(): Promise<Installation | null>;
}) {
  const [phase, setPhase] = useState<'idle' | 'waiting' | 'failed'>('idle');
  const popup = useRef<Window | null>(null);
  const connected = isConnected(installation.configuration);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; ok?: unknown } | null;
      if (data?.type !== 'platform:oauth' || event.source !== popup.current) return;
      popup.current = null;
      void onRefresh().then((fresh) =>
        setPhase(data.ok === true && fresh && isConnected(fresh.configuration) ? 'idle' : 'failed'),
      );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [onRefresh]);
  useEffect(() => {
    if (phase !== 'waiting') return;
    const timer = setInterval(() => {
      if (popup.current?.closed) {
        popup.current = null;
        setPhase('idle');
        void onRefresh();
      }
    }, 500);
    return () => clearInterval(timer);
  }, [phase, onRefresh]);
  const start = () => {
    const url = `${installation.urls.publicEndpoint}${field.callbackUrl}`;
    popup.current = window.open(url, `platform-oauth-${installation.id}`, 'popup,width=520,height=680');
    setPhase(popup.current ? 'waiting' : 'failed');
  };
  return (
    <div class="oauth">
      <button
        type="button"
        class="btn btn-secondary"
        id={`field-${field.key}`}
        onClick={start}
        aria-describedby={`field-${field.key}-help`}
      >
        {connected ? `Reconnect` : field.buttonText}
      </button>
      <span
        class={connected && phase !== 'waiting' ? 'oauth-status connected' : 'oauth-status'}
        role="status"
        data-testid={`oauth-${field.key}`}
      >
        {phase === 'waiting'
          ? 'Waiting for the provider window…'
          : connected
            ? '✓ Connected'
            : phase === 'failed'
              ? 'Not connected: the authorization did not complete (or the popup was blocked). Try again.'
              : 'Not connected'}
      </span>
    </div>
  );
}

/** Props of {@link ConfigForm}. */
export interface ConfigFormProps {
  installation: Installation;
  fields: ConfigField[];
  onSaved(installation: Installation): void;
  onRefresh(): Promise<Installation | null>;
}

/**
 * The configuration screen generated from the manifest `configurations` (docs/contracts.md "Manifest"): text
 * fields, selects (enum or fetched from `completion_url`), numbers, switches and OAuth buttons;
 * required fields marked, the host's `configurationErrors` shown inline under their field.
 *
 * @example <ConfigForm installation={inst} fields={configFields(manifest, inst.target)} onSaved={set} onRefresh={reload} />
 */
export function ConfigForm({ installation, fields, onSaved, onRefresh }: ConfigFormProps) {
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, installation.configuration));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // A field's error is the host's verdict on the saved value: once the field is edited it no longer
  // applies, so it is hidden until the next save answers again.
  const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set());
  // A save the host refused (400 invalid_configuration, nothing changed: e.g. a wrong retry schedule):
  // its messages go under their fields, like the saved configuration's own errors.
  const [refused, setRefused] = useState<ReadonlyArray<{ key: string; message: string }>>([]);
  const errors = new Map<string, string[]>();
  for (const e of [...installation.configurationErrors, ...refused])
    if (!edited.has(e.key)) errors.set(e.key, [...(errors.get(e.key) ?? []), e.message]);
  const fieldKeys = new Set(fields.map((f) => f.key));
  const otherErrors = installation.configurationErrors.filter((e) => !fieldKeys.has(e.key));
  const set = (key: string, value: string | number | boolean | undefined) => {
    setSaved(false);
    setEdited((keys) => (keys.has(key) ? keys : new Set([...keys, key])));
    setValues((v) => ({ ...v, [key]: value }));
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setSaved(false);
    try {
      const updated = await api('PATCH /v1/installations/{id}', {
        params: { id: installation.id },
        body: { configuration: toPatch(fields, values) },
      });
      onSaved(updated);
      setEdited(new Set());
      setRefused([]);
      setError(null);
      setSaved(true);
    } catch (e) {
      const inline = refusedFields(e);
      setRefused(inline);
      if (inline.length > 0) setEdited(new Set());
      setError(describeError(e));
    } finally {
      setSaving(false);
    }
  };

  if (fields.length === 0) {
    return <p class="muted">This integration has no settings for this kind of installation.</p>;
  }
  return (
    <form class="config-form" onSubmit={(e) => void submit(e)} noValidate aria-label="Configuration">
      {fields.map((field) => {
        const id = `field-${field.key}`;
        const messages = errors.get(field.key) ?? [];
        const describedBy = [`${id}-help`, messages.length ? `${id}-error` : ''].filter(Boolean).join(' ');
        const invalid = messages.length > 0;
        const value = values[field.key];
        let control: JSX.Element;
        switch (field.kind) {
          case 'text':
            control = (
              <input
                id={id}
                type="text"
                value={typeof value === 'string' ? value : ''}
                aria-required={field.required}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                onInput={(e) => set(field.key, (e.currentTarget as HTMLInputElement).value)}
              />
            );
            break;
          case 'select':
            control = (
              <select
                id={id}
                value={typeof value === 'string' ? value : ''}
                aria-required={field.required}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                onChange={(e) => set(field.key, (e.currentTarget as HTMLSelectElement).value)}
              >
                {field.required && value ? null : <option value="">Choose…</option>}
                {field.options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            );
            break;
          case 'completion':
            control = (
              <CompletionSelect
                field={field}
                installation={installation}
                value={typeof value === 'string' ? value : ''}
                onChange={(v) => set(field.key, v)}
                describedBy={describedBy}
                invalid={invalid}
              />
            );
            break;
          case 'number':
            control = (
              <input
                id={id}
                type="number"
                inputMode="decimal"
                value={typeof value === 'number' ? String(value) : ''}
                aria-required={field.required}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                onInput={(e) => {
                  const raw = (e.currentTarget as HTMLInputElement).value;
                  set(field.key, raw === '' || Number.isNaN(Number(raw)) ? undefined : Number(raw));
                }}
              />
            );
            break;
          case 'switch':
            control = (
              <button
                id={id}
                type="button"
                role="switch"
                class="switch"
                aria-checked={value === true}
                aria-describedby={describedBy}
                onClick={() => set(field.key, value !== true)}
              >
                <span class="switch-track" aria-hidden="true">
                  <span class="switch-thumb" />
                </span>
                <span class="switch-text">{value === true ? 'On' : 'Off'}</span>
              </button>
            );
            break;
          case 'oauth':
            control = <OAuthButton field={field} installation={installation} onRefresh={onRefresh} />;
            break;
        }
        return (
          <div class={`field field-${field.kind}${invalid ? ' field-invalid' : ''}`} key={field.key}>
            <label for={id} class="field-label">
              {field.title}
              {field.required ? (
                <span class="required" title="Required">
                  {' '}
                  *<span class="sr-only"> (required)</span>
                </span>
              ) : null}
            </label>
            {control}
            <p id={`${id}-help`} class="help">
              {field.description}
            </p>
            {messages.length ? (
              <p id={`${id}-error`} class="field-error" data-testid={`error-${field.key}`}>
                {messages.join(' ')}
              </p>
            ) : null}
          </div>
        );
      })}
      {otherErrors.length ? (
        <div class="alert alert-warning">
          {otherErrors.map((e) => (
            <p key={e.key + e.message}>{e.message}</p>
          ))}
        </div>
      ) : null}
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save configuration'}
        </button>
        <span role="status" class="muted">
          {saved
            ? installation.status === 'active'
              ? 'Saved. The installation is active.'
              : 'Saved. Fix the fields marked above to activate it.'
            : ''}
        </span>
      </div>
      {error ? (
        <div class="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
    </form>
  );
}
