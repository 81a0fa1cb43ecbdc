import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createComponent } from '../component';
import { ContentKit } from '../contentkit';
import { createIntegration } from '../integration';
import { type LoopbackServer, listenOnLoopback, type RecordedRequest } from '../test-support';
import { decodeLogsHeader, envelopeRequest, testEnvironment } from '../testing';
import {
  type EventByType,
  ExposableError,
  type FetchEventCallback,
  getOAuthToken,
  Logger,
  type RuntimeContext,
  type RuntimeEnvironment,
} from './index';

type MyContext = RuntimeContext<RuntimeEnvironment<{ oauth_credentials?: { access_token: string } }>>;

const moduleLogger = Logger.for('porting');
/** The call form the public integrations use at module scope, typed through `ReturnType`. */
const calledLogger: ReturnType<typeof Logger> = Logger('porting:called');

/** Typed like the public integrations write it: exported helper, typed context, typed event. */
export const handleFetchEvent: FetchEventCallback<MyContext> = async (request, context) => {
  const path = new URL(request.url).pathname;
  moduleLogger.info('fetch', path);
  calledLogger.warn('warned', { path });
  calledLogger.debug('debugged');
  calledLogger.error('failed', new Error('boom'));
  if (path.endsWith('/exposed')) throw new ExposableError('Paste a link to a public diagram.');
  if (path.endsWith('/secret')) throw new Error('db password is hunter2');
  const token = context.environment.installation?.configuration.oauth_credentials?.access_token;
  return new Response(token ?? 'none');
};

const onView = async (event: EventByType<'space_view'>, context: MyContext) => {
  context.logger.info('viewed', event.spaceId);
};

const failing = createComponent({
  componentId: 'failing',
  render: async (element) => {
    if (element.props.mode === 'exposed') throw new ExposableError('This board is private.', 403);
    throw new Error('internal detail');
  },
});

const integration = createIntegration<MyContext>({
  fetch: handleFetchEvent,
  events: { space_view: onView },
  components: [failing, createComponent({ componentId: 'ok', render: () => ContentKit.block() })],
});

function fetchEvent(path: string) {
  return envelopeRequest({
    type: 'fetch',
    eventId: 'e',
    request: { method: 'GET', url: `https://host.example/public${path}`, headers: {} },
  });
}

describe('ExposableError', () => {
  it('reaches the user with its message and status from fetch and render; other errors stay generic', async () => {
    const exposed = await integration.fetch(fetchEvent('/exposed'));
    expect(exposed.status).toBe(400);
    expect(await exposed.json()).toEqual({
      error: { code: 'exposable_error', message: 'Paste a link to a public diagram.' },
    });
    const secret = await integration.fetch(fetchEvent('/secret'));
    expect(secret.status).toBe(500);
    expect(JSON.stringify(await secret.json())).not.toContain('hunter2');

    const render = (mode: string) =>
      integration.fetch(
        envelopeRequest({ type: 'ui_render', eventId: 'e', componentId: 'failing', props: { mode } }),
      );
    const privateBoard = await render('exposed');
    expect(privateBoard.status).toBe(403);
    expect(((await privateBoard.json()) as { error: { message: string } }).error.message).toBe(
      'This board is private.',
    );
    const generic = await render('other');
    expect(generic.status).toBe(500);
    expect(await generic.json()).toEqual({
      error: { code: 'integration_error', message: 'The integration failed' },
    });
  });
});

describe('Logger', () => {
  it("Logger.for and Logger(name) write prefixed lines at their level into the invocation's log", async () => {
    const response = await integration.fetch(fetchEvent('/hello'));
    expect(await response.text()).toBe('none');
    const lines = decodeLogsHeader(response.headers.get('x-platform-logs'));
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', message: '[porting] fetch /public/hello' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', message: '[porting:called] warned {"path":"/public/hello"}' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'debug', message: '[porting:called] debugged' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: '[porting:called] failed Error: boom' }),
    );
  });

  it('is a function with `for` as an alias, returning the four methods', () => {
    expect(typeof Logger).toBe('function');
    const logger = Logger('x');
    expect(Object.keys(logger).sort()).toEqual(['debug', 'error', 'info', 'warn']);
    expect(Object.keys(Logger.for('x')).sort()).toEqual(['debug', 'error', 'info', 'warn']);
  });
});

describe('getOAuthToken', () => {
  let server: LoopbackServer;
  let base = '';
  let seen: RecordedRequest[] = [];
  beforeAll(async () => {
    server = await listenOnLoopback((req, body, res) => {
      if (req.url === '/token') {
        const refresh = new URLSearchParams(body).get('refresh_token');
        if (refresh !== 'RT_1') {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: 'AT_2', expires_in: 3600 }));
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 'inst_test', configuration: JSON.parse(body).configuration }));
    });
    base = server.url;
    seen = server.seen;
  });
  afterAll(() => server.close());

  const now = () => 1_000_000_000;
  async function token(credentials: unknown) {
    let result: unknown;
    const probe = createIntegration({
      fetch: async (_request, context) => {
        result = await getOAuthToken(
          credentials,
          { clientId: 'c', clientSecret: 's', accessTokenURL: `${base}/token` },
          context,
          now,
        ).catch((error: unknown) => error);
        return new Response('ok');
      },
    });
    await probe.fetch(
      envelopeRequest(
        { type: 'fetch', eventId: 'e', request: { method: 'GET', url: 'https://h/x', headers: {} } },
        { environment: testEnvironment({ apiEndpoint: base }) },
      ),
    );
    return result;
  }

  it('returns a valid token as is, without any request', async () => {
    seen.length = 0;
    expect(await token({ access_token: 'AT_1', expires_at: now() + 3_600_000 })).toBe('AT_1');
    expect(await token({ access_token: 'AT_1' })).toBe('AT_1');
    expect(seen).toEqual([]);
  });

  it('refreshes an expired token and saves the new credentials to the installation', async () => {
    seen.length = 0;
    expect(await token({ access_token: 'AT_1', refresh_token: 'RT_1', expires_at: now() - 1 })).toBe('AT_2');
    expect(new URLSearchParams(seen[0]?.body).get('grant_type')).toBe('refresh_token');
    expect(seen[1]?.url).toBe('/v1/installations/inst_test');
    expect(JSON.parse(seen[1]?.body ?? '{}')).toEqual({
      configuration: {
        oauth_credentials: {
          access_token: 'AT_2',
          expires_in: 3600,
          refresh_token: 'RT_1',
          expires_at: now() + 3_600_000,
        },
      },
    });
  });

  it('throws an ExposableError telling the user to connect when it cannot give a token', async () => {
    expect(await token(undefined)).toMatchObject({ name: 'ExposableError', status: 401 });
    expect(String(await token({ access_token: 'x', expires_at: 0 }))).toMatch(
      /expired: connect the integration again/,
    );
    expect(String(await token({ access_token: 'x', refresh_token: 'bad', expires_at: 0 }))).toMatch(
      /could not be renewed/,
    );
  });
});
