/** @jsxImportSource preact */
import { api } from '../api';
import { EmptyState, ErrorNotice, Link, StatusBadge, Time, usePolling } from '../ui';

const POLL_MS = 2000;

/** What an operator event's payload says, as far as the list shows it. */
interface OperatorPayload {
  installationId?: string;
  endpoint?: string | null;
}

/** One line about the event: what happened, to which endpoint. */
function summary(type: string, payload: OperatorPayload): string {
  const where = payload.endpoint ?? payload.installationId ?? 'an endpoint';
  if (type === 'endpoint.disabled') return `Endpoint ${where} disabled`;
  if (type === 'endpoint.recovered') return `Endpoint ${where} recovered`;
  return `A delivery to ${where} exhausted its retries`;
}

/**
 * The operator events (`endpoint.disabled`, `endpoint.recovered`, `delivery.exhausted`; docs/contracts.md
 * "Operator events"), newest first, each with its delivery to the operator's URL: state, attempts, next
 * attempt. Part of the Host page.
 *
 * @example <OperatorEvents />
 */
export function OperatorEvents() {
  const list = usePolling(() => api('GET /v1/operator-events', { query: { limit: 20 } }), POLL_MS, []);
  const page = list.data;
  return (
    <section class="card" aria-labelledby="operator-events-title">
      <h2 id="operator-events-title">Operator events</h2>
      <ErrorNotice
        message={list.error ? `The operator events could not be refreshed: ${list.error}` : null}
      />
      {page ? (
        <p class="muted" data-testid="operator-events-endpoint">
          {page.endpoint ? (
            <>
              Delivered signed to <code>{page.endpoint}</code> (<code>PLATFORM_OPERATOR_EVENTS_URL</code>),
              retried over about 27 hours.
            </>
          ) : (
            <>
              Not sent: set <code>PLATFORM_OPERATOR_EVENTS_URL</code> and{' '}
              <code>PLATFORM_OPERATOR_EVENTS_SECRET</code> to be told when an endpoint is disabled or
              recovers, and when a delivery exhausts its retries.
            </>
          )}
        </p>
      ) : null}
      {page?.deliveries.length === 0 ? <EmptyState title="No operator event yet." /> : null}
      {page?.deliveries.length ? (
        <ul class="plain" aria-label="Operator events">
          {page.deliveries.map((d) => {
            const payload = (d.payload ?? {}) as OperatorPayload;
            return (
              <li key={d.id} data-testid="operator-event" data-type={d.eventType}>
                <StatusBadge status={d.state} /> <strong>{d.eventType}</strong>{' '}
                {payload.installationId ? (
                  <Link href={`/installations/${encodeURIComponent(payload.installationId)}`}>
                    {summary(d.eventType, payload)}
                  </Link>
                ) : (
                  summary(d.eventType, payload)
                )}{' '}
                <span class="muted">
                  · <Time iso={d.createdAt} /> · {d.attempts.length} attempt
                  {d.attempts.length === 1 ? '' : 's'}
                  {d.nextAttemptAt ? (
                    <>
                      {' '}
                      · next attempt <Time iso={d.nextAttemptAt} />
                    </>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
