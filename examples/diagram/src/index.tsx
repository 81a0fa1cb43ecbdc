import { createComponent, createIntegration, ExposableError } from '@platform/runtime';
import { PAGE } from './page';

/** Content of a new diagram block. */
export const DEFAULT_CONTENT = 'Write --> Preview';
const MAX_CONTENT = 10_000;

/**
 * The diagram block: an editable code block (in the editor) with a webframe preview under it, bound
 * to the same state key, so typing redraws the preview without a round trip; leaving the code
 * saves it into the block's props (`@editor.node.updateProps`). Read-only where it is not editable.
 */
const diagram = createComponent<{ content?: string }, { content: string }>({
  componentId: 'diagram',
  initialState: (props) => ({ content: props.content ?? DEFAULT_CONTENT }),
  render: async (element, context) => {
    if (element.state.content.length > MAX_CONTENT) {
      throw new ExposableError(`This diagram is too long (over ${MAX_CONTENT} characters); split it.`);
    }
    const endpoint =
      context.environment.installation?.urls.publicEndpoint ??
      context.environment.integration.urls.publicEndpoint;
    element.setCache({ maxAge: 60 });
    const preview = (
      <webframe
        source={{ url: `${endpoint}/frame` }}
        aspectRatio={4}
        data={{ content: element.dynamicState('content') }}
      />
    );
    if (!element.context.editable) return <block>{preview}</block>;
    return (
      <block>
        <codeblock
          state="content"
          content={element.state.content}
          syntax="flow"
          onContentChange={{
            action: '@editor.node.updateProps',
            props: { content: element.dynamicState('content') },
          }}
          footer={[preview]}
        />
      </block>
    );
  },
});

export default createIntegration({
  components: [diagram],
  fetch: async (request) => {
    if (!new URL(request.url).pathname.endsWith('/frame')) return new Response('Not found', { status: 404 });
    return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  },
});
