export type { WebhookPlace } from './places';
export {
  describeUrl,
  installationOf,
  placeOfTarget,
  selectedEventTypes,
  WEBHOOK_EVENT_TITLES,
  WEBHOOK_EVENT_TYPES_BY_PLACE,
} from './places';
export { handlePublicRequest } from './public-endpoint';
export type { RotatedWebhookSecret, WebhookSecret } from './secret';
export { maskSecret, SECRET_PREFIX, webhookSecretApi } from './secret';
export type { WebhookSettingsState } from './settings-component';
export { ROTATE_ACTION, SETTINGS_COMPONENT_ID, webhookSettings } from './settings-component';
export { onInstallationSetup } from './setup';

/** Name under which the host publishes this integration. */
export const WEBHOOK_INTEGRATION_NAME = 'webhook';

export { default } from './integration';
