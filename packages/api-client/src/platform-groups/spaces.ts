import type { DocumentNode } from '../document/schema';
import { ApiError } from '../errors';
import type { ApiRequest, ApiResponse, Revision, RevisionPage, Site, Space } from './types';
import { type NotServed, notServed, withUnserved } from './unserved';

/** A space's document as `GET /v1/spaces/{spaceId}/document` answers it. */
interface SpaceDocument {
  spaceId: string;
  nodes: DocumentNode[];
  revision: number;
  updatedAt: string | null;
}

/** The id of the one page of a space's document, in the revisions the host answers. */
export const DOCUMENT_PAGE_ID = 'document';

/**
 * `api.spaces`: a space and the current revision of its document (the host keeps only the latest).
 * @example const { data: space } = await api.spaces.getSpaceById(event.spaceId);
 */
export interface SpacesGroup {
  /** `GET /v1/spaces/{spaceId}`. @example await api.spaces.getSpaceById('sp'); */
  getSpaceById(spaceId: string): Promise<ApiResponse<Space>>;
  /** The document as a revision (needs `space:content:read`). @example await api.spaces.getCurrentRevision('sp'); */
  getCurrentRevision(spaceId: string): Promise<ApiResponse<Revision>>;
  /** The current revision when `revisionId` names it; 404 for an older one. @example await api.spaces.getRevisionById('sp', '3'); */
  getRevisionById(spaceId: string, revisionId: string): Promise<ApiResponse<Revision>>;
  /** The document's page of that revision. @example await api.spaces.getPageInRevisionById('sp', '3', 'document'); */
  getPageInRevisionById(
    spaceId: string,
    revisionId: string,
    pageId: string,
  ): Promise<ApiResponse<RevisionPage>>;
  /** Not served (501): the host keeps no history of revisions. @example await api.spaces.getRevisionSemanticChanges('sp', '3').catch(() => null); */
  getRevisionSemanticChanges: NotServed;
  /** Not served (501): no Git sync. @example await api.spaces.importGitRepository('sp', {}).catch(() => null); */
  importGitRepository: NotServed;
  /** Not served (501): no Git sync. @example await api.spaces.exportToGitRepository('sp', {}).catch(() => null); */
  exportToGitRepository: NotServed;
}

/**
 * `api.orgs`: sites (the host keeps no other organization data integrations read).
 * @example const { data: site } = await api.orgs.getSiteById(organizationId, siteId);
 */
export interface OrgsGroup {
  /** `GET /v1/sites/{siteId}`, checked to belong to `organizationId` when the site has an owner. @example await api.orgs.getSiteById('acme', 'site_1'); */
  getSiteById(organizationId: string, siteId: string): Promise<ApiResponse<Site>>;
  /** Not served (501): no adaptive content. @example await api.orgs.getSiteAdaptiveSchema('acme', 'site_1').catch(() => null); */
  getSiteAdaptiveSchema: NotServed;
  /** Not served (501): no adaptive content. @example await api.orgs.updateSiteAdaptiveSchema('acme', 'site_1', {}).catch(() => null); */
  updateSiteAdaptiveSchema: NotServed;
  /** Not served (501): no AI search. @example await api.orgs.askInOrganization('acme', {}).catch(() => null); */
  askInOrganization: NotServed;
  /** Not served (501): no AI search. @example await api.orgs.streamAskInOrganization('acme', {}).catch(() => null); */
  streamAskInOrganization: NotServed;
}

function revisionOf(document: SpaceDocument): Revision {
  const page: RevisionPage = {
    object: 'page',
    id: DOCUMENT_PAGE_ID,
    kind: 'sheet',
    type: 'document',
    title: document.spaceId,
    path: '',
    slug: '',
    pages: [],
    document: { nodes: document.nodes },
  };
  return {
    object: 'revision',
    id: String(document.revision),
    parents: [],
    pages: [page],
    createdAt: document.updatedAt,
  };
}

/**
 * Builds `api.spaces` on `request`.
 * @example const spaces = spacesGroup(client.request);
 */
export function spacesGroup(request: ApiRequest): SpacesGroup {
  const spacePath = (id: string) => `/v1/spaces/${encodeURIComponent(id)}`;
  const current = async (spaceId: string) =>
    revisionOf(await request<SpaceDocument>('GET', `${spacePath(spaceId)}/document`));
  async function revision(call: string, spaceId: string, revisionId: string): Promise<Revision> {
    const found = await current(spaceId);
    if (found.id !== String(revisionId)) {
      throw new ApiError(
        404,
        'not_found',
        `api.spaces.${call}: revision ${revisionId} of space ${spaceId} is not kept (the host keeps the current one, ${found.id})`,
      );
    }
    return found;
  }
  const unserved =
    (call: string, why: string): NotServed =>
    () =>
      Promise.reject(notServed(`spaces.${call}`, why));
  return withUnserved('spaces', {
    getSpaceById: async (spaceId: string) => ({ data: await request<Space>('GET', spacePath(spaceId)) }),
    getCurrentRevision: async (spaceId: string) => ({ data: await current(spaceId) }),
    getRevisionById: async (spaceId: string, revisionId: string) => ({
      data: await revision('getRevisionById', spaceId, revisionId),
    }),
    async getPageInRevisionById(spaceId: string, revisionId: string, pageId: string) {
      const found = await revision('getPageInRevisionById', spaceId, revisionId);
      const page = found.pages.find((p) => p.id === pageId);
      if (page === undefined) {
        throw new ApiError(
          404,
          'not_found',
          `api.spaces.getPageInRevisionById: no page ${pageId} in space ${spaceId} (its document is page "${DOCUMENT_PAGE_ID}")`,
        );
      }
      return { data: page };
    },
    getRevisionSemanticChanges: unserved(
      'getRevisionSemanticChanges',
      'the host keeps no history of revisions to compare',
    ),
    importGitRepository: unserved('importGitRepository', 'the host does not sync Git repositories'),
    exportToGitRepository: unserved('exportToGitRepository', 'the host does not sync Git repositories'),
  });
}

/**
 * Builds `api.orgs` on `request`.
 * @example const orgs = orgsGroup(client.request);
 */
export function orgsGroup(request: ApiRequest): OrgsGroup {
  const unserved =
    (call: string, why: string): NotServed =>
    () =>
      Promise.reject(notServed(`orgs.${call}`, why));
  return withUnserved('orgs', {
    async getSiteById(organizationId: string, siteId: string) {
      const site = await request<Site>('GET', `/v1/sites/${encodeURIComponent(siteId)}`);
      if (
        site.organization !== null &&
        organizationId !== undefined &&
        site.organization !== organizationId
      ) {
        throw new ApiError(
          404,
          'not_found',
          `api.orgs.getSiteById: site ${siteId} is not a site of ${organizationId}`,
        );
      }
      return { data: site };
    },
    getSiteAdaptiveSchema: unserved('getSiteAdaptiveSchema', 'the host has no adaptive content'),
    updateSiteAdaptiveSchema: unserved('updateSiteAdaptiveSchema', 'the host has no adaptive content'),
    askInOrganization: unserved('askInOrganization', 'the host has no AI search'),
    streamAskInOrganization: unserved('streamAskInOrganization', 'the host has no AI search'),
  });
}
