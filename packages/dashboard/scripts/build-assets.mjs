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
  const outputs = await buildPage({
    dir: publicDir,
    entryPoints: { app: join(root, 'src/app/main.tsx'), styles: join(root, 'src/app/styles.css') },
    isJs: (f) => f.startsWith('app-'),
    isCss: (f) => f.startsWith('styles-'),
    title: 'Platform dashboard',
    name: 'dashboard',
    assetsUrl: '/assets/',
    minify,
  });
  // The gallery's webframe demo (a page speaking the webframe message bridge; no inline script).
  const copies = [
    ['src/app/webframe-demo.html', 'webframe-demo.html'],
    ['src/app/webframe-demo.js', 'assets/webframe-demo.js'],
    ['src/app/gallery-image.svg', 'gallery-image.svg'],
  ];
  for (const [from, to] of copies) await copyFile(join(root, from), join(publicDir, to));
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
  const outputs = await buildPage({
    dir: join(root, 'dist', 'portal'),
    entryPoints: {
      portal: join(root, 'src/portal/main.tsx'),
      'portal-styles': join(root, 'src/portal/portal.css'),
    },
    isJs: (f) => f.startsWith('portal-') && !f.startsWith('portal-styles-'),
    isCss: (f) => f.startsWith('portal-styles-'),
    title: 'Webhook portal',
    name: 'webhook portal',
    assetsUrl: 'assets/',
    minify,
  });
  return [...outputs.map((f) => `assets/${f}`), 'index.html'];
}

/**
 * One page: empties `dir`, bundles `entryPoints` (a script and a stylesheet) into `dir/assets` with content
 * hashes in their names, and writes `dir/index.html` from the shared template src/page.html with `%TITLE%`
 * and `%NAME%` (the page's title, and what its noscript line calls it) filled in and `%APP_JS%` and
 * `%STYLES_CSS%` replaced by their URLs (`assetsUrl` + name). Returns the names of the bundle's files (in assets/).
 */
async function buildPage({ dir, entryPoints, isJs, isCss, title, name, assetsUrl, minify }) {
  const out = join(dir, 'assets');
  await rm(dir, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints,
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
  const js = outputs.find((f) => isJs(f) && f.endsWith('.js'));
  const css = outputs.find((f) => isCss(f) && f.endsWith('.css'));
  if (!js || !css) throw new Error(`${title}: missing outputs in ${outputs.join(', ')}`);
  const html = (await readFile(join(root, 'src/page.html'), 'utf8'))
    .replace('%TITLE%', title)
    .replace('%NAME%', name)
    .replace('%APP_JS%', `${assetsUrl}${js}`)
    .replace('%STYLES_CSS%', `${assetsUrl}${css}`);
  await writeFile(join(dir, 'index.html'), html);
  return outputs;
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
