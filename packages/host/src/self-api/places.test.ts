import { describe, expect, it } from 'vitest';
import type { InstallationRecord } from '../storage/index.js';
import { installedIn, missingPlaceScope } from './places.js';

const base = {
  id: 'inst_1',
  integrationName: 'hello',
  spaceId: null,
  siteId: null,
  organizationId: null,
  ownerOrganization: null,
  configuration: {},
  status: 'pending',
  tokenHash: '',
  externalIds: [],
  spaceSelection: { mode: 'all' },
  createdAt: 0,
  updatedAt: 0,
} as unknown as InstallationRecord;

describe('installedIn', () => {
  it('matches its space or site whatever its status, and an organization installation by its selection', () => {
    expect(installedIn({ ...base, target: 'space', spaceId: 'sp1' }, 'space', 'sp1')).toBe(true);
    expect(installedIn({ ...base, target: 'space', spaceId: 'sp1' }, 'space', 'sp2')).toBe(false);
    expect(installedIn({ ...base, target: 'site', siteId: 's1' }, 'site', 's1')).toBe(true);
    expect(installedIn({ ...base, target: 'site', siteId: 's1' }, 'space', 's1')).toBe(false);
    const some = { ...base, target: 'organization', spaceSelection: { mode: 'some', spaces: ['a'] } };
    expect(installedIn(some as InstallationRecord, 'space', 'a')).toBe(true);
    expect(installedIn(some as InstallationRecord, 'space', 'b')).toBe(false);
    expect(installedIn({ ...base, target: 'organization' }, 'space', 'any')).toBe(true);
  });
});

describe('missingPlaceScope', () => {
  it('asks for space:metadata:read (or content read) and site:metadata:read', () => {
    expect(missingPlaceScope('space', ['space:metadata:read'])).toBeNull();
    expect(missingPlaceScope('space', ['space:content:read'])).toBeNull();
    expect(missingPlaceScope('space', ['site:metadata:read'])).toBe('space:metadata:read');
    expect(missingPlaceScope('site', ['site:metadata:read'])).toBeNull();
    expect(missingPlaceScope('site', ['site:views:read', 'space:content:read'])).toBe('site:metadata:read');
  });
});
