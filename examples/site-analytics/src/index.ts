import {
  createIntegration,
  type FetchPublishScriptEventCallback,
  type RuntimeContext,
  type RuntimeEnvironment,
} from '@platform/runtime';
import { trackerScript } from './tracker';

/** The site installation's settings (`configurations.site` of the manifest). */
type Context = RuntimeContext<RuntimeEnvironment<Record<string, unknown>, { domain?: string }>>;

/**
 * The script of the site's pages: nothing until a domain is configured, then the tracker with it.
 * The host caches it per installation configuration for the `max-age` given here (at most an hour).
 */
const fetchPublishedScript: FetchPublishScriptEventCallback<Context> = async (event, { environment }) => {
  const domain = environment.siteInstallation?.configuration.domain;
  if (!domain) return undefined;
  return new Response(trackerScript({ domain, siteId: event.siteId }), {
    headers: { 'content-type': 'application/javascript', 'cache-control': 'max-age=600' },
  });
};

export default createIntegration<Context>({ fetch_published_script: fetchPublishedScript });
