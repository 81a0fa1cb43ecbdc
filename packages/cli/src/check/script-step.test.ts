import { describe, expect, it } from 'vitest';
import { checkScript, MANIFEST, PASSED, SOURCE } from '../test-fixtures.js';
import { lineOf, locateKey } from './script-step.js';

describe('scriptCheckStep (bundle + boot in workerd)', () => {
  it('passes a valid integration', async () => {
    expect(await checkScript({ 'src/index.ts': SOURCE })).toEqual(PASSED);
  });

  it('passes (boots and renders in workerd) an entry that also exports helpers such as handleFetchEvent', async () => {
    const source = SOURCE.replace(
      'export default createIntegration({ components: [counter] });',
      "export const handleFetchEvent = async () => new Response('from helper');\nexport default createIntegration({ components: [counter], fetch: handleFetchEvent });",
    );
    expect(source).toContain('export const handleFetchEvent');
    expect(await checkScript({ 'src/index.ts': source })).toEqual(PASSED);
  });

  it('inspects the module as workerd loads it: a Node-only path of a dependency is not taken', async () => {
    // Libraries pick a Node path when they see `process` (e.g. `require('crypto')`); workerd has none.
    const source = `if (typeof process === 'object' && process.versions && process.versions.node) throw new Error('took the Node path');\n${SOURCE}`;
    expect(await checkScript({ 'src/index.ts': source })).toEqual(PASSED);
    const thrown = `throw new Error('always');\n${SOURCE}`;
    expect((await checkScript({ 'src/index.ts': thrown })).errors[0]?.message).toMatch(
      /src\/index\.ts throws when loaded: always/,
    );
  });

  it('reports a handler that crashes in workerd, with its logged error', async () => {
    const source = SOURCE.replace(
      'components: [counter]',
      "components: [counter], events: { installation_setup: async () => { throw new Error('setup exploded'); } }",
    );
    const report = await checkScript({ 'src/index.ts': source });
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatchObject({ path: 'script', line: 6 });
    expect(report.errors[0]?.message).toMatch(
      /failed an installation_setup envelope in workerd: HTTP 500 .*setup exploded/,
    );
  });

  it.each([
    {
      what: 'fails, on the line of its id',
      render: "render: async () => { throw new Error('no render'); }",
      error: { path: 'blocks[0].id', line: 10, message: /block `counter` failed to render in workerd/ },
    },
    {
      what: 'is not valid ContentKit, naming the element path',
      render:
        "render: async () => ({ type: 'block', children: [{ type: 'button', label: 'Go', onPress: 'go' }] })",
      error: {
        path: 'blocks[0].id',
        message:
          /block `counter` rendered invalid ContentKit: element\.children\[0\]\.onPress: expected an action/,
      },
    },
  ])('reports a block whose render $what', async ({ render, error }) => {
    const source = SOURCE.replace("render: async () => ContentKit.block(ContentKit.text('hi'))", render);
    const report = await checkScript({ 'src/index.ts': source });
    expect(report.errors).toEqual([
      expect.objectContaining({ ...error, message: expect.stringMatching(error.message) }),
    ]);
  });

  it('accepts a block that answers an ExposableError on its first render (it shows the message)', async () => {
    const source = SOURCE.replace(
      "import { ContentKit, createComponent, createIntegration } from '@platform/runtime';",
      "import { ContentKit, createComponent, createIntegration, ExposableError } from '@platform/runtime';",
    ).replace(
      "render: async () => ContentKit.block(ContentKit.text('hi'))",
      "render: async () => { throw new ExposableError('Paste a link first.'); }",
    );
    expect(await checkScript({ 'src/index.ts': source })).toEqual(PASSED);
  });

  it('renders a urlUnfurl block as the editor creates it: after @link.unfurl with a matching URL', async () => {
    const source = SOURCE.replace(
      "render: async () => ContentKit.block(ContentKit.text('hi'))",
      `action: async (element, action) => action.action === '@link.unfurl' ? { props: { url: String(action.url) } } : {},
       render: async (element) => {
         if (!String(element.props.url).startsWith('https://www.figma.com/file/')) throw new Error('no url');
         return ContentKit.block(ContentKit.card({ title: String(element.props.url), icon: ContentKitIcon.Maximize }));
       }`,
    ).replace(
      'import { ContentKit,',
      "import { ContentKitIcon } from '@platform/api-client';\nimport { ContentKit,",
    );
    const manifest = MANIFEST.replace(
      '    description: Counts.\n',
      '    description: Counts.\n    urlUnfurl:\n      - https://www.figma.com/file/\n',
    );
    expect(await checkScript({ 'src/index.ts': source }, manifest)).toEqual({
      ok: true,
      errors: [],
      warnings: [],
    });
  });

  it('renders a configuration screen component and names a missing one on its componentId line', async () => {
    const manifest = `${MANIFEST}configurations:\n  account:\n    componentId: settings\n`;
    const missing = await checkScript({ 'src/index.ts': SOURCE }, manifest);
    expect(missing.errors).toEqual([
      expect.objectContaining({
        path: 'configurations.account.componentId',
        line: 15,
        message: expect.stringMatching(/configuration screen `settings` has no component/),
      }),
    ]);
    const source = SOURCE.replace(
      'components: [counter]',
      "components: [counter, createComponent({ componentId: 'settings', render: async (element) => element.context.type === 'configuration' ? ContentKit.block(ContentKit.button({ label: 'Go', onPress: 'go' as never })) : ContentKit.block() })]",
    );
    const invalid = await checkScript({ 'src/index.ts': source }, manifest);
    expect(invalid.errors).toEqual([
      expect.objectContaining({
        path: 'configurations.account.componentId',
        message: expect.stringMatching(
          /`settings` rendered invalid ContentKit: element\.children\[0\]\.onPress/,
        ),
      }),
    ]);
  });

  it('warns (and does not fail) when no script is named and src/index.ts does not exist', async () => {
    const report = await checkScript({}, MANIFEST.replace('script: src/index.ts\n', ''));
    expect(report.ok).toBe(true);
    expect(report.warnings[0]?.message).toMatch(/the script src\/index\.ts does not exist/);
  });
});

describe('lineOf', () => {
  it('finds top-level keys and block ids', () => {
    const text =
      'name: x\nscript: a.ts\nblocks:\n  - id: one\n    title: One\n  - title: Two\n    id: two\nother: 1\n';
    expect(lineOf(text, 'script')).toBe(2);
    expect(lineOf(text, 'blocks[0].id')).toBe(4);
    expect(lineOf(text, 'blocks[1].id')).toBe(7);
    expect(lineOf(text, 'missing')).toBe(1);
  });
});

describe('locateKey', () => {
  it("finds a script's name where it is written as a key or a method, quoted or not", () => {
    expect(
      locateKey(
        'export default createIntegration({\n  events: {\n    space_content_update: async () => {},\n',
        'space_content_update',
      ),
    ).toEqual({ line: 3, column: 5 });
    expect(locateKey("x({ 'site_veiw': f })", 'site_veiw')).toEqual({ line: 1, column: 5 });
    expect(locateKey('events: { page_feedbak(event) {} }', 'page_feedbak')).toEqual({ line: 1, column: 11 });
    expect(locateKey('const site_view_count = 1;', 'site_view')).toBeNull();
    expect(locateKey('nothing here', 'site_view')).toBeNull();
  });
});
