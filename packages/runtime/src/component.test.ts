import { describe, expect, it } from 'vitest';
import { createComponent } from './component';
import { ContentKit } from './contentkit';
import { createIntegration } from './integration';
import { envelopeRequest } from './testing';

const counter = createComponent<{ start?: number }, { count: number }>({
  componentId: 'counter',
  initialState: (props) => ({ count: props.start ?? 0 }),
  action: async (element, action) => {
    if (action.action === 'increment')
      return { state: { count: element.state.count + Number(action.by ?? 1) } };
    return {};
  },
  render: async (element) =>
    ContentKit.block(
      ContentKit.text(`Count: ${element.state.count}`),
      ContentKit.button({ label: '+1', onPress: { action: 'increment' } }),
    ),
});
const integration = createIntegration({ components: [counter] });

async function render(fields: Record<string, unknown>) {
  const response = await integration.fetch(envelopeRequest({ type: 'ui_render', eventId: 'e', ...fields }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('components (state machine)', () => {
  it('renders the initial state from props when no state is given', async () => {
    const { status, body } = await render({ componentId: 'counter', props: { start: 5 } });
    expect(status).toBe(200);
    expect(body.state).toEqual({ count: 5 });
    expect(body.element).toEqual({
      type: 'block',
      children: [
        { type: 'text', text: 'Count: 5' },
        { type: 'button', label: '+1', onPress: { action: 'increment' } },
      ],
    });
  });

  it('replaces the state with what the action returns, then renders it', async () => {
    const { body } = await render({
      componentId: 'counter',
      props: {},
      state: { count: 2 },
      action: { action: 'increment', by: 3 },
    });
    expect(body.state).toEqual({ count: 5 });
    expect(JSON.stringify(body.element)).toContain('Count: 5');
  });

  it('keeps the state unchanged on an unknown action', async () => {
    const { body } = await render({
      componentId: 'counter',
      props: {},
      state: { count: 7 },
      action: { action: 'nope' },
    });
    expect(body.state).toEqual({ count: 7 });
  });

  it('answers 404 JSON for an unknown component', async () => {
    const { status, body } = await render({ componentId: 'ghost', props: {} });
    expect(status).toBe(404);
    expect(body).toEqual({
      error: { code: 'component_not_found', message: 'No component "ghost" in this integration' },
    });
  });

  it('passes props, state and the render context to render; empty state without initialState', async () => {
    const seen: unknown[] = [];
    const probe = createComponent({
      componentId: 'probe',
      render: (element) => {
        seen.push(element);
        return ContentKit.divider();
      },
    });
    const response = await createIntegration({ components: [probe] }).fetch(
      envelopeRequest({
        type: 'ui_render',
        eventId: 'e',
        componentId: 'probe',
        props: { a: 1 },
        context: { where: 'editor' },
      }),
    );
    expect(await response.json()).toEqual({ element: { type: 'divider' }, state: {}, props: { a: 1 } });
    expect(seen).toEqual([
      expect.objectContaining({
        componentId: 'probe',
        props: { a: 1 },
        state: {},
        context: { where: 'editor', type: 'document', editable: false },
      }),
    ]);
  });

  it('takes initialState as a value or a function of props and render context', async () => {
    const byValue = createComponent<Record<string, never>, { n: number }>({
      componentId: 'v',
      initialState: { n: 4 },
      render: (element) => ContentKit.text(String(element.state.n)),
    });
    const byFunction = createComponent<{ x: number }, { where: string }>({
      componentId: 'f',
      initialState: (props, context) => ({ where: `${context.type}/${context.editable}/${props.x}` }),
      render: (element) => ContentKit.text(element.state.where),
    });
    const integration = createIntegration({ components: [byValue, byFunction] });
    const call = async (fields: Record<string, unknown>) =>
      (await (
        await integration.fetch(envelopeRequest({ type: 'ui_render', eventId: 'e', ...fields }))
      ).json()) as Record<string, unknown>;
    expect((await call({ componentId: 'v', props: {} })).state).toEqual({ n: 4 });
    expect(
      (await call({ componentId: 'f', props: { x: 2 }, context: { type: 'configuration', editable: true } }))
        .state,
    ).toEqual({ where: 'configuration/true/2' });
  });

  it('binds state with dynamicState, returns new props from an action and the cache hint', async () => {
    const diagram = createComponent<{ code: string }, { code: string }>({
      componentId: 'diagram',
      initialState: (props) => ({ code: props.code }),
      action: async (element, action) =>
        action.action === 'save' ? { props: { code: element.state.code } } : {},
      render: async (element) => {
        element.setCache({ maxAge: 30.7 });
        return ContentKit.block(
          ContentKit.codeblock({ content: element.dynamicState('code'), state: 'code', syntax: 'mermaid' }),
        );
      },
    });
    const response = await createIntegration({ components: [diagram] }).fetch(
      envelopeRequest({
        type: 'ui_render',
        eventId: 'e',
        componentId: 'diagram',
        props: { code: 'A-->B' },
        state: { code: 'A-->C' },
        action: { action: 'save' },
      }),
    );
    expect(await response.json()).toEqual({
      element: {
        type: 'block',
        children: [{ type: 'codeblock', content: { $state: 'code' }, state: 'code', syntax: 'mermaid' }],
      },
      state: { code: 'A-->C' },
      props: { code: 'A-->C' },
      cache: { maxAge: 30 },
    });
  });

  it('refuses two components with the same id', () => {
    expect(() => createIntegration({ components: [counter, counter] })).toThrow(
      /two components have the id "counter"/,
    );
  });
});
