import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FetchVisitorAuthenticationEventCallback } from './author';
import { createIntegration } from './integration';
import { expectNoHookAnswer, testSiteInstallation } from './test-support';
import { envelopeRequest, testEnvironment } from './testing';
import { signVisitorToken, VISITOR_TOKEN_SECONDS, visitorReturnUrl } from './visitor-auth';

const SECRET = 'pvs_runtime_test_secret';
const event = {
  type: 'fetch_visitor_authentication',
  eventId: 'evt_1',
  installationId: 'inst_test',
  siteId: 'site_1',
  location: '/guide?tab=2',
};

function siteEnvironment() {
  const site = testSiteInstallation();
  const siteInstallation = testSiteInstallation({
    integration: 'visitor-test',
    installation: 'inst_1',
    configuration: { authorize: 'https://idp.example.com/authorize' },
    urls: { ...site.urls, published: 'http://127.0.0.1:8081/sites/site_1' },
  });
  return testEnvironment({ siteInstallation, signingSecrets: { siteInstallation: SECRET } });
}

describe('signVisitorToken', () => {
  it('signs the claims HS256 with the secret, with iat and exp', async () => {
    const now = 1_800_000_000_000;
    const token = await signVisitorToken({ sub: 'u1', email: 'a@example.com' }, SECRET, { now });
    const [head, body, mac] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(body, 'base64url').toString())).toEqual({
      sub: 'u1',
      email: 'a@example.com',
      iat: now / 1000,
      exp: now / 1000 + VISITOR_TOKEN_SECONDS,
    });
    expect(mac).toBe(createHmac('sha256', SECRET).update(`${head}.${body}`).digest('base64url'));
    await expect(signVisitorToken({ sub: 'u' }, '')).rejects.toThrow(/signing secret is empty/);
  });

  it('sends the visitor back to a path of the site only', () => {
    const environment = siteEnvironment();
    expect(visitorReturnUrl(environment, '/guide?tab=2', 'a.b.c')).toBe(
      'http://127.0.0.1:8081/sites/site_1/guide?tab=2&jwt_token=a.b.c',
    );
    expect(visitorReturnUrl(environment, '', 't')).toBe('http://127.0.0.1:8081/sites/site_1/?jwt_token=t');
    for (const location of ['https://evil.example.com/', '//evil.example.com/x', '/\\evil.example.com']) {
      expect(() => visitorReturnUrl(environment, location, 't')).toThrow(/not a path of the site/);
    }
    expect(() => visitorReturnUrl(testEnvironment({}), '/', 't')).toThrow(
      /no siteInstallation\.urls\.published/,
    );
  });
});

describe('fetch_visitor_authentication', () => {
  const signIn: FetchVisitorAuthenticationEventCallback = async (e, { environment }) => {
    if (e.action === 'logout') return undefined;
    const url = new URL(String(environment.siteInstallation?.configuration.authorize));
    url.searchParams.set('state', e.location);
    return Response.redirect(url.toString(), 302);
  };
  const integration = createIntegration({ fetch_visitor_authentication: signIn });

  it('answers the redirect the hook returns, and 204 for nothing', async () => {
    const response = await integration.fetch(envelopeRequest(event, { environment: siteEnvironment() }));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(
      'https://idp.example.com/authorize?state=%2Fguide%3Ftab%3D2',
    );
    const logout = await integration.fetch(
      envelopeRequest({ ...event, action: 'logout' }, { environment: siteEnvironment() }),
    );
    expect(logout.status).toBe(204);
  });

  it('answers 404 without the hook, 400 without a location', async () => {
    await expectNoHookAnswer(event, 'no_visitor_authentication');
    const bad = await integration.fetch(envelopeRequest({ ...event, location: undefined }));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/needs a string siteId and location/);
  });

  it('keeps the signing secret out of the logs', async () => {
    const leaky = createIntegration({
      fetch_visitor_authentication: async (_e, { environment, logger }) => {
        logger.info(`secret is ${environment.signingSecrets?.siteInstallation}`);
        return Response.redirect('https://idp.example.com/', 302);
      },
    });
    const response = await leaky.fetch(envelopeRequest(event, { environment: siteEnvironment() }));
    const logs = Buffer.from(response.headers.get('x-platform-logs') ?? '', 'base64url').toString();
    expect(logs).toContain('secret is ');
    expect(logs).not.toContain(SECRET);
  });
});
