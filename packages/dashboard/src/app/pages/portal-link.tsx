/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { api, type PortalSession } from '../api';
import { useAction } from '../controls';
import { CopyButton, ErrorNotice, When } from '../ui';

const DURATIONS = [
  { minutes: 15, label: '15 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 24 * 60, label: '24 hours' },
];

/**
 * "Open subscriber portal" for a webhook installation: opens a portal session
 * (`POST /v1/portal/sessions`) and shows its link, valid until when, with a copy button; the session
 * can be revoked before it runs out.
 */
export function PortalLink({ installationId }: { installationId: string }) {
  const [minutes, setMinutes] = useState(15);
  const [session, setSession] = useState<PortalSession | null>(null);
  const { busy, error, run } = useAction();
  const [revoked, setRevoked] = useState(false);
  const open = async () => {
    await run(async () => {
      setSession(
        await api('POST /v1/portal/sessions', {
          body: { installation: installationId, ttlMinutes: minutes },
        }),
      );
      setRevoked(false);
    });
  };
  const revoke = async () => {
    if (!session) return;
    await run(async () => {
      await api('DELETE /v1/portal/sessions/{sessionId}', { params: { sessionId: session.id } });
      setRevoked(true);
    });
  };
  return (
    <section class="card" aria-labelledby="portal-title">
      <h2 id="portal-title">Subscriber portal</h2>
      <p class="muted">
        A link for whoever receives these webhooks: without any token of yours, they see the deliveries,
        redeliver them, send a test event and rotate the signing secret, until the link expires.
      </p>
      <div class="actions portal-actions">
        <div class="field-inline">
          <label for="portal-ttl">Valid for</label>
          <select
            id="portal-ttl"
            value={String(minutes)}
            onChange={(e) => setMinutes(Number((e.currentTarget as HTMLSelectElement).value))}
          >
            {DURATIONS.map((d) => (
              <option key={d.minutes} value={String(d.minutes)}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="btn btn-primary" disabled={busy} onClick={() => void open()}>
          Open subscriber portal
        </button>
      </div>
      <ErrorNotice message={error} />
      {session ? (
        <div class="portal-session" data-testid="portal-session">
          <div class="secret-row">
            <a class="secret portal-url" href={session.url} target="_blank" rel="noopener noreferrer">
              {session.url}
            </a>
            <CopyButton value={session.url} label="Copy link" />
          </div>
          <p class="muted">
            {revoked ? (
              'Revoked: the link no longer opens the portal.'
            ) : (
              <>
                Valid until <When iso={session.expiresAt} />. Anyone with the link can act on this
                installation's deliveries until then: send it only to the subscriber.{' '}
                <button type="button" class="btn btn-link" onClick={() => void revoke()}>
                  Revoke now
                </button>
              </>
            )}
          </p>
        </div>
      ) : null}
    </section>
  );
}
