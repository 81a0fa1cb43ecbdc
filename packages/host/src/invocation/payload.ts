import { openConfiguration, type SecretBox } from '../secrets/index.js';

/** Payload of an `invoke` job: the event to post to the integration. */
export interface InvokeJobPayload {
  event: { type: string; eventId: string } & Record<string, unknown>;
  /** W3C trace context of the fan-out that created the job (tracing on): the invocation's span parent. */
  traceparent?: string;
}

/**
 * A queued event as the integration gets it: a set-up event's configuration with its secret values
 * opened (they are sealed in the job's payload by `installationSetupJobs`, services/dispatch.ts); other events as they are.
 *
 * @example
 * const event = openSetupEvent(ctx.storage.secrets, (job.payload as InvokeJobPayload).event);
 */
export function openSetupEvent(box: SecretBox, event: InvokeJobPayload['event']): InvokeJobPayload['event'] {
  const { configuration } = event;
  if (!configuration || typeof configuration !== 'object' || Array.isArray(configuration)) return event;
  const opened = openConfiguration(box, configuration as Record<string, unknown>);
  return opened === configuration ? event : { ...event, configuration: opened };
}
