import type {
  ContentComputeDocumentEvent,
  ContentComputeRevisionEvent,
  ContentSourcePage,
  DocumentNode,
} from '@platform/api-client';
import type { IntegrationContext } from './context';

/** What a content source's callbacks receive: the props (of the space's content, or of one page). */
export interface ContentSourceInput<Props extends Record<string, unknown> = Record<string, unknown>> {
  props: Props;
  /** Resolved dependencies (none yet: always `{}`). */
  dependencies: Record<string, unknown>;
}

/**
 * A content source as `createIntegration({ contentSources })` takes it (made by {@link createContentSource}).
 * @example const sources: ContentSourceDefinition[] = [createContentSource({ sourceId: 's', getRevision, getPageDocument })];
 */
export interface ContentSourceDefinition<Context extends IntegrationContext = IntegrationContext> {
  sourceId: string;
  compute(
    event: ContentComputeRevisionEvent | ContentComputeDocumentEvent,
    context: Context,
  ): Promise<Response>;
}

/**
 * Makes a content source (docs/content-sources.md): pages generated from an external source. The host
 * asks `getRevision` for the pages (titles, and for each page the `computed.props` its document is made
 * from), then `getPageDocument` for each page's document, and stores them as the space's content.
 * `sourceId` is the manifest's `contentSources[].id`.
 *
 * @example
 * const releases = createContentSource({
 *   sourceId: 'releases',
 *   getRevision: async () => ({ pages: [{ id: 'v1', title: 'v1.0', computed: { props: { tag: 'v1' } } }] }),
 *   getPageDocument: async ({ props }) => ({ nodes: [{ type: 'text', text: `Release ${props.tag}` }] }),
 * });
 * export default createIntegration({ contentSources: [releases] });
 */
export function createContentSource<
  RevisionProps extends Record<string, unknown> = Record<string, unknown>,
  PageProps extends Record<string, unknown> = Record<string, unknown>,
  Context extends IntegrationContext = IntegrationContext,
>(source: {
  sourceId: string;
  getRevision: (
    input: ContentSourceInput<RevisionProps>,
    context: Context,
  ) => Promise<{ pages: ContentSourcePage[] }>;
  getPageDocument: (
    input: ContentSourceInput<PageProps>,
    context: Context,
  ) => Promise<{ nodes: DocumentNode[] }>;
}): ContentSourceDefinition<Context> {
  return {
    sourceId: source.sourceId,
    async compute(event, context) {
      const input = { props: event.props, dependencies: event.dependencies ?? {} };
      const output =
        event.type === 'content_compute_revision'
          ? await source.getRevision(input as ContentSourceInput<RevisionProps>, context)
          : { document: await source.getPageDocument(input as ContentSourceInput<PageProps>, context) };
      return Response.json(output);
    },
  };
}
