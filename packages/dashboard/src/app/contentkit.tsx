/** @jsxImportSource preact */
import type { ComponentAction, ContentKitElement } from '@platform/api-client';
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError, type Rendered } from './api';

/** Props of {@link ContentKitView}. */
export interface ContentKitViewProps {
  element: ContentKitElement;
  /** Called with the button's `onPress` (plus `inputs`: the values of the element's inputs). */
  onAction(action: ComponentAction): void;
  /** While true, buttons are disabled (an action is being handled). */
  busy?: boolean;
}

/**
 * Renders a ContentKit tree (block, vstack, hstack, text, button, divider, input) as accessible
 * HTML. Text is always text (never HTML). Unknown element types are shown as a short notice.
 *
 * @example <ContentKitView element={rendered.element} onAction={(a) => dispatch(a)} />
 */
export function ContentKitView({ element, onAction, busy = false }: ContentKitViewProps) {
  const inputs = useRef<Record<string, string>>({});
  const press = (onPress: ComponentAction) => onAction({ ...onPress, inputs: { ...inputs.current } });
  const draw = (node: ContentKitElement, key: number): ComponentChildren => {
    switch (node.type) {
      case 'block':
        return (
          <div key={key} class="ck-block">
            {node.children.map(draw)}
          </div>
        );
      case 'vstack':
      case 'hstack':
        return (
          <div key={key} class={`ck-${node.type} ck-align-${node.align ?? 'start'}`}>
            {node.children.map(draw)}
          </div>
        );
      case 'text':
        return (
          <span key={key} class={`ck-text ck-text-${node.style ?? 'default'}`}>
            {node.style === 'code' ? <code>{node.text}</code> : node.text}
          </span>
        );
      case 'button':
        return (
          <button
            key={key}
            type="button"
            class={`btn btn-${node.style ?? 'secondary'}`}
            disabled={busy || node.disabled === true}
            onClick={() => press(node.onPress)}
          >
            {node.label}
          </button>
        );
      case 'divider':
        return <hr key={key} class="ck-divider" />;
      case 'input': {
        const id = `ck-input-${node.id}`;
        if (!(node.id in inputs.current)) inputs.current[node.id] = node.initialValue ?? '';
        return (
          <label key={key} class="ck-input" for={id}>
            {node.label ? <span class="ck-input-label">{node.label}</span> : null}
            <input
              id={id}
              type="text"
              placeholder={node.placeholder}
              defaultValue={node.initialValue ?? ''}
              onInput={(e) => {
                inputs.current[node.id] = (e.currentTarget as HTMLInputElement).value;
              }}
            />
          </label>
        );
      }
      default:
        return (
          <span key={key} class="ck-unknown">
            (unsupported element “{String((node as { type?: unknown }).type)}”)
          </span>
        );
    }
  };
  return <div class="contentkit">{draw(element, 0)}</div>;
}

/** Props of {@link LiveComponent}. */
export interface LiveComponentProps {
  installationId: string;
  componentId: string;
  props?: Record<string, unknown>;
  /** Accessible name of the rendered region. */
  label: string;
}

/**
 * A component rendered by its integration (`POST /v1/installations/{id}/render`); pressing a
 * button dispatches `onPress.action` with the current state and re-renders with the new state
 * (SPEC 3.2). Loading and errors are shown in place.
 *
 * @example <LiveComponent installationId="inst_1" componentId="counter" label="Counter" />
 */
export function LiveComponent({ installationId, componentId, props = {}, label }: LiveComponentProps) {
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const propsKey = JSON.stringify(props);

  const render = useCallback(
    async (state?: Record<string, unknown>, action?: ComponentAction) => {
      setBusy(true);
      try {
        const result = await api<Rendered>(
          'POST',
          `/v1/installations/${encodeURIComponent(installationId)}/render`,
          {
            componentId,
            props: JSON.parse(propsKey) as Record<string, unknown>,
            ...(state ? { state } : {}),
            ...(action ? { action } : {}),
          },
        );
        setRendered(result);
        setError(null);
      } catch (e) {
        setError(describeError(e));
      } finally {
        setBusy(false);
      }
    },
    [installationId, componentId, propsKey],
  );

  useEffect(() => {
    void render();
  }, [render]);

  return (
    <section class="live-component" aria-label={label} aria-busy={busy}>
      {rendered ? (
        <ContentKitView
          element={rendered.element}
          busy={busy}
          onAction={(action) => void render(rendered.state, action)}
        />
      ) : error ? null : (
        <p class="muted">Rendering…</p>
      )}
      {error ? (
        <div class="alert alert-error" role="alert">
          <span>{error}</span>
          <button
            type="button"
            class="btn btn-secondary btn-small"
            onClick={() => void render(rendered?.state)}
          >
            Retry
          </button>
        </div>
      ) : null}
    </section>
  );
}
