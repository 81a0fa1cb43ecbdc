/** @jsxImportSource preact */
import type { ComponentAction } from '@platform/api-client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError, type Rendered } from '../api';
import { openUrl, type State } from './bindings';
import { ContentKitView } from './elements';

/** Props of {@link LiveComponent}. */
export interface LiveComponentProps {
  installationId: string;
  componentId: string;
  props?: Record<string, unknown>;
  /** Accessible name of the rendered region. */
  label: string;
  /** Where it renders (`element.context`); a block in the editor by default. */
  context?: { type: 'document' | 'configuration' | 'modal'; editable: boolean };
  /** `@editor.node.updateProps`: the block's new props (the editor keeps them). */
  onPropsChange?(props: Record<string, unknown>): void;
  /** Inside a modal: `@ui.modal.close` (with its `returnValue`). */
  onClose?(action: ComponentAction): void;
  /** Sent with the first render (e.g. `@link.unfurl` for a block created by pasting a URL). */
  initialAction?: ComponentAction;
  /** Called after the integration handled one of its actions (e.g. to reload what it changed). */
  onActionDone?(): void;
}

interface OpenModal {
  componentId: string;
  props: Record<string, unknown>;
}

/**
 * Handles the built-in actions (docs/contentkit.md, "Actions"); returns false for the
 * integration's own actions.
 */
export function handleBuiltin(
  action: ComponentAction,
  on: {
    openModal(m: OpenModal): void;
    close?(a: ComponentAction): void;
    props?(p: Record<string, unknown>): void;
  },
): boolean {
  switch (action.action) {
    case '@ui.url.open':
      openUrl(action.url);
      return true;
    case '@ui.modal.open':
      on.openModal({
        componentId: String(action.componentId),
        props: (action.props as Record<string, unknown> | undefined) ?? {},
      });
      return true;
    case '@ui.modal.close':
      on.close?.(action);
      return on.close !== undefined;
    case '@editor.node.updateProps':
      on.props?.((action.props as Record<string, unknown>) ?? {});
      return true;
    default:
      return false;
  }
}

/**
 * A component rendered by its integration (`POST /v1/installations/{id}/render`): inputs bound to
 * state update it locally; an action is sent with the current state and the answer re-rendered;
 * built-in actions open URLs, open and close modals (a `<dialog>`, Escape closes) and update the
 * block's props. Loading and errors (an `ExposableError`'s message) are shown in place.
 *
 * @example <LiveComponent installationId="inst_1" componentId="counter" label="Counter" />
 */
export function LiveComponent({
  installationId,
  componentId,
  props: initialProps = {},
  label,
  context = { type: 'document', editable: true },
  onPropsChange,
  onClose,
  initialAction,
  onActionDone,
}: LiveComponentProps) {
  const firstAction = useRef(initialAction);
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const [state, setState] = useState<State>({});
  const [props, setProps] = useState(initialProps);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [modal, setModal] = useState<OpenModal | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const propsKey = JSON.stringify(props);
  const contextKey = JSON.stringify(context);

  const render = useCallback(
    async (current?: State, action?: ComponentAction) => {
      setBusy(true);
      try {
        const result = await api('POST /v1/installations/{id}/render', {
          params: { id: installationId },
          body: {
            componentId,
            props: JSON.parse(propsKey) as Record<string, unknown>,
            context: JSON.parse(contextKey) as Record<string, unknown>,
            ...(current ? { state: current } : {}),
            ...(action ? { action } : {}),
          },
        });
        setRendered(result);
        setState(result.state);
        if (result.props && JSON.stringify(result.props) !== propsKey) {
          setProps(result.props);
          onPropsChange?.(result.props);
        }
        setError(null);
      } catch (e) {
        setError(describeError(e));
      } finally {
        setBusy(false);
      }
    },
    [installationId, componentId, propsKey, contextKey, onPropsChange],
  );

  useEffect(() => {
    const action = firstAction.current;
    firstAction.current = undefined;
    void render(undefined, action);
  }, [render]);

  useEffect(() => {
    if (modal && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [modal]);

  const dispatch = (action: ComponentAction) => {
    const handled = handleBuiltin(action, {
      openModal: setModal,
      ...(onClose ? { close: onClose } : {}),
      props: (next) => {
        setProps(next);
        onPropsChange?.(next);
      },
    });
    if (!handled) void render(state, action).then(() => onActionDone?.());
  };

  return (
    <section class="live-component" aria-label={label} aria-busy={busy}>
      {rendered ? (
        <ContentKitView
          element={rendered.element}
          state={state}
          onState={(key, value) => setState((s) => ({ ...s, [key]: value }))}
          busy={busy}
          onAction={dispatch}
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
      {modal ? (
        <dialog ref={dialog} class="ck-dialog" onClose={() => setModal(null)} aria-label={`${label}: dialog`}>
          <LiveComponent
            installationId={installationId}
            componentId={modal.componentId}
            props={modal.props}
            label={`${label}: ${modal.componentId}`}
            context={{ type: 'modal', editable: context.editable }}
            onClose={(action) => {
              dialog.current?.close();
              setModal(null);
              void render(state, { action: '@ui.modal.close', returnValue: action.returnValue ?? {} });
            }}
          />
          <form method="dialog">
            <button type="submit" class="btn btn-secondary btn-small">
              Close
            </button>
          </form>
        </dialog>
      ) : null}
    </section>
  );
}
