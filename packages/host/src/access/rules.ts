import type { Scope } from './principal.js';

/**
 * What an organization token must own for a route:
 * - `installation`: the installation of the path's `{id}` belongs to the token's organization;
 * - `integration`: the integration of the path's `{name}` is published by the token's organization;
 * - `visible-integration`: it is the organization's, or `public`;
 * - `organization`: the path's `{organization}` is the token's organization;
 * - `portal-session`: the path's `{sessionId}` was opened by the token's organization;
 * - `query-installation`: the installation of the query's `installation` (required: without it, 400)
 *   belongs to the token's organization;
 * - `listed`: none in the path; the route answers only the organization's own resources, or checks
 *   ownership in its body (installing, publishing).
 * Another organization's resource answers 404, as a missing one does (no enumeration).
 */
export type Ownership =
  | 'installation'
  | 'integration'
  | 'visible-integration'
  | 'organization'
  | 'portal-session'
  | 'query-installation'
  | 'listed';

/**
 * Who may call a route besides the operator, who may call every route. A principal kind that is absent
 * is refused with 403 before anything of the request is read.
 */
export interface AccessRule {
  /** Organization tokens: the scope needed (none: any token of the organization) and what it must own. */
  organization?: { scope?: Scope; owns: Ownership };
  /**
   * Installation tokens: `own` = the installation of the path's `{id}` only; `integration` = an
   * installation of the path's `{name}` integration; `route` = the route's own middleware decides (the
   * document routes, docs/documents.md); `any` = every installation token.
   */
  installation?: 'own' | 'integration' | 'route' | 'any';
  /** Portal sessions: `own` = an installation of the session (path `{id}`); `any` = answers the session's own. */
  portal?: 'own' | 'any';
  /** Nobody needs a token (the route declares no security). */
  public?: true;
}

const manage = { scope: 'installations:manage', owns: 'installation' } as const;
const readDeliveries = { scope: 'deliveries:read', owns: 'installation' } as const;
const redeliver = { scope: 'deliveries:redeliver', owns: 'installation' } as const;
const secrets = { scope: 'secrets:manage', owns: 'installation' } as const;
const publish = { scope: 'integrations:publish', owns: 'integration' } as const;
const tokens = { scope: 'tokens:manage', owns: 'organization' } as const;

/**
 * Every route of the host API with who may call it: the single source the authorization middleware
 * enforces, the OpenAPI document describes (`x-access` and the operation's description) and
 * docs/security.md tabulates. A route missing here cannot be defined (`guard` throws at start).
 *
 * @example
 * ACCESS['GET /v1/installations/{id}/deliveries'].organization; // { scope: 'deliveries:read', owns: 'installation' }
 */
export const ACCESS = {
  'GET /v1/whoami': { organization: { owns: 'listed' }, installation: 'any', portal: 'any' },
  'GET /v1/marketplace': { organization: { owns: 'listed' } },

  'POST /v1/organizations': {},
  'GET /v1/organizations': { organization: { owns: 'listed' } },
  'GET /v1/organizations/{organization}': { organization: { owns: 'organization' } },
  'GET /v1/organizations/{organization}/resources': { organization: { owns: 'organization' } },
  'POST /v1/organizations/{organization}/tokens': { organization: tokens },
  'GET /v1/organizations/{organization}/tokens': { organization: tokens },
  'DELETE /v1/organizations/{organization}/tokens/{tokenId}': { organization: tokens },
  'PUT /v1/spaces/{spaceId}/owner': {},
  'DELETE /v1/spaces/{spaceId}/owner': {},
  'PUT /v1/sites/{siteId}/owner': {},
  'DELETE /v1/sites/{siteId}/owner': {},

  'POST /v1/integrations': { organization: { scope: 'integrations:publish', owns: 'listed' } },
  'GET /v1/integrations': { organization: { owns: 'listed' } },
  'GET /v1/integrations/{name}': { organization: { owns: 'visible-integration' } },
  'DELETE /v1/integrations/{name}': { organization: publish },
  'GET /v1/integrations/{name}/install-link': { organization: publish },
  'POST /v1/integrations/{name}/install-link/rotate': { organization: publish },
  // The installation token queues for its own installation (the route checks it is of `{name}`).
  'POST /v1/integrations/{name}/tasks': { installation: 'integration' },
  'GET /v1/integrations/{name}/runs': { organization: { scope: 'deliveries:read', owns: 'integration' } },

  'POST /v1/installations': { organization: { scope: 'installations:manage', owns: 'listed' } },
  'GET /v1/installations': { organization: { owns: 'listed' }, portal: 'any' },
  'GET /v1/installations/{id}': {
    organization: { owns: 'installation' },
    installation: 'own',
    portal: 'own',
  },
  'PATCH /v1/installations/{id}': { organization: manage, installation: 'own', portal: 'own' },
  'DELETE /v1/installations/{id}': { organization: manage },
  'POST /v1/installations/{id}/pause': { organization: manage },
  'POST /v1/installations/{id}/resume': { organization: manage },
  'GET /v1/installations/{id}/logs': { organization: readDeliveries },
  'POST /v1/installations/{id}/render': { organization: manage },
  'GET /v1/installations/{id}/webhook-secret': { organization: secrets, installation: 'own', portal: 'own' },
  'POST /v1/installations/{id}/webhook-secret/rotate': {
    organization: secrets,
    installation: 'own',
    portal: 'own',
  },
  // Not a secret: whoever may read the installation may read the key its receivers verify with.
  'GET /v1/installations/{id}/webhook-public-key': {
    organization: { owns: 'installation' },
    installation: 'own',
    portal: 'own',
  },
  // Like a secret's rotation: it changes what receivers must hold.
  'POST /v1/installations/{id}/webhook-public-key/rotate': {
    organization: secrets,
    installation: 'own',
    portal: 'own',
  },
  // The series of one installation (`installation` query) for its organization; host-wide: the operator only.
  'GET /v1/stats/deliveries': { organization: { scope: 'deliveries:read', owns: 'query-installation' } },
  'GET /v1/installations/{id}/deliveries': { organization: readDeliveries, portal: 'own' },
  'GET /v1/installations/{id}/deliveries/{deliveryId}': { organization: readDeliveries, portal: 'own' },
  'POST /v1/installations/{id}/deliveries/{deliveryId}/redeliver': { organization: redeliver, portal: 'own' },
  'POST /v1/installations/{id}/deliveries/redeliver': { organization: redeliver, portal: 'own' },
  'POST /v1/installations/{id}/test': { organization: redeliver, portal: 'own' },
  'POST /v1/installations/{id}/endpoint/enable': { organization: redeliver, portal: 'own' },

  'POST /v1/portal/sessions': { organization: { scope: 'portal:create', owns: 'listed' } },
  'DELETE /v1/portal/sessions/{sessionId}': {
    organization: { scope: 'portal:create', owns: 'portal-session' },
  },
  'GET /v1/audit': { organization: { scope: 'audit:read', owns: 'listed' } },

  'POST /v1/events': {},
  // operator only: the operator events are about every organization's endpoints
  'GET /v1/operator-events': {},
  'GET /v1/status': {},
  'GET /v1/sites/{siteId}/published-scripts': {},
  'GET /v1/spaces/{spaceId}/document': { installation: 'route' },
  'PUT /v1/spaces/{spaceId}/document': {},
  'PATCH /v1/spaces/{spaceId}/document/blocks/{blockId}': { installation: 'route' },
  'POST /v1/spaces/{spaceId}/content-sources/sync': {},
  'GET /v1/assets/{hash}': { public: true },
  'GET /v1/spaces/{spaceId}': { installation: 'route' },
  'GET /v1/sites/{siteId}': { installation: 'route' },
} as const satisfies Record<string, AccessRule>;

/** A route key of {@link ACCESS}: `"METHOD /path"`. @example const k: AccessKey = 'GET /v1/audit'; */
export type AccessKey = keyof typeof ACCESS;

/**
 * One line saying who may call a route, for the API reference.
 *
 * @example
 * describeAccess(ACCESS['GET /v1/audit']); // 'Who may call: the operator; an organization token with `audit:read` (its own).'
 */
export function describeAccess(rule: AccessRule): string {
  if (rule.public) return 'Who may call: anyone (no token).';
  const who = ['the operator'];
  if (rule.organization) {
    const scope = rule.organization.scope ? ` with \`${rule.organization.scope}\`` : '';
    const owns: Record<Ownership, string> = {
      installation: "its organization's installations",
      integration: "its organization's integrations",
      'visible-integration': "its organization's integrations and public ones",
      organization: 'its own organization',
      'portal-session': 'sessions its organization opened',
      'query-installation': "its organization's installations, named in the query",
      listed: 'its own organization',
    };
    who.push(`an organization token${scope} (${owns[rule.organization.owns]})`);
  }
  if (rule.installation === 'own') who.push("the installation's own token");
  if (rule.installation === 'any') who.push('an installation token');
  if (rule.installation === 'route') who.push('an installation token, as described above');
  if (rule.portal)
    who.push(rule.portal === 'own' ? 'a portal session of the installation' : 'a portal session');
  return `Who may call: ${who.join('; ')}.`;
}
