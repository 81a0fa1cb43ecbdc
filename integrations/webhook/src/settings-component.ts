import type { ContentKitDescendant } from '@platform/api-client';
import { ApiError } from '@platform/api-client';
import type { IntegrationContext } from '@platform/runtime';
import { ContentKit, createComponent } from '@platform/runtime';
import { installationOf, WEBHOOK_EVENT_TITLES, WEBHOOK_EVENT_TYPES_BY_PLACE } from './places';
import { maskSecret, webhookSecretApi } from './secret';

/** Id of the configuration-screen panel. */
export const SETTINGS_COMPONENT_ID = 'webhook-settings';
/** The action of the "Rotate secret" button. */
export const ROTATE_ACTION = 'rotate_secret';

/**
 * State of the panel. It never holds a whole secret: only its masked form.
 * @example const s: WebhookSettingsState = { secretHint: 'whsec_…abcd' };
 */
export interface WebhookSettingsState extends Record<string, unknown> {
  /** The current secret, masked (set after a rotation; fetched from the host otherwise). */
  secretHint?: string;
  /** After a rotation: until when the previous secret still signs deliveries. */
  previousExpiresAt?: string;
  /** Last error shown in the panel. */
  error?: string;
}

async function currentSecretHint(
  state: WebhookSettingsState,
  installationId: string,
  context: IntegrationContext,
): Promise<{ hint?: string; problem?: string }> {
  if (state.secretHint) return { hint: state.secretHint };
  try {
    const { secret } = await webhookSecretApi(context.api).getSecret(installationId);
    return { hint: maskSecret(secret) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    context.logger.warn(`webhook-settings: cannot read the secret (${error.status} ${error.code})`);
    return { problem: `not shown (the host answered ${error.status} ${error.code})` };
  }
}

function eventLines(configuration: Record<string, unknown>, place: 'space' | 'site'): ContentKitDescendant[] {
  const types = WEBHOOK_EVENT_TYPES_BY_PLACE[place];
  const lines: ContentKitDescendant[] = types.map((type) =>
    ContentKit.text(
      configuration[type] === true
        ? `✓ ${WEBHOOK_EVENT_TITLES[type]} (${type})`
        : `✗ ${WEBHOOK_EVENT_TITLES[type]} (${type}): not selected`,
    ),
  );
  if (!types.some((type) => configuration[type] === true)) {
    lines.push(
      ContentKit.text('No event is selected: select at least one to activate the webhook.', 'italic'),
    );
  }
  return lines;
}

/**
 * The webhook's configuration-screen panel: the URL, the events of the installation's place
 * (`WEBHOOK_EVENT_TYPES_BY_PLACE`) with their selection,
 * the signing secret masked (`whsec_…abcd`) and a "Rotate secret" button that calls
 * `POST {apiEndpoint}/v1/installations/{id}/webhook-secret/rotate` with the installation token.
 *
 * @example
 * createIntegration({ components: [webhookSettings] });
 */
export const webhookSettings = createComponent<Record<string, unknown>, WebhookSettingsState>({
  componentId: SETTINGS_COMPONENT_ID,
  initialState: () => ({}),
  action: async (element, action, context) => {
    if (action.action !== ROTATE_ACTION) return {};
    const { installationId } = installationOf(context.environment);
    if (!installationId)
      return { state: { ...element.state, error: 'This panel is not tied to an installation.' } };
    try {
      const rotated = await webhookSecretApi(context.api).rotateSecret(installationId);
      context.logger.info(`webhook-settings: secret of ${installationId} rotated`);
      return {
        state: { secretHint: maskSecret(rotated.secret), previousExpiresAt: rotated.previousExpiresAt },
      };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      context.logger.warn(`webhook-settings: rotating the secret failed (${error.status} ${error.code})`);
      return { state: { ...element.state, error: `Rotating the secret failed: ${error.message}` } };
    }
  },
  render: async (element, context) => {
    const { place, installationId, configuration } = installationOf(context.environment);
    const url =
      typeof configuration.url === 'string' && configuration.url !== '' ? configuration.url : '(not set)';
    const children: ContentKitDescendant[] = [
      ContentKit.text('Webhook', 'bold'),
      ContentKit.text(`URL: ${url}`),
      ContentKit.text(place === 'site' ? 'Site events' : 'Space events', 'bold'),
      ...eventLines(configuration, place),
      ContentKit.divider(),
      ContentKit.text('Signing secret', 'bold'),
    ];
    if (!installationId) {
      children.push(ContentKit.text('Not available: this panel is not tied to an installation.', 'italic'));
    } else {
      const { hint, problem } = await currentSecretHint(element.state, installationId, context);
      children.push(hint ? ContentKit.text(hint, 'code') : ContentKit.text(`Secret ${problem}`, 'italic'));
    }
    if (element.state.previousExpiresAt) {
      children.push(
        ContentKit.text(
          `Secret rotated. Deliveries are also signed with the previous secret until ${element.state.previousExpiresAt}: update your receiver before then.`,
        ),
      );
    }
    if (element.state.error) children.push(ContentKit.text(element.state.error, 'italic'));
    children.push(
      ContentKit.button({
        label: 'Rotate secret',
        onPress: { action: ROTATE_ACTION },
        style: 'danger',
        disabled: !installationId,
      }),
    );
    return ContentKit.block(...children);
  },
});
