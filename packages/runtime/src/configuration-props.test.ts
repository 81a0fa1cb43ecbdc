import { describe, expect, it } from 'vitest';
import { createComponent } from './component';
import { ContentKit } from './contentkit';
import { createIntegration } from './integration';
import { envelopeRequest, testEnvironment } from './testing';

/** A configuration screen written for the original platform: it reads its installation from props. */
const screen = createComponent<
  {
    installation?: { configuration: { token?: string } };
    siteInstallation?: { site: string };
    note?: string;
  },
  { token: string }
>({
  componentId: 'config',
  initialState: (props) => ({ token: props.installation?.configuration.token ?? '' }),
  render: async (element) =>
    ContentKit.block(
      ContentKit.text(
        `token=${element.state.token} site=${element.props.siteInstallation?.site ?? '-'} note=${element.props.note ?? '-'}`,
      ),
    ),
});
const integration = createIntegration({ components: [screen] });

const environment = testEnvironment({
  siteInstallation: {
    site: 'site_1',
    integration: 'hello',
    installation: 'inst_test',
    status: 'active',
    configuration: { token: 'site-secret' },
    externalIds: [],
    urls: { publicEndpoint: 'https://host.example/p', publicContentEndpoint: 'https://host.example/p' },
  },
});
environment.installation = environment.installation && {
  ...environment.installation,
  configuration: { token: 'org-secret' },
};

async function render(context: Record<string, unknown>, props: Record<string, unknown> = {}) {
  const response = await integration.fetch(
    envelopeRequest(
      { type: 'ui_render', eventId: 'e', componentId: 'config', props, context },
      { environment },
    ),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { element: { children: Array<{ text: string }> }; props: object };
}

describe('configuration screens: installation props', () => {
  it('gives a configuration screen its installation shapes as props, not sent back in the answer', async () => {
    const body = await render({ type: 'configuration', editable: true }, { note: 'kept' });
    expect(body.element.children[0]?.text).toBe('token=org-secret site=site_1 note=kept');
    expect(body.props).toEqual({ note: 'kept' });
    // Rendered only what the component chose to show: the site's configuration never left.
    expect(JSON.stringify(body)).not.toContain('site-secret');
  });

  it('gives the current configuration over stale props sent under the same names, and other render contexts nothing', async () => {
    const given = await render(
      { type: 'configuration', editable: true },
      { installation: { configuration: { token: 'given' } } },
    );
    expect(given.element.children[0]?.text).toBe('token=org-secret site=site_1 note=-');
    expect(given.props).toEqual({});
    const block = await render({ type: 'document', editable: true });
    expect(block.element.children[0]?.text).toBe('token= site=- note=-');
    expect(block.props).toEqual({});
  });
});
