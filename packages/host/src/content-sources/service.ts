import type { ContentSourcePage, DocumentNode } from '@platform/api-client';
import {
  contentSourceDocumentSchema,
  contentSourceRevisionSchema,
} from '@platform/api-client/document-schema';
import { HOST_EVENT } from '@platform/events';
import type { Manifest } from '@platform/manifest';
import type { z } from 'zod';
import { HttpError } from '../errors.js';
import { type ExecutorSelector, invoke } from '../invocation/invoker.js';
import type { HostContext } from '../services/context.js';
import { hasScopeFor, newEventId } from '../services/dispatch.js';
import { getDocument, saveDocument } from '../services/documents.js';
import { getInstallation } from '../services/installations.js';
import type { InstallationRecord, IntegrationRecord } from '../storage/index.js';
import { composeDocument, flattenPages } from './compose.js';

/** What a sync stored. */
export interface ContentSourceSync {
  spaceId: string;
  /** The document's revision after the sync. */
  revision: number;
  /** The pages stored, in reading order. */
  pages: Array<{ id: string; title: string; depth: number }>;
}

const bad = (message: string) => new HttpError(400, 'invalid_request', message);

function invalid(integration: string, what: string, detail: string): HttpError {
  return new HttpError(
    502,
    'invalid_content_source',
    `${integration}'s content source answered ${what} that cannot be stored: ${detail}.`,
  );
}

/** The first zod issue as `path: message`. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(answer)'}: ${issue.message}` : 'invalid';
}

/** The installation, when it may fill `spaceId` from `sourceId`; else a 400/404/409 saying what to fix. */
async function sourceTarget(ctx: HostContext, spaceId: string, installationId: string, sourceId: string) {
  const { record, integration } = await getInstallation(ctx, installationId);
  if (!integration) throw bad(`The integration of installation "${installationId}" is no longer published.`);
  if (record.target !== 'space' || record.spaceId !== spaceId) {
    throw bad(
      `Installation "${installationId}" is not installed in space "${spaceId}"; install it there first.`,
    );
  }
  if (record.status !== 'active') {
    throw new HttpError(
      409,
      'installation_not_active',
      `Installation "${installationId}" is ${record.status}; it must be active.`,
    );
  }
  if (!hasScopeFor(integration, HOST_EVENT.contentComputeRevision)) {
    throw bad(`${integration.name} does not have the scope space:content:write that content sources need.`);
  }
  const declared = ((integration.manifest as Manifest).contentSources ?? []).map((s) => s.id);
  if (!declared.includes(sourceId)) {
    throw bad(
      `${integration.name} declares no content source "${sourceId}" (its manifest's contentSources: ${declared.length ? declared.join(', ') : 'none'}).`,
    );
  }
  return { record, integration };
}

async function ask(
  ctx: HostContext,
  executors: ExecutorSelector,
  integration: IntegrationRecord,
  installation: InstallationRecord,
  event: Record<string, unknown> & { type: string },
): Promise<unknown> {
  const outcome = await invoke(ctx, executors, integration, installation, {
    ...event,
    eventId: newEventId(),
  });
  if (!outcome.ok) {
    const { error } = outcome;
    throw new HttpError(error.code === 'timeout' ? 504 : 502, `integration_${error.code}`, error.message);
  }
  const { response } = outcome;
  const text = await response.text();
  if (response.status !== 200) {
    throw invalid(integration.name, `HTTP ${response.status}`, text.slice(0, 200) || 'no body');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(integration.name, 'a body', 'it is not JSON');
  }
}

/**
 * Fills a space with the pages a content source generates (docs/content-sources.md): asks the source
 * for its pages (`content_compute_revision`), then each page's document (`content_compute_document`,
 * one at a time, pages without `computed` have none), validates every answer, and saves the composed
 * document in place of the space's, compare-and-set against the revision read first (a save made
 * meanwhile wins: 409 `document_changed`, nothing stored).
 *
 * @example
 * const sync = await syncContentSource(ctx, executors, 'space_docs', { installationId: 'inst_1', sourceId: 'releases' });
 */
export async function syncContentSource(
  ctx: HostContext,
  executors: ExecutorSelector,
  spaceId: string,
  input: { installationId: string; sourceId: string; props?: Record<string, unknown> | undefined },
): Promise<ContentSourceSync> {
  const { record, integration } = await sourceTarget(ctx, spaceId, input.installationId, input.sourceId);
  const before = await getDocument(ctx, spaceId);
  const base = { installationId: record.id, spaceId, sourceId: input.sourceId, dependencies: {} };
  const revision = contentSourceRevisionSchema.safeParse(
    await ask(ctx, executors, integration, record, {
      type: HOST_EVENT.contentComputeRevision,
      ...base,
      props: input.props ?? {},
    }),
  );
  if (!revision.success) throw invalid(integration.name, 'pages', firstIssue(revision.error));
  const flat = flattenPages(revision.data.pages as ContentSourcePage[]);
  if ('problem' in flat) throw invalid(integration.name, 'pages', flat.problem);
  const documents = new Map<string, DocumentNode[]>();
  for (const { page } of flat) {
    if (!page.computed) continue;
    const answer = contentSourceDocumentSchema.safeParse(
      await ask(ctx, executors, integration, record, {
        type: HOST_EVENT.contentComputeDocument,
        ...base,
        props: page.computed.props,
      }),
    );
    if (!answer.success) {
      throw invalid(integration.name, `the document of page "${page.id}"`, firstIssue(answer.error));
    }
    documents.set(page.id, answer.data.document.nodes);
  }
  const nodes = composeDocument(flat, documents);
  const saved = await saveDocument(ctx, spaceId, { nodes, baseRevision: before.revision });
  return {
    spaceId,
    revision: saved.revision,
    pages: flat.map(({ page, depth }) => ({ id: page.id, title: page.title, depth })),
  };
}
