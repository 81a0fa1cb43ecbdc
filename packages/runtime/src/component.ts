import type {
  ComponentAction,
  ContentKitCache,
  ContentKitDynamicBinding,
  ContentKitElement,
  ContentKitRenderContext,
  UIRenderEvent,
} from '@platform/api-client';
import { isRecord } from '@platform/api-client';
import { installationProps, withoutInstallationProps } from './configuration-props';
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
  /** Current state (from `initialState` on first render). */
  state: State;
  /**
   * Where the component is shown: `{ type: 'document' | 'configuration' | 'modal', editable }`
   * (`{ type: 'document', editable: false }` when the host says nothing).
   */
  context: ContentKitRenderContext;
  /**
   * Binds an input or a webframe/codeblock value to a state key without a round trip:
   * `<codeblock content={element.dynamicState('code')} state="code" />`.
   */
  dynamicState<Key extends keyof State & string>(key: Key): ContentKitDynamicBinding & { $state: Key };
  /** Lets the host reuse this render output for `maxAge` seconds (same props, state and action). */
  setCache(cache: ContentKitCache): void;
}

/**
 * What an action handler returns: `{ state }` replaces the state, `{ props }` the props
 * (saved by the editor for blocks), `{}` keeps both.
 * @example return action.action === 'increment' ? { state: { count: n + 1 } } : {};
 */
export interface ActionResult<Props extends ComponentData, State extends ComponentData> {
  state?: State;
  props?: Props;
}

/**
 * Parameters of {@link createComponent} (docs/contentkit.md, "Component model").
 * @example const def: ComponentDefinition<{}, { n: number }> = { componentId: 'c', initialState: { n: 0 }, render: () => ({ type: 'block', children: [] }) };
 */
export interface ComponentDefinition<
  Props extends ComponentData,
  State extends ComponentData,
  Action extends ComponentAction = ComponentAction,
  Context extends IntegrationContext = IntegrationContext,
> {
  /** Unique id; the manifest `blocks[].id` (or `componentId` of a configuration) references it. */
  componentId: string;
  /**
   * The initial state, or a function of the props, the render context and the integration's
   * context (e.g. to start from `context.environment.installation.configuration`); `{}` when omitted.
   */
  initialState?: State | ((props: Props, renderContext: ContentKitRenderContext, context: Context) => State);
  /** Handles a user interaction; dispatch on `action.action`. */
  action?: (
    element: ComponentElement<Props, State>,
    action: Action,
    context: Context,
  ) => ActionResult<Props, State> | undefined | Promise<ActionResult<Props, State> | undefined>;
  /** Returns the UI as ContentKit (JSX works: `<block>...</block>`). */
  render: (
    element: ComponentElement<Props, State>,
    context: Context,
  ) => ContentKitElement | Promise<ContentKitElement>;
}

/** The answer to a component render event (docs/contentkit.md, "Render output"). */
export interface ComponentOutput {
  element: ContentKitElement;
  state: ComponentData;
  props: ComponentData;
  cache?: ContentKitCache;
}

/**
 * A component ready for `createIntegration({ components })`.
 * @example const answer = await counter.handle(event, context);
 */
export interface Component {
  readonly componentId: string;
  /** Applies the event's action (if any) and renders: the answer to a component render event. */
  handle(event: UIRenderEvent, context: IntegrationContext): Promise<ComponentOutput>;
}

/** The render context of an event: what the host sent, with `type` and `editable` always set. */
export function renderContextOf(event: Pick<UIRenderEvent, 'context'>): ContentKitRenderContext {
  const raw = isRecord(event.context) ? event.context : {};
  const type = raw.type === 'configuration' || raw.type === 'modal' ? raw.type : 'document';
  return { ...raw, type, editable: raw.editable === true };
}

function checkData(value: unknown, what: string, componentId: string): ComponentData {
  if (!isRecord(value) || Array.isArray(value)) {
    throw new TypeError(`Component "${componentId}": ${what} is not an object`);
  }
  return value;
}

/**
 * Defines a UI component, a small state machine (docs/contentkit.md, "Component model"): the state
 * starts as `initialState`, an action returning `{ state }` replaces it (`{ props }` replaces the
 * props), `{}` keeps them, and `render` draws the result. `element.setCache` adds a cache hint.
 *
 * @example
 * const counter = createComponent<{}, { count: number }>({
 *   componentId: 'counter',
 *   initialState: { count: 0 },
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
  Action extends ComponentAction = ComponentAction,
  Context extends IntegrationContext = IntegrationContext,
>(definition: ComponentDefinition<Props, State, Action, Context>): Component {
  const { componentId } = definition;
  return {
    componentId,
    async handle(event, context) {
      const renderContext = renderContextOf(event);
      const given = isRecord(event.props) ? event.props : {};
      // A configuration screen sees its installation as props, as screens written for the
      // original platform expect (docs/contentkit.md "Configuration screens").
      const added = renderContext.type === 'configuration' ? installationProps(context.environment) : {};
      let props = { ...given, ...added } as Props;
      const initial = definition.initialState;
      let state = (
        isRecord(event.state)
          ? event.state
          : typeof initial === 'function'
            ? initial(props, renderContext, context as Context)
            : (initial ?? {})
      ) as State;
      let cache: ContentKitCache | undefined;
      const element = (): ComponentElement<Props, State> => ({
        componentId,
        props,
        state,
        context: renderContext,
        dynamicState: (key) => ({ $state: key }),
        setCache: (hint) => {
          cache = { maxAge: Math.max(0, Math.floor(Number(hint.maxAge) || 0)) };
        },
      });
      if (event.action && definition.action) {
        const result = await definition.action(element(), event.action as Action, context as Context);
        if (result?.state !== undefined)
          state = checkData(result.state, 'action returned a state that', componentId) as State;
        if (result?.props !== undefined)
          props = checkData(result.props, 'action returned props that', componentId) as Props;
      }
      const rendered = await definition.render(element(), context as Context);
      return {
        element: rendered,
        state,
        props: withoutInstallationProps(props, added),
        ...(cache ? { cache } : {}),
      };
    },
  };
}
