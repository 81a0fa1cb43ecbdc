/*
 * Enums and shapes of the documentation platform's public API that integrations import by name
 * (docs/porting-measurement.md "Compatibility surface"). They are written here once, in this
 * project's own words, from the public API's field names and values; the host serves only what
 * docs/host-api.md lists, so most shapes describe data an integration receives from, or sends to,
 * the platform it was written for. Enums are `as const` objects with a type of the same name, so
 * both `GitSyncOperationState.Running` (a value) and `state: GitSyncOperationState` (a type) work.
 */
import type { InstallationConfiguration, SiteInstallation } from './environment';

/**
 * Who can read a space or a site's content.
 *
 * @example
 * if (space.visibility === ContentVisibility.Public) console.log('anyone can read it');
 */
export const ContentVisibility = {
  Public: 'public',
  Unlisted: 'unlisted',
  ShareLink: 'share-link',
  VisitorAuth: 'visitor-auth',
  InCollection: 'in-collection',
  Private: 'private',
} as const;
/** @example const v: ContentVisibility = 'public'; */
export type ContentVisibility = (typeof ContentVisibility)[keyof typeof ContentVisibility];

/**
 * State of a Git synchronisation (import or export) of a space.
 *
 * @example
 * if (operation.state === GitSyncOperationState.Running) return; // one at a time
 */
export const GitSyncOperationState = {
  Running: 'running',
  Failure: 'failure',
  Success: 'success',
} as const;
/** @example const s: GitSyncOperationState = 'success'; */
export type GitSyncOperationState = (typeof GitSyncOperationState)[keyof typeof GitSyncOperationState];

/**
 * Kind of one change between two revisions of a space (`RevisionSemanticChange.type`).
 *
 * @example
 * const created = changes.filter((c) => c.type === RevisionSemanticChangeType.PageCreated);
 */
export const RevisionSemanticChangeType = {
  PageCreated: 'page_created',
  PageEdited: 'page_edited',
  PageDeleted: 'page_deleted',
  PageMoved: 'page_moved',
  FileCreated: 'file_created',
  FileEdited: 'file_edited',
  FileDeleted: 'file_deleted',
} as const;
/** @example const t: RevisionSemanticChangeType = 'page_edited'; */
export type RevisionSemanticChangeType =
  (typeof RevisionSemanticChangeType)[keyof typeof RevisionSemanticChangeType];

/**
 * A page as a revision change names it.
 * @example const p: ChangedRevisionPage = { id: 'page_1', title: 'Intro', path: 'intro' };
 */
export interface ChangedRevisionPage {
  id: string;
  title: string;
  path?: string;
}

/**
 * A file (an uploaded asset) as a revision change names it.
 * @example const f: ChangedRevisionFile = { id: 'file_1', name: 'logo.png' };
 */
export interface ChangedRevisionFile {
  id: string;
  name: string;
}

/**
 * One change between two revisions: a page or a file created, edited, deleted or moved.
 * @example const c: RevisionSemanticChange = { type: 'page_created', page: { id: 'page_1', title: 'Intro' } };
 */
export type RevisionSemanticChange =
  | {
      type: 'page_created' | 'page_edited' | 'page_deleted' | 'page_moved';
      page: ChangedRevisionPage;
    }
  | { type: 'file_created' | 'file_edited' | 'file_deleted'; file: ChangedRevisionFile };

/**
 * A page of a revision: a document, a link, or a group of pages.
 * @example const p: RevisionPage = { id: 'page_1', type: 'document', title: 'Intro', path: 'intro', pages: [] };
 */
export type RevisionPage = RevisionPageDocument | RevisionPageGroup | RevisionPageLink;

/** @example const p: RevisionPageDocument = { id: 'page_1', type: 'document', title: 'Intro', path: 'intro', pages: [] }; */
export interface RevisionPageDocument {
  id: string;
  type: 'document';
  title: string;
  path: string;
  description?: string;
  /** Pages nested under this one. */
  pages: RevisionPage[];
}

/** @example const g: RevisionPageGroup = { id: 'page_2', type: 'group', title: 'Guides', path: 'guides', pages: [] }; */
export interface RevisionPageGroup {
  id: string;
  type: 'group';
  title: string;
  path: string;
  pages: RevisionPage[];
}

/** @example const l: RevisionPageLink = { id: 'page_3', type: 'link', title: 'Site', target: { url: 'https://example.com' } }; */
export interface RevisionPageLink {
  id: string;
  type: 'link';
  title: string;
  target: { url?: string };
}

/**
 * A revision of a space's content.
 * @example const r: Revision = { id: 'rev_1', type: 'edits', parents: [], pages: [], files: [] };
 */
export interface Revision {
  id: string;
  /** How it was made: edits, a merge of a change request, a rollback, a Git sync... */
  type: 'edits' | 'merge' | 'rollback' | 'update' | 'git-sync' | (string & {});
  parents: string[];
  /** The change request it merged, for a `merge`. */
  mergedFrom?: { id: string; number?: number; subject?: string };
  /** The Git commit it came from or went to. */
  git?: { oid: string; message?: string; url?: string };
  pages: RevisionPage[];
  files: ChangedRevisionFile[];
}

/**
 * Where an AI answer got its content from.
 * @example const s: SearchAIAnswerSource = { type: 'page', space: 'spc_1', revision: 'rev_1', page: 'page_1' };
 */
export type SearchAIAnswerSource =
  | { type: 'page'; space: string; revision: string; page: string; sections?: string[] }
  | { type: 'record'; record: string };

/**
 * An answer to a question over the documentation.
 * @example const a: SearchAIAnswer = { answer: { markdown: 'Yes.' }, sources: [], followupQuestions: [] };
 */
export interface SearchAIAnswer {
  answer?: { markdown?: string; text?: string };
  sources: SearchAIAnswerSource[];
  followupQuestions: string[];
}

/**
 * Claims an adaptive site reads of its visitors, as JSON Schema properties.
 * @example const p: SiteAdaptiveJSONSchemaClaimsProperties = { plan: { type: 'string', enum: ['free', 'pro'] } };
 */
export type SiteAdaptiveJSONSchemaClaimsProperties = Record<
  string,
  {
    type: 'string' | 'number' | 'boolean' | 'object';
    description?: string;
    enum?: Array<string | number>;
    properties?: SiteAdaptiveJSONSchemaClaimsProperties;
  }
>;

/**
 * The JSON Schema of the claims an adaptive site reads of its visitors.
 * @example const s: SiteAdaptiveJSONSchema = { type: 'object', properties: {}, additionalProperties: false };
 */
export interface SiteAdaptiveJSONSchema {
  type: 'object';
  properties: SiteAdaptiveJSONSchemaClaimsProperties;
  additionalProperties: false;
}

/**
 * What an integration may change of its installation (the body of the installation update).
 * @example const update: RequestUpdateIntegrationInstallation = { configuration: { oauth_credentials: { access_token: 't' } } };
 */
export interface RequestUpdateIntegrationInstallation {
  configuration?: InstallationConfiguration;
  externalIds?: string[];
}

/**
 * The site installation of an environment (`context.environment.siteInstallation`).
 * @example const s: IntegrationEnvironmentSiteInstallation | undefined = context.environment.siteInstallation;
 */
export type IntegrationEnvironmentSiteInstallation = SiteInstallation;
