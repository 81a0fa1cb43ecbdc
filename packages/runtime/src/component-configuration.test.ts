import { describe, expect, it } from 'vitest';
import { createComponent } from './component';
import { ContentKit } from './contentkit';
import { createIntegration } from './integration';
import { envelopeRequest, testEnvironment } from './testing';

// A configuration screen written the way screens read their configuration: from the props, and
// from the integration's context in `initialState`.
const screen = createComponent<
  {
    installation?: { configuration: Record<string, unknown> };
    spaceInstallation?: { configuration: Record<string, unknown> };
    page?: string;
  },
  { subdomain: string; ids: string[] }
>({
  componentId: 'settings',
  initialState: (props, renderContext, context) => ({
    subdomain: String(props.installation?.configuration.subdomain ?? ''),
    ids: renderContext.type === 'configuration' ? (context.environment.installation?.externalIds ?? []) : [],
  }),
  render: async (element) =>
    ContentKit.block(
      ContentKit.text(
        `${element.state.subdomain}|${String(element.props.spaceInstallation?.configuration.subdomain)}|${element.props.page ?? ''}`,
      ),
    ),
});
const integration = createIntegration({ components: [screen] });

async function render(context: Record<string, unknown>, props: Record<string, unknown> = { page: 'p1' }) {
  const base = testEnvironment();
  const configuration = { subdomain: 'acme' };
  const environment = {
    ...base,
    installation: { ...base.installation, target: 'space', configuration, externalIds: ['ext_1'] },
    spaceInstallation: { space: 'spc_1', status: 'active', configuration, externalIds: [], urls: {} },
  };
  const response = await integration.fetch(
    envelopeRequest(
      { type: 'ui_render', eventId: 'e', componentId: 'settings', props, context },
      { environment },
    ),
  );
  return (await response.json()) as { element: unknown; state: unknown; props: unknown };
}

describe('configuration screens', () => {
  it('get the configuration they edit in their props, and the integration context in initialState', async () => {
    const body = await render({ type: 'configuration', editable: true });
    expect(body.state).toEqual({ subdomain: 'acme', ids: ['ext_1'] });
    expect(JSON.stringify(body.element)).toContain('acme|acme|p1');
    // Derived on every render from the environment: the answer's props are those sent.
    expect(body.props).toEqual({ page: 'p1' });
  });

  it('override props sent under the same names with the current configuration', async () => {
    const stale = { installation: { configuration: { subdomain: 'old' } } };
    const body = await render({ type: 'configuration', editable: true }, stale);
    expect(body.state).toMatchObject({ subdomain: 'acme' });
  });

  it('leave the props of a block alone', async () => {
    const body = await render({ type: 'document', editable: true });
    expect(body.state).toEqual({ subdomain: '', ids: [] });
    expect(JSON.stringify(body.element)).toContain('|undefined|p1');
  });
});
