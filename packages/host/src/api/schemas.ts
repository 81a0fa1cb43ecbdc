import { z } from '@hono/zod-openapi';
import type { Installation as ApiInstallation } from '@platform/api-client';

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
    assets: z.record(z.string(), z.string()).optional().openapi({
      description:
        "the manifest's image files: its `icon` and `previewImages` paths, exactly as written there, mapped to the files' bytes in base64 (each at most 4 MiB; icon PNG, JPEG, SVG or WebP; previews PNG or JPEG)",
    }),
  })
  .strict()
  .openapi('PublishRequest');

export const Visitor = z.object({
  anonymousId: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  cookies: z.record(z.string(), z.string()),
});

const base = {
  eventId: z.string().min(1).max(200).optional(),
  /** Accepted so a SPEC 2.10 payload can be posted as is; each delivery carries its own installation's id. */
  installationId: z.string().optional(),
};

/** Who viewed which page, from where (SPEC 2.10: `site_view` and `page_feedback`). */
const pageVisit = { visitor: Visitor, url: z.string().url(), referrer: z.string() };
/** Fields of both git-sync events. */
const gitSync = {
  spaceId: z.string().min(1),
  commitId: z.string().optional(),
  branch: z.string().optional(),
};

/** Events the documentation platform posts to `POST /v1/events`. */
export const IncomingEvent = z
  .discriminatedUnion('type', [
    z
      .object({
        ...base,
        type: z.literal('space_content_updated'),
        spaceId: z.string().min(1),
        revisionId: z.string().min(1),
      })
      .strict(),
    z
      .object({
        ...base,
        type: z.literal('site_view'),
        siteId: z.string().min(1),
        ...pageVisit,
      })
      .strict(),
    z
      .object({
        ...base,
        type: z.literal('page_feedback'),
        siteId: z.string().min(1),
        spaceId: z.string().min(1),
        pageId: z.string().min(1),
        feedback: z.object({ rating: z.string(), comment: z.string() }),
        ...pageVisit,
      })
      .strict(),
    z
      .object({
        ...base,
        type: z.literal('space_view'),
        spaceId: z.string().min(1),
        pageId: z.string().optional(),
        visitor: Visitor.optional(),
      })
      .strict(),
    z
      .object({
        ...base,
        type: z.literal('space_visibility_updated'),
        spaceId: z.string().min(1),
        visibility: z.string(),
      })
      .strict(),
    z
      .object({
        ...base,
        type: z.literal('space_gitsync_started'),
        ...gitSync,
      })
      .strict(),
    z
      .object({
        ...base,
        type: z.literal('space_gitsync_completed'),
        ...gitSync,
        state: z.enum(['success', 'failure']),
      })
      .strict(),
  ])
  .openapi('Event');
export type IncomingEvent = z.infer<typeof IncomingEvent>;

export const Attempt = z
  .object({
    number: z.number().int(),
    series: z.number().int(),
    startedAt: z.string(),
    durationMs: z.number(),
    statusCode: z.number().int().optional(),
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
    createdAt: z.string(),
    payload: z.unknown(),
    attempts: z.array(Attempt),
  })
  .openapi('Delivery');

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
  })
  .openapi('WebhookEndpointState');

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
