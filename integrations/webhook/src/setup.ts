import type { InstallationSetupEvent } from '@platform/api-client';
import type { IntegrationContext } from '@platform/runtime';
import { describeUrl, placeOfTarget, selectedEventTypes } from './places';

/**
 * The installation set-up handler: logs which installation was set up, where, and which events it now
 * delivers. It never logs a secret, nor the URL's path or query (receivers often put a token
 * there): only its scheme and host. Activation rules (https URL, at least one event) are the
 * host's; this handler only reports.
 *
 * @example
 * createIntegration({ events: { [HOST_EVENT.installationSetup]: onInstallationSetup } });
 */
export function onInstallationSetup(event: InstallationSetupEvent, context: IntegrationContext): void {
  const place = placeOfTarget(event.target);
  const events = selectedEventTypes(event.configuration, place);
  context.logger.info(
    `webhook installation ${event.installationId} set up: target ${event.target}, status ${event.status}, ` +
      `url ${describeUrl(event.configuration.url)}, events [${events.join(', ')}]`,
  );
  if (events.length === 0) {
    context.logger.info(`webhook installation ${event.installationId}: no ${place} event selected yet`);
  }
}
