import { testEnvironment } from '@platform/runtime/testing';
import { describe, expect, it } from 'vitest';
import { describeUrl, installationOf, placeOfTarget, selectedEventTypes } from './places';

describe('places', () => {
  it('maps targets to places: site is site, space and organization are space', () => {
    expect(placeOfTarget('site')).toBe('site');
    expect(placeOfTarget('space')).toBe('space');
    expect(placeOfTarget('organization')).toBe('space');
  });

  it('selects only events of the place that are exactly true', () => {
    const configuration = { site_view: true, page_feedback: 'yes', space_content_updated: true };
    expect(selectedEventTypes(configuration, 'site')).toEqual(['site_view']);
    expect(selectedEventTypes(configuration, 'space')).toEqual(['space_content_updated']);
  });

  it('reads the site installation configuration first', () => {
    const urls = { publicEndpoint: 'http://127.0.0.1:1/p', publicContentEndpoint: 'http://127.0.0.1:1/p' };
    const environment = testEnvironment({
      siteInstallation: {
        site: 's',
        integration: 'webhook',
        installation: 'inst_test',
        status: 'active',
        configuration: { site_view: true },
        externalIds: [],
        urls,
      },
    });
    expect(installationOf(environment)).toEqual({
      place: 'site',
      installationId: 'inst_test',
      configuration: { site_view: true },
    });
    expect(installationOf(testEnvironment()).place).toBe('space');
  });

  it('describes URLs without path, query or credentials', () => {
    expect(describeUrl('https://user:pw@hooks.example.com:8443/a/b?c=d')).toBe(
      'https://hooks.example.com:8443/…',
    );
    expect(describeUrl('https://hooks.example.com')).toBe('https://hooks.example.com');
    expect(describeUrl('not a url')).toBe('(not a valid URL)');
    expect(describeUrl(42)).toBe('(not set)');
  });
});
