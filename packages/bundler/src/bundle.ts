import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Message } from 'esbuild';
import { type BundleMode, integrationBuildOptions } from './options.js';
import { webframePlugin } from './webframe.js';

/**
 * An integration that cannot be bundled (missing script, syntax or resolution errors): `message`
 * says where (file:line:column) and what. `code` is always `bundle_failed`.
 *
 * @example
 * ```ts
 * try { await bundleIntegration(dir); } catch (e) { if (e instanceof BundleError) console.error(e.message); }
 * ```
 */
export class BundleError extends Error {
  readonly code = 'bundle_failed';
  constructor(message: string) {
    super(message);
    this.name = 'BundleError';
  }
}

/** Options of {@link bundleIntegration}. */
export interface BundleOptions {
  /** Entry file, relative to `dir` (the manifest `script`). Default: `src/index.ts` or `src/index.tsx`. */
  entry?: string;
  /** `publish`: minified, no source map. `dev`: readable, with an external source map. Default `publish`. */
  mode?: BundleMode;
}

/** What {@link bundleIntegration} produced. */
export interface BundleResult {
  /** The self-contained ESM module the host stores and runs in workerd. */
  code: string;
  /** Source map (dev mode only). */
  map?: string;
  /** Size of `code` in bytes (UTF-8). */
  bytes: number;
  /** Names the bundle exports (a valid integration exports only `default`). */
  exports: string[];
  /** Entry file, relative to the integration folder. */
  entry: string;
  warnings: string[];
}

/**
 * Folders that hold `@platform/runtime` next to this CLI: used as a fallback so an integration
 * folder bundles even before its own `npm install` (its own node_modules still wins).
 */
function sdkNodePaths(): string[] {
  const paths: string[] = [];
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules');
    if (existsSync(join(candidate, '@platform', 'runtime'))) paths.push(candidate);
    const parent = dirname(dir);
    if (parent === dir) return paths;
    dir = parent;
  }
}

/** The default entry of an integration folder when the manifest names no `script`. */
export function defaultEntry(dir: string): string {
  return (
    ['src/index.ts', 'src/index.tsx', 'src/index.js'].find((f) => existsSync(join(dir, f))) ?? 'src/index.ts'
  );
}

function describe(message: Message, dir: string): string {
  const where = message.location
    ? `${relative(dir, join(dir, message.location.file)) || message.location.file}:${message.location.line}:${message.location.column + 1}: `
    : '';
  return `${where}${message.text}`;
}

/**
 * Bundles an integration into one ESM module for workerd, with {@link integrationBuildOptions}.
 * The one bundling function of the project: the CLI (`platform build`, `check`, `dev`, `publish`),
 * the repository's build (`dist/integration.js`) and tests use it.
 *
 * @example
 * ```ts
 * const { code, bytes } = await bundleIntegration('my-integration', { entry: 'src/index.ts' });
 * ```
 */
export async function bundleIntegration(dir: string, options: BundleOptions = {}): Promise<BundleResult> {
  const entry = options.entry ?? defaultEntry(dir);
  const entryPath = isAbsolute(entry) ? entry : join(dir, entry);
  if (!existsSync(entryPath)) {
    throw new BundleError(
      `the integration script ${relative(dir, entryPath) || entry} does not exist; create it or fix \`script\` in platform-manifest.yaml.`,
    );
  }
  let result: Awaited<ReturnType<typeof build>>;
  const webframe = webframePlugin(dir, options.mode ?? 'publish');
  try {
    result = await build({
      ...integrationBuildOptions(options.mode ?? 'publish'),
      // a `webframe/` folder: its page, built as a second entry, for `import ... from './webframe'`
      ...(webframe ? { plugins: [webframe] } : {}),
      absWorkingDir: dir,
      // workerd treats every named export of the main module as an entrypoint, so the bundle's
      // entry re-exports only the author's default export (packages/bundler/README.md).
      stdin: {
        contents: `export { default } from ${JSON.stringify(entryPath)};`,
        resolveDir: dir,
        sourcefile: '<platform-entry>.js',
        loader: 'js',
      },
      outfile: join(dir, 'dist', 'index.js'),
      write: false,
      metafile: true,
      nodePaths: sdkNodePaths(),
      logLevel: 'silent',
    });
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors ?? [];
    if (errors.some((m) => /No matching export .* for import "default"/.test(m.text))) {
      throw new BundleError(
        `${relative(dir, entryPath)} has no default export; end it with \`export default createIntegration({ ... })\`.`,
      );
    }
    const lines = errors.slice(0, 10).map((m) => `  ${describe(m, dir)}`);
    throw new BundleError(
      `could not bundle ${relative(dir, entryPath)}:\n${lines.join('\n') || `  ${String(error)}`}`,
    );
  }
  const outputFiles = result.outputFiles ?? [];
  const js = outputFiles.find((f) => f.path.endsWith('.js'));
  const map = outputFiles.find((f) => f.path.endsWith('.js.map'));
  if (!js) throw new BundleError('esbuild produced no output.');
  const output = Object.entries(result.metafile?.outputs ?? {}).find(([file]) => file.endsWith('.js'))?.[1];
  return {
    code: js.text,
    ...(map ? { map: map.text } : {}),
    bytes: js.contents.byteLength,
    exports: output?.exports ?? [],
    entry: relative(dir, entryPath),
    warnings: result.warnings.map((m) => describe(m, dir)),
  };
}
