import { describe, expect, it } from 'vitest';
import { buildIntegration } from './build/build-integration.js';
import { bundleIntegration } from './bundle.js';
import { BundleError } from './errors.js';
import { fixture, MANIFEST, SOURCE } from './test-fixtures.js';

describe('bundleIntegration', () => {
  it('bundles a self-contained ESM module; minified for publish, with a source map for dev', async () => {
    const dir = fixture({ 'src/index.ts': SOURCE });
    const publish = await bundleIntegration(dir, { entry: 'src/index.ts' });
    expect(publish.exports).toEqual(['default']);
    expect(publish.code).not.toMatch(/from\s*["']@platform/);
    expect(publish.map).toBeUndefined();
    // The ContentKit schema (zod) is the host's: an integration bundle carries only the runtime.
    expect(publish.code).not.toMatch(/\$ZodType|Invalid input|expected an action/);
    expect(publish.bytes).toBeLessThan(40_000);
    expect(publish.bytes).toBe(Buffer.byteLength(publish.code));
    const dev = await bundleIntegration(dir, { entry: 'src/index.ts', mode: 'dev' });
    expect(dev.code.length).toBeGreaterThan(publish.code.length);
    expect(JSON.parse(dev.map ?? '{}').sources.some((s: string) => s.endsWith('src/index.ts'))).toBe(true);
  });

  it('reports syntax errors with file, line and column', async () => {
    const dir = fixture({ 'src/index.ts': 'export default {\n  fetch( {\n' });
    const error = await bundleIntegration(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).message).toMatch(
      /could not bundle src\/index\.ts:\n {2}src\/index\.ts:3:\d+: /,
    );
  });

  it('says so when the script does not exist', async () => {
    const error = await bundleIntegration(fixture({}), { entry: 'src/missing.ts' }).catch((e: unknown) => e);
    expect((error as BundleError).message).toMatch(/src\/missing\.ts does not exist/);
  });
});

describe('buildIntegration', () => {
  it('returns the manifest text and the bundle of a valid integration', async () => {
    const built = await buildIntegration(fixture({ 'src/index.ts': SOURCE }));
    expect(built.manifest.name).toBe('fixture');
    expect(built.manifestText).toBe(MANIFEST);
  });

  it('sets the organization: `organization` always, `fallbackOrganization` (platform dev) only when none is set', async () => {
    const orgless = fixture({ 'src/index.ts': SOURCE }, MANIFEST.replace('organization: acme\n', ''));
    const dev = await buildIntegration(orgless, { mode: 'dev', fallbackOrganization: 'dev' });
    expect(dev.manifest.organization).toBe('dev');
    expect(dev.manifestText).toMatch(/^organization: dev$/m);
    const kept = await buildIntegration(fixture({ 'src/index.ts': SOURCE }), { fallbackOrganization: 'dev' });
    expect(kept.manifest.organization).toBe('acme');
    expect(kept.manifestText).toBe(MANIFEST);
    const forced = await buildIntegration(orgless, { organization: 'other', fallbackOrganization: 'dev' });
    expect(forced.manifest.organization).toBe('other');
    expect((await buildIntegration(orgless)).manifest.organization).toBeUndefined();
  });

  it.each([
    [
      'no default export',
      'export const x = 1;\n',
      /has no default export; end it with `export default createIntegration/,
    ],
    ['a default export that is no integration', 'export default { hello: 1 };\n', /is not an integration/],
    [
      'a block without component',
      SOURCE.replace("componentId: 'counter'", "componentId: 'other'"),
      /blocks\[0\]\.id: block `counter` has no component with componentId `counter` in the script \(components: `other`\)/,
    ],
    [
      'a script that throws when loaded',
      "throw new Error('boom at load');\nexport default 1;\n",
      /throws when loaded: boom at load/,
    ],
  ])('fails clearly on %s', async (_name, source, message) => {
    const error = await buildIntegration(fixture({ 'src/index.ts': source })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).message).toMatch(message);
    expect((error as BundleError).exitCode).toBe(1);
  });
});
