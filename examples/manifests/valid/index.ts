// Entry point named by `script` in platform-manifest.yaml: a small integration whose component
// matches the manifest's `slack-message` block, so the full `platform check` passes.
import { ContentKit, createComponent, createIntegration } from '@platform/runtime';

const slackMessage = createComponent<{ url?: string }, Record<string, never>>({
  componentId: 'slack-message',
  initialState: () => ({}),
  render: async (element) => ContentKit.block(ContentKit.text(element.props.url ?? 'A Slack message')),
});

export default createIntegration({ components: [slackMessage], events: {} });
