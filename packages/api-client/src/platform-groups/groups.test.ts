import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { platformGroups } from './index';
import type { ApiRequest } from './types';

const installation = {
  id: 'inst_1',
  integration: 'hello',
  target: 'site',
  site: 'site_1',
  status: 'active',
  configuration: { a: 1, b: 2 },
  configurationErrors: [],
  externalIds: ['ext-1'],
  urls: { publicEndpoint: 'http://x/p' },
  createdAt: '',
  updatedAt: '',
};

/** Answers like the host for inst_1 and records every request. */
function recorder() {
  const calls: Array<{ method: string; path: string; body?: unknown }> = [];
  const request = (async (method: string, path: string, body?: unknown) => {
    calls.push({ method, path, ...(body === undefined ? {} : { body }) });
    if (path === '/v1/installations/inst_1') {
      if (method === 'PATCH') return { ...installation, configuration: { c: 3 } };
      return installation;
    }
    if (path === '/v1/spaces/sp/document') return { spaceId: 'sp', nodes: [], revision: 4, updatedAt: null };
    throw new ApiError(404, 'not_found', `${method} ${path} failed: not found`);
  }) as ApiRequest;
  return { calls, request };
}

describe('platformGroups', () => {
  it('replaces a site installation configuration: keys left out are deleted in the merge patch', async () => {
    const { calls, request } = recorder();
    const api = platformGroups(request, { integration: 'hello', installation: 'inst_1' });
    const { data } = await api.integrations.updateIntegrationSiteInstallation('hello', 'inst_1', 'site_1', {
      configuration: { a: 5, c: 3 },
    });
    expect(calls.at(-1)).toEqual({
      method: 'PATCH',
      path: '/v1/installations/inst_1',
      body: { configuration: { a: 5, c: 3, b: null } },
    });
    expect(data).toMatchObject({ integration: 'hello', installation: 'inst_1', site: 'site_1' });
  });

  it('refuses another integration or another site with a 404 naming the call', async () => {
    const api = platformGroups(recorder().request, { installation: 'inst_1' });
    await expect(api.integrations.getIntegrationInstallationById('other', 'inst_1')).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('not an installation of other'),
    });
    await expect(
      api.integrations.updateIntegrationSiteInstallation('hello', 'inst_1', 'site_2', {}),
    ).rejects.toMatchObject({ status: 404, message: expect.stringContaining('site site_2') });
  });

  it('lists its own installation when it matches, and hands back its own token only', async () => {
    const api = platformGroups(recorder().request, {
      integration: 'hello',
      installation: 'inst_1',
      token: 'pit_t',
    });
    expect(
      (await api.integrations.listIntegrationInstallations('hello', { externalId: 'ext-1' })).data.items,
    ).toHaveLength(1);
    expect(
      (await api.integrations.listIntegrationInstallations('hello', { externalId: 'nope' })).data.items,
    ).toEqual([]);
    expect((await api.integrations.createIntegrationInstallationToken('hello', 'inst_1')).data).toEqual({
      token: 'pit_t',
    });
    const outside = platformGroups(recorder().request, {});
    await expect(outside.integrations.listIntegrationInstallations('hello')).rejects.toMatchObject({
      status: 501,
      code: 'not_served',
    });
  });

  it('answers revisions from the document, and 404 for a revision it does not keep', async () => {
    const api = platformGroups(recorder().request, {});
    expect((await api.spaces.getCurrentRevision('sp')).data).toMatchObject({
      id: '4',
      pages: [{ id: 'document' }],
    });
    await expect(api.spaces.getRevisionById('sp', '3')).rejects.toMatchObject({ status: 404 });
  });

  it('answers every method it does not serve with a 501 ApiError, never undefined', async () => {
    const api = platformGroups(recorder().request, {});
    const spaces = api.spaces as unknown as Record<string, () => Promise<unknown>>;
    for (const call of [
      () => api.spaces.importGitRepository('sp', {}),
      () => api.orgs.getSiteAdaptiveSchema('o', 's'),
      () => api.urls.getContentByUrl({ url: 'https://x' }),
      () => spaces.listPages?.() ?? Promise.resolve('missing'),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 501, code: 'not_served' });
    }
    expect((api.spaces as unknown as { then?: unknown }).then).toBeUndefined(); // not a thenable
  });
});
