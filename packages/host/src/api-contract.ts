/**
 * The host API's contract for its clients (`@platform/host/api`): every operator route the CLI and
 * the dashboard call, keyed `"METHOD /path"`, with the very zod schemas the route definitions in
 * `api/*.ts` validate and document with (a test checks they are the same objects), and the types
 * derived from them. Only zod and `api/schemas.ts` are imported, so clients import this module's
 * types (`import type`) without loading the host; the runtime part of the client (building the
 * request) is `createHostApi` of `@platform/api-client`. See docs/architecture.md, "The host API's
 * clients".
 *
 * @example
 * ```ts
 * import type { HostRoutes } from '@platform/host/api';
 * import { createHostApi } from '@platform/api-client';
 * const call = createHostApi<HostRoutes>(send);
 * const { installations } = await call('GET /v1/installations', { query: { space: 'sp1' } });
 * ```
 */
import type { z } from '@hono/zod-openapi';
import * as S from './api/schemas.js';

/** What one route takes and answers: schemas, or `null` for a route that answers no body (204). */
interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  response: z.ZodType | null;
}

/**
 * The operator routes with their schemas. Adding a route that a client calls: define it in
 * `api/*.ts` with named schemas from `api/schemas.ts`, then add it here (the contract test lists
 * what is missing or different).
 *
 * @example
 * hostApi['GET /v1/status'].response; // the HostStatus schema
 */
export const hostApi = {
  'POST /v1/integrations': { body: S.PublishIntegrationBody, response: S.Integration },
  'GET /v1/integrations': { response: S.IntegrationList },
  'GET /v1/integrations/{name}': { response: S.Integration },
  'DELETE /v1/integrations/{name}': { response: null },
  'POST /v1/integrations/{name}/tasks': { body: S.QueueTaskBody, response: S.QueuedTask },
  'GET /v1/integrations/{name}/install-link': { response: S.InstallLink },
  'POST /v1/integrations/{name}/install-link/rotate': { response: S.InstallLink },
  'GET /v1/integrations/{name}/runs': { query: S.InvocationQuery, response: S.RunList },
  'GET /v1/marketplace': { response: S.Marketplace },
  'POST /v1/installations': { body: S.InstallBody, response: S.Installation },
  'GET /v1/installations': { query: S.InstallationQuery, response: S.InstallationList },
  'GET /v1/installations/{id}': { response: S.Installation },
  'PATCH /v1/installations/{id}': { body: S.PatchInstallationBody, response: S.Installation },
  'DELETE /v1/installations/{id}': { response: null },
  'POST /v1/installations/{id}/pause': { response: S.Installation },
  'POST /v1/installations/{id}/resume': { response: S.Installation },
  'GET /v1/installations/{id}/logs': { query: S.InvocationQuery, response: S.InvocationList },
  'POST /v1/installations/{id}/render': { body: S.RenderBody, response: S.Rendered },
  'GET /v1/installations/{id}/webhook-secret': { response: S.WebhookSecret },
  'POST /v1/installations/{id}/webhook-secret/rotate': { response: S.RotatedWebhookSecret },
  'GET /v1/installations/{id}/webhook-public-key': { response: S.WebhookPublicKey },
  'POST /v1/installations/{id}/webhook-public-key/rotate': { response: S.WebhookPublicKey },
  'POST /v1/installations/{id}/endpoint/enable': {
    body: S.EnableEndpointBody,
    response: S.EndpointEnabled,
  },
  'GET /v1/installations/{id}/deliveries': { query: S.DeliveryQuery, response: S.DeliveryList },
  'GET /v1/installations/{id}/deliveries/{deliveryId}': { response: S.Delivery },
  'POST /v1/installations/{id}/deliveries/{deliveryId}/redeliver': { response: S.Delivery },
  'POST /v1/installations/{id}/test': { body: S.TestEventBody, response: S.Delivery },
  'POST /v1/installations/{id}/deliveries/redeliver': {
    body: S.RedeliverRangeBody,
    response: S.Redelivered,
  },
  'POST /v1/events': { body: S.IncomingEvent, response: S.EventAccepted },
  'GET /v1/status': { response: S.HostStatus },
  'GET /v1/operator-events': { query: S.OperatorEventQuery, response: S.OperatorEventList },
  'GET /v1/stats/deliveries': { query: S.StatsQuery, response: S.DeliveryStats },
  'GET /v1/spaces/{spaceId}': { response: S.SpaceInfo },
  'GET /v1/spaces/{spaceId}/document': { response: S.SpaceDocument },
  'PUT /v1/spaces/{spaceId}/document': { body: S.PutSpaceDocumentBody, response: S.SpaceDocument },
  'PUT /v1/spaces/{spaceId}/owner': { body: S.SetOwnerBody, response: S.OwnerSet },
  'PATCH /v1/spaces/{spaceId}/document/blocks/{blockId}': {
    body: S.PatchBlockPropsBody,
    response: S.SpaceDocument,
  },
  'POST /v1/spaces/{spaceId}/content-sources/sync': {
    body: S.ContentSourceSyncBody,
    response: S.ContentSourceSync,
  },
  'DELETE /v1/spaces/{spaceId}/owner': { response: null },
  'GET /v1/sites/{siteId}': { response: S.SiteInfo },
  'GET /v1/sites/{siteId}/published-scripts': { response: S.PublishedScriptList },
  'PUT /v1/sites/{siteId}/owner': { body: S.SetOwnerBody, response: S.OwnerSet },
  'DELETE /v1/sites/{siteId}/owner': { response: null },
  'GET /v1/whoami': { response: S.WhoAmI },
  'POST /v1/organizations': { body: S.CreateOrganizationBody, response: S.Organization },
  'GET /v1/organizations': { response: S.OrganizationList },
  'GET /v1/organizations/{organization}': { response: S.Organization },
  'GET /v1/organizations/{organization}/resources': { response: S.OrganizationResources },
  'POST /v1/organizations/{organization}/tokens': { body: S.CreateTokenBody, response: S.CreatedToken },
  'GET /v1/organizations/{organization}/tokens': { response: S.OrganizationTokenList },
  'DELETE /v1/organizations/{organization}/tokens/{tokenId}': { response: null },
  'POST /v1/portal/sessions': { body: S.CreatePortalSessionBody, response: S.PortalSession },
  'DELETE /v1/portal/sessions/{sessionId}': { response: null },
  'GET /v1/audit': { query: S.AuditQuery, response: S.AuditList },
} as const satisfies Record<string, RouteSchemas>;

/** The names of the `{placeholders}` of a path. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The request and response types of one route, derived from its schemas. */
type RouteTypes<Key extends string, R extends RouteSchemas> = {
  params: Record<ParamNames<Key>, string>;
  query: R extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;
  body: R extends { body: infer B extends z.ZodType } ? z.input<B> : never;
  response: R['response'] extends z.ZodType ? z.output<R['response']> : undefined;
};

/**
 * The types of every route of {@link hostApi}: `params` (from the path), `query` and `body` (what the
 * client sends: zod input types), `response` (what the host answers: zod output types). The type
 * parameter of `createHostApi` (`@platform/api-client`).
 *
 * @example
 * type Status = HostRoutes['GET /v1/status']['response'];
 */
export type HostRoutes = { [K in keyof typeof hostApi]: RouteTypes<K, (typeof hostApi)[K]> };

/** Every route key, e.g. `'GET /v1/status'`. @example const key: HostRoute = 'GET /v1/status'; */
export type HostRoute = keyof HostRoutes;

/** An integration (latest version), as the host answers it. @example let i: Integration; */
export type Integration = z.output<typeof S.Integration>;
/** An installation, as the host answers it. @example let i: Installation; */
export type Installation = z.output<typeof S.Installation>;
/** One invocation of an integration with its log lines. @example let i: Invocation; */
export type Invocation = z.output<typeof S.Invocation>;
/** One webhook delivery with its attempts. @example let d: Delivery; */
export type Delivery = z.output<typeof S.Delivery>;
/** One attempt of a webhook delivery. @example let a: Attempt; */
export type Attempt = z.output<typeof S.Attempt>;
/** How the delivery engine treats a webhook endpoint now. @example let e: WebhookEndpointState; */
export type WebhookEndpointState = z.output<typeof S.WebhookEndpoint>;
/** A space's document, as the host answers it. @example let d: SpaceDocumentAnswer; */
export type SpaceDocumentAnswer = z.output<typeof S.SpaceDocument>;
/** `GET /v1/status`. @example let s: HostStatus; */
export type HostStatus = z.output<typeof S.HostStatus>;
/** `GET /v1/stats/deliveries`. @example let s: DeliveryStats; s.buckets[0]?.succeeded; */
export type DeliveryStats = z.output<typeof S.DeliveryStats>;
/** One bucket of a delivery series. @example let b: StatsBucket; b.duration.p99; */
export type StatsBucket = z.output<typeof S.StatsBucket>;
/** Unfinished jobs of one kind, in `GET /v1/status`. @example let q: QueueState; */
export type QueueState = z.output<typeof S.QueueState>;
/** Who a token is (`GET /v1/whoami`). @example let w: WhoAmI; */
export type WhoAmI = z.output<typeof S.WhoAmI>;
/** An organization. @example let o: Organization; */
export type Organization = z.output<typeof S.Organization>;
/** An organization token as listed (never the token). @example let t: OrganizationToken; */
export type OrganizationToken = z.output<typeof S.OrganizationToken>;
/** One entry of the audit log. @example let e: AuditEntry; */
export type AuditEntry = z.output<typeof S.AuditEntry>;
/** A subscriber portal session. @example let s: PortalSession; */
export type PortalSession = z.output<typeof S.PortalSession>;
/** A delivery's state. @example const s: DeliveryState = 'failed'; */
export type DeliveryState = Delivery['state'];
