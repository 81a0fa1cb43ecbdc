import type { DocumentNode } from '@platform/api-client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, apiKeepalive, describeError } from './api';
import { normalizeNodes } from './document';

/** How long typing may pause before the page is saved. */
const TYPING_SAVE_DELAY_MS = 400;

/** What {@link useSpaceDocument} gives the editor. */
export interface SpaceDocumentState {
  /** `null` until the document is loaded. */
  nodes: DocumentNode[] | null;
  /** Changes the page: saved after a pause (`typing`) or at once (blocks added, removed, pasted). */
  edit(change: (nodes: DocumentNode[]) => DocumentNode[], how?: 'typing' | 'now'): void;
  /** A block's new props (`@editor.node.updateProps`): kept, and saved for that block alone. */
  updateProps(id: string, props: Record<string, unknown>): void;
  /** A load or save failure, in words. */
  error: string | null;
  /** Said when the page was replaced by the saved version (changed in another tab or browser). */
  notice: string | null;
  retry(): void;
}

/**
 * A space's document kept on the host (docs/documents.md "Storage and API"): loaded from
 * `GET /v1/spaces/{id}/document`, saved with `PUT` (compare-and-set on the revision, one request at
 * a time) and, for a block's props, `PATCH …/blocks/{blockId}`. When another tab or browser saved
 * meanwhile, the saved version replaces the page and `notice` says so. A pending save is sent when
 * the page goes away.
 *
 * @example const doc = useSpaceDocument('space_docs'); doc.edit((n) => [...n, block], 'now');
 */
export function useSpaceDocument(spaceId: string): SpaceDocumentState {
  const [nodes, setNodes] = useState<DocumentNode[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const current = useRef<DocumentNode[]>([]);
  const revision = useRef(0);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);

  const show = useCallback((next: DocumentNode[]) => {
    current.current = next;
    setNodes(next);
  }, []);

  const reload = useCallback(
    async (why?: string) => {
      const doc = await api('GET /v1/spaces/{spaceId}/document', { params: { spaceId } });
      revision.current = doc.revision;
      show(normalizeNodes(doc.nodes));
      if (why) setNotice(why);
    },
    [spaceId, show],
  );

  useEffect(() => {
    setNodes(null);
    reload().then(
      () => setError(null),
      (e: unknown) => setError(`The page could not be loaded: ${describeError(e)}`),
    );
  }, [reload, attempt]);

  const CHANGED = 'This page was changed in another tab or browser: it now shows the saved version.';

  /** Runs one save after the ones before it; a conflict reloads the saved version. */
  const enqueue = useCallback(
    (save: () => Promise<{ revision: number; nodes: DocumentNode[] }>) => {
      queue.current = queue.current.then(async () => {
        const base = revision.current;
        try {
          const saved = await save();
          setError(null);
          if (saved.revision === base + 1) revision.current = saved.revision;
          else {
            revision.current = saved.revision;
            show(normalizeNodes(saved.nodes));
            setNotice(CHANGED);
          }
        } catch (e) {
          if (e instanceof ApiError && e.code === 'document_changed')
            await reload(CHANGED).catch(() => undefined);
          else setError(`The page could not be saved: ${describeError(e)}`);
        }
      });
    },
    [reload, show],
  );

  const putNow = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    enqueue(() =>
      api('PUT /v1/spaces/{spaceId}/document', {
        params: { spaceId },
        body: { nodes: current.current, baseRevision: revision.current },
      }),
    );
  }, [enqueue, spaceId]);

  const edit = useCallback(
    (change: (nodes: DocumentNode[]) => DocumentNode[], how: 'typing' | 'now' = 'now') => {
      show(change(current.current));
      setNotice(null);
      if (how === 'now') return putNow();
      clearTimeout(timer.current);
      timer.current = setTimeout(putNow, TYPING_SAVE_DELAY_MS);
    },
    [show, putNow],
  );

  const updateProps = useCallback(
    (id: string, props: Record<string, unknown>) => {
      show(
        current.current.map((n) => {
          if (n.type !== 'block' || n.id !== id) return n;
          const { unfurl: _sent, ...kept } = n; // saved props replace the pasted URL
          return { ...kept, props };
        }),
      );
      if (timer.current !== undefined) putNow(); // the block must be saved before its props
      enqueue(() =>
        api('PATCH /v1/spaces/{spaceId}/document/blocks/{blockId}', {
          params: { spaceId, blockId: id },
          body: { props },
        }),
      );
    },
    [show, putNow, enqueue, spaceId],
  );

  useEffect(() => {
    const leave = () => {
      if (timer.current === undefined) return;
      clearTimeout(timer.current);
      timer.current = undefined;
      void apiKeepalive('PUT /v1/spaces/{spaceId}/document', {
        params: { spaceId },
        body: { nodes: current.current, baseRevision: revision.current },
      }).catch(() => undefined);
    };
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      if (timer.current !== undefined) putNow(); // leaving the editor for another page of the dashboard
    };
  }, [spaceId, putNow]);

  return { nodes, edit, updateProps, error, notice, retry: () => setAttempt((n) => n + 1) };
}
