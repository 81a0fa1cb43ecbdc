import { describe, expect, it } from 'vitest';
import { installationMatches } from './matching.js';
import type { InstallationRecord } from './types.js';

const base: InstallationRecord = {
  id: 'inst_1',
  integrationName: 'x',
  target: 'space',
  spaceId: 'sp1',
  siteId: null,
  organizationId: 'org1',
  ownerOrganization: null,
  configuration: {},
  status: 'active',
  tokenHash: 'h',
  externalIds: [],
  spaceSelection: { mode: 'selected', spaces: [] },
  createdAt: 0,
  updatedAt: 0,
};

describe('installationMatches', () => {
  it('space installs match only their space, and only when active', () => {
    expect(installationMatches(base, { spaceId: 'sp1' })).toBe(true);
    expect(installationMatches(base, { spaceId: 'sp2' })).toBe(false);
    expect(installationMatches(base, { siteId: 'sp1' })).toBe(false);
    expect(installationMatches({ ...base, status: 'paused' }, { spaceId: 'sp1' })).toBe(false);
    expect(installationMatches({ ...base, status: 'pending' }, { spaceId: 'sp1' })).toBe(false);
  });

  it('site installs match only their site', () => {
    const site: InstallationRecord = { ...base, target: 'site', spaceId: null, siteId: 'st1' };
    expect(installationMatches(site, { siteId: 'st1' })).toBe(true);
    expect(installationMatches(site, { siteId: 'st2' })).toBe(false);
    expect(installationMatches(site, { spaceId: 'st1' })).toBe(false);
  });

  it('organization installs follow their space selection and organization', () => {
    const org: InstallationRecord = { ...base, target: 'organization', spaceId: null };
    const all = { ...org, spaceSelection: { mode: 'all' as const, spaces: [] } };
    const some = { ...org, spaceSelection: { mode: 'selected' as const, spaces: ['sp1'] } };
    expect(installationMatches(all, { spaceId: 'anything' })).toBe(true);
    expect(installationMatches(some, { spaceId: 'sp1' })).toBe(true);
    expect(installationMatches(some, { spaceId: 'sp2' })).toBe(false);
    expect(installationMatches(all, { spaceId: 'sp1', organizationId: 'org2' })).toBe(false);
    expect(installationMatches(all, { siteId: 'st1' })).toBe(false);
    expect(installationMatches(all, { organizationId: 'org1' })).toBe(true);
    expect(installationMatches(all, {})).toBe(false);
  });
});
