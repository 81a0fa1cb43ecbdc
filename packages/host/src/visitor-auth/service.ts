import { HOST_EVENT } from '@platform/events';
import { HttpError } from '../errors.js';
import { type ExecutorSelector, invoke } from '../invocation/invoker.js';
import type { HostContext } from '../services/context.js';
import { hasScopeFor, newEventId } from '../services/dispatch.js';
import type { InstallationRecord, IntegrationRecord } from '../storage/index.js';

/** A protected site's authentication backend: its installation and the integration's latest version. */
export interface VisitorAuthTarget {
  installation: InstallationRecord;
  integration: IntegrationRecord;
}

/**
 * The installation that guards `siteId`: its oldest site installation, whatever its status, whose
 * integration has `site:visitor:auth`; undefined when none (the site is public). A guard that is
 * pending or paused still guards: the route refuses visitors rather than opening the site.
 *
 * @example
 * const target = await visitorAuthTarget(ctx, 'site_1');
 */
export async function visitorAuthTarget(
  ctx: HostContext,
  siteId: string,
): Promise<VisitorAuthTarget | undefined> {
  const installations = await ctx.storage.installations.list({ siteId });
  const sorted = installations
    .filter((installation) => installation.target === 'site' && installation.siteId === siteId)
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  for (const installation of sorted) {
    const integration = await ctx.storage.integrations.getLatest(installation.integrationName);
    if (integration && hasScopeFor(integration, HOST_EVENT.fetchVisitorAuthentication)) {
      return { installation, integration };
    }
  }
  return undefined;
}

/**
 * The URL an integration's `fetch_visitor_authentication` answers (pure): the `Location` of a redirect
 * (301, 302, 303, 307, 308) that is an absolute `http(s)` URL. For logout, `204` (nothing) is
 * `undefined`. Anything else is a 502 `invalid_visitor_authentication` that says what came back.
 *
 * @example
 * const url = redirectTarget(302, 'https://idp.example.com/authorize?...', 'oidc', false);
 */
export function redirectTarget(
  status: number,
  location: string | null,
  integration: string,
  allowNothing: boolean,
): string | undefined {
  if (allowNothing && status === 204) return undefined;
  const problem = (detail: string) =>
    new HttpError(
      502,
      'invalid_visitor_authentication',
      `${integration}'s ${HOST_EVENT.fetchVisitorAuthentication} ${detail}; it must answer a redirect to the sign-in page (e.g. \`Response.redirect(url, 302)\`).`,
    );
  if (![301, 302, 303, 307, 308].includes(status)) throw problem(`answered HTTP ${status}`);
  let url: URL;
  try {
    url = new URL(location ?? '');
  } catch {
    throw problem(
      location
        ? 'answered a redirect whose Location is not an absolute URL'
        : 'answered a redirect without Location',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw problem(`answered a redirect to a ${url.protocol} URL`);
  return url.toString();
}

/**
 * Asks the guard where to send a visitor: to sign in (`action` undefined), or after logout. Bounded
 * like every invocation (time, response size), recorded in the installation's logs.
 *
 * @example
 * const url = await askVisitorAuthentication(ctx, executors, target, '/guide');
 */
export async function askVisitorAuthentication(
  ctx: HostContext,
  executors: ExecutorSelector,
  target: VisitorAuthTarget,
  location: string,
  action?: 'logout',
): Promise<string | undefined> {
  const { installation, integration } = target;
  const outcome = await invoke(ctx, executors, integration, installation, {
    type: HOST_EVENT.fetchVisitorAuthentication,
    eventId: newEventId(),
    installationId: installation.id,
    siteId: installation.siteId ?? '',
    location,
    ...(action ? { action } : {}),
  });
  if (!outcome.ok) {
    const { error } = outcome;
    throw new HttpError(error.code === 'timeout' ? 504 : 502, `integration_${error.code}`, error.message);
  }
  const { response } = outcome;
  await response.body?.cancel();
  return redirectTarget(
    response.status,
    response.headers.get('location'),
    integration.name,
    action === 'logout',
  );
}
