/** @jsxImportSource preact */
import { formatLag, heldNote, slowEndpointPlace } from '@platform/api-client';
import { api, type QueueState } from '../api';
import { DeliveryCharts } from '../charts/delivery-charts';
import { EmptyState, ErrorNotice, Link, usePolling } from '../ui';
import { OperatorEvents } from './operator-events';

const POLL_MS = 2000;

function Queue({ title, state, id }: { title: string; state: QueueState; id: string }) {
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl class="facts" data-testid={id}>
        <dt>Waiting</dt>
        <dd>
          {state.queued}
          {state.held ? <span class="muted"> ({heldNote(state)})</span> : null}
        </dd>
        <dt>Due now</dt>
        <dd>{state.due}</dd>
        <dt>In flight</dt>
        <dd>{state.running}</dd>
        <dt>Behind by</dt>
        <dd>{formatLag(state.oldestDueAgeSeconds)}</dd>
      </dl>
    </section>
  );
}

/**
 * The host at a glance, refreshed every 2 s while visible: the delivery and invocation queues (waiting,
 * due, held, in flight, how far behind), the delivery charts of the last hour, day or week, and the
 * webhook endpoints held to their fair share now, and the operator events.
 */
export function StatusPage() {
  const status = usePolling(() => api('GET /v1/status'), POLL_MS, []);
  const s = status.data;
  return (
    <main id="main" class="page">
      <header class="page-head">
        <div>
          <h1>Host</h1>
          <p class="muted">
            {s ? `Version ${s.version}, up since ${new Date(s.startedAt).toLocaleString()}. ` : ''}
            Prometheus metrics: <code>GET /metrics</code>.
          </p>
        </div>
      </header>
      <ErrorNotice message={status.error ? `The status could not be refreshed: ${status.error}` : null} />
      {!s && !status.error ? <p class="muted">Loading…</p> : null}
      {s ? (
        <>
          <Queue title="Webhook deliveries" state={s.deliveries} id="queue-deliveries" />
          <Queue title="Integration events" state={s.invocations} id="queue-invocations" />
          <DeliveryCharts />
          <section class="card" aria-labelledby="slow-title">
            <h2 id="slow-title">Slow webhook endpoints</h2>
            {s.slowEndpoints.length === 0 ? (
              <EmptyState title="No endpoint is slow." />
            ) : (
              <>
                <p class="muted">
                  An attempt to each is running past 500 ms, or two did within the last minute: its deliveries
                  share a few delivery slots (the others wait, none is lost) so that it cannot hold up other
                  subscribers.
                </p>
                <ul class="plain" aria-label="Slow endpoints">
                  {s.slowEndpoints.map((e) => (
                    <li key={e.installationId}>
                      <Link href={`/installations/${encodeURIComponent(e.installationId)}`}>
                        {e.origin ?? e.installationId}
                      </Link>{' '}
                      <span class="muted">· {slowEndpointPlace(e)}</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
          <OperatorEvents />
        </>
      ) : null}
    </main>
  );
}
