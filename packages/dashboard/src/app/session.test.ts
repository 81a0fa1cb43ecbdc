import { describe, expect, it } from 'vitest';
import { NAVIGATION } from '../test-support.js';
import type { WhoAmI } from './api';
import { actorInWords, changesInWords } from './pages/audit';
import { expiryOf } from './pages/tokens';
import { can, describePrincipal, navigationFor, pageRefusal, refusalOf } from './session';

const host = { version: '0.1.0', url: 'http://127.0.0.1:8080' };
const operator: WhoAmI = {
  principal: 'operator',
  organization: null,
  token: null,
  installation: null,
  portal: null,
  host,
};
const orgToken = (scopes: string[]): WhoAmI => ({
  principal: 'organization',
  organization: { id: 'acme', name: 'Acme Inc.', createdAt: '2030-01-01T00:00:00.000Z' },
  token: { id: 'tok_1', name: 'ci', scopes, expiresAt: null },
  installation: null,
  portal: null,
  host,
});

describe('who is signed in', () => {
  it('says who in the header', () => {
    expect(describePrincipal(operator)).toBe('Operator');
    expect(describePrincipal(orgToken([]))).toBe('Organization acme · token ci');
  });

  it('gives the operator every page, and an organization token only what its scopes use', () => {
    expect(navigationFor(operator).map((i) => i.label)).toEqual(NAVIGATION.operator);
    expect(navigationFor(orgToken(['deliveries:read'])).map((i) => i.label)).toEqual([
      'Integrations',
      'Installations',
      'Gallery',
    ]);
    const full = navigationFor(orgToken(['tokens:manage', 'audit:read']));
    expect(full.map((i) => i.label)).toEqual(NAVIGATION.organization);
    expect(full.find((i) => i.label === 'Organization')?.href).toBe('/organizations/acme');
  });

  it('refuses operator-only pages and other organizations to an organization token, in words', () => {
    const who = orgToken(['tokens:manage']);
    expect(pageRefusal(who, { page: 'status' })).toContain('operator token');
    expect(pageRefusal(who, { page: 'organizations' })).toContain('operator token');
    expect(pageRefusal(who, { page: 'editor' })).toContain('operator token');
    expect(pageRefusal(who, { page: 'organization', organization: 'acme' })).toBeNull();
    expect(pageRefusal(who, { page: 'organization', organization: 'globex' })).toContain('"acme"');
    expect(pageRefusal(who, { page: 'audit' })).toContain('audit:read');
    expect(pageRefusal(orgToken(['audit:read']), { page: 'audit' })).toBeNull();
    expect(pageRefusal(operator, { page: 'status' })).toBeNull();
    expect(can(operator, 'portal:create')).toBe(true);
    expect(can(who, 'portal:create')).toBe(false);
  });

  it('turns away installation tokens and portal sessions at sign-in', () => {
    expect(refusalOf(operator)).toBeNull();
    expect(refusalOf({ ...operator, principal: 'installation', installation: 'inst_1' })).toContain(
      'installation token',
    );
    expect(refusalOf({ ...operator, principal: 'portal' })).toContain('portal');
  });
});

describe('token expiry and audit entries in words', () => {
  it('expires at the end of the chosen day, and refuses a day gone', () => {
    const now = new Date(2030, 0, 10, 12).getTime();
    const ok = expiryOf('2030-01-31', now);
    expect('iso' in ok && new Date(ok.iso).getTime()).toBe(new Date(2030, 0, 31, 23, 59, 59, 999).getTime());
    expect(expiryOf('2030-01-09', now)).toEqual({ error: 'The expiry must be a day to come.' });
    expect(expiryOf('tomorrow', now)).toHaveProperty('error');
  });

  it('names the actor and shows the changes as compact JSON', () => {
    expect(actorInWords({ kind: 'operator' })).toBe('operator');
    expect(
      actorInWords({ kind: 'organization', organization: 'acme', tokenId: 'tok_1', tokenName: 'ci' }),
    ).toBe('organization acme · token ci');
    expect(changesInWords({ scopes: ['audit:read'], name: 'ci' })).toBe(
      '{"scopes":["audit:read"],"name":"ci"}',
    );
    expect(changesInWords({})).toBe('');
  });
});
