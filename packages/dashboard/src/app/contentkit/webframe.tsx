/** @jsxImportSource preact */
import type { ComponentAction, ContentKitWebframe } from '@platform/api-client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { resolveBindings, type State } from './bindings';

/**
 * A `webframe`: the integration's page in a sandboxed iframe (scripts, no same-origin access to
 * the dashboard). Message bridge: the frame posts `{ action: { action: '@webframe.ready' } }`, and
 * then receives `{ state: data }` (bindings resolved) and again whenever the data changes;
 * (or its load event: a ready message may come before the dashboard listens),
 * `@webframe.resize` with `size.aspectRatio`/`size.height` resizes it; other actions go to `onAction`.
 */
export function Webframe({
  node,
  state,
  onAction,
}: {
  node: ContentKitWebframe;
  state: State;
  onAction(action: ComponentAction): void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  const [size, setSize] = useState<{ aspectRatio?: number; height?: number }>({
    aspectRatio: node.aspectRatio ?? 16 / 9,
  });
  const data = JSON.stringify(resolveBindings(node.data ?? {}, state));
  const actions = useRef(onAction);
  actions.current = onAction;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow) return;
      const action = (event.data as { action?: ComponentAction } | null)?.action;
      if (!action || typeof action.action !== 'string') return;
      if (action.action === '@webframe.ready') setReady(true);
      else if (action.action === '@webframe.resize') {
        const next =
          (action as { size?: { aspectRatio?: number; height?: number; maxHeight?: number } }).size ?? {};
        setSize({
          ...(typeof next.aspectRatio === 'number' && next.aspectRatio > 0
            ? { aspectRatio: next.aspectRatio }
            : {}),
          ...(typeof next.height === 'number' ? { height: next.height } : {}),
        });
      } else actions.current(action);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    if (ready) frame.current?.contentWindow?.postMessage({ state: JSON.parse(data) }, '*');
  }, [ready, data]);

  const style = size.height
    ? { height: `${size.height}px` }
    : { aspectRatio: String(size.aspectRatio ?? 16 / 9) };
  return (
    <iframe
      ref={frame}
      class="ck-webframe"
      title="Integration content"
      src={node.source.url}
      sandbox="allow-scripts allow-popups allow-forms"
      style={style}
      data-ready={ready ? 'true' : 'false'}
      // The page's scripts have run by its load event: a `@webframe.ready` posted before this
      // component listened is not waited for forever.
      onLoad={() => setReady(true)}
    />
  );
}
