import type {
  ContentComputeDocumentEvent,
  ContentComputeRevisionEvent,
  Event,
  EventOf,
  EventType,
  FetchEvent,
  FetchPublishedScriptEvent,
  FetchVisitorAuthenticationEvent,
  IntegrationTask,
} from '@platform/api-client';
import { createApiClient, HOST_EVENT } from '@platform/api-client';
import type { Component } from './component';
import type { ContentSourceDefinition } from './content-source';
import type { IntegrationContext } from './context';
import { type Envelope, EnvelopeError, parseEnvelope } from './envelope';
import { IntegrationError, jsonError } from './errors';
import { ConsoleCapture, createLogger, InvocationLog, LOGS_HEADER, type Logger } from './logs';
import { verifyPlatformSignature } from './platform-signature';
import { type IntegrationTasks, integrationTasks } from './tasks';

/**
 * The tasks a context's `integration.queueTask` accepts (`RuntimeContext`'s second parameter).
 * @example type T = TaskOf<RuntimeContext<RuntimeEnvironment, { type: 'sync'; payload: {} }>>;
 */
export type TaskOf<Context extends IntegrationContext> =
  Context['integration'] extends IntegrationTasks<infer Task> ? Task : IntegrationTask;

/** A W3C `traceparent` (version 00): what the host sends with an envelope when it traces. */
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Envelope versions this runtime speaks. */
export const SUPPORTED_VERSIONS = ['v1'] as const;

/**
 * Event names handled through `events` (public endpoint requests, component renders and published
 * scripts have their own slots, since they answer something).
 */
export type RuntimeEventType = Exclude<
  EventType,
  | typeof HOST_EVENT.fetch
  | typeof HOST_EVENT.uiRender
  | typeof HOST_EVENT.fetchPublishedScript
  | typeof HOST_EVENT.fetchVisitorAuthentication
  | typeof HOST_EVENT.contentComputeRevision
  | typeof HOST_EVENT.contentComputeDocument
>;

/**
 * Handlers of runtime events, by name.
 * @example const events: EventHandlers = { page_feedback: async (e, ctx) => ctx.logger.info(e.pageId) };
 */
export type EventHandlers<Context extends IntegrationContext = IntegrationContext> = {
  [K in RuntimeEventType]?: (event: EventOf<K>, context: Context) => unknown | Promise<unknown>;
};

/**
 * Parameters of {@link createIntegration} (docs/contracts.md "Integration definition").
 * @example const def: IntegrationDefinition = { events: {}, components: [] };
 */
export interface IntegrationDefinition<Context extends IntegrationContext = IntegrationContext> {
  /** Handles requests to the public endpoint (and below it). */
  fetch?: (request: Request, context: Context) => Response | Promise<Response>;
  /** Components made with `createComponent`. */
  components?: Component[];
  /** Runtime event handlers. */
  events?: EventHandlers<Context>;
  /**
   * The script the published pages of a site include (docs/published-scripts.md): a JavaScript
   * `Response`, or nothing when this installation has none (e.g. not configured yet). Needs the
   * internal scope `site:script:inject` (first-party integrations only).
   */
  fetch_published_script?: (
    event: FetchPublishedScriptEvent,
    context: Context,
  ) => Response | undefined | Promise<Response | undefined>;
  /**
   * Visitor authentication (docs/visitor-authentication.md): where a visitor of the protected site is
   * sent to sign in, as a redirect (`Response.redirect(url)`); for `event.action === 'logout'`, where
   * they go once logged out (or nothing: the site's root). Needs the scope `site:visitor:auth`.
   */
  fetch_visitor_authentication?: (
    event: FetchVisitorAuthenticationEvent,
    context: Context,
  ) => Response | undefined | Promise<Response | undefined>;
  /** Content sources made with `createContentSource` (docs/content-sources.md). */
  contentSources?: ContentSourceDefinition<Context>[];
  /**
   * Runs the tasks queued with `context.integration.queueTask` when they fall due (docs/tasks.md); a
   * throw retries the task. Same as `events.integration_task`, with the task instead of the event.
   */
  task?(task: TaskOf<Context>, context: Context): unknown | Promise<unknown>;
}

/** The `ctx` of a Workers module `fetch`. */
export interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * A Workers module: `export default createIntegration(...)`.
 * @example const response = await integration.fetch(request, {}, ctx);
 */
export interface IntegrationModule {
  fetch(request: Request, env?: Record<string, unknown>, ctx?: ExecutionContextLike): Promise<Response>;
  /** The definition given to `createIntegration` (for tests and tools). */
  readonly definition: IntegrationDefinition;
}

const capture = new ConsoleCapture();

function makeWaitUntil(ctx: ExecutionContextLike | undefined): (promise: Promise<unknown>) => void {
  return (promise) => {
    const guarded = promise.catch((error: unknown) => {
      console.error('[platform] waitUntil task failed:', error instanceof Error ? error.message : error);
    });
    if (ctx) ctx.waitUntil(guarded);
  };
}

function errorResponse(error: unknown, logger: Logger): Response {
  if (error instanceof IntegrationError) {
    logger.warn(`IntegrationError ${error.status} ${error.code}: ${error.message}`);
    return jsonError(error.status, error.code, error.message);
  }
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  logger.error(`Unhandled error: ${detail}`);
  return jsonError(500, 'integration_error', 'The integration failed');
}

function rebuildRequest(event: FetchEvent, body: ArrayBuffer | undefined): Request {
  const { method, url, headers } = event.request;
  const clean = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (!/^(content-length|transfer-encoding|connection|keep-alive)$/i.test(name)) clean.set(name, value);
  }
  const upper = method.toUpperCase();
  const hasBody = body !== undefined && upper !== 'GET' && upper !== 'HEAD';
  try {
    return new Request(url, { method: upper, headers: clean, body: hasBody ? body : undefined });
  } catch {
    throw new EnvelopeError('Invalid "event" part: event.request could not be turned into a Request');
  }
}

async function dispatch(
  definition: IntegrationDefinition,
  envelope: Envelope,
  context: IntegrationContext,
): Promise<Response> {
  const event: Event = envelope.event;
  if (event.type === HOST_EVENT.fetch) {
    const request = rebuildRequest(event, envelope.body);
    if (!definition.fetch) return jsonError(404, 'no_fetch_handler', 'This integration has no fetch handler');
    const response: unknown = await definition.fetch(request, context);
    if (!(response instanceof Response)) throw new TypeError('The fetch handler did not return a Response');
    return response;
  }
  if (event.type === HOST_EVENT.fetchPublishedScript) {
    const hook = definition.fetch_published_script;
    if (!hook) {
      return jsonError(404, 'no_published_script', 'This integration has no fetch_published_script hook');
    }
    const response: unknown = await hook(event, context);
    // Nothing to include for this installation: an empty answer, which the host passes on.
    if (response === undefined || response === null) return new Response(null, { status: 204 });
    if (!(response instanceof Response)) {
      throw new TypeError('fetch_published_script returned neither a Response nor nothing');
    }
    return response;
  }
  if (event.type === HOST_EVENT.fetchVisitorAuthentication) {
    const hook = definition.fetch_visitor_authentication;
    if (!hook) {
      return jsonError(
        404,
        'no_visitor_authentication',
        'This integration has no fetch_visitor_authentication hook',
      );
    }
    const response: unknown = await hook(event, context);
    if (response === undefined || response === null) return new Response(null, { status: 204 });
    if (!(response instanceof Response)) {
      throw new TypeError('fetch_visitor_authentication returned neither a Response nor nothing');
    }
    return response;
  }
  if (event.type === HOST_EVENT.contentComputeRevision || event.type === HOST_EVENT.contentComputeDocument) {
    const computed = event as ContentComputeRevisionEvent | ContentComputeDocumentEvent;
    const source = definition.contentSources?.find((s) => s.sourceId === computed.sourceId);
    if (!source) {
      return jsonError(
        404,
        'content_source_not_found',
        `No content source "${computed.sourceId}" in this integration`,
      );
    }
    return source.compute(computed, context);
  }
  if (event.type === HOST_EVENT.uiRender) {
    const component = definition.components?.find((c) => c.componentId === event.componentId);
    if (!component) {
      return jsonError(404, 'component_not_found', `No component "${event.componentId}" in this integration`);
    }
    return Response.json(await component.handle(event, context));
  }
  if (event.type === HOST_EVENT.integrationTask && definition.task && !definition.events?.integration_task) {
    await definition.task(event.task, context);
    return Response.json({ ok: true });
  }
  const handler = definition.events?.[event.type] as
    | ((event: Event, context: IntegrationContext) => unknown)
    | undefined;
  if (!handler) {
    context.logger.info(`No handler for event "${event.type}"; acknowledged`);
    return Response.json({ ok: true, handled: false });
  }
  await handler(event, context);
  return Response.json({ ok: true });
}

function withLogs(response: Response, log: InvocationLog): Response {
  const value = log.toHeader();
  try {
    response.headers.set(LOGS_HEADER, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(LOGS_HEADER, value);
    return copy;
  }
}

/**
 * Builds the Workers module of an integration. It serves `POST /v1` with the
 * multipart envelope (docs/contracts.md): verifies `X-Platform-Signature` when
 * `env.PLATFORM_SIGNING_SECRET` is set, dispatches the event, and returns the
 * invocation's logs in `X-Platform-Logs`.
 *
 * @example
 * export default createIntegration({
 *   events: { installation_setup: async (event, context) => context.logger.info(event.status) },
 *   fetch: async (request) => new Response('hello'),
 * });
 */
export function createIntegration<Context extends IntegrationContext = IntegrationContext>(
  typed: IntegrationDefinition<Context>,
): IntegrationModule {
  // `Context` only narrows what handlers see (e.g. a typed `environment`); at run time it is the context below.
  const definition = typed as unknown as IntegrationDefinition;
  const ids = (definition.components ?? []).map((c) => c.componentId);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new TypeError(`createIntegration: two components have the id "${duplicate}"`);

  async function handle(request: Request, env: Record<string, unknown> = {}, ctx?: ExecutionContextLike) {
    const path = new URL(request.url).pathname;
    const match = /^\/(v\d+)\/?$/.exec(path);
    if (!match) return jsonError(404, 'not_found', `Nothing at ${path}: the runtime serves POST /v1`);
    if (!(SUPPORTED_VERSIONS as readonly string[]).includes(match[1] ?? '')) {
      return jsonError(400, 'unsupported_version', `Envelope version "${match[1]}" is not supported`, {
        supported: [...SUPPORTED_VERSIONS],
      });
    }
    if (request.method !== 'POST') {
      return jsonError(
        405,
        'method_not_allowed',
        `Use POST ${path}, not ${request.method}`,
        {},
        { allow: 'POST' },
      );
    }
    const raw = await request.arrayBuffer();
    const secret = env.PLATFORM_SIGNING_SECRET;
    if (typeof secret === 'string' && secret !== '') {
      const ok = await verifyPlatformSignature(
        request.headers.get('x-platform-signature'),
        new Uint8Array(raw),
        secret,
      );
      if (!ok) {
        return jsonError(
          401,
          'invalid_signature',
          'X-Platform-Signature is missing, malformed, expired or wrong',
        );
      }
    }
    let envelope: Envelope;
    try {
      envelope = await parseEnvelope(raw, request.headers.get('content-type'));
    } catch (error) {
      if (error instanceof EnvelopeError) return jsonError(400, error.code, error.message);
      throw error;
    }
    const { environment } = envelope;
    const log = new InvocationLog([
      environment.apiTokens.installation,
      ...Object.values(environment.secrets),
      ...(environment.signingSecrets?.siteInstallation ? [environment.signingSecrets.siteInstallation] : []),
    ]);
    const logger = createLogger(log);
    const api = createApiClient({
      endpoint: environment.apiEndpoint,
      token: environment.apiTokens.installation,
      integration: environment.integration.name,
      ...(environment.installation ? { installation: environment.installation.id } : {}),
    });
    const context: IntegrationContext = {
      environment,
      api,
      integration: integrationTasks(api, environment),
      waitUntil: makeWaitUntil(ctx),
      logger,
      env,
    };
    const traceparent = request.headers.get('traceparent');
    if (traceparent !== null && TRACEPARENT.test(traceparent)) context.traceparent = traceparent;
    let response: Response;
    try {
      response = await capture.run(log, () => dispatch(definition, envelope, context));
    } catch (error) {
      response =
        error instanceof EnvelopeError
          ? jsonError(400, error.code, error.message)
          : errorResponse(error, logger);
    } finally {
      log.close();
    }
    return withLogs(response, log);
  }

  return { fetch: handle, definition };
}
