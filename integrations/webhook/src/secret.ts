import type { ApiClient } from '@platform/api-client';
import { ApiError, isRecord } from '@platform/api-client';

/** Prefix of every webhook signing secret the host generates (docs/contracts.md "Webhook integration"). */
export const SECRET_PREFIX = 'whsec_';

/** How many trailing characters of a secret {@link maskSecret} shows. */
const VISIBLE_TAIL = 4;
/** Below this many characters after the prefix, nothing of the secret is shown. */
const MIN_LENGTH_TO_SHOW_TAIL = 16;

/**
 * A secret made safe to display: the `whsec_` prefix, an ellipsis and the last 4 characters.
 * Short or unexpected values show no characters at all.
 *
 * @example
 * maskSecret('whsec_3q2-7wEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAabcd'); // 'whsec_…abcd'
 * maskSecret('short'); // '…'
 */
export function maskSecret(secret: string): string {
  const prefix = secret.startsWith(SECRET_PREFIX) ? SECRET_PREFIX : '';
  const body = secret.slice(prefix.length);
  if (body.length < MIN_LENGTH_TO_SHOW_TAIL) return `${prefix}…`;
  return `${prefix}…${body.slice(-VISIBLE_TAIL)}`;
}

/** Answer of `GET /v1/installations/{id}/webhook-secret`. */
export interface WebhookSecret {
  /** The current signing secret. */
  secret: string;
  /** Secrets still accepted during a rotation overlap (newest first). */
  previous?: string[];
}

/** Answer of `POST /v1/installations/{id}/webhook-secret/rotate`. */
export interface RotatedWebhookSecret {
  /** The new signing secret. */
  secret: string;
  /** ISO 8601 time until which the previous secret still signs deliveries. */
  previousExpiresAt: string;
}

/**
 * The host's webhook-secret endpoints, called with the installation token through the low-level
 * `request` of the runtime's API client (bearer auth, JSON, `ApiError` with `status` and `code`,
 * token never in messages). Stands in for `api.webhooks.getSecret/rotateSecret` until
 * `@platform/api-client` has them.
 *
 * @example
 * const secrets = webhookSecretApi(context.api);
 * const { secret } = await secrets.rotateSecret(installationId);
 */
export function webhookSecretApi(api: Pick<ApiClient, 'request'>): {
  getSecret(installationId: string): Promise<WebhookSecret>;
  rotateSecret(installationId: string): Promise<RotatedWebhookSecret>;
} {
  const path = (id: string) => `/v1/installations/${encodeURIComponent(id)}/webhook-secret`;
  const call = async <T extends { secret: string }>(method: string, url: string): Promise<T> => {
    const answer = await api.request<unknown>(method, url);
    if (!isRecord(answer) || typeof answer.secret !== 'string' || answer.secret === '') {
      throw new ApiError(
        200,
        'invalid_response',
        `${method} ${url} failed: the host answered without a secret`,
      );
    }
    return answer as T;
  };
  return {
    getSecret: (id) => call<WebhookSecret>('GET', path(id)),
    rotateSecret: (id) => call<RotatedWebhookSecret>('POST', `${path(id)}/rotate`),
  };
}
