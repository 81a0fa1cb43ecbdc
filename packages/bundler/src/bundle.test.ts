import { describe, expect, it } from 'vitest';
import { BundleError, bundleIntegration, defaultEntry, integrationBuildOptions } from './index.js';
import { tempFolder } from './test-support.js';

const folder = (files: Record<string, string>) => tempFolder('platform-bundler-', files);

const SOURCE = `import { ContentKit, createComponent, createIntegration } from '@platform/runtime';
const hello = createComponent({ componentId: 'hello', render: async () => ContentKit.block(ContentKit.text('hi')) });
export default createIntegration({ components: [hello] });
`;

describe('integrationBuildOptions', () => {
  it('is one neutral ESM bundle from sources, minified to publish and mapped in dev', () => {
    const publish = integrationBuildOptions('publish');
    expect(publish).toMatchObject({
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['source', 'worker', 'browser'],
      jsxImportSource: '@platform/runtime',
      loader: { '.raw.js': 'text' },
      minify: true,
      sourcemap: false,
    });
    expect(integrationBuildOptions('dev')).toMatchObject({ minify: false, sourcemap: 'external' });
  });
});

describe('bundleIntegration', () => {
  it('inlines the SDK: the module imports nothing and exports only default', async () => {
    const dir = folder({ 'src/index.tsx': SOURCE });
    expect(defaultEntry(dir)).toBe('src/index.tsx');
    const result = await bundleIntegration(dir);
    expect(result.entry).toBe('src/index.tsx');
    expect(result.exports).toEqual(['default']);
    expect(result.code).not.toMatch(/\bimport\s*[{"'*]|from\s*["']/);
    expect(result.bytes).toBe(Buffer.byteLength(result.code));
    const dev = await bundleIntegration(dir, { mode: 'dev' });
    expect(JSON.parse(dev.map ?? '{}').sources.some((s: string) => s.endsWith('src/index.tsx'))).toBe(true);
  });

  it('fails with a located BundleError', async () => {
    const error = await bundleIntegration(folder({ 'src/index.ts': 'export default {\n  fetch( {\n' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).code).toBe('bundle_failed');
    expect((error as BundleError).message).toMatch(
      /could not bundle src\/index\.ts:\n {2}src\/index\.ts:3:\d+: /,
    );
    const missing = await bundleIntegration(folder({}), { entry: 'src/nope.ts' }).catch((e: unknown) => e);
    expect((missing as BundleError).message).toMatch(/src\/nope\.ts does not exist/);
  });

  it('exports only the default export, whatever else the entry exports (workerd would refuse them)', async () => {
    const dir = folder({
      'src/index.ts': `${SOURCE}export const handleFetchEvent = async () => new Response('x');\nexport const helper = 1;\n`,
    });
    const bundle = await bundleIntegration(dir, { mode: 'dev' });
    expect(bundle.exports).toEqual(['default']);
    expect(bundle.entry).toBe('src/index.ts');
    expect(bundle.code).not.toMatch(/export\s*\{[^}]*helper/);
  });

  it('fails clearly when the entry has no default export', async () => {
    const error = await bundleIntegration(folder({ 'src/index.ts': 'export const x = 1;\n' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).message).toMatch(
      /src\/index\.ts has no default export; end it with `export default/,
    );
  });

  it('imports *.raw.js files as text', async () => {
    const dir = folder({
      'src/page.raw.js': "window.track('<domain>');\n",
      'src/index.ts': `import page from './page.raw.js';\n${SOURCE.replace("ContentKit.text('hi')", 'ContentKit.text(page)')}`,
    });
    const bundle = await bundleIntegration(dir, { mode: 'dev' });
    expect(bundle.code).toContain(JSON.stringify("window.track('<domain>');\n"));
  });
});
