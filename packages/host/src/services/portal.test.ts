import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { createPortalSession } from './portal.js';
import { installSpaceWebhook, testContext, useTempStorage } from './test-support.js';

const temp = useTempStorage('portal-');

describe('createPortalSession', () => {
  it('hands out a link on the content origin, with the token and the API in its fragment', async () => {
    const ctx = {
      ...(await testContext(temp.dir, temp.storage)),
      contentBaseUrl: () => 'http://127.0.0.1:2',
    };
    const installation = await installSpaceWebhook(temp.storage, 'sp1');
    const session = await createPortalSession(ctx, { kind: 'operator' }, { installation: installation.id });
    const url = new URL(session.url);
    expect(url.origin).toBe('http://127.0.0.1:2');
    expect(url.pathname).toBe('/portal/');
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(fragment.get('token')).toBe(session.token);
    expect(fragment.get('api')).toBe('http://127.0.0.1:1');
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
  });

  it('refuses (409 portal_unavailable) when the content origin is the API origin: no link that cannot work', async () => {
    const ctx = await testContext(temp.dir, temp.storage); // no content origin of its own
    const installation = await installSpaceWebhook(temp.storage, 'sp2', 'https://example.com/other');
    const error = await createPortalSession(
      ctx,
      { kind: 'operator' },
      { installation: installation.id },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 409, code: 'portal_unavailable' });
    expect((error as HttpError).message).toContain('PLATFORM_CONTENT_URL');
  });
});
