import type {
  EventOf,
  EventType,
  FetchPublishedScriptEvent,
  FetchVisitorAuthenticationEvent,
  IntegrationEnvironment,
  IntegrationTask,
  OrganizationInstallation,
  SiteInstallation,
  SpaceInstallation,
} from '@platform/api-client';
import type { IntegrationContext } from '../context';
import type { IntegrationTasks } from '../tasks';

/**
 * `context.environment` with the configuration types of this integration: the installation's
 * (`configurations.account` in the manifest) and the space's or site's (`configurations.space` /
 * `configurations.site`).
 *
 * @example
 * type Env = RuntimeEnvironment<{ oauth_credentials?: { access_token: string } }, { project?: string }>;
 */
export interface RuntimeEnvironment<
  InstallationConfiguration extends object = Record<string, unknown>,
  SpaceOrSiteConfiguration extends object = Record<string, unknown>,
> extends IntegrationEnvironment {
  installation?: OrganizationInstallation & { configuration: InstallationConfiguration };
  spaceInstallation?: SpaceInstallation & { configuration: SpaceOrSiteConfiguration };
  siteInstallation?: SiteInstallation & { configuration: SpaceOrSiteConfiguration };
}

/**
 * The context handlers receive, with a typed environment and, optionally, the union of the integration's
 * tasks (what `context.integration.queueTask` accepts, docs/tasks.md).
 *
 * @example
 * type MyContext = RuntimeContext<RuntimeEnvironment<{ token?: string }>>;
 * const handler = async (event: EventByType<'space_view'>, context: MyContext) =>
 *   context.environment.installation?.configuration.token;
 */
export interface RuntimeContext<
  Environment extends IntegrationEnvironment = IntegrationEnvironment,
  Task extends IntegrationTask = IntegrationTask,
> extends IntegrationContext {
  environment: Environment;
  integration: IntegrationTasks<Task>;
}

/**
 * The integration's `fetch` handler (public endpoint requests) with a typed context.
 * @example const handleFetchEvent: FetchEventCallback<MyContext> = async (request, context) => new Response('ok');
 */
export type FetchEventCallback<Context extends RuntimeContext = RuntimeContext> = (
  request: Request,
  context: Context,
) => Response | Promise<Response>;

/**
 * The event type of a name.
 * @example const onView = async (event: EventByType<'space_view'>) => event.spaceId;
 */
export type EventByType<T extends EventType> = EventOf<T>;

/**
 * The integration's published-script hook (docs/published-scripts.md) with a typed context:
 * the script for the installation's site, or nothing.
 * @example
 * const handleFetchEvent: FetchPublishScriptEventCallback<MyContext> = async (event, { environment }) =>
 *   new Response(`console.log(${JSON.stringify(event.siteId)})`, { headers: { 'content-type': 'application/javascript' } });
 */
export type FetchPublishScriptEventCallback<Context extends RuntimeContext = RuntimeContext> = (
  event: FetchPublishedScriptEvent,
  context: Context,
) => Response | undefined | Promise<Response | undefined>;

/**
 * The integration's visitor-authentication hook (docs/visitor-authentication.md) with a typed context:
 * a redirect to the identity provider, or (logout) to where the visitor goes next.
 * @example
 * const signIn: FetchVisitorAuthenticationEventCallback<MyContext> = async (event) =>
 *   Response.redirect(`https://idp.example.com/authorize?state=${encodeURIComponent(event.location)}`);
 */
export type FetchVisitorAuthenticationEventCallback<Context extends RuntimeContext = RuntimeContext> = (
  event: FetchVisitorAuthenticationEvent,
  context: Context,
) => Response | undefined | Promise<Response | undefined>;
