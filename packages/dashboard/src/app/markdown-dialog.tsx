/** @jsxImportSource preact */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Props of {@link MarkdownDialog}. */
export interface MarkdownDialogProps {
  /** `export`: shows the page as Markdown; `import`: takes Markdown to add to the page. */
  mode: 'export' | 'import';
  /** The exported Markdown (export mode). */
  markdown?: string;
  /** Titles of the blocks left out of the export (they have no Markdown form). */
  leftOut?: string[];
  onImport?(markdown: string): void;
  onClose(): void;
}

/**
 * The page's Markdown in a modal `<dialog>` (Escape closes it): the export, ready to copy, or a
 * field to paste Markdown in, whose code blocks of Markdown-capable blocks become those blocks.
 *
 * @example <MarkdownDialog mode="export" markdown={md} onClose={close} />
 */
export function MarkdownDialog({
  mode,
  markdown = '',
  leftOut = [],
  onImport,
  onClose,
}: MarkdownDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [draft, setDraft] = useState('');
  const [copied, setCopied] = useState(false);
  useLayoutEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const title = mode === 'export' ? 'Page as Markdown' : 'Import Markdown';
  return (
    <dialog ref={dialog} class="ck-dialog" aria-label={title} onClose={onClose}>
      <h2 class="ck-modal-title">{title}</h2>
      {mode === 'export' ? (
        <>
          <label for="markdown-export">Markdown of the page</label>
          <textarea id="markdown-export" class="markdown-field" rows={12} readOnly value={markdown} />
          {leftOut.length ? (
            <p class="muted" role="note">
              Left out (no Markdown form): {leftOut.join(', ')}.
            </p>
          ) : null}
          <div class="actions">
            <button
              type="button"
              class="btn btn-primary btn-small"
              onClick={() =>
                void navigator.clipboard?.writeText(markdown).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button type="button" class="btn btn-secondary btn-small" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
        </>
      ) : (
        <>
          <label for="markdown-import">Markdown to add at the end of the page</label>
          <textarea
            id="markdown-import"
            class="markdown-field"
            rows={12}
            value={draft}
            onInput={(e) => setDraft((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <p class="muted">
            Code blocks of an installed block's language (e.g. a diagram) become that block.
          </p>
          <div class="actions">
            <button
              type="button"
              class="btn btn-primary btn-small"
              disabled={draft.trim() === ''}
              onClick={() => {
                onImport?.(draft);
                dialog.current?.close();
              }}
            >
              Import
            </button>
            <button type="button" class="btn btn-secondary btn-small" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
