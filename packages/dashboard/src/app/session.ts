import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { WhoAmI } from './api';

/**
 * Who the signed-in token is (`GET /v1/whoami`), kept for the whole session: the dashboard shows and
 * offers what this principal may use. The host decides every call anyway; this only spares people
 * pages and buttons that would be refused.
 */
export type Principal = WhoAmI;

/**
 * Whether the dashboard can be used with this principal: the operator (admin token) or an
 * organization token. Installation tokens and portal sessions have their own places.
 * @example canUseDashboard({ principal: 'portal', ... }); // false
 */
export function canUseDashboard(who: Principal): boolean {
  return who.principal === 'operator' || who.principal === 'organization';
}

/**
 * Why a token that signs in cannot use the dashboard, or null when it can.
 * @example refusalOf(installationWho); // 'This is an installation token: …'
 */
export function refusalOf(who: Principal): string | null {
  if (canUseDashboard(who)) return null;
  return who.principal === 'portal'
    ? 'This is a subscriber portal session: open the portal link it came with. The dashboard takes the admin token or an organization token.'
    : 'This is an installation token, made for the integration itself. The dashboard takes the admin token or an organization token.';
}

/**
 * Whether the principal is the operator (every right).
 * @example isOperator(who) ? <StatusPage /> : <NeedsOperator />;
 */
export function isOperator(who: Principal): boolean {
  return who.principal === 'operator';
}

/**
 * Whether the principal holds a scope of organization tokens (the operator holds every one).
 * @example can(who, 'audit:read'); // true for the operator, or a token made with audit:read
 */
export function can(who: Principal, scope: string): boolean {
  if (who.principal === 'operator') return true;
  return who.principal === 'organization' && (who.token?.scopes.includes(scope) ?? false);
}

/**
 * The organization the principal acts for (null: the operator).
 * @example organizationOf(who); // 'acme'
 */
export function organizationOf(who: Principal): string | null {
  return who.organization?.id ?? null;
}

/**
 * Who is signed in, in words, for the header.
 * @example describePrincipal(who); // 'Organization acme · token ci', or 'Operator'
 */
export function describePrincipal(who: Principal): string {
  if (who.principal === 'operator') return 'Operator';
  const org = who.organization ? `Organization ${who.organization.id}` : 'Organization';
  return who.token ? `${org} · token ${who.token.name}` : org;
}

/** A link of the main navigation. */
export interface NavItem {
  /** The route name it is current for. */
  page: string;
  href: string;
  label: string;
}

/**
 * The pages of the main navigation this principal can use: the operator all of them; an organization
 * token its integrations and installations, its organization (with `tokens:manage`) and its audit log
 * (with `audit:read`), never the host status or the list of organizations.
 *
 * @example
 * navigationFor(who).map((i) => i.label); // ['Integrations', 'Installations', 'Organizations', 'Audit', 'Host', 'Gallery']
 */
export function navigationFor(who: Principal): NavItem[] {
  const items: NavItem[] = [
    { page: 'integrations', href: '/integrations', label: 'Integrations' },
    { page: 'installations', href: '/installations', label: 'Installations' },
  ];
  const org = organizationOf(who);
  if (isOperator(who)) items.push({ page: 'organizations', href: '/organizations', label: 'Organizations' });
  else if (org && can(who, 'tokens:manage'))
    items.push({
      page: 'organizations',
      href: `/organizations/${encodeURIComponent(org)}`,
      label: 'Organization',
    });
  if (can(who, 'audit:read')) items.push({ page: 'audit', href: '/audit', label: 'Audit' });
  if (isOperator(who)) items.push({ page: 'status', href: '/status', label: 'Host' });
  items.push({ page: 'gallery', href: '/gallery', label: 'Gallery' });
  return items;
}

/**
 * Why this principal cannot open a page, or null when it can. Pages it cannot use are refused in words
 * before any call (the host would refuse the calls).
 *
 * @example
 * pageRefusal(orgWho, { page: 'status' }); // 'The host status needs the operator token.'
 */
export function pageRefusal(who: Principal, route: { page: string; organization?: string }): string | null {
  if (isOperator(who)) return null;
  switch (route.page) {
    case 'status':
      return 'The host status needs the operator token.';
    case 'editor':
      return 'The space editor needs the operator token.';
    case 'organizations':
      return 'The list of organizations needs the operator token.';
    case 'organization':
      return route.organization === organizationOf(who)
        ? null
        : `This token belongs to organization "${organizationOf(who) ?? ''}": it cannot see other organizations.`;
    case 'audit':
      return can(who, 'audit:read')
        ? null
        : "The audit log needs a token with the scope `audit:read` (read the organization's audit log).";
    default:
      return null;
  }
}

const PrincipalContext = createContext<Principal | null>(null);

/** Provides the signed-in principal to the pages. @example <PrincipalProvider value={who}>…</PrincipalProvider> */
export const PrincipalProvider = PrincipalContext.Provider;

/**
 * The signed-in principal (inside the signed-in app only).
 * @example const who = usePrincipal(); if (can(who, 'portal:create')) …
 */
export function usePrincipal(): Principal {
  const who = useContext(PrincipalContext);
  if (!who) throw new Error('usePrincipal outside the signed-in app');
  return who;
}
