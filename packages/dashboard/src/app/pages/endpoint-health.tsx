/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import type { ApiCall } from '../api';
import { useAction } from '../controls';
import { ErrorNotice, Time } from '../ui';

/** The endpoint's health as `GET /v1/installations/{id}/deliveries` tells it. */
export interface EndpointHealthState {
  disabled: boolean;
  disabledAt: string | null;
  failingSince: string | null;
  held: number;
}

/**
 * A disabled endpoint (docs/contracts.md "Endpoint health"): since when, how many deliveries are kept,
 * and "Enable" (delivering what was kept, or cancelling it). A failing one (not yet disabled) gets a
 * warning. Shown in the dashboard's and the subscriber portal's delivery log.
 *
 * @example <EndpointHealthNotice installationId="inst_1" endpoint={page.endpoint} client={api} onChanged={refresh} />
 */
export function EndpointHealthNotice({
  installationId,
  endpoint,
  client,
  onChanged,
}: {
  installationId: string;
  endpoint: EndpointHealthState;
  client: ApiCall;
  onChanged(): void;
}) {
  const [kept, setKept] = useState<'deliver' | 'cancel'>('deliver');
  const { busy, error, run } = useAction();
  const [result, setResult] = useState('');
  if (!endpoint.disabled) {
    if (!endpoint.failingSince) return result ? <p role="status">{result}</p> : null;
    return (
      <div class="alert alert-warning" role="status" data-testid="endpoint-failing">
        <p>
          <strong>Every delivery to this endpoint has failed</strong> since{' '}
          <Time iso={endpoint.failingSince} />. If none succeeds, the host disables it after the time its
          operator set (24 hours by default) and keeps new deliveries until it is enabled again.
        </p>
      </div>
    );
  }
  const enable = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      const answer = await client('POST /v1/installations/{id}/endpoint/enable', {
        params: { id: installationId },
        body: { held: kept },
      });
      setResult(
        answer.cancelled > 0
          ? `Enabled. ${answer.cancelled} kept deliver${answer.cancelled === 1 ? 'y' : 'ies'} cancelled.`
          : `Enabled. ${answer.delivering} kept deliver${answer.delivering === 1 ? 'y is' : 'ies are'} being sent.`,
      );
      onChanged();
    });
  };
  return (
    <div class="alert alert-error endpoint-disabled" role="alert" data-testid="endpoint-disabled">
      <p>
        <strong>This endpoint is disabled</strong>
        {endpoint.disabledAt ? (
          <>
            {' '}
            since <Time iso={endpoint.disabledAt} />
          </>
        ) : null}
        : every delivery to it failed for too long. Nothing is sent to it; {endpoint.held} new deliver
        {endpoint.held === 1 ? 'y is' : 'ies are'} kept (marked “held” below), none is lost.
      </p>
      <form class="range-form" onSubmit={(e) => void enable(e)} aria-label="Enable the endpoint">
        <label for="kept-deliveries">Kept deliveries</label>
        <select
          id="kept-deliveries"
          value={kept}
          onChange={(e) => setKept((e.currentTarget as HTMLSelectElement).value as 'deliver' | 'cancel')}
        >
          <option value="deliver">deliver them now</option>
          <option value="cancel">cancel them</option>
        </select>
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? 'Enabling…' : 'Enable endpoint'}
        </button>
      </form>
      <ErrorNotice message={error} />
    </div>
  );
}
