/** @jsxImportSource preact */
import { type DocumentBlockNode, nodesToMarkdown } from '@platform/api-client';
import { memo } from 'preact/compat';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import { LiveComponent } from '../contentkit';
import { appendMarkdown, markdownSpecs, newBlock, normalizeNodes, pasteMarkdown } from '../document';
import { useSpaceDocument } from '../document-sync';
import { type InsertItem, InsertMenu } from '../insert-menu';
import { MarkdownDialog } from '../markdown-dialog';
import { BackToInstallations, ErrorNotice, useLoad } from '../ui';
import { unfurlTarget } from '../unfurl';

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
/** The shortcut as shown to the user. */
export const SHORTCUT = isMac ? '⌘ /' : 'Ctrl + /';

interface ManifestBlock {
  id: string;
  title?: string;
  description?: string;
  urlUnfurl?: string[];
  markdown?: { codeblock: string; body: string };
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
      ? (integration.manifest.blocks as ManifestBlock[])
      : [];
    return blocks.map((b) => ({
      installationId: inst.id,
      integrationTitle: integration?.title ?? inst.integration,
      blockId: b.id,
      title: b.title ?? b.id,
      description: b.description ?? '',
      ...(Array.isArray(b.urlUnfurl) ? { urlUnfurl: b.urlUnfurl } : {}),
      ...(b.markdown ? { markdown: b.markdown } : {}),
    }));
  });
}

/** One inserted block: its head (title, Remove) and the component rendered live. */
const BlockView = memo(function BlockView({
  node,
  item,
  onProps,
  onRemove,
}: {
  node: DocumentBlockNode;
  item: InsertItem | undefined;
  onProps(id: string, props: Record<string, unknown>): void;
  onRemove(id: string): void;
}) {
  const title = item?.title ?? node.componentId;
  const onPropsChange = useCallback(
    (props: Record<string, unknown>) => onProps(node.id, props),
    [onProps, node.id],
  );
  return (
    <div class="doc-block">
      <div class="doc-block-head">
        <span>
          {title} {item ? <span class="muted">· {item.integrationTitle}</span> : null}
        </span>
        <button
          type="button"
          class="btn btn-link btn-small"
          aria-label={`Remove ${title}`}
          onClick={() => onRemove(node.id)}
        >
          Remove
        </button>
      </div>
      <LiveComponent
        installationId={node.installationId}
        componentId={node.componentId}
        props={node.props}
        label={title}
        onPropsChange={onPropsChange}
        {...(node.unfurl ? { initialAction: { action: '@link.unfurl', url: node.unfurl } } : {})}
      />
    </div>
  );
});

/**
 * A plain document surface of a space: text and blocks in order. Command + / (Ctrl + / elsewhere)
 * opens the quick insert menu with the blocks of the integrations installed in the space; a chosen
 * block is added and rendered live from its ContentKit, and its props (`@editor.node.updateProps`)
 * are kept with it. Pasting a lone URL that a block's `urlUnfurl` matches adds that block, first
 * rendered with `@link.unfurl`; pasting Markdown whose code block is a block's
 * `markdown.codeblock` puts that block there (docs/documents.md "Markdown"). The page exports to
 * Markdown and imports from it. The page is kept on the host (`useSpaceDocument`): a reload, or
 * another browser, shows it with the blocks' props.
 */
export function EditorPage({ spaceId }: { spaceId: string }) {
  const items = useLoad(() => loadItems(spaceId), [spaceId]);
  const [open, setOpen] = useState(false);
  const doc = useSpaceDocument(spaceId);
  const { edit } = doc;
  const nodes = doc.nodes ?? [];
  const specs = useMemo(() => markdownSpecs(items.data ?? []), [items.data]);
  const [dialog, setDialog] = useState<'export' | 'import' | null>(null);
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
    edit((list) => [...list, newBlock(item)]);
    setOpen(false);
  };
  const onRemove = useCallback(
    (id: string) => edit((list) => normalizeNodes(list.filter((n) => n.type !== 'block' || n.id !== id))),
    [edit],
  );
  const itemOf = (node: DocumentBlockNode) =>
    items.data?.find((i) => i.installationId === node.installationId && i.blockId === node.componentId);
  const exported = dialog === 'export' ? nodesToMarkdown(nodes, specs) : undefined;
  let textCount = 0;
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
        <div class="actions">
          <button type="button" class="btn btn-secondary" onClick={() => setDialog('import')}>
            Import Markdown
          </button>
          <button type="button" class="btn btn-secondary" onClick={() => setDialog('export')}>
            Export Markdown
          </button>
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
        </div>
      </header>
      <ErrorNotice message={items.error} onRetry={() => void items.reload()} />
      <ErrorNotice message={doc.error} onRetry={doc.retry} />
      {doc.notice ? (
        <p class="alert alert-warning" role="status">
          {doc.notice}
        </p>
      ) : null}
      <article class="document" aria-label="Document" aria-busy={doc.nodes === null}>
        {doc.nodes === null && !doc.error ? <p class="muted">Loading the page…</p> : null}
        {nodes.map((node, index) => {
          if (node.type === 'block')
            return (
              <BlockView
                key={node.id}
                node={node}
                item={itemOf(node)}
                onProps={doc.updateProps}
                onRemove={onRemove}
              />
            );
          const first = textCount++ === 0;
          const id = first ? 'doc-text' : `doc-text-${index}`;
          return (
            <div key={`text-${index}`}>
              <label class="sr-only" for={id}>
                {first ? 'Page text' : `Page text (part ${textCount})`}
              </label>
              <textarea
                id={id}
                class="doc-text"
                rows={first ? 4 : 2}
                placeholder={first ? `Untitled page. Type here, and press ${SHORTCUT} to add a block.` : ''}
                value={node.text}
                onInput={(e) => {
                  const text = (e.currentTarget as HTMLTextAreaElement).value;
                  edit((list) => list.map((n, j) => (j === index ? { type: 'text', text } : n)), 'typing');
                }}
                onPaste={(event) => {
                  const pasted = event.clipboardData?.getData('text/plain') ?? '';
                  const item = unfurlTarget(items.data ?? [], pasted);
                  if (item) {
                    event.preventDefault();
                    edit((list) => [...list, newBlock(item, { unfurl: pasted.trim() })]);
                    return;
                  }
                  const field = event.currentTarget as HTMLTextAreaElement;
                  const next = pasteMarkdown(
                    nodes,
                    index,
                    field.selectionStart,
                    field.selectionEnd,
                    pasted,
                    specs,
                  );
                  if (!next) return;
                  event.preventDefault();
                  edit(() => next);
                }}
              />
            </div>
          );
        })}
      </article>
      {open ? <InsertMenu items={items.data ?? []} onChoose={choose} onClose={close} /> : null}
      {dialog === 'export' && exported ? (
        <MarkdownDialog
          mode="export"
          markdown={exported.markdown}
          leftOut={exported.unconverted.map((n) => itemOf(n)?.title ?? n.componentId)}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'import' ? (
        <MarkdownDialog
          mode="import"
          onImport={(markdown) => edit((list) => appendMarkdown(list, markdown, specs))}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </main>
  );
}
