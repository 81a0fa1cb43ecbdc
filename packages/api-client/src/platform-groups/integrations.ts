import type { Installation, InstallationConfiguration } from '../environment';
import { ApiError } from '../errors';
import type {
  ApiList,
  ApiRequest,
  ApiResponse,
  InstallationListQuery,
  InstallationUpdate,
  OwnInstallation,
  QueuedTask,
  QueueTaskRequest,
  SiteInstallationView,
  SpaceInstallationView,
} from './types';
import { notServed, withUnserved } from './unserved';

/**
 * `api.integrations`: the installations of the calling integration. An installation token reaches its
 * own installation only, so the lists hold that one (when it matches the query).
 * @example const { data } = await api.integrations.getIntegrationInstallationById('hello', 'inst_1');
 */
export interface IntegrationsGroup {
  /** `GET /v1/installations/{id}`, checked to belong to `integration`. @example await api.integrations.getIntegrationInstallationById(name, id); */
  getIntegrationInstallationById(
    integration: string,
    installationId: string,
  ): Promise<ApiResponse<Installation>>;
  /** Replaces configuration and/or external ids of the installation. @example await api.integrations.updateIntegrationInstallation(name, id, { configuration: { a: 1 } }); */
  updateIntegrationInstallation(
    integration: string,
    installationId: string,
    body: InstallationUpdate,
  ): Promise<ApiResponse<Installation>>;
  /** The same for the installation in space `spaceId`. @example await api.integrations.updateIntegrationSpaceInstallation(name, id, spaceId, { configuration }); */
  updateIntegrationSpaceInstallation(
    integration: string,
    installationId: string,
    spaceId: string,
    body: InstallationUpdate,
  ): Promise<ApiResponse<SpaceInstallationView>>;
  /** The same for the installation in site `siteId`. @example await api.integrations.updateIntegrationSiteInstallation(name, id, siteId, { configuration }); */
  updateIntegrationSiteInstallation(
    integration: string,
    installationId: string,
    siteId: string,
    body: InstallationUpdate,
  ): Promise<ApiResponse<SiteInstallationView>>;
  /** The caller's installation when it matches `query`. @example await api.integrations.listIntegrationInstallations(name, { externalId }); */
  listIntegrationInstallations(
    integration: string,
    query?: InstallationListQuery,
  ): Promise<ApiResponse<ApiList<Installation>>>;
  /** The caller's space installation when it matches `query`. @example await api.integrations.listIntegrationSpaceInstallations(name, { externalId }); */
  listIntegrationSpaceInstallations(
    integration: string,
    query?: InstallationListQuery,
  ): Promise<ApiResponse<ApiList<SpaceInstallationView>>>;
  /** The caller's own installation token (the only one it may hold). @example const { data } = await api.integrations.createIntegrationInstallationToken(name, id); */
  createIntegrationInstallationToken(
    integration: string,
    installationId: string,
  ): Promise<ApiResponse<{ token: string }>>;
  /**
   * `POST /v1/integrations/{name}/tasks`: queues a durable task for the calling installation; it comes
   * back as an `integration_task` event after `schedule` seconds (docs/tasks.md).
   * @example await api.integrations.queueIntegrationTask('my-app', { task: { type: 'sync', payload: {} }, schedule: 30 });
   */
  queueIntegrationTask(integration: string, body: QueueTaskRequest): Promise<ApiResponse<QueuedTask>>;
}

/** A JSON merge patch turning `current` into `next`: keys of `next` set, the others deleted. */
function replacement(current: InstallationConfiguration, next: InstallationConfiguration) {
  const patch: Record<string, unknown> = { ...next };
  for (const key of Object.keys(current)) if (!Object.hasOwn(next, key)) patch[key] = null;
  return patch;
}

function spaceView(installation: Installation): SpaceInstallationView {
  return {
    integration: installation.integration,
    installation: installation.id,
    space: installation.space ?? '',
    status: installation.status,
    configuration: installation.configuration,
    externalIds: installation.externalIds,
    urls: installation.urls,
  };
}

function siteView(installation: Installation): SiteInstallationView {
  const { space: _space, ...rest } = spaceView(installation);
  return { ...rest, site: installation.site ?? '' };
}

/**
 * Builds `api.integrations` on `request`; `own` fills `undefined` arguments.
 * @example const integrations = integrationsGroup(request, { integration: 'hello', installation: 'inst_1' });
 */
export function integrationsGroup(request: ApiRequest, own: OwnInstallation): IntegrationsGroup {
  const path = (id: string) => `/v1/installations/${encodeURIComponent(id)}`;
  const idOf = (call: string, given: string | undefined): string => {
    const id = given ?? own.installation;
    if (!id)
      throw new ApiError(400, 'invalid_argument', `api.integrations.${call}: no installation id given`);
    return id;
  };
  async function read(call: string, integration: string | undefined, given: string | undefined) {
    const installation = await request<Installation>('GET', path(idOf(call, given)));
    const expected = integration ?? own.integration;
    if (expected !== undefined && installation.integration !== expected) {
      throw new ApiError(
        404,
        'not_found',
        `api.integrations.${call}: installation ${installation.id} is not an installation of ${expected}`,
      );
    }
    return installation;
  }
  function place(call: string, installation: Installation, kind: 'space' | 'site', id: string | undefined) {
    if (id !== undefined && installation[kind] !== id) {
      throw new ApiError(
        404,
        'not_found',
        `api.integrations.${call}: installation ${installation.id} is not installed in ${kind} ${id}`,
      );
    }
  }
  async function update(call: string, installation: Installation, body: InstallationUpdate | undefined) {
    const patch: Record<string, unknown> = {};
    if (body?.configuration !== undefined)
      patch.configuration = replacement(installation.configuration, body.configuration);
    if (body?.externalIds !== undefined) patch.externalIds = body.externalIds;
    if (Object.keys(patch).length === 0) return installation;
    return request<Installation>('PATCH', path(idOf(call, installation.id)), patch);
  }
  function matches(installation: Installation, query: InstallationListQuery | undefined): boolean {
    return query?.externalId === undefined || installation.externalIds.includes(query.externalId);
  }
  async function listOwn(
    call: string,
    integration: string | undefined,
    query: InstallationListQuery | undefined,
  ) {
    if (!own.installation) {
      throw notServed(
        `integrations.${call}`,
        'an installation token lists its own installation only, and this call runs outside any installation',
      );
    }
    const installation = await read(call, integration, own.installation);
    return matches(installation, query) ? [installation] : [];
  }
  return withUnserved('integrations', {
    async getIntegrationInstallationById(integration, installationId) {
      return { data: await read('getIntegrationInstallationById', integration, installationId) };
    },
    async updateIntegrationInstallation(integration, installationId, body) {
      const call = 'updateIntegrationInstallation';
      return { data: await update(call, await read(call, integration, installationId), body) };
    },
    async updateIntegrationSpaceInstallation(integration, installationId, spaceId, body) {
      const call = 'updateIntegrationSpaceInstallation';
      const installation = await read(call, integration, installationId);
      place(call, installation, 'space', spaceId);
      return { data: spaceView(await update(call, installation, body)) };
    },
    async updateIntegrationSiteInstallation(integration, installationId, siteId, body) {
      const call = 'updateIntegrationSiteInstallation';
      const installation = await read(call, integration, installationId);
      place(call, installation, 'site', siteId);
      return { data: siteView(await update(call, installation, body)) };
    },
    async listIntegrationInstallations(integration, query) {
      return { data: { items: await listOwn('listIntegrationInstallations', integration, query) } };
    },
    async listIntegrationSpaceInstallations(integration, query) {
      const items = await listOwn('listIntegrationSpaceInstallations', integration, query);
      return { data: { items: items.filter((i) => i.space !== undefined).map(spaceView) } };
    },
    async createIntegrationInstallationToken(integration, installationId) {
      const call = 'createIntegrationInstallationToken';
      const installation = await read(call, integration, installationId);
      if (installation.id !== own.installation || !own.token) {
        throw notServed(
          `integrations.${call}`,
          'an installation token can stand only for its own installation',
        );
      }
      return { data: { token: own.token } };
    },
    async queueIntegrationTask(integration, body) {
      const path = `/v1/integrations/${encodeURIComponent(integration)}/tasks`;
      return { data: await request<QueuedTask>('POST', path, body) };
    },
  });
}
