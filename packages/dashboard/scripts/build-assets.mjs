// Builds the dashboard's browser assets into packages/dashboard/dist/public:
// one JavaScript bundle and one stylesheet with content hashes in their names (cached for a
// year by the host), and index.html pointing at them (revalidated on every load).
// Run: `npm run build -w @platform/dashboard`, or import and call buildDashboardAssets().
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds dist/public (index.html + assets/); returns the names of the files written. */
export async function buildDashboardAssets({ minify = true } = {}) {
  const publicDir = join(root, 'dist', 'public');
  const out = join(publicDir, 'assets');
  await rm(publicDir, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: join(root, 'src/app/main.tsx'), styles: join(root, 'src/app/styles.css') },
    outdir: out,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((f) => f.startsWith('app-') && f.endsWith('.js'));
  const css = outputs.find((f) => f.startsWith('styles-') && f.endsWith('.css'));
  if (!js || !css) throw new Error(`dashboard build: missing outputs in ${outputs.join(', ')}`);
  const template = await readFile(join(root, 'src/app/index.html'), 'utf8');
  const html = template.replace('%APP_JS%', `/assets/${js}`).replace('%STYLES_CSS%', `/assets/${css}`);
  await writeFile(join(publicDir, 'index.html'), html);
  // The gallery's webframe demo (a page speaking the webframe message bridge; no inline script).
  await writeFile(
    join(publicDir, 'webframe-demo.html'),
    await readFile(join(root, 'src/app/webframe-demo.html')),
  );
  await writeFile(join(out, 'webframe-demo.js'), await readFile(join(root, 'src/app/webframe-demo.js')));
  await writeFile(
    join(publicDir, 'gallery-image.svg'),
    await readFile(join(root, 'src/app/gallery-image.svg')),
  );
  const portal = await buildPortalAssets({ minify });
  return [
    ...outputs,
    ...portal.map((f) => `../portal/${f}`),
    'index.html',
    'webframe-demo.html',
    'webframe-demo.js',
    'gallery-image.svg',
    ...(await copyApiReference(publicDir)),
  ];
}

/**
 * The subscriber portal (served by the host on its content origin at `/portal/`): its own bundle and
 * stylesheet in dist/portal/assets, and dist/portal/index.html naming them by relative URLs.
 * Returns the names of the files written, relative to dist/portal.
 */
export async function buildPortalAssets({ minify = true } = {}) {
  const portalDir = join(root, 'dist', 'portal');
  const out = join(portalDir, 'assets');
  await rm(portalDir, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: {
      portal: join(root, 'src/portal/main.tsx'),
      'portal-styles': join(root, 'src/portal/portal.css'),
    },
    outdir: out,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find(
    (f) => f.startsWith('portal-') && !f.startsWith('portal-styles-') && f.endsWith('.js'),
  );
  const css = outputs.find((f) => f.startsWith('portal-styles-') && f.endsWith('.css'));
  if (!js || !css) throw new Error(`portal build: missing outputs in ${outputs.join(', ')}`);
  const template = await readFile(join(root, 'src/portal/index.html'), 'utf8');
  const html = template.replace('%APP_JS%', `assets/${js}`).replace('%STYLES_CSS%', `assets/${css}`);
  await writeFile(join(portalDir, 'index.html'), html);
  return [...outputs.map((f) => `assets/${f}`), 'index.html'];
}

/**
 * The API reference page the host serves at `/api`: Swagger UI's prebuilt browser files (from the
 * swagger-ui-dist package, a build-time dependency: nothing is fetched from a CDN) and our page around it.
 */
async function copyApiReference(publicDir) {
  const out = join(publicDir, 'api-reference');
  await mkdir(out, { recursive: true });
  const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = [
    [join(swagger, 'swagger-ui-bundle.js'), 'swagger-ui-bundle.js'],
    [join(swagger, 'swagger-ui-bundle.js.LICENSE.txt'), 'swagger-ui-bundle.js.LICENSE.txt'],
    [join(swagger, 'swagger-ui.css'), 'swagger-ui.css'],
    [join(swagger, 'LICENSE'), 'SWAGGER-UI-LICENSE'],
    [join(root, 'src/api-reference/index.html'), 'index.html'],
    [join(root, 'src/api-reference/init.js'), 'init.js'],
    [join(root, 'src/api-reference/page.css'), 'page.css'],
  ];
  await Promise.all(files.map(([from, to]) => copyFile(from, join(out, to))));
  return files.map(([, to]) => `api-reference/${to}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const files = await buildDashboardAssets();
  console.log(`dashboard: built ${files.length} files in ${Math.round(performance.now() - started)} ms`);
}
