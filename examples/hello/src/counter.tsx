import { createComponent } from '@platform/runtime';

/** Props of the counter block: how much one press adds. */
export interface CounterProps extends Record<string, unknown> {
  step?: number;
}

/** State of the counter block. */
export interface CounterState extends Record<string, unknown> {
  count: number;
}

/**
 * The `counter` block (manifest `blocks[0]`): a button that increments, and a reset.
 *
 * @example createIntegration({ components: [counter] });
 */
export const counter = createComponent<CounterProps, CounterState>({
  componentId: 'counter',
  initialState: () => ({ count: 0 }),
  action: async (element, action) => {
    switch (action.action) {
      case 'increment':
        return { state: { count: element.state.count + (element.props.step ?? 1) } };
      case 'reset':
        return { state: { count: 0 } };
      default:
        return {};
    }
  },
  render: async (element) => (
    <block>
      <hstack align="center">
        <text style="bold">Count: {element.state.count}</text>
        <button label="+1" style="primary" onPress={{ action: 'increment' }} />
        <button label="Reset" onPress={{ action: 'reset' }} disabled={element.state.count === 0} />
      </hstack>
    </block>
  ),
});
