import { describe, expect, it } from 'vitest';
import type { FetchPublishScriptEventCallback, RuntimeContext, RuntimeEnvironment } from './author';
import { createIntegration } from './integration';
import { expectNoHookAnswer, testSiteInstallation } from './test-support';
import { envelopeRequest, testEnvironment } from './testing';

type Context = RuntimeContext<RuntimeEnvironment<Record<string, unknown>, { domain?: string }>>;

const event = {
  type: 'fetch_published_script',
  eventId: 'evt_1',
  installationId: 'inst_test',
  siteId: 'site_1',
};

function siteEnvironment(configuration: Record<string, unknown>) {
  return testEnvironment({ siteInstallation: testSiteInstallation({ configuration }) });
}

/** The hook of a typical analytics integration: its configuration in the script, or nothing. */
const hook: FetchPublishScriptEventCallback<Context> = async (e, { environment }) => {
  const domain = environment.siteInstallation?.configuration.domain;
  if (!domain) return undefined;
  return new Response(`track(${JSON.stringify(domain)}, ${JSON.stringify(e.siteId)});`, {
    headers: { 'content-type': 'application/javascript', 'cache-control': 'max-age=600' },
  });
};

describe('fetch_published_script', () => {
  const integration = createIntegration<Context>({ fetch_published_script: hook });

  it('answers the script the hook returns, with its configuration and site', async () => {
    const response = await integration.fetch(
      envelopeRequest(event, { environment: siteEnvironment({ domain: 'docs.example.com' }) }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript');
    expect(response.headers.get('cache-control')).toBe('max-age=600');
    expect(await response.text()).toBe('track("docs.example.com", "site_1");');
  });

  it('answers 204 when the hook returns nothing', async () => {
    const response = await integration.fetch(envelopeRequest(event, { environment: siteEnvironment({}) }));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('answers 404 without the hook, 400 without a siteId, 500 for a value that is not a Response', async () => {
    await expectNoHookAnswer(event, 'no_published_script');
    const noSite = await integration.fetch(envelopeRequest({ ...event, siteId: undefined }));
    expect(noSite.status).toBe(400);
    expect(await noSite.text()).toMatch(/needs a string siteId/);
    const wrong = createIntegration({
      fetch_published_script: (async () => 'console.log(1)') as unknown as FetchPublishScriptEventCallback,
    });
    expect((await wrong.fetch(envelopeRequest(event))).status).toBe(500);
  });

  it('is not an `events` handler: the events of the type never reach `events`', async () => {
    let called = false;
    const integration = createIntegration({
      events: { site_view: async () => {} },
      fetch_published_script: async () => {
        called = true;
        return undefined;
      },
    });
    expect((await integration.fetch(envelopeRequest(event))).status).toBe(204);
    expect(called).toBe(true);
  });
});
