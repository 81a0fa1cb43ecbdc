import type { DocumentNode } from '@platform/api-client';
import type { Principal } from '../access/principal.js';
import { forbidden, HttpError, notFound } from '../errors.js';
import {
  installationMatches,
  isStorageError,
  type Json,
  type SpaceDocumentRecord,
} from '../storage/index.js';
import type { HostContext } from './context.js';

/** A space's document as the API answers it. */
export interface SpaceDocumentView {
  spaceId: string;
  nodes: DocumentNode[];
  revision: number;
  updatedAt: string | null;
}

/** Scope an installation needs to read the document of a space it is installed in. */
export const DOCUMENT_READ_SCOPE = 'space:content:read';

function view(spaceId: string, record: SpaceDocumentRecord | null): SpaceDocumentView {
  return record
    ? {
        spaceId,
        nodes: record.nodes as DocumentNode[],
        revision: record.revision,
        updatedAt: new Date(record.updatedAt).toISOString(),
      }
    : { spaceId, nodes: [], revision: 0, updatedAt: null };
}

/**
 * Who may read a space's document (docs/documents.md "Storage and API"): the operator, or an active
 * installation in that space (or an organization installation covering it) whose integration has
 * `space:content:read`. Throws 403 otherwise.
 *
 * @example
 * await requireReadAccess(ctx, c.get('principal'), 'space_docs');
 */
export async function requireReadAccess(
  ctx: HostContext,
  principal: Principal,
  spaceId: string,
): Promise<void> {
  if (principal.kind === 'operator') return;
  if (principal.kind !== 'installation') throw forbidden('This needs the operator token.');
  const installation = await ctx.storage.installations.get(principal.installationId);
  if (!installation || !installationMatches(installation, { spaceId })) {
    throw forbidden(`This installation is not installed in space "${spaceId}"; it cannot read its document.`);
  }
  const integration = await ctx.storage.integrations.getLatest(installation.integrationName);
  const scopes = (integration?.manifest.scopes ?? []) as unknown[];
  if (!scopes.includes(DOCUMENT_READ_SCOPE)) {
    throw forbidden(
      `Reading a space's document needs the scope \`${DOCUMENT_READ_SCOPE}\` in the integration's manifest.`,
    );
  }
}

/**
 * Who may update a block's props: the operator, or the installation that renders the block (a
 * block it does not render, or that does not exist, is refused alike: 403).
 *
 * @example
 * await requireBlockAccess(ctx, c.get('principal'), 'space_docs', 'blk_1');
 */
export async function requireBlockAccess(
  ctx: HostContext,
  principal: Principal,
  spaceId: string,
  blockId: string,
): Promise<void> {
  if (principal.kind === 'operator') return;
  if (principal.kind !== 'installation') throw notOwnBlock();
  const nodes = ((await ctx.storage.documents.get(spaceId))?.nodes ?? []) as DocumentNode[];
  const node = nodes.find((n) => n.type === 'block' && n.id === blockId);
  if (node?.type !== 'block' || node.installationId !== principal.installationId) throw notOwnBlock();
}

const notOwnBlock = () =>
  forbidden('This token belongs to another installation; it can only update the props of its own blocks.');

/**
 * The document of a space (empty, revision 0, when none was saved); check the caller with
 * {@link requireReadAccess} first.
 *
 * @example
 * const doc = await getDocument(ctx, 'space_docs'); // { spaceId, nodes, revision, updatedAt }
 */
export async function getDocument(ctx: HostContext, spaceId: string): Promise<SpaceDocumentView> {
  return view(spaceId, await ctx.storage.documents.get(spaceId));
}

function changed(spaceId: string, revision: number, base: number): HttpError {
  return new HttpError(
    409,
    'document_changed',
    `The document of space "${spaceId}" was saved elsewhere meanwhile (revision ${revision}, this save was based on ${base}); load it again and reapply the change.`,
    { revision },
  );
}

/**
 * Saves the whole document (operator). With `baseRevision`, only when the stored revision is that
 * one (409 `document_changed` otherwise, with the current revision); block ids must be unique.
 *
 * @example
 * await saveDocument(ctx, 'space_docs', { nodes, baseRevision: 3 }); // revision 4
 */
export async function saveDocument(
  ctx: HostContext,
  spaceId: string,
  input: { nodes: DocumentNode[]; baseRevision?: number | undefined },
): Promise<SpaceDocumentView> {
  const seen = new Set<string>();
  input.nodes.forEach((node, i) => {
    if (node.type !== 'block') return;
    if (seen.has(node.id)) {
      throw new HttpError(
        400,
        'invalid_request',
        `body.nodes.${i}.id: block id "${node.id}" is used twice; every block of a document needs its own id.`,
      );
    }
    seen.add(node.id);
  });
  try {
    const saved = await ctx.storage.documents.put(spaceId, input.nodes as Json[], {
      ...(input.baseRevision === undefined ? {} : { baseRevision: input.baseRevision }),
    });
    return view(spaceId, saved);
  } catch (error) {
    if (isStorageError(error, 'conflict')) {
      const current = await ctx.storage.documents.get(spaceId);
      throw changed(spaceId, current?.revision ?? 0, input.baseRevision ?? 0);
    }
    throw error;
  }
}

/**
 * Replaces the props of one block (`@editor.node.updateProps`), whatever else changed meanwhile:
 * read (locked), replace, write, in one transaction, so concurrent updates of different blocks all
 * stay. The operator may update any block; an installation only the blocks it renders. 404 when the
 * space has no such block.
 *
 * @example
 * await updateBlockProps(ctx, { kind: 'operator' }, 'space_docs', 'blk_1', { content: 'A --> B' });
 */
export async function updateBlockProps(
  ctx: HostContext,
  principal: Principal,
  spaceId: string,
  blockId: string,
  props: Record<string, unknown>,
): Promise<SpaceDocumentView> {
  return ctx.storage.transaction(async (tx) => {
    const current = await tx.documents.get(spaceId, { lock: true });
    const nodes = (current?.nodes ?? []) as DocumentNode[];
    const index = nodes.findIndex((n) => n.type === 'block' && n.id === blockId);
    const node = nodes[index];
    if (!current || node?.type !== 'block')
      throw notFound(`Block "${blockId}" in the document of space "${spaceId}"`);
    if (principal.kind === 'installation' && principal.installationId !== node.installationId)
      throw notOwnBlock();
    const { unfurl: _pasted, ...block } = node; // saved props replace the pasted URL (docs/documents.md)
    const next = nodes.map((n, i) => (i === index ? { ...block, props } : n));
    return view(spaceId, await tx.documents.put(spaceId, next as Json[], { baseRevision: current.revision }));
  });
}
