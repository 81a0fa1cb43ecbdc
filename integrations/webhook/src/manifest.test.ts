import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatIssues, loadManifest } from '@platform/manifest';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TITLES, WEBHOOK_EVENT_TYPES_BY_PLACE } from './places';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');

function load(firstParty: boolean) {
  const result = loadManifest(dir, { firstParty });
  if (!result.ok) throw new Error(formatIssues(result.errors, 'platform-manifest.yaml'));
  return result.manifest;
}

describe('platform-manifest.yaml', () => {
  it('passes the validator first-party and, using no internal scope, third-party too', () => {
    expect(load(true).name).toBe('webhook');
    expect(load(false).name).toBe('webhook');
    expect(loadManifest(dir, { firstParty: false }).warnings).toEqual([]);
  });

  it('requests exactly the scopes of its three events', () => {
    expect([...load(true).scopes].sort()).toEqual(['site:views:read', 'space:content:read']);
  });

  /** Settings every place has that change nothing unless set (issue 28). */
  const OPT_IN_SETTINGS = ['retry_schedule'];

  it('declares, per place, the URL (required), one boolean per event of the place (default false), the signature settings and the opt-in settings', () => {
    const { configurations } = load(true);
    const places = { account: WEBHOOK_EVENT_TYPES_BY_PLACE.space, site: WEBHOOK_EVENT_TYPES_BY_PLACE.site };
    expect(Object.keys(configurations ?? {}).sort()).toEqual(['account', 'site']);
    for (const [place, events] of Object.entries(places)) {
      const settings = configurations?.[place as 'account' | 'site'];
      expect(settings?.required).toEqual(['url']);
      // the signature settings (docs/contracts.md "Signature schemes") are the same at both places
      const signature = ['signature_both_headers', 'signature_scheme'];
      expect(Object.keys(settings?.properties ?? {}).sort()).toEqual(
        ['url', ...events, ...signature, ...OPT_IN_SETTINGS].sort(),
      );
      expect(settings?.properties?.signature_scheme).toMatchObject({
        type: 'string',
        enum: ['platform', 'standard-webhooks', 'ed25519'],
        default: 'platform',
      });
      expect(settings?.properties?.signature_both_headers).toMatchObject({ type: 'boolean', default: false });
      // Opt-in settings have no default: an installation without them keeps the spec's behaviour.
      for (const key of OPT_IN_SETTINGS) {
        expect(settings?.properties?.[key]).toMatchObject({ type: 'string' });
        expect(settings?.properties?.[key]).not.toHaveProperty('default');
      }
      expect(settings?.properties?.url).toMatchObject({ type: 'string', title: 'Webhook URL' });
      expect(settings?.properties?.url?.description).toMatch(/https/);
      for (const event of events) {
        expect(settings?.properties?.[event]).toMatchObject({
          type: 'boolean',
          default: false,
          title: WEBHOOK_EVENT_TITLES[event],
        });
      }
    }
  });

  it('has a summary within the limit that explains signatures and retries', () => {
    const { summary } = load(true);
    expect(summary?.length).toBeLessThanOrEqual(2048);
    expect(summary).toContain('X-Platform-Signature: t=');
    expect(summary).toContain('@platform/webhooks');
    expect(summary).toMatch(/1 s, 2 s and 4 s/);
  });
});
