/**
 * Who calls the host API, and the scopes an organization token may hold (docs/security.md "Who may do
 * what"). A leaf module: services and routes import it without importing each other.
 */

/** The rights an organization token can be given, each with what it allows. */
export const SCOPES = {
  'integrations:publish':
    "publish, update and unpublish the organization's integrations; read and rotate their install links",
  'installations:manage': 'install, configure, pause, resume and uninstall',
  'deliveries:read': 'read webhook deliveries, invocation logs and the runs of its integrations',
  'deliveries:redeliver': 'redeliver webhook deliveries and send test events',
  'secrets:manage': 'reveal and rotate webhook signing secrets',
  'tokens:manage': "create, list and revoke the organization's tokens",
  'portal:create': 'open and revoke subscriber portal sessions',
  'audit:read': "read the organization's audit log",
} as const;

/** One scope of an organization token. @example const s: Scope = 'deliveries:read'; */
export type Scope = keyof typeof SCOPES;

/** Every scope, in the order of {@link SCOPES}. @example ALL_SCOPES.includes('audit:read'); // true */
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

/** Whether `value` names a scope. @example isScope('deliveries:read'); // true */
export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}

/**
 * Who is calling: the operator (admin token), an organization (one of its tokens), one installation (its
 * derived token, handed to the integration), or a subscriber portal session (one webhook installation, or
 * every one of an organization).
 *
 * @example
 * const p: Principal = { kind: 'organization', organizationId: 'acme', tokenId: 'tok_1', tokenName: 'ci', scopes: ['deliveries:read'] };
 */
export type Principal =
  | { kind: 'operator' }
  | { kind: 'installation'; installationId: string }
  | {
      kind: 'organization';
      organizationId: string;
      tokenId: string;
      tokenName: string;
      scopes: readonly Scope[];
    }
  | { kind: 'portal'; sessionId: string; organizationId: string | null; installationId: string | null };

/** The organization a principal acts for (null: the operator, or an installation). */
export function organizationOf(principal: Principal): string | null {
  return principal.kind === 'organization' || principal.kind === 'portal' ? principal.organizationId : null;
}
