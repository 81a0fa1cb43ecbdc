/**
 * Name of the built-in webhook integration, whose deliveries the host's engine performs. Kept apart from
 * context.ts so that modules the context depends on can use it without an import cycle.
 *
 * @example
 * if (integration.name === WEBHOOK_INTEGRATION) queueDeliveries();
 */
export const WEBHOOK_INTEGRATION = 'webhook';
