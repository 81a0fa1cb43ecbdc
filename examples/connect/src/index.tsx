import {
  createComponent,
  createIntegration,
  createOAuthHandler,
  ExposableError,
  type FetchEventCallback,
  getOAuthToken,
  Logger,
  publicPath,
  type RuntimeContext,
  type RuntimeEnvironment,
} from '@platform/runtime';

type TrackerConfiguration = {
  oauth_credentials?: { access_token: string; refresh_token?: string; expires_at?: number };
  project?: string;
};
type TrackerContext = RuntimeContext<RuntimeEnvironment<TrackerConfiguration>>;

const logger = Logger.for('tracker');
const PROJECTS = [
  { id: 'web', label: 'Web app' },
  { id: 'mobile', label: 'Mobile app' },
  { id: 'api', label: 'Public API' },
];

const oauthConfig = (context: TrackerContext) => ({
  clientId: context.environment.secrets.CLIENT_ID ?? '',
  clientSecret: context.environment.secrets.CLIENT_SECRET ?? '',
  authorizeURL: context.environment.secrets.AUTHORIZE_URL ?? '',
  accessTokenURL: context.environment.secrets.TOKEN_URL ?? '',
});

/**
 * The configuration screen, rendered by the integration itself (`configurations.account.componentId`):
 * a Connect button (OAuth in a new tab), then a project select bound to state and a Save button
 * that writes the configuration through the host API.
 */
const settings = createComponent<
  Record<string, never>,
  { project?: string; saved?: boolean },
  { action: string },
  TrackerContext
>({
  componentId: 'settings',
  initialState: { saved: false },
  action: async (element, action, context) => {
    if (action.action !== 'save') return {};
    const installationId = context.environment.installation?.id;
    if (!installationId) throw new ExposableError('This screen is not tied to an installation.');
    // A valid token is needed to talk to the tracker (refreshed when it expires).
    await getOAuthToken(
      context.environment.installation?.configuration.oauth_credentials,
      oauthConfig(context),
      context,
    );
    if (!PROJECTS.some((p) => p.id === element.state.project))
      throw new ExposableError('Choose a project first.');
    await context.api.installations.updateConfiguration(installationId, { project: element.state.project });
    logger.info('project saved', element.state.project);
    return { state: { ...element.state, saved: true } };
  },
  render: async (element, context) => {
    const configuration = context.environment.installation?.configuration ?? {};
    const connected = Boolean(configuration.oauth_credentials?.access_token);
    const endpoint = context.environment.installation?.urls.publicEndpoint ?? '';
    const project = element.state.project ?? configuration.project;
    return (
      <block>
        <hint style={connected ? 'success' : 'info'}>
          {connected ? 'Connected to the tracker.' : 'Connect your tracker account to choose a project.'}
        </hint>
        <hstack>
          <button
            label={connected ? 'Reconnect' : 'Connect'}
            style={connected ? 'secondary' : 'primary'}
            onPress={{ action: '@ui.url.open', url: `${endpoint}/oauth` }}
          />
          <button label="Refresh" onPress={{ action: 'refresh' }} />
        </hstack>
        {connected ? (
          <vstack>
            <select state="project" label="Project" initialValue={project} options={PROJECTS} />
            <button label="Save" style="primary" onPress={{ action: 'save' }} />
            {element.state.saved ? <text>Saved: {String(project)}.</text> : null}
          </vstack>
        ) : null}
      </block>
    );
  },
});

const oauth = createOAuthHandler((context) => oauthConfig(context as TrackerContext));

/** The public endpoint: `/oauth` (the OAuth flow); helpers like this may be exported freely. */
export const handleFetchEvent: FetchEventCallback<TrackerContext> = async (request, context) =>
  publicPath(request, context) === '/oauth'
    ? oauth(request, context)
    : new Response('Not found', { status: 404 });

export default createIntegration<TrackerContext>({ components: [settings], fetch: handleFetchEvent });
