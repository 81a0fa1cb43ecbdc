import type { ComponentAction, ContentKitElement, UIRenderEvent } from '@platform/api-client';
import { isRecord } from '@platform/api-client';
import type { IntegrationContext } from './context';

/** Props or state of a component: a JSON object. */
export type ComponentData = Record<string, unknown>;

/**
 * The component instance handed to `action` and `render`.
 * @example render: async (element) => <text>{String(element.state.count)}</text>
 */
export interface ComponentElement<Props extends ComponentData, State extends ComponentData> {
  componentId: string;
  /** Props of this instance. */
  props: Props;
  /** Current state (from `initialState(props)` on first render). */
  state: State;
  /** Where the component is shown (`ui_render.context`), when the host says. */
  context?: Record<string, unknown>;
}

/**
 * What an action handler returns: `{ state }` replaces the state, `{}` keeps it.
 * @example return action.action === 'increment' ? { state: { count: n + 1 } } : {};
 */
export interface ActionResult<State extends ComponentData> {
  state?: State;
}

/**
 * Parameters of {@link createComponent} (SPEC 2.2).
 * @example const def: ComponentDefinition<{}, { n: number }> = { componentId: 'c', initialState: () => ({ n: 0 }), render: () => ({ type: 'block', children: [] }) };
 */
export interface ComponentDefinition<Props extends ComponentData, State extends ComponentData> {
  /** Unique id; the manifest `blocks[].id` references it. */
  componentId: string;
  /** Builds the initial state from the props; `{}` when omitted. */
  initialState?: (props: Props) => State;
  /** Handles a user interaction; dispatch on `action.action`. */
  action?: (
    element: ComponentElement<Props, State>,
    action: ComponentAction,
    context: IntegrationContext,
  ) => ActionResult<State> | undefined | Promise<ActionResult<State> | undefined>;
  /** Returns the UI as ContentKit (JSX works: `<block>...</block>`). */
  render: (
    element: ComponentElement<Props, State>,
    context: IntegrationContext,
  ) => ContentKitElement | Promise<ContentKitElement>;
}

/**
 * A component ready for `createIntegration({ components })`.
 * @example const answer = await counter.handle(event, context);
 */
export interface Component {
  readonly componentId: string;
  /** Applies the event's action (if any) and renders: the `ui_render` answer. */
  handle(
    event: UIRenderEvent,
    context: IntegrationContext,
  ): Promise<{ element: ContentKitElement; state: ComponentData }>;
}

/**
 * Defines a UI component, a small state machine (SPEC 3.2): the state starts as
 * `initialState(props)`, an action returning `{ state }` replaces it, `{}` keeps it,
 * and `render` draws the result.
 *
 * @example
 * const counter = createComponent<{}, { count: number }>({
 *   componentId: 'counter',
 *   initialState: () => ({ count: 0 }),
 *   action: async (element, action) =>
 *     action.action === 'increment' ? { state: { count: element.state.count + 1 } } : {},
 *   render: async (element) => (
 *     <block><button label={`Count: ${element.state.count}`} onPress={{ action: 'increment' }} /></block>
 *   ),
 * });
 */
export function createComponent<
  Props extends ComponentData = ComponentData,
  State extends ComponentData = ComponentData,
>(definition: ComponentDefinition<Props, State>): Component {
  return {
    componentId: definition.componentId,
    async handle(event, context) {
      const props = (event.props ?? {}) as Props;
      let state = (isRecord(event.state) ? event.state : (definition.initialState?.(props) ?? {})) as State;
      const element = (): ComponentElement<Props, State> => ({
        componentId: definition.componentId,
        props,
        state,
        ...(event.context ? { context: event.context } : {}),
      });
      if (event.action && definition.action) {
        const result = await definition.action(element(), event.action, context);
        if (result?.state !== undefined) {
          if (!isRecord(result.state)) {
            throw new TypeError(
              `Component "${definition.componentId}": action returned a state that is not an object`,
            );
          }
          state = result.state;
        }
      }
      const rendered = await definition.render(element(), context);
      return { element: rendered, state };
    },
  };
}
