import {
  createContentSource,
  createIntegration,
  type RuntimeContext,
  type RuntimeEnvironment,
} from '@platform/runtime';

/** One release of the feed. */
export interface Release {
  tag: string;
  name: string;
  date: string;
  notes: string;
}

type Context = RuntimeContext<RuntimeEnvironment<{ feed_url?: string }>>;

/** The page id of a release: its tag as a slug. @example pageId('v1.2.0'); // 'v1.2.0' */
export function pageId(tag: string): string {
  return tag.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100) || 'release';
}

/** Reads and checks the feed (an array of releases); throws a message naming what is wrong. */
export function parseFeed(value: unknown): Release[] {
  if (!Array.isArray(value)) throw new Error('the feed is not a JSON array');
  return value.map((item, i) => {
    const r = item as Partial<Release>;
    if (typeof r.tag !== 'string' || typeof r.name !== 'string' || typeof r.notes !== 'string') {
      throw new Error(`release ${i} of the feed needs string tag, name and notes`);
    }
    return { tag: r.tag, name: r.name, date: typeof r.date === 'string' ? r.date : '', notes: r.notes };
  });
}

async function loadFeed(context: Context): Promise<Release[]> {
  const url =
    context.environment.spaceInstallation?.configuration.feed_url ??
    context.environment.installation?.configuration.feed_url;
  if (typeof url !== 'string' || url === '') throw new Error('release-notes: set the feed URL first');
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`release-notes: the feed answered HTTP ${response.status}`);
  return parseFeed(await response.json());
}

const releases = createContentSource<Record<string, unknown>, { tag?: string }, Context>({
  sourceId: 'releases',
  getRevision: async (_input, context) => {
    const feed = await loadFeed(context);
    return {
      pages: feed.map((release) => ({
        id: pageId(release.tag),
        title: `${release.tag}: ${release.name}`,
        ...(release.date ? { description: `Released ${release.date}` } : {}),
        computed: { props: { tag: release.tag } },
      })),
    };
  },
  getPageDocument: async ({ props }, context) => {
    const release = (await loadFeed(context)).find((r) => r.tag === props.tag);
    if (!release)
      return { nodes: [{ type: 'text', text: `Release ${String(props.tag)} is no longer in the feed.` }] };
    return { nodes: [{ type: 'text', text: release.notes }] };
  },
});

export default createIntegration<Context>({ contentSources: [releases] });
