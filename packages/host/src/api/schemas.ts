import { z } from '@hono/zod-openapi';
import type { Installation as ApiInstallation, ContentKitElement } from '@platform/api-client';
import { documentNodeSchema, spaceDocumentSchema } from '@platform/api-client/document-schema';
import { type IncomingEvent as CatalogueIncomingEvent, IncomingEventSchema } from '@platform/events';
import { OPERATOR_EVENT_TYPES } from '../delivery/operator-events.js';
import { MAX_TASK_SCHEDULE_S } from '../services/task-limits.js';

/**
 * The host API's JSON shapes: one zod schema each, the single source of truth for
 * request validation, response typing and the served OpenAPI document.
 */

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'invalid_request' }),
      message: z.string().openapi({ example: 'configuration.url must be an https: URL.' }),
      details: z.unknown().optional(),
    }),
  })
  .openapi('Error');

export const InstallationStatus = z.enum(['pending', 'active', 'paused']).openapi('InstallationStatus');
export const Target = z.enum(['organization', 'space', 'site']);

export const Installation = z
  .object({
    id: z.string().openapi({ example: 'inst_4f2a9c' }),
    integration: z.string().openapi({ example: 'webhook' }),
    target: Target,
    space: z.string().optional(),
    site: z.string().optional(),
    organization: z.string().optional(),
    owner: z.string().optional().openapi({
      description:
        'the organization that owns the installation (absent: only the operator sees it, made where no owner was known)',
    }),
    status: InstallationStatus,
    configuration: z.record(z.string(), z.unknown()),
    configurationErrors: z.array(z.object({ key: z.string(), message: z.string() })),
    externalIds: z.array(z.string()),
    urls: z.object({ publicEndpoint: z.string() }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Installation');
/** The served schema and the client type are one contract: this fails to compile if they drift. */
export type InstallationMatchesClient =
  z.infer<typeof Installation> extends ApiInstallation
    ? ApiInstallation extends z.infer<typeof Installation>
      ? true
      : never
    : never;
const _installationContract: InstallationMatchesClient = true;
void _installationContract;

export const InstallBody = z
  .object({
    integration: z.string().min(1).openapi({ example: 'webhook' }),
    space: z.string().min(1).optional(),
    site: z.string().min(1).optional(),
    organization: z.string().min(1).optional(),
    configuration: z.record(z.string(), z.unknown()).default({}),
    externalIds: z.array(z.string()).optional(),
    installLink: z.string().min(1).max(200).optional().openapi({
      description:
        "the integration's install link token (`pil_…`): needed to install another organization's `unlisted` integration",
    }),
  })
  .strict()
  .openapi('InstallRequest');

export const PatchInstallationBody = z
  .object({
    configuration: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'JSON merge patch of the configuration: keys set, null deletes.' }),
    externalIds: z.array(z.string()).optional(),
  })
  .strict()
  .openapi('PatchInstallationRequest');

export const Integration = z
  .object({
    name: z.string(),
    version: z.string(),
    title: z.string(),
    description: z.string(),
    visibility: z.string(),
    scopes: z.array(z.string()),
    firstParty: z.boolean(),
    iconUrl: z.string().nullable().openapi({
      description:
        'URL of the uploaded icon (GET, no token needed; immutable), or null when none was uploaded',
    }),
    previewImageUrls: z
      .array(z.string())
      .openapi({ description: 'URLs of the uploaded preview images, in manifest order' }),
    manifest: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
  })
  .openapi('Integration');

export const PublishBody = z
  .object({
    manifest: z.string().min(1).openapi({ description: 'platform-manifest.yaml, as text' }),
    bundle: z.string().min(1).openapi({ description: 'the built ESM bundle (default export { fetch })' }),
    dev: z
      .boolean()
      .optional()
      .openapi({ description: 'development mode: the same version may be re-published' }),
    env: z.record(z.string(), z.string()).optional().openapi({
      description:
        'values of the environment variables the manifest secrets reference (env.NAME expressions)',
    }),
    firstParty: z.boolean().optional().openapi({
      description:
        'the operator vouches for the integration: grants the internal scopes (`site:script:inject`, `site:script:cookies`); built-in names stay reserved, and the code still runs in workerd (docs/security.md "First-party integrations")',
    }),
    assets: z.record(z.string(), z.string()).optional().openapi({
      description:
        "the manifest's image files: its `icon` and `previewImages` paths, exactly as written there, mapped to the files' bytes in base64 (each at most 4 MiB; icon PNG, JPEG, SVG or WebP; previews PNG or JPEG)",
    }),
  })
  .strict()
  .openapi('PublishRequest');

/**
 * Events the documentation platform posts to `POST /v1/events`: the event catalogue's schema
 * (`@platform/events`, docs/events.md), named `Event` in the OpenAPI document. A clone: zod gives a
 * schema the `.openapi` method when it is built, and the catalogue's may be built before
 * `@hono/zod-openapi` is loaded.
 */
export const IncomingEvent = IncomingEventSchema.clone().openapi('Event');
export type IncomingEvent = CatalogueIncomingEvent;

export const Attempt = z
  .object({
    number: z.number().int(),
    series: z.number().int(),
    startedAt: z.string(),
    durationMs: z.number(),
    statusCode: z.number().int().optional(),
    acknowledged: z.literal(true).optional().openapi({
      description: "a broker destination's acknowledgement (no HTTP status): docs/destinations.md",
    }),
    error: z.string().optional(),
    responseExcerpt: z.string().optional(),
  })
  .openapi('Attempt');

export const Delivery = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    state: z.enum(['queued', 'running', 'succeeded', 'failed', 'exhausted', 'cancelled']),
    series: z.number().int(),
    nextAttemptAt: z.string().optional(),
    held: z.boolean().optional().openapi({
      description:
        'true: kept, not sent, because the endpoint is disabled (docs/contracts.md "Endpoint health"); it is delivered when the endpoint is enabled again',
    }),
    createdAt: z.string(),
    payload: z.unknown(),
    attempts: z.array(Attempt),
  })
  .openapi('Delivery');

/** `GET /v1/operator-events` query. */
export const OperatorEventQuery = z.object({
  state: z.enum(['queued', 'running', 'succeeded', 'failed', 'exhausted', 'cancelled']).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().optional(),
});

/** `GET /v1/operator-events`: where they go, and their deliveries. */
export const OperatorEventList = z
  .object({
    endpoint: z.string().nullable().openapi({
      description: 'origin of PLATFORM_OPERATOR_EVENTS_URL; null: not set, no operator event is sent',
    }),
    types: z.array(z.enum(OPERATOR_EVENT_TYPES)),
    deliveries: z.array(Delivery),
    nextCursor: z.string().nullable(),
  })
  .openapi('OperatorEventList');

/** How the installation's endpoint is treated by the delivery engine right now. */
export const WebhookEndpoint = z
  .object({
    slow: z.boolean().openapi({
      description:
        'An attempt to this endpoint ran past 500 ms within the last minute: its deliveries share a limited number of delivery slots (fair share), so a slow endpoint cannot hold up other subscribers.',
    }),
    maxInFlight: z.number().int().nullable().openapi({
      description:
        'While slow: the most deliveries to this installation in flight at once (PLATFORM_DELIVERY_CONCURRENCY_PER_INSTALLATION); null otherwise.',
    }),
    filtered: z.number().int().openapi({
      description:
        "Events of a selected type that the installation's payload filter kept from it (no delivery made), accepted by this host since it started.",
    }),
    // Endpoint health (issue 28): docs/contracts.md "Endpoint health".
    disabled: z.boolean().openapi({
      description:
        'Disabled after every delivery was exhausted for PLATFORM_ENDPOINT_DISABLE_AFTER (default 24 h): nothing is sent to it, new deliveries are kept (held) until it is enabled again (POST /v1/installations/{id}/endpoint/enable).',
    }),
    disabledAt: z.string().nullable().openapi({ description: 'when it was disabled; null while enabled' }),
    failingSince: z.string().nullable().openapi({
      description: 'start of the current run of exhausted deliveries (no success since); null when none',
    }),
    held: z.number().int().openapi({ description: 'deliveries kept while it is disabled' }),
  })
  .openapi('WebhookEndpointState');

/** `POST /v1/installations/{id}/endpoint/enable`. */
export const EnableEndpointBody = z
  .object({
    held: z.enum(['deliver', 'cancel']).optional().openapi({
      description:
        'the deliveries kept while it was disabled: `deliver` them now (default), or `cancel` them (still listed, state cancelled)',
    }),
  })
  .strict()
  .openapi('EnableEndpointRequest');

/** What enabling an endpoint did. */
export const EndpointEnabled = z
  .object({
    endpoint: z.object({
      disabled: z.boolean(),
      disabledAt: z.string().nullable(),
      failingSince: z.string().nullable(),
      held: z.number().int(),
    }),
    delivering: z.number().int().openapi({ description: 'kept deliveries queued to be sent now' }),
    cancelled: z.number().int().openapi({ description: 'kept deliveries cancelled' }),
  })
  .openapi('EndpointEnabled');

/** Unfinished jobs of one kind (`GET /v1/status`). */
export const QueueState = z
  .object({
    queued: z.number().int().openapi({ description: 'waiting, due or not (held ones included)' }),
    due: z.number().int().openapi({ description: 'queued and due now' }),
    held: z.number().int().openapi({ description: "a slow endpoint's deliveries, waiting for its share" }),
    running: z.number().int(),
    oldestDueAgeSeconds: z.number().openapi({
      description: 'age of the oldest due job still waiting (0 when none): how far behind the workers are',
    }),
  })
  .openapi('QueueState');

/** The host at a glance, for operators (`GET /v1/status`). */
export const HostStatus = z
  .object({
    version: z.string(),
    startedAt: z.string(),
    deliveries: QueueState.openapi({ description: 'webhook deliveries' }),
    invocations: QueueState.openapi({ description: 'events queued for integrations' }),
    slowEndpoints: z
      .array(
        z.object({
          installationId: z.string(),
          integration: z.string(),
          target: z.string(),
          targetId: z.string().nullable(),
          origin: z
            .string()
            .nullable()
            .openapi({ description: "the endpoint URL's origin (no path: it may carry a token)" }),
        }),
      )
      .openapi({ description: 'webhook endpoints held to their fair share now' }),
  })
  .openapi('HostStatus');

/** Query of `GET /v1/stats/deliveries`. */
export const StatsQuery = z.object({
  range: z.enum(['hour', 'day', 'week']).default('hour').openapi({
    description: 'the last hour (1-minute buckets), day (5-minute buckets) or week (1-hour buckets)',
  }),
  installation: z.string().min(1).optional().openapi({
    description: "one installation's series (required for organization tokens); absent: the whole host",
  }),
});

const StatsPercentiles = z
  .object({ p50: z.number().nullable(), p95: z.number().nullable(), p99: z.number().nullable() })
  .openapi('StatsPercentiles', {
    description: 'in ms, from a histogram with four buckets per doubling (within ≈ 9 %); null: no value',
  });

/** One bucket of a delivery series. */
export const StatsBucket = z
  .object({
    at: z.string().openapi({ description: 'start of the bucket (ISO 8601)' }),
    attempts: z.number().int().openapi({ description: 'delivery attempts started in the bucket' }),
    succeeded: z.number().int().openapi({ description: 'attempts answered 2xx' }),
    retried: z
      .number()
      .int()
      .openapi({ description: 'failed attempts another attempt follows (429, 5xx, network errors)' }),
    failed: z
      .number()
      .int()
      .openapi({ description: 'failed for good: a final failure, or the last attempt (exhausted)' }),
    successRate: z
      .number()
      .nullable()
      .openapi({ description: 'succeeded / attempts; null without attempts' }),
    duration: StatsPercentiles.openapi({ description: 'attempt durations' }),
    firstAttempt: StatsPercentiles.openapi({ description: 'accepted → first attempt started' }),
    backlog: z.object({ queued: z.number().int(), due: z.number().int() }).nullable().openapi({
      description: "deliveries waiting when sampled (the most of the bucket's samples); null: not sampled",
    }),
  })
  .openapi('StatsBucket');

/** A delivery series (`GET /v1/stats/deliveries`). */
export const DeliveryStats = z
  .object({
    range: z.enum(['hour', 'day', 'week']),
    installationId: z.string().nullable(),
    bucketSeconds: z.number().int(),
    from: z.string(),
    to: z.string(),
    rolledUpAt: z.string().nullable().openapi({ description: 'when the statistics were last rolled up' }),
    buckets: z.array(StatsBucket),
  })
  .openapi('DeliveryStats');

// ---------------------------------------------------------------------------------------------
// Request and response bodies of the other operator routes, named so that the routes and the
// typed client (`../api-contract.ts`, `@platform/host/api`) use the same schema objects.

/** `POST /v1/integrations`: a publish request, with an optional explicit version. */
export const PublishIntegrationBody = PublishBody.extend({ version: z.string().optional() });

/** `GET /v1/integrations`. */
export const IntegrationList = z.object({ integrations: z.array(Integration) });

/** `GET /v1/installations` query. */
export const InstallationQuery = z.object({
  integration: z.string().optional(),
  space: z.string().optional(),
  site: z.string().optional(),
});

/** `GET /v1/installations`. */
export const InstallationList = z.object({ installations: z.array(Installation) });

export const LogLine = z.object({ level: z.string(), message: z.string(), time: z.number() });

/** One invocation of an installation's integration with its log lines. */
export const Invocation = z
  .object({
    id: z.string(),
    eventType: z.string(),
    eventId: z.string().nullable(),
    status: z.union([z.number(), z.literal('error')]),
    durationMs: z.number(),
    lines: z.array(LogLine),
    createdAt: z.string(),
  })
  .openapi('Invocation');

/** `GET /v1/installations/{id}/logs` query. */
export const InvocationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  since: z.coerce.number().int().optional(),
});

/** `GET /v1/installations/{id}/logs`. */
export const InvocationList = z.object({ invocations: z.array(Invocation) });

/** `GET /v1/installations/{id}/webhook-secret`. */
export const WebhookSecret = z.object({
  secret: z.string(),
  previous: z.array(z.string()).optional(),
  standardWebhooks: z
    .object({ secret: z.string(), previous: z.array(z.string()).optional() })
    .optional()
    .openapi({
      description:
        'The same secret(s) in the Standard Webhooks spelling (whsec_ + padded base64 of the key bytes): what `new Webhook(secret)` of the standardwebhooks and svix packages takes, for signature_scheme standard-webhooks.',
    }),
});

/** `GET /v1/installations/{id}/webhook-public-key`. */
export const WebhookPublicKey = z
  .object({
    algorithm: z.literal('ed25519'),
    publicKey: z.string().openapi({ example: 'whpk_MCowBQYDK2VwAyEA…' }),
    scheme: z.enum(['platform', 'standard-webhooks', 'ed25519']),
    createdAt: z.string(),
    previous: z.object({ publicKey: z.string(), expiresAt: z.string() }).optional().openapi({
      description: 'During a rotation: the previous public key, which still signs until expiresAt',
    }),
  })
  .openapi('WebhookPublicKey');

/** `POST /v1/installations/{id}/webhook-secret/rotate`. */
export const RotatedWebhookSecret = z.object({ secret: z.string(), previousExpiresAt: z.string() });

/** A time filter: ISO 8601 or Unix milliseconds. */
const TimeFilter = z
  .string()
  .optional()
  .openapi({ description: 'ISO 8601 time or Unix milliseconds', example: '2026-11-22T10:00:00Z' });

/** `GET /v1/installations/{id}/deliveries` query. */
export const DeliveryQuery = z.object({
  state: z.enum(['queued', 'running', 'succeeded', 'failed', 'exhausted', 'cancelled']).optional(),
  since: TimeFilter,
  until: TimeFilter,
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().optional(),
});

/** `GET /v1/installations/{id}/deliveries`: a page of deliveries and the endpoint's state. */
export const DeliveryList = z.object({
  deliveries: z.array(Delivery),
  nextCursor: z.string().nullable(),
  endpoint: WebhookEndpoint,
});

/** `POST /v1/installations/{id}/deliveries/redeliver`. */
export const RedeliverRangeBody = z
  .object({
    since: TimeFilter,
    until: TimeFilter,
    states: z
      .array(z.enum(['failed', 'exhausted', 'succeeded']))
      .min(1)
      .optional(),
  })
  .strict();

/** `POST /v1/installations/{id}/test`: which event to send (default: the first one the installation selected). */
export const TestEventBody = z
  .object({ eventType: z.string().min(1).optional() })
  .strict()
  .openapi('TestEventRequest');

/** What `POST /v1/installations/{id}/deliveries/redeliver` queued. */
export const Redelivered = z.object({ redelivered: z.number().int() });

/** `POST /v1/installations/{id}/render`. */
export const RenderBody = z
  .object({
    componentId: z.string().min(1),
    props: z.record(z.string(), z.unknown()).default({}),
    state: z.record(z.string(), z.unknown()).optional(),
    action: z
      .object({ action: z.string().min(1) })
      .catchall(z.unknown())
      .optional(),
    context: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .openapi('RenderRequest');

/** What `POST /v1/installations/{id}/render` answers: the component's element and its new state. */
export const Rendered = z.object({
  element: z
    .custom<ContentKitElement>()
    .openapi({ type: 'object', description: 'the rendered ContentKit element' }),
  state: z.record(z.string(), z.unknown()),
  /** The props, when an action changed them. */
  props: z.record(z.string(), z.unknown()).optional(),
  /** Seconds the host may reuse this answer (`element.setCache`). */
  cache: z.object({ maxAge: z.number().int().min(0) }).optional(),
});

/** `POST /v1/events`: the accepted event's id; `duplicate` for an event id seen before. */
export const EventAccepted = z.object({ eventId: z.string(), duplicate: z.boolean().optional() });

/** One script of `GET /v1/sites/{siteId}/published-scripts`. */
export const PublishedScript = z
  .object({
    installationId: z.string(),
    integration: z.string(),
    url: z.string().openapi({
      description:
        "where the site's pages load the script (content origin); `?v=` changes with the configuration and the published version",
      example: 'http://127.0.0.1:8081/v1/sites/site_1/integrations/plausible/script.js?v=3f2a9c0d1e2b4a5c',
    }),
    contentSecurityPolicy: z.record(z.string(), z.array(z.string())).openapi({
      description:
        "directive -> sources the site's policy must allow for this script: the script's own origin in `script-src`, and the manifest's `contentSecurityPolicy` sources",
      example: {
        'script-src': ['http://127.0.0.1:8081', 'https://plausible.io'],
        'connect-src': ['plausible.io'],
      },
    }),
  })
  .openapi('PublishedScript');

/** `GET /v1/sites/{siteId}/published-scripts`: the scripts a site renderer includes, oldest installation first. */
export const PublishedScriptList = z
  .object({ scripts: z.array(PublishedScript) })
  .openapi('PublishedScriptList');

/** `GET`/`PUT /v1/spaces/{spaceId}/document`: a space's document (docs/documents.md). */
export const SpaceDocument = z
  .object({
    spaceId: z.string(),
    nodes: z.array(documentNodeSchema),
    revision: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'incremented by every save; 0 while the space has no document' }),
    updatedAt: z.string().nullable(),
  })
  .openapi('SpaceDocument');

/** `PUT /v1/spaces/{spaceId}/document`: the whole document, compare-and-set on `baseRevision`. */
export const PutSpaceDocumentBody = spaceDocumentSchema
  .extend({
    baseRevision: z.number().int().min(0).optional().openapi({
      description:
        'the revision this save is based on (0: no document yet); another revision answers 409 `document_changed`. Leave it out to overwrite.',
    }),
  })
  .openapi('PutSpaceDocumentRequest');

/** `PATCH /v1/spaces/{spaceId}/document/blocks/{blockId}`: a block's new props (`@editor.node.updateProps`). */
export const PatchBlockPropsBody = z
  .object({ props: z.record(z.string(), z.unknown()) })
  .strict()
  .openapi('PatchBlockPropsRequest');

/** `GET /v1/integrations/{name}/install-link`. */
export const InstallLink = z
  .object({
    integration: z.string(),
    installLink: z.string().openapi({ description: 'give it as `installLink` of POST /v1/installations' }),
  })
  .openapi('InstallLink');

/** One invocation of an integration, in its author's view: no configuration, no secret. */
export const Run = Invocation.extend({ installationId: z.string().nullable() }).openapi('Run');

/** `GET /v1/integrations/{name}/runs`. */
export const RunList = z.object({ runs: z.array(Run) });

/** `GET /v1/marketplace`: the public integrations. */
export const Marketplace = z
  .object({
    integrations: z.array(
      z.object({
        name: z.string(),
        title: z.string(),
        description: z.string(),
        organization: z.string().nullable(),
        iconUrl: z.string().nullable(),
        categories: z.array(z.string()),
        scopes: z.array(z.string()),
        version: z.string(),
      }),
    ),
  })
  .openapi('Marketplace');

// ---------------------------------------------------------------------------------------------
// Organizations, tokens, the directory, portal sessions and the audit log (docs/security.md).

const ORG_ID = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    'an organization id: 1-64 letters, digits, dots, dashes or underscores',
  )
  .openapi({ example: 'acme' });

/** An organization. */
export const Organization = z
  .object({ id: z.string(), name: z.string(), createdAt: z.string() })
  .openapi('Organization');

/** `POST /v1/organizations`. */
export const CreateOrganizationBody = z
  .object({ id: ORG_ID, name: z.string().min(1).max(200).optional() })
  .strict()
  .openapi('CreateOrganizationRequest');

/** `GET /v1/organizations`. */
export const OrganizationList = z.object({ organizations: z.array(Organization) });

/** The spaces and sites the directory says an organization owns. */
export const OrganizationResources = z
  .object({ organization: z.string(), spaces: z.array(z.string()), sites: z.array(z.string()) })
  .openapi('OrganizationResources');

/** `PUT /v1/spaces/{spaceId}/owner`, `PUT /v1/sites/{siteId}/owner`. */
export const SetOwnerBody = z.object({ organization: ORG_ID }).strict().openapi('SetOwnerRequest');

/** What recording an owner did. */
export const OwnerSet = z
  .object({
    kind: z.enum(['space', 'site']),
    id: z.string(),
    organization: z.string(),
    previous: z.string().nullable(),
    adoptedInstallations: z.number().int().openapi({
      description: 'installations of the space or site that had no owner and now belong to the organization',
    }),
  })
  .openapi('OwnerSet');

export const ScopeName = z
  .string()
  .openapi({ example: 'deliveries:read', description: 'one of the scopes listed in docs/security.md' });

/** An organization token as listed: never the token itself. */
export const OrganizationToken = z
  .object({
    id: z.string(),
    organization: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    status: z.enum(['active', 'expired', 'revoked']),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
  })
  .openapi('OrganizationToken');

/** `POST /v1/organizations/{organization}/tokens`. */
export const CreateTokenBody = z
  .object({
    name: z.string().min(1).max(100),
    scopes: z.array(ScopeName).min(1).max(20),
    expiresAt: z.string().optional().openapi({ description: 'ISO 8601; absent: never expires' }),
  })
  .strict()
  .openapi('CreateTokenRequest');

/** The answer of `POST /v1/organizations/{organization}/tokens`: the token, shown this once. */
export const CreatedToken = OrganizationToken.extend({
  token: z.string().openapi({ description: 'the bearer token (`pot_…`): shown once, stored hashed' }),
}).openapi('CreatedToken');

/** `GET /v1/organizations/{organization}/tokens`. */
export const OrganizationTokenList = z.object({ tokens: z.array(OrganizationToken) });

/** `GET /v1/whoami`. */
export const WhoAmI = z
  .object({
    principal: z.enum(['operator', 'organization', 'installation', 'portal']),
    organization: Organization.nullable(),
    token: z
      .object({
        id: z.string(),
        name: z.string(),
        scopes: z.array(z.string()),
        expiresAt: z.string().nullable(),
      })
      .nullable(),
    installation: z.string().nullable(),
    portal: z
      .object({ session: z.string(), installation: z.string().nullable(), expiresAt: z.string() })
      .nullable(),
    host: z.object({ version: z.string(), url: z.string() }),
  })
  .openapi('WhoAmI');

/** `POST /v1/portal/sessions`. */
export const CreatePortalSessionBody = z
  .object({
    installation: z.string().min(1).optional().openapi({ description: 'one webhook installation' }),
    organization: z.string().min(1).optional().openapi({
      description: 'every webhook installation of the organization (an organization token: its own)',
    }),
    ttlMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional()
      .openapi({ description: 'default 15' }),
  })
  .strict()
  .openapi('CreatePortalSessionRequest');

/** A portal session: the link to hand to the subscriber (valid until `expiresAt`, revocable). */
export const PortalSession = z
  .object({
    id: z.string(),
    url: z.string().openapi({ description: 'the portal page, with the session token in its fragment' }),
    token: z.string(),
    installation: z.string().nullable(),
    organization: z.string().nullable(),
    expiresAt: z.string(),
  })
  .openapi('PortalSession');

/** One entry of the audit log. */
export const AuditEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: z.object({
      kind: z.string(),
      organization: z.string().optional(),
      tokenId: z.string().optional(),
      tokenName: z.string().optional(),
    }),
    organization: z.string().nullable(),
    action: z.string(),
    resource: z.object({ type: z.string(), id: z.string() }),
    changes: z.record(z.string(), z.unknown()),
  })
  .openapi('AuditEntry');

/** `GET /v1/audit` query. */
export const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().optional().openapi({ description: 'the `nextCursor` of the previous page' }),
  action: z.string().optional(),
  resource: z.string().optional(),
  organization: z.string().optional().openapi({ description: 'operator: one organization only' }),
});

/** `GET /v1/audit`: newest first. */
export const AuditList = z.object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() });

/** `POST /v1/spaces/{spaceId}/content-sources/sync`: which installation's source fills the space (docs/content-sources.md). */
export const ContentSourceSyncBody = z
  .strictObject({
    installationId: z.string().min(1).openapi({ example: 'inst_abc' }),
    sourceId: z.string().min(1).openapi({ example: 'releases' }),
    props: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'props sent to the source with `content_compute_revision`' }),
  })
  .openapi('ContentSourceSyncRequest');

/** What a content-source sync stored. */
export const ContentSourceSync = z
  .object({
    spaceId: z.string(),
    revision: z.number().int(),
    pages: z.array(z.object({ id: z.string(), title: z.string(), depth: z.number().int() })),
  })
  .openapi('ContentSourceSync');
/** A space as the host knows it (`GET /v1/spaces/{spaceId}`; docs/host-api-from-integrations.md). */
export const SpaceInfo = z
  .object({
    object: z.literal('space'),
    id: z.string(),
    organization: z.string().nullable().openapi({ description: "the space's owner in the directory" }),
    currentRevision: z.string().openapi({ description: "the revision of the space's document ('0': none)" }),
    urls: z.object({
      app: z.string().openapi({ description: "the space's page in the dashboard (its editor)" }),
    }),
  })
  .openapi('Space');
/** A site as the host knows it (`GET /v1/sites/{siteId}`). */
export const SiteInfo = z
  .object({
    object: z.literal('site'),
    id: z.string(),
    organization: z.string().nullable().openapi({ description: "the site's owner in the directory" }),
    urls: z.object({
      app: z.string().openapi({ description: "where the site's installations are managed in the dashboard" }),
      published: z
        .string()
        .openapi({ description: 'where the host serves the site (content origin, /sites/{siteId})' }),
    }),
  })
  .openapi('Site');

/** The body of `POST /v1/integrations/{name}/tasks` (docs/tasks.md). */
export const QueueTaskBody = z
  .object({
    task: z
      .object({
        type: z.string().min(1).max(100).openapi({ example: 'import:spaces' }),
        payload: z.unknown().optional().openapi({ description: 'The task data (JSON); `{}` when absent.' }),
      })
      .strict(),
    schedule: z
      .number()
      .int()
      .min(0)
      .max(MAX_TASK_SCHEDULE_S)
      .optional()
      .openapi({
        description: `Seconds before the task runs: 0 (the default) to ${MAX_TASK_SCHEDULE_S} (one week).`,
        example: 60,
      }),
    installationId: z.string().min(1).optional().openapi({
      description:
        'The installation the task runs for: required with the operator token; an installation token queues for its own installation.',
    }),
  })
  .strict()
  .openapi('QueueTaskBody');

/** The answer of `POST /v1/integrations/{name}/tasks`. */
export const QueuedTask = z
  .object({
    id: z.string().openapi({ example: 'evt_01JB7Q2W3E4R5T6Y7U8I9O0P1A' }),
    runAt: z.string().openapi({ example: '2026-01-01T00:01:00.000Z' }),
  })
  .openapi('QueuedTask');
