// Builds the dashboard's browser assets into packages/dashboard/dist/public:
// one JavaScript bundle and one stylesheet with content hashes in their names (cached for a
// year by the host), and index.html pointing at them (revalidated on every load).
// Run: `npm run build -w @platform/dashboard`, or import and call buildDashboardAssets().
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
  return [...outputs, 'index.html'];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const files = await buildDashboardAssets();
  console.log(`dashboard: built ${files.length} files in ${Math.round(performance.now() - started)} ms`);
}
