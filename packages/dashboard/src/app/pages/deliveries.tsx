/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { type ApiCall, api, type Delivery, describeError } from '../api';
import { InlineField, TableHead, useAction } from '../controls';
import { EmptyState, ErrorNotice, StatusBadge, StatusNote, Time, usePolling } from '../ui';
import { EndpointHealthNotice } from './endpoint-health';

const POLL_MS = 1000;

function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <p class="muted">No attempt yet.</p>;
  return (
    <table class="attempts">
      <caption class="sr-only">Attempts</caption>
      <TableHead columns={['Attempt', 'Started', 'Duration', 'Result', 'Response']} />
      <tbody>
        {delivery.attempts.map((a) => (
          <tr key={`${a.series}-${a.number}`} data-testid="attempt">
            <td data-label="Attempt">
              {a.number}
              {a.series > 1 ? <span class="muted"> (redelivery {a.series - 1})</span> : null}
            </td>
            <td data-label="Started">
              <Time iso={a.startedAt} />
            </td>
            <td data-label="Duration">{a.durationMs} ms</td>
            <td data-label="Result">
              {a.statusCode !== undefined ? (
                <span class={`code ${a.statusCode >= 200 && a.statusCode < 300 ? 'code-ok' : 'code-bad'}`}>
                  HTTP {a.statusCode}
                </span>
              ) : null}
              {a.acknowledged ? <span class="code code-ok">acknowledged by the broker</span> : null}
              {a.error ? <span class="code code-bad">{a.error}</span> : null}
            </td>
            <td data-label="Response">
              {a.responseExcerpt ? (
                <code class="excerpt">{a.responseExcerpt}</code>
              ) : (
                <span class="muted">—</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DeliveryRow({
  installationId,
  delivery,
  onChanged,
  client,
}: {
  installationId: string;
  delivery: Delivery;
  onChanged(): void;
  client: ApiCall;
}) {
  const { busy, error, run } = useAction();
  const finished = delivery.state !== 'queued' && delivery.state !== 'running';
  const redeliver = async () => {
    await run(async () => {
      await client('POST /v1/installations/{id}/deliveries/{deliveryId}/redeliver', {
        params: { id: installationId, deliveryId: delivery.id },
      });
      onChanged();
    });
  };
  const last = delivery.attempts[delivery.attempts.length - 1];
  // Controlled, so the row stays open across the live refreshes, and says so (aria-expanded).
  const [open, setOpen] = useState(false);
  return (
    <li class="delivery" data-testid="delivery" data-state={delivery.state}>
      <details open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
        {/* biome-ignore lint/a11y/useSemanticElements: <summary> is the native disclosure control; the role carries aria-expanded */}
        <summary
          role="button"
          aria-expanded={open}
          title={open ? 'Hide attempts and payload' : 'Show attempts and payload'}
        >
          <span class="disclosure" aria-hidden="true" />
          <StatusBadge status={delivery.state} />
          {delivery.held ? (
            <span class="badge badge-paused" title="Kept while the endpoint is disabled; not sent">
              held
            </span>
          ) : null}
          <span class="delivery-type">{delivery.eventType}</span>
          <code class="muted">{delivery.eventId}</code>
          <span class="muted">
            {delivery.attempts.length} attempt{delivery.attempts.length === 1 ? '' : 's'}
            {last?.statusCode !== undefined
              ? ` · last HTTP ${last.statusCode}`
              : last?.acknowledged
                ? ' · acknowledged by the broker'
                : last?.error
                  ? ` · last: ${last.error}`
                  : ''}
          </span>
          {delivery.state === 'queued' && delivery.nextAttemptAt ? (
            <span class="next-attempt" data-testid="next-attempt">
              next attempt <Time iso={delivery.nextAttemptAt} /> ({clockTime(delivery.nextAttemptAt)})
            </span>
          ) : null}
          <span class="muted delivery-time">
            <Time iso={delivery.createdAt} />
          </span>
        </summary>
        <div class="delivery-body">
          {delivery.nextAttemptAt ? (
            <p class="muted">
              Next attempt <Time iso={delivery.nextAttemptAt} /> ({clockTime(delivery.nextAttemptAt)}).
            </p>
          ) : null}
          <Attempts delivery={delivery} />
          <h4>Payload</h4>
          <pre class="payload">{JSON.stringify(delivery.payload, null, 2)}</pre>
          <p class="meta">
            Delivery <code>{delivery.id}</code>
          </p>
        </div>
      </details>
      <button
        type="button"
        class="btn btn-secondary btn-small"
        disabled={!finished || busy}
        title={
          finished ? 'Send this event again as a new attempt series' : 'Wait until this delivery has finished'
        }
        onClick={() => void redeliver()}
      >
        Redeliver
      </button>
      <ErrorNotice message={error} />
    </li>
  );
}

function toIso(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A labelled local date-and-time input of the redelivery range. */
function TimeField(props: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  return (
    <InlineField
      id={props.id}
      label={props.label}
      type="datetime-local"
      value={props.value}
      onValue={props.onChange}
    />
  );
}

function RedeliverRange({
  installationId,
  onDone,
  client,
}: {
  installationId: string;
  onDone(): void;
  client: ApiCall;
}) {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [result, setResult] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      const s = toIso(since);
      const u = toIso(until);
      const answer = await client('POST /v1/installations/{id}/deliveries/redeliver', {
        params: { id: installationId },
        body: { ...(s ? { since: s } : {}), ...(u ? { until: u } : {}) },
      });
      setResult(
        answer.redelivered === 0
          ? 'No failed delivery in that range.'
          : `${answer.redelivered} failed deliver${answer.redelivered === 1 ? 'y' : 'ies'} queued again.`,
      );
      setError(null);
      onDone();
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <form class="range-form" onSubmit={(e) => void submit(e)} aria-label="Redeliver failed deliveries">
      <TimeField id="range-since" label="From" value={since} onChange={setSince} />
      <TimeField id="range-until" label="To" value={until} onChange={setUntil} />
      <button type="submit" class="btn btn-secondary">
        Redeliver all failed
      </button>
      <StatusNote>{result}</StatusNote>
      <ErrorNotice message={error} />
    </form>
  );
}

/**
 * The delivery log of a webhook installation, newest first, refreshed every second (`pollMs`) while the
 * page is visible: state, attempts (status code or error, timing, response excerpt), payload,
 * redelivery of one delivery or of every failed one in a time range. `client`: how it calls the API
 * (default: the dashboard's, on its own origin; the subscriber portal passes its session's).
 *
 * @example
 * <DeliveryLog installationId="inst_1" />
 * <DeliveryLog installationId="inst_1" client={portalApi} pollMs={2000} />
 */
/**
 * When a retry is due, on the viewer's clock: the time alone today, the date too when later (a retry
 * schedule may wait hours or days).
 */
function clockTime(iso: string): string {
  const at = new Date(iso);
  return at.toDateString() === new Date().toDateString() ? at.toLocaleTimeString() : at.toLocaleString();
}

export function DeliveryLog({
  installationId,
  client = api,
  pollMs = POLL_MS,
}: {
  installationId: string;
  client?: ApiCall;
  pollMs?: number;
}) {
  const log = usePolling(
    () =>
      client('GET /v1/installations/{id}/deliveries', {
        params: { id: installationId },
        query: { limit: 50 },
      }),
    pollMs,
    [installationId, client],
  );
  const deliveries = log.data?.deliveries ?? null;
  const endpoint = log.data?.endpoint ?? null;
  const error = log.error ? `The delivery log could not be refreshed: ${log.error}` : null;
  const refresh = log.refresh;
  return (
    <section class="card" aria-labelledby="deliveries-title">
      <div class="section-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <span class="live muted" aria-hidden="true">
          ● live
        </span>
      </div>
      <ErrorNotice message={error} />
      {endpoint?.slow ? (
        <div class="alert alert-warning" role="status">
          <p>
            <strong>This endpoint is slow.</strong> An attempt to it is running past 500 ms, or two did within
            the last minute, so at most {endpoint.maxInFlight} of its deliveries are in flight at once; the
            others wait in the queue (none is lost) until it answers within 500 ms again (for a minute after
            two slow attempts). Other subscribers are not held up.
          </p>
        </div>
      ) : null}
      {endpoint && endpoint.filtered > 0 ? (
        <p class="muted" data-testid="filtered-count">
          {endpoint.filtered} {endpoint.filtered === 1 ? 'event' : 'events'} of a selected type filtered out
          by this endpoint's filter since the host started (no delivery made).
        </p>
      ) : null}
      {endpoint ? (
        <EndpointHealthNotice
          installationId={installationId}
          endpoint={endpoint}
          client={client}
          onChanged={refresh}
        />
      ) : null}
      {deliveries === null && !error ? <p class="muted">Loading deliveries…</p> : null}
      {deliveries?.length === 0 ? (
        <EmptyState title="No delivery yet.">
          Deliveries appear here as soon as a selected event happens in this installation's place, while the
          installation is active.
        </EmptyState>
      ) : null}
      {deliveries?.length ? (
        <ul class="deliveries" aria-live="polite" aria-relevant="additions">
          {deliveries.map((d) => (
            <DeliveryRow
              key={d.id}
              installationId={installationId}
              delivery={d}
              onChanged={refresh}
              client={client}
            />
          ))}
        </ul>
      ) : null}
      <h3>Redeliver failed deliveries</h3>
      <p class="muted">
        Sends every failed or exhausted delivery created in the range again (leave a bound empty for no
        limit).
      </p>
      <RedeliverRange installationId={installationId} onDone={refresh} client={client} />
    </section>
  );
}
