/** @jsxImportSource preact */
import { useMemo, useState } from 'preact/hooks';
import { type ApiCall, createApiClient, type Installation } from '../app/api';
import { useAction } from '../app/controls';
import { DeliveryLog } from '../app/pages/deliveries';
import { WebhookSecret } from '../app/pages/webhook-secret';
import { WebhookSigning } from '../app/pages/webhook-signing';
import { EmptyState, ErrorNotice, StatusBadge, StatusNote, useLoad } from '../app/ui';
import type { PortalLink } from './link';
import { EndpointSettings, type InstallationProps, placeOf } from './settings';

/** How often the delivery log is refreshed while the page is visible. */
const POLL_MS = 2000;

/** What the page shows once the host refuses the session (401), and nothing else. */
export const EXPIRED_MESSAGE = 'This portal link has expired or was revoked; ask for a new link.';

/**
 * A full-page message instead of the portal: no link, or a link the host no longer accepts.
 *
 * @example
 * <PortalProblem title="Link expired" message={EXPIRED_MESSAGE} />
 */
export function PortalProblem({ title, message }: { title: string; message: string }) {
  return (
    <main id="main" class="portal-problem">
      <div class="card" role="alert" data-testid="portal-problem">
        <h1>{title}</h1>
        <p>{message}</p>
      </div>
    </main>
  );
}

function SendTestEvent({ client, installationId }: { client: ApiCall; installationId: string }) {
  const [note, setNote] = useState('');
  const { busy, error, run } = useAction();
  const send = async () => {
    const ok = await run(async () => {
      const delivery = await client('POST /v1/installations/{id}/test', {
        params: { id: installationId },
        body: {},
      });
      setNote(`Test event ${delivery.eventType} queued: it appears in the deliveries below.`);
    });
    if (!ok) {
      setNote('');
    }
  };
  return (
    <div class="test-event">
      <button type="button" class="btn btn-primary" disabled={busy} onClick={() => void send()}>
        Send a test event
      </button>
      <StatusNote>{note}</StatusNote>
      <ErrorNotice message={error} />
    </div>
  );
}

function InstallationView({ client, installation, onSaved }: InstallationProps) {
  const url = typeof installation.configuration.url === 'string' ? installation.configuration.url : '';
  return (
    <div class="portal-installation" data-testid="portal-installation">
      <section class="card" aria-labelledby="endpoint-title">
        <div class="section-head">
          <h2 id="endpoint-title">{placeOf(installation)}</h2>
          <StatusBadge status={installation.status} />
        </div>
        <p class="endpoint-url">
          Sends to <code data-testid="endpoint-url">{url || 'no URL yet'}</code>
        </p>
        <SendTestEvent client={client} installationId={installation.id} />
      </section>
      <DeliveryLog installationId={installation.id} client={client} pollMs={POLL_MS} />
      <EndpointSettings client={client} installation={installation} onSaved={onSaved} />
      <WebhookSigning installation={installation} client={client} />
      <WebhookSecret installationId={installation.id} client={client} />
    </div>
  );
}

function InstallationPicker({
  installations,
  selected,
  onSelect,
}: {
  installations: Installation[];
  selected: string;
  onSelect(id: string): void;
}) {
  return (
    <nav class="card portal-picker" aria-labelledby="picker-title">
      <h2 id="picker-title">Your webhooks</h2>
      <ul class="plain">
        {installations.map((i) => (
          <li key={i.id}>
            <button
              type="button"
              class={`picker-item${i.id === selected ? ' current' : ''}`}
              aria-current={i.id === selected ? 'true' : undefined}
              onClick={() => onSelect(i.id)}
            >
              <span class="picker-place">{placeOf(i)}</span>
              <span class="muted picker-url">
                {typeof i.configuration.url === 'string' ? i.configuration.url : 'no URL yet'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The subscriber portal: the webhook installations its session reaches, and for the selected one its
 * deliveries (live), a test event, its URL and events, and its signing secret. Calls the host API at
 * `link.api` with the session token; once the host answers 401 it shows {@link EXPIRED_MESSAGE} only.
 *
 * @example
 * render(<Portal link={{ token: 'pps_…', api: 'http://127.0.0.1:8080' }} />, root);
 */
export function Portal({ link }: { link: PortalLink }) {
  const [expired, setExpired] = useState(false);
  const client = useMemo(
    () => createApiClient({ base: link.api, token: link.token, onUnauthorized: () => setExpired(true) }),
    [link],
  );
  const whoami = useLoad(() => client('GET /v1/whoami'), [client]);
  const list = useLoad(() => client('GET /v1/installations'), [client]);
  const [selected, setSelected] = useState<string | null>(null);

  if (expired) return <PortalProblem title="Link expired" message={EXPIRED_MESSAGE} />;
  const installations = list.data?.installations ?? [];
  const current = installations.find((i) => i.id === selected) ?? installations[0] ?? null;
  const expiresAt = whoami.data?.portal?.expiresAt;
  const organization = whoami.data?.organization?.name;
  const replace = (updated: Installation) => {
    if (list.data) {
      list.set({
        installations: list.data.installations.map((i) => (i.id === updated.id ? updated : i)),
      });
    }
  };
  return (
    <>
      <header class="topbar portal-bar">
        <span class="brand">Webhook portal</span>
        {organization ? <span class="portal-org">{organization}</span> : null}
        {expiresAt ? (
          <span class="portal-expiry" data-testid="portal-expiry">
            Link valid until{' '}
            {new Date(expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
          </span>
        ) : null}
      </header>
      <main id="main" class="page portal-page">
        <h1>Webhook deliveries</h1>
        <p class="lead">
          See what was sent to your endpoint and how it answered, send events again, and manage where they go.
          This page keeps its access only while it is open.
        </p>
        <ErrorNotice message={list.error} onRetry={() => void list.reload()} />
        {list.loading && !list.data ? <p class="muted">Loading your webhooks…</p> : null}
        {list.data && installations.length === 0 ? (
          <EmptyState title="No webhook here yet.">
            This link opens no webhook installation. Ask whoever sent it for a link to yours.
          </EmptyState>
        ) : null}
        <div class={installations.length > 1 ? 'portal-layout' : ''}>
          {installations.length > 1 && current ? (
            <InstallationPicker installations={installations} selected={current.id} onSelect={setSelected} />
          ) : null}
          {current ? (
            <InstallationView key={current.id} client={client} installation={current} onSaved={replace} />
          ) : null}
        </div>
      </main>
    </>
  );
}
