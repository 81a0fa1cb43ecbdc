import { describe, expect, it } from 'vitest';
import { type InstallationFacts, installationShapes, settingsPlace } from './places.js';

const place = { properties: {} };
const urls = { publicEndpoint: 'https://host.example/p' };
/** The shapes carry both names of the endpoint. */
const shapeUrls = { ...urls, publicContentEndpoint: urls.publicEndpoint };
/** What every installation shape of `facts(...)` carries. */
const shared = {
  status: 'active',
  configuration: { id: 'x' },
  externalIds: ['e'],
  urls: shapeUrls,
  // the installation a space or site installation belongs to
  integration: 'hello',
  installation: 'inst_1',
};
const facts = (
  target: InstallationFacts['target'],
  over: Partial<InstallationFacts> = {},
): InstallationFacts => ({
  id: 'inst_1',
  integrationName: 'hello',
  target,
  spaceId: target === 'space' ? 'space_1' : null,
  siteId: target === 'site' ? 'site_1' : null,
  status: 'active',
  configuration: { id: 'x' },
  externalIds: ['e'],
  spaceSelection: { mode: 'selected', spaces: [] },
  ...over,
});

describe('settingsPlace', () => {
  it('uses `account` for organization and space installations, `site` for site ones', () => {
    const both = { configurations: { account: place, space: place, site: place } };
    expect(settingsPlace(both, 'organization')).toBe('account');
    expect(settingsPlace(both, 'space')).toBe('account');
    expect(settingsPlace(both, 'site')).toBe('site');
    expect(settingsPlace({}, 'site')).toBe('site');
  });

  it('uses `space` for a site installation when the manifest declares `space` settings and no `site` ones', () => {
    expect(settingsPlace({ configurations: { space: place } }, 'site')).toBe('space');
    expect(settingsPlace({ configurations: { account: place, space: place } }, 'site')).toBe('space');
    expect(settingsPlace({ configurations: { space: place } }, 'space')).toBe('account');
  });
});

describe('installationShapes', () => {
  it('gives an organization installation `installation` only', () => {
    const shapes = installationShapes({ configurations: { space: place } }, facts('organization'), urls);
    expect(shapes).toEqual({
      installation: {
        id: 'inst_1',
        target: 'organization',
        space_selection: { mode: 'selected', spaces: [] },
        status: 'active',
        configuration: { id: 'x' },
        externalIds: ['e'],
        urls: shapeUrls,
      },
    });
  });

  it('adds `spaceInstallation` for a space installation', () => {
    const shapes = installationShapes({}, facts('space'), urls);
    expect(shapes.spaceInstallation).toEqual({ space: 'space_1', ...shared });
    expect(shapes.siteInstallation).toBeUndefined();
  });

  it('adds `siteInstallation` for a site installation, and the same as `spaceInstallation` when `space` settings exist', () => {
    const siteOnly = installationShapes({ configurations: { site: place } }, facts('site'), urls);
    expect(siteOnly.siteInstallation).toMatchObject({ site: 'site_1', configuration: { id: 'x' } });
    expect(siteOnly.spaceInstallation).toBeUndefined();
    const withSpace = installationShapes(
      { configurations: { space: place, site: place } },
      facts('site'),
      urls,
    );
    expect(withSpace.spaceInstallation).toEqual({ space: '', ...shared });
    expect(withSpace.siteInstallation?.configuration).toBe(withSpace.spaceInstallation?.configuration);
  });

  it('leaves out the shape of a space or site installation whose id is missing', () => {
    expect(installationShapes({}, facts('space', { spaceId: null }), urls).spaceInstallation).toBeUndefined();
    expect(installationShapes({}, facts('site', { siteId: null }), urls).siteInstallation).toBeUndefined();
  });
});
