import { HOST_EVENT } from '@platform/events/catalogue';
import { createIntegration } from '@platform/runtime';
import { handlePublicRequest } from './public-endpoint';
import { webhookSettings } from './settings-component';
import { onInstallationSetup } from './setup';

/**
 * The built-in webhook integration: the Workers module the host runs. This file is the bundle
 * entry (`script`, `platformIntegration`) and must keep a single default export: workerd treats
 * every named export of a main module as an entrypoint and refuses non-function values.
 * The host publishes it as the first-party integration `webhook` and runs it in-process;
 * deliveries themselves are the work of the host's delivery engine.
 *
 * @example
 * import webhook from '@platform/integration-webhook';
 * const response = await webhook.fetch(envelopeRequest({ type: HOST_EVENT.installationSetup, ... }));
 */
export default createIntegration({
  events: { [HOST_EVENT.installationSetup]: onInstallationSetup },
  components: [webhookSettings],
  fetch: handlePublicRequest,
});
