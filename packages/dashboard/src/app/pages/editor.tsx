/** @jsxImportSource preact */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { LiveComponent } from '../contentkit';
import { type InsertItem, InsertMenu } from '../insert-menu';
import { BackToInstallations, ErrorNotice, useLoad } from '../ui';
import { unfurlTarget } from '../unfurl';

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
/** The shortcut as shown to the user. */
export const SHORTCUT = isMac ? '⌘ /' : 'Ctrl + /';

interface Inserted extends InsertItem {
  key: number;
  /** The URL pasted to create it (sent as `@link.unfurl` on its first render). */
  unfurl?: string;
}

/** What the page holds: kept in this browser (localStorage) per space, so a reload shows it again. */
interface SavedPage {
  text: string;
  blocks: Inserted[];
}

const pageKey = (spaceId: string) => `platform.space.${spaceId}`;

function loadPage(spaceId: string): SavedPage {
  try {
    const saved = JSON.parse(localStorage.getItem(pageKey(spaceId)) ?? 'null') as Partial<SavedPage> | null;
    return {
      text: typeof saved?.text === 'string' ? saved.text : '',
      blocks: Array.isArray(saved?.blocks) ? saved.blocks : [],
    };
  } catch {
    return { text: '', blocks: [] };
  }
}

function savePage(spaceId: string, page: SavedPage): void {
  try {
    localStorage.setItem(pageKey(spaceId), JSON.stringify(page));
  } catch {
    // storage full or disabled: the page lives until the tab closes
  }
}

async function loadItems(spaceId: string): Promise<InsertItem[]> {
  const [{ installations: inSpace }, { installations: all }, { integrations }] = await Promise.all([
    api('GET /v1/installations', { query: { space: spaceId } }),
    api('GET /v1/installations'),
    api('GET /v1/integrations'),
  ]);
  const byName = new Map(integrations.map((i) => [i.name, i]));
  const candidates = [...inSpace, ...all.filter((i) => i.target === 'organization')].filter(
    (i) => i.status !== 'paused',
  );
  return candidates.flatMap((inst) => {
    const integration = byName.get(inst.integration);
    const blocks = Array.isArray(integration?.manifest.blocks)
      ? (integration.manifest.blocks as Array<{
          id: string;
          title?: string;
          description?: string;
          urlUnfurl?: string[];
        }>)
      : [];
    return blocks.map((b) => ({
      installationId: inst.id,
      integrationTitle: integration?.title ?? inst.integration,
      blockId: b.id,
      title: b.title ?? b.id,
      description: b.description ?? '',
      ...(Array.isArray(b.urlUnfurl) ? { urlUnfurl: b.urlUnfurl } : {}),
    }));
  });
}

/**
 * A plain document surface of a space: Command + / (Ctrl + / elsewhere) opens the quick insert
 * menu with the blocks of the integrations installed in the space; a chosen block is inserted
 * and rendered live from its ContentKit. Pasting a lone URL that a block's `urlUnfurl` matches
 * inserts that block, first rendered with the `@link.unfurl` action carrying the URL. The page
 * (text and blocks) is kept in this browser.
 */
export function EditorPage({ spaceId }: { spaceId: string }) {
  const items = useLoad(() => loadItems(spaceId), [spaceId]);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(() => loadPage(spaceId).text);
  const [inserted, setInserted] = useState<Inserted[]>(() => loadPage(spaceId).blocks);
  useEffect(() => savePage(spaceId, { text, blocks: inserted }), [spaceId, text, inserted]);
  const [returnFocus, setReturnFocus] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === '/' && (event.metaKey || event.ctrlKey) && !event.altKey) {
        event.preventDefault();
        setReturnFocus(document.activeElement as HTMLElement | null);
        setOpen(true);
        void items.reload();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items.reload]);
  const close = () => {
    setOpen(false);
    returnFocus?.focus();
  };
  const choose = (item: InsertItem) => {
    setInserted((list) => [...list, { ...item, key: Date.now() + list.length }]);
    setOpen(false);
  };
  return (
    <main id="main" class="page">
      <BackToInstallations />
      <header class="page-head">
        <div>
          <h1>Space {spaceId}</h1>
          <p class="muted">
            Press <kbd>{SHORTCUT}</kbd> anywhere on this page to insert a block from an installed integration.
          </p>
        </div>
        <button
          type="button"
          class="btn btn-secondary"
          onClick={() => {
            setReturnFocus(document.activeElement as HTMLElement | null);
            setOpen(true);
          }}
        >
          Insert block <kbd>{SHORTCUT}</kbd>
        </button>
      </header>
      <ErrorNotice message={items.error} onRetry={() => void items.reload()} />
      <article class="document" aria-label="Document">
        <label class="sr-only" for="doc-text">
          Page text
        </label>
        <textarea
          id="doc-text"
          class="doc-text"
          rows={4}
          placeholder={`Untitled page. Type here, and press ${SHORTCUT} to add a block.`}
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
          onPaste={(event) => {
            const pasted = event.clipboardData?.getData('text/plain') ?? '';
            const item = unfurlTarget(items.data ?? [], pasted);
            if (!item) return;
            event.preventDefault();
            setInserted((list) => [
              ...list,
              { ...item, key: Date.now() + list.length, unfurl: pasted.trim() },
            ]);
          }}
        />
        {inserted.map((b) => (
          <div class="doc-block" key={b.key}>
            <div class="doc-block-head">
              <span>
                {b.title} <span class="muted">· {b.integrationTitle}</span>
              </span>
              <button
                type="button"
                class="btn btn-link btn-small"
                aria-label={`Remove ${b.title}`}
                onClick={() => setInserted((list) => list.filter((x) => x.key !== b.key))}
              >
                Remove
              </button>
            </div>
            <LiveComponent
              installationId={b.installationId}
              componentId={b.blockId}
              label={b.title}
              {...(b.unfurl ? { initialAction: { action: '@link.unfurl', url: b.unfurl } } : {})}
            />
          </div>
        ))}
      </article>
      {open ? <InsertMenu items={items.data ?? []} onChoose={choose} onClose={close} /> : null}
    </main>
  );
}
