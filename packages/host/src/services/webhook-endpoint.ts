import {
  ENDPOINT_KEYS,
  type EndpointCredentials,
  endpointSettingProblems,
  type SettingProblem,
  separateCredentials,
} from '../delivery/endpoint/index.js';
import { HttpError } from '../errors.js';
import { validateWebhookUrl } from '../net/index.js';
import type { StoredCredentials } from '../storage/index.js';
import type { HostContext } from './context.js';
import { WEBHOOK_INTEGRATION } from './names.js';

/**
 * The webhook installations' endpoint settings in the installation services (docs/contracts.md "Endpoint
 * settings"): which configuration keys they add, their rules, and the write-only values taken out of a
 * configuration before it is stored.
 */

/** The keys a webhook configuration accepts besides its manifest's: the endpoint settings and `destination`. */
const WEBHOOK_EXTRA_KEYS: readonly string[] = [...ENDPOINT_KEYS, 'destination'];

/** The endpoint keys an integration's configuration accepts besides its manifest's: the webhook's only. */
export function endpointKeysOf(integrationName: string): readonly string[] {
  return integrationName === WEBHOOK_INTEGRATION ? WEBHOOK_EXTRA_KEYS : [];
}

/**
 * The problems of the endpoint settings of a webhook configuration: their shapes and rules, and an OAuth2
 * `token_url` the host's address policy refuses (the token is fetched under the deliveries' policy).
 *
 * @example
 * endpointRules(ctx, { auth: { type: 'bearer', token: '' } }); // [{ key: 'auth', message: 'auth.token: token must not be empty' }]
 */
export function endpointRules(
  ctx: HostContext,
  configuration: Readonly<Record<string, unknown>>,
): SettingProblem[] {
  const problems = endpointSettingProblems(configuration);
  const auth = configuration.auth as { type?: unknown; token_url?: unknown } | undefined;
  if (
    auth?.type === 'oauth2_client_credentials' &&
    typeof auth.token_url === 'string' &&
    auth.token_url !== ''
  ) {
    const check = validateWebhookUrl(auth.token_url, ctx.policy);
    if (!check.ok) problems.push({ key: 'auth', message: `auth.token_url: ${check.message}` });
  }
  return problems;
}

function invalid(problems: readonly SettingProblem[]): HttpError {
  return new HttpError(
    400,
    'invalid_configuration',
    problems.map((p) => `configuration.${p.message}`).join('; '),
    { configurationErrors: problems },
  );
}

/**
 * Refuses (400 `invalid_configuration`, nothing stored) endpoint settings that are wrong once `given` (what
 * an operator writes) is applied to `stored` (the configuration now, `{}` at install): unlike a missing URL,
 * a bad header or filter is never left `pending`. What was stored passed this check, so a problem is this
 * write's (an `auth` beside a stored `Authorization` header too).
 */
export function refuseInvalidEndpointSettings(
  ctx: HostContext,
  integrationName: string,
  given: Readonly<Record<string, unknown>>,
  stored: Readonly<Record<string, unknown>> = {},
): void {
  if (integrationName !== WEBHOOK_INTEGRATION) return;
  if (!ENDPOINT_KEYS.some((key) => given[key] !== undefined)) return;
  const merged: Record<string, unknown> = {};
  for (const key of ENDPOINT_KEYS) {
    const value = Object.hasOwn(given, key) ? given[key] : stored[key];
    if (value !== undefined && value !== null) merged[key] = value;
  }
  const problems = endpointRules(ctx, merged);
  if (problems.length > 0) throw invalid(problems);
}

/** A configuration ready to store, and what goes to `webhookCredentials`. */
export interface EndpointWrite {
  configuration: Record<string, unknown>;
  credentials: StoredCredentials | null;
  /** Whether `credentials` replaces what is stored (the write touched `headers` or `auth`). */
  credentialsChanged: boolean;
}

/**
 * Takes the write-only values out of a webhook configuration about to be stored (`merged`: the stored one
 * with `given` applied). A value written as `********` keeps the stored one (`before`); one given that way
 * with nothing stored is a 400.
 *
 * @example
 * const write = await prepareEndpointWrite('webhook', patch, merged, { configuration: record.configuration, credentials: () => storage.webhookCredentials.get(id) });
 * await tx.installations.update(id, { configuration: write.configuration });
 * if (write.credentialsChanged) await tx.webhookCredentials.set(id, write.credentials);
 */
export async function prepareEndpointWrite(
  integrationName: string,
  given: Readonly<Record<string, unknown>>,
  merged: Record<string, unknown>,
  before: {
    configuration: Readonly<Record<string, unknown>>;
    credentials: () => Promise<EndpointCredentials | null>;
  } | null,
): Promise<EndpointWrite> {
  const touches = Object.hasOwn(given, 'headers') || Object.hasOwn(given, 'auth');
  if (integrationName !== WEBHOOK_INTEGRATION || !touches)
    return { configuration: merged, credentials: null, credentialsChanged: false };
  const stored = before ? await before.credentials() : null;
  const separated = separateCredentials(
    merged,
    before ? { configuration: before.configuration, credentials: stored } : null,
  );
  if (separated.problems.length > 0) throw invalid(separated.problems);
  return {
    configuration: separated.configuration,
    credentials: separated.credentials,
    credentialsChanged: true,
  };
}
