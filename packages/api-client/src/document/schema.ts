import { z } from 'zod';

/*
 * The document of a space, specified once: the editor's page (text and inserted blocks, in order).
 * The host stores it (`GET`/`PUT /v1/spaces/{spaceId}/document`), the dashboard edits it, and the
 * Markdown conversion (./markdown.ts) reads and writes it. Types are derived here; zod stays out of
 * the main entry (this module is reached through `@platform/api-client/document-schema`).
 */

/** At most this many nodes in a document. */
export const MAX_DOCUMENT_NODES = 1000;
/** At most this many characters in one text node. */
export const MAX_TEXT_LENGTH = 200_000;

/** A run of the page's text (Markdown; shown as typed). */
export const documentTextNodeSchema = z
  .strictObject({
    type: z.literal('text'),
    text: z
      .string()
      .max(MAX_TEXT_LENGTH, { error: `a text node holds at most ${MAX_TEXT_LENGTH} characters` }),
  })
  .describe('Text of the page (Markdown).');

/** An integration block inserted in the page: which component of which installation, with its props. */
export const documentBlockNodeSchema = z
  .strictObject({
    type: z.literal('block'),
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'a block `id` is 1-64 letters, digits, `_` or `-`' })
      .describe('Identifies the block within the document (stable across saves).'),
    installationId: z.string().min(1).describe('The installation whose integration renders the block.'),
    componentId: z.string().min(1).describe('The component (`blocks[].id` of the manifest).'),
    props: z
      .record(z.string(), z.unknown())
      .describe('The block props (set by `@editor.node.updateProps` or a Markdown code block).'),
    unfurl: z
      .string()
      .optional()
      .describe('The URL pasted to create the block, sent as `@link.unfurl` until its props are saved.'),
  })
  .describe('A block of an installed integration.');

/** One node of a document. */
export const documentNodeSchema = z.discriminatedUnion('type', [
  documentTextNodeSchema,
  documentBlockNodeSchema,
]);

/** A space's document: its nodes in order. */
export const spaceDocumentSchema = z
  .strictObject({
    nodes: z
      .array(documentNodeSchema)
      .max(MAX_DOCUMENT_NODES, { error: `a document holds at most ${MAX_DOCUMENT_NODES} nodes` }),
  })
  .describe("A space's document: text and blocks, in order.");

/** A run of the page's text. */
export type DocumentTextNode = z.infer<typeof documentTextNodeSchema>;
/** An integration block in the page. */
export type DocumentBlockNode = z.infer<typeof documentBlockNodeSchema>;
/** One node of a document. */
export type DocumentNode = z.infer<typeof documentNodeSchema>;
/** A space's document. */
export type SpaceDocument = z.infer<typeof spaceDocumentSchema>;
