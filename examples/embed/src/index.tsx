import type { ContentKitIcon } from '@platform/api-client';
import { createComponent, createIntegration, ExposableError, type RuntimeContext } from '@platform/runtime';
import { ICON_SVG, previewSvg } from './art';

/** The board a `https://boards.example/b/<name>` link points at. */
export function boardOf(url: string): string {
  const match = /^https:\/\/boards\.example\/b\/([\w-]+)/.exec(url);
  if (!match?.[1])
    throw new ExposableError('This is not a link to a board (https://boards.example/b/<name>).');
  return match[1];
}

const endpointOf = (context: RuntimeContext) =>
  context.environment.installation?.urls.publicEndpoint ??
  context.environment.integration.urls.publicEndpoint;
const MAXIMIZE: ContentKitIcon = 'maximize';

/**
 * The block created when a board link is pasted (`@link.unfurl`): a card with the board's preview,
 * opening the board on press, and a button opening a large preview in a modal.
 */
const board = createComponent<{ url?: string; name?: string }>({
  componentId: 'board',
  action: async (_element, action) =>
    action.action === '@link.unfurl'
      ? { props: { url: String(action.url), name: boardOf(String(action.url)) } }
      : {},
  render: async (element, context) => {
    const { url, name } = element.props;
    if (!url || !name) {
      return (
        <block>
          <hint>Paste a link to a board (https://boards.example/b/…) to embed it.</hint>
        </block>
      );
    }
    const endpoint = endpointOf(context);
    element.setCache({ maxAge: 300 });
    return (
      <block>
        <card
          title={`Board ${name}`}
          hint="boards.example"
          icon={<image source={{ url: `${endpoint}/icon.svg` }} aspectRatio={1} alt="" />}
          onPress={{ action: '@ui.url.open', url }}
          buttons={[
            <button
              icon={MAXIMIZE}
              tooltip="Open preview"
              onPress={{ action: '@ui.modal.open', componentId: 'board-preview', props: { name } }}
            />,
          ]}
        >
          <image
            source={{ url: `${endpoint}/preview.svg?name=${encodeURIComponent(name)}` }}
            aspectRatio={640 / 280}
            alt={`Preview of ${name}`}
          />
        </card>
      </block>
    );
  },
});

/** The large preview, opened in a modal. */
const boardPreview = createComponent<{ name?: string }>({
  componentId: 'board-preview',
  render: async (element, context) => (
    <modal
      title={`Board ${element.props.name ?? ''}`}
      size="large"
      submit={
        <button label="Done" style="primary" onPress={{ action: '@ui.modal.close', returnValue: {} }} />
      }
    >
      <image
        source={{
          url: `${endpointOf(context)}/preview.svg?name=${encodeURIComponent(element.props.name ?? '')}`,
        }}
        aspectRatio={640 / 280}
        alt={`Large preview of ${element.props.name ?? 'the board'}`}
      />
    </modal>
  ),
});

export default createIntegration({
  components: [board, boardPreview],
  fetch: async (request) => {
    const url = new URL(request.url);
    const svg = { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=300' };
    if (url.pathname.endsWith('/icon.svg')) return new Response(ICON_SVG, { headers: svg });
    if (url.pathname.endsWith('/preview.svg')) {
      return new Response(previewSvg(url.searchParams.get('name') ?? 'board'), { headers: svg });
    }
    return new Response('Not found', { status: 404 });
  },
});
