import type { HostContext } from './context.js';

/** The health of a webhook installation's endpoint as the API shows it (`WebhookEndpointState`). */
export interface EndpointHealthView {
  disabled: boolean;
  /** ISO time it was disabled, or null. */
  disabledAt: string | null;
  /** ISO time the current run of exhausted deliveries began, or null. */
  failingSince: string | null;
  /** Deliveries kept (held, not sent) while it is disabled. */
  held: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Whether the installation's endpoint is disabled (docs/contracts.md "Endpoint health"), since when it
 * fails, and how many deliveries are kept for it.
 *
 * @example
 * const { disabled, held } = await endpointHealth(ctx, 'inst_1');
 */
export async function endpointHealth(ctx: HostContext, id: string): Promise<EndpointHealthView> {
  const record = await ctx.storage.endpointHealth.get(id);
  const disabled = record?.disabledAt != null;
  return {
    disabled,
    disabledAt: iso(record?.disabledAt ?? null),
    failingSince: iso(record?.failingSince ?? null),
    held: disabled ? await ctx.storage.endpointHealth.countHeld(id) : 0,
  };
}
