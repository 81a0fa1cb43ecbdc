import type {
  InstallationConfiguration,
  InstallationTarget,
  IntegrationEnvironment,
} from '@platform/api-client';
import {
  EVENT_CATALOGUE,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES_BY_PLACE,
  type WebhookEventType,
  type WebhookPlace,
} from '@platform/events/catalogue';

/**
 * The webhook event types a user can select, by installation place: `space` (space and organization
 * installations, configured by `configurations.account`) or `site` (`configurations.site`). Each is
 * a boolean configuration key of the same name; the host creates a delivery for every active webhook
 * installation whose configuration has `<event type>: true`. From the event catalogue.
 *
 * @example
 * const selectable = WEBHOOK_EVENT_TYPES_BY_PLACE[placeOfTarget(installation.target)];
 * const wanted = selectable.filter((type) => installation.configuration[type] === true);
 */
export { WEBHOOK_EVENT_TYPES_BY_PLACE, type WebhookPlace } from '@platform/events/catalogue';

/**
 * Labels of the event types, as the manifest titles them (the catalogue's titles).
 * @example WEBHOOK_EVENT_TITLES[type]; // e.g. 'Page feedback'
 */
export const WEBHOOK_EVENT_TITLES: Readonly<Record<WebhookEventType, string>> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [type, EVENT_CATALOGUE[type].title]),
) as Record<WebhookEventType, string>;

/**
 * The place of an installation target: `site` for site installations, `space` otherwise
 * (an organization installation is configured like a space one, through `configurations.account`).
 * @example placeOfTarget('organization'); // 'space'
 */
export function placeOfTarget(target: InstallationTarget): WebhookPlace {
  return target === 'site' ? 'site' : 'space';
}

/**
 * The place and configuration of the installation an invocation runs for: the site or space
 * installation shape when present (its configuration first), else the organization-level shape.
 *
 * @example
 * const { place, configuration, installationId } = installationOf(context.environment);
 */
export function installationOf(environment: IntegrationEnvironment): {
  place: WebhookPlace;
  installationId: string | undefined;
  configuration: InstallationConfiguration;
} {
  const installationId = environment.installation?.id;
  if (environment.siteInstallation) {
    return { place: 'site', installationId, configuration: environment.siteInstallation.configuration };
  }
  if (environment.spaceInstallation) {
    return { place: 'space', installationId, configuration: environment.spaceInstallation.configuration };
  }
  return {
    place: placeOfTarget(environment.installation?.target ?? 'space'),
    installationId,
    configuration: environment.installation?.configuration ?? {},
  };
}

/**
 * The event types selected in a configuration (`<type>: true`) among those that fit the place;
 * keys of the other place are ignored.
 *
 * @example
 * selectedEventTypes(configuration, 'site'); // the site events set to true in it
 */
export function selectedEventTypes(
  configuration: InstallationConfiguration,
  place: WebhookPlace,
): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES_BY_PLACE[place].filter((type) => configuration[type] === true);
}

/**
 * The part of a webhook URL that is safe to show in logs: scheme, host and port. Paths and
 * queries are dropped because receivers often embed a token in them.
 *
 * @example
 * describeUrl('https://hooks.example.com/T123/secret-token?x=1'); // 'https://hooks.example.com/…'
 * describeUrl(undefined); // '(not set)'
 */
export function describeUrl(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '(not set)';
  try {
    const url = new URL(value);
    const more = url.pathname !== '/' || url.search !== '' || url.hash !== '' ? '/…' : '';
    return `${url.protocol}//${url.host}${more}`;
  } catch {
    return '(not a valid URL)';
  }
}
