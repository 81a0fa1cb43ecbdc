import type { DocumentNode } from '../document/schema';
import type { Installation, InstallationConfiguration, InstallationUrls } from '../environment';
import type { IntegrationTask } from '../events';

/**
 * What the grouped methods answer: the value under `data`, as clients of the platform's API read it
 * (`const { data: space } = await api.spaces.getSpaceById(id)`).
 * @example const answer: ApiResponse<{ id: string }> = { data: { id: 'space_1' } };
 */
export interface ApiResponse<T> {
  data: T;
}

/**
 * The request function the groups are built on: sends JSON, expects JSON, throws `ApiError`.
 * @example const send: ApiRequest = (method, path, body) => client.request(method, path, body);
 */
export type ApiRequest = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * The caller's own integration, installation and token: what an `undefined` argument means, and the
 * only installation an installation token can read and change.
 * @example const own: OwnInstallation = { integration: 'hello', installation: 'inst_1', token: 'pit_x' };
 */
export interface OwnInstallation {
  integration?: string | undefined;
  installation?: string | undefined;
  token?: string | undefined;
}

/**
 * The body of `update*Installation`: `configuration` replaces the whole configuration (keys left out
 * are removed), `externalIds` replaces the list.
 * @example const body: InstallationUpdate = { configuration: { channel: 'general' } };
 */
export interface InstallationUpdate {
  configuration?: InstallationConfiguration;
  externalIds?: string[];
}

/**
 * The query of the `list*Installations` methods.
 * @example const query: InstallationListQuery = { externalId: 'gh-42' };
 */
export interface InstallationListQuery {
  externalId?: string;
  limit?: number;
  page?: string;
}

/**
 * A page of a list (`next` absent: the last page).
 * @example const list: ApiList<{ id: string }> = { items: [] };
 */
export interface ApiList<T> {
  items: T[];
  next?: { page: string };
}

/**
 * A space installation as the grouped methods answer it.
 * @example const s: SpaceInstallationView = { integration: 'hello', installation: 'inst_1', space: 'sp', status: 'active', configuration: {}, externalIds: [], urls: { publicEndpoint: '' } };
 */
export interface SpaceInstallationView {
  integration: string;
  installation: string;
  space: string;
  status: Installation['status'];
  configuration: InstallationConfiguration;
  externalIds: string[];
  urls: InstallationUrls;
}

/**
 * A site installation as the grouped methods answer it.
 * @example const s: SiteInstallationView = { integration: 'hello', installation: 'inst_1', site: 'site_1', status: 'active', configuration: {}, externalIds: [], urls: { publicEndpoint: '' } };
 */
export interface SiteInstallationView {
  integration: string;
  installation: string;
  site: string;
  status: Installation['status'];
  configuration: InstallationConfiguration;
  externalIds: string[];
  urls: InstallationUrls;
}

/**
 * A space as the host knows it (`GET /v1/spaces/{spaceId}`): its owner in the host's directory and the
 * revision of its document. The host keeps no title or visibility of its own.
 * @example const s: Space = { object: 'space', id: 'sp', organization: 'acme', currentRevision: '3', urls: {} };
 */
export interface Space {
  object: 'space';
  id: string;
  organization: string | null;
  /** The revision of the space's document (`'0'` before the first save). */
  currentRevision: string;
  urls: { app?: string; public?: string };
}

/**
 * A site as the host knows it (`GET /v1/sites/{siteId}`): its owner in the host's directory.
 * @example const s: Site = { object: 'site', id: 'site_1', organization: 'acme', urls: {} };
 */
export interface Site {
  object: 'site';
  id: string;
  organization: string | null;
  urls: { app?: string; published?: string };
}

/**
 * The one page of a space's document, as a page of a revision.
 * @example const p: RevisionPage = { object: 'page', id: 'document', kind: 'sheet', type: 'document', title: 'sp', path: '', slug: '', pages: [], document: { nodes: [] } };
 */
export interface RevisionPage {
  object: 'page';
  id: string;
  kind: 'sheet';
  type: 'document';
  title: string;
  path: string;
  slug: string;
  pages: RevisionPage[];
  document: { nodes: DocumentNode[] };
}

/**
 * The current revision of a space's document: the host keeps only the latest one, with one page.
 * @example const r: Revision = { object: 'revision', id: '3', parents: [], pages: [], createdAt: null };
 */
export interface Revision {
  object: 'revision';
  id: string;
  parents: string[];
  pages: RevisionPage[];
  createdAt: string | null;
}

/**
 * The body of `POST /v1/integrations/{name}/tasks` (docs/tasks.md).
 * @example const body: QueueTaskRequest = { task: { type: 'sync', payload: {} }, schedule: 60 };
 */
export interface QueueTaskRequest<Task extends IntegrationTask = IntegrationTask> {
  /** The task to run: it comes back as an `integration_task` event. */
  task: Task;
  /** Seconds to wait before the task runs (0 by default, at most 604 800: one week). */
  schedule?: number;
}

/**
 * What queueing a task answers: its id (the `eventId` and `taskId` of the event it comes back as) and
 * when it falls due.
 * @example const queued: QueuedTask = { id: 'evt_01J...', runAt: '2026-01-01T00:00:00.000Z' };
 */
export interface QueuedTask {
  id: string;
  /** ISO 8601 time the task falls due. */
  runAt: string;
}
