import { z } from 'zod';
import { documentNodeSchema, MAX_DOCUMENT_NODES } from './schema';

/*
 * What a content source answers (docs/content-sources.md), specified once: the host validates with
 * these schemas, the runtime's `createContentSource` is typed by them (types only: zod stays out of
 * workerd bundles).
 */

/** At most this many pages in a revision (nested pages included). */
export const MAX_SOURCE_PAGES = 200;
/** At most this deep a tree of pages. */
export const MAX_SOURCE_DEPTH = 4;

/** A page a content source generates: its title, and the props its document is computed from. */
export interface ContentSourcePage {
  /** Stable id of the page within the source (a slug, an external id). */
  id: string;
  /** Title of the page. */
  title: string;
  /** One line about the page. */
  description?: string | undefined;
  /** The props `getPageDocument` receives for this page; no `computed`: the page has no document of its own. */
  computed?: { props: Record<string, unknown> } | undefined;
  /** Child pages. */
  pages?: ContentSourcePage[] | undefined;
}

/** A page of a revision. */
export const contentSourcePageSchema: z.ZodType<ContentSourcePage> = z.lazy(() =>
  z.strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, { error: 'a page `id` is 1-100 letters, digits, `.`, `_` or `-`' }),
    title: z.string().min(1, { error: 'a page needs a `title`' }).max(200),
    description: z.string().max(500).optional(),
    computed: z.strictObject({ props: z.record(z.string(), z.unknown()) }).optional(),
    pages: z.array(contentSourcePageSchema).optional(),
  }),
);

/** What `getRevision` answers: the source's pages, in order. */
export const contentSourceRevisionSchema = z.strictObject({ pages: z.array(contentSourcePageSchema) });

/** What `getPageDocument` answers: the page's document (the nodes of a space document). */
export const contentSourceDocumentSchema = z.strictObject({
  document: z.strictObject({
    nodes: z
      .array(documentNodeSchema)
      .max(MAX_DOCUMENT_NODES, { error: `a document holds at most ${MAX_DOCUMENT_NODES} nodes` }),
  }),
});

/** `getRevision`'s answer. */
export type ContentSourceRevision = z.infer<typeof contentSourceRevisionSchema>;
/** `getPageDocument`'s answer, as the runtime sends it (`{ document }`). */
export type ContentSourceDocument = z.infer<typeof contentSourceDocumentSchema>;
