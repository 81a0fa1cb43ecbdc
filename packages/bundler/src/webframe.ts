import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, type Message, type Plugin } from 'esbuild';
import type { BundleMode } from './options.js';

/** Where the webframe's browser entry may be, in the order looked at (packages/bundler/README.md "Webframe"). */
export const WEBFRAME_ENTRIES = [
  'webframe/src/webframe.ts',
  'webframe/src/webframe.tsx',
  'webframe/src/index.ts',
  'webframe/src/index.tsx',
  'webframe/src/webframe.js',
  'webframe/src/index.js',
];

/** Where its HTML page may be, in the order looked at. */
export const WEBFRAME_PAGES = [
  'webframe/public/webframe.html',
  'webframe/public/index.html',
  'webframe/index.html',
];

/** The comment of the page the built script replaces (else it goes before `</body>`). */
export const WEBFRAME_MARKER = '<!-- WEBFRAME_INTEGRATION_CODE -->';

/** Files a `./webframe` import would find on disk: when one exists, it wins over the built entry. */
const ON_DISK = ['.ts', '.tsx', '.js', '.mjs', '.jsx', '/index.ts', '/index.tsx', '/index.js'];

const NAMESPACE = 'platform-webframe';

/**
 * The page with the script in it: in place of {@link WEBFRAME_MARKER}, else before `</body>`, else
 * at the end; a minimal page when there is no template. `</script` inside the code is escaped.
 *
 * @example
 * ```ts
 * webframePage('<body><!-- WEBFRAME_INTEGRATION_CODE --></body>', 'go()'); // '<body><script>go()</script></body>'
 * ```
 */
export function webframePage(template: string | undefined, code: string): string {
  const script = `<script>${code.replace(/<\/script/gi, '<\\/script')}</script>`;
  const page =
    template ?? '<!doctype html>\n<html>\n<head><meta charset="utf-8"></head>\n<body>\n</body>\n</html>\n';
  if (page.includes(WEBFRAME_MARKER)) return page.replace(WEBFRAME_MARKER, () => script);
  const body = page.toLowerCase().lastIndexOf('</body>');
  return body >= 0 ? `${page.slice(0, body)}${script}\n${page.slice(body)}` : `${page}${script}\n`;
}

/**
 * A webframe built as a second entry (packages/bundler/README.md "Webframe"): when the integration
 * folder has a browser entry under `webframe/` ({@link WEBFRAME_ENTRIES}), an import of
 * `./webframe` that no file on disk answers gets a module of the built page:
 * `webFrameHTML` (the page, {@link WEBFRAME_PAGES}, with the bundled script inlined) and
 * `webFrameScript` (the script alone). The script is bundled for browsers, as one classic script.
 * `undefined` when the folder has no webframe entry.
 *
 * @example
 * ```ts
 * // src/index.ts: import { webFrameHTML } from './webframe';
 * await build({ ...options, plugins: [webframePlugin(dir, 'publish')].filter(Boolean) });
 * ```
 */
export function webframePlugin(dir: string, mode: BundleMode): Plugin | undefined {
  const entry = WEBFRAME_ENTRIES.find((f) => existsSync(join(dir, f)));
  if (!entry) return undefined;
  return {
    name: 'platform-webframe',
    setup(setup) {
      setup.onResolve({ filter: /^\.\.?\/(.*\/)?webframe$/ }, (args) => {
        const target = join(args.resolveDir, args.path);
        if (ON_DISK.some((suffix) => existsSync(`${target}${suffix}`))) return undefined;
        return { path: 'webframe', namespace: NAMESPACE };
      });
      setup.onLoad({ filter: /.*/, namespace: NAMESPACE }, async () => {
        const page = WEBFRAME_PAGES.find((f) => existsSync(join(dir, f)));
        const watchFiles = [join(dir, entry), ...(page ? [join(dir, page)] : [])];
        let code: string;
        try {
          const result = await build({
            absWorkingDir: dir,
            entryPoints: [join(dir, entry)],
            bundle: true,
            write: false,
            platform: 'browser',
            format: 'iife',
            target: 'es2020',
            minify: mode === 'publish',
            logLevel: 'silent',
          });
          code = result.outputFiles[0]?.text ?? '';
        } catch (error) {
          const errors = (error as { errors?: Message[] }).errors ?? [];
          return {
            errors: errors.length
              ? errors.map((m) => ({
                  text: `the webframe (${entry}) could not be bundled: ${m.location ? `${relative(dir, join(dir, m.location.file))}:${m.location.line}:${m.location.column + 1}: ` : ''}${m.text}`,
                }))
              : [{ text: `the webframe (${entry}) could not be bundled: ${String(error)}` }],
            watchFiles,
          };
        }
        const html = webframePage(page ? readFileSync(join(dir, page), 'utf8') : undefined, code);
        return {
          contents: `export const webFrameHTML = ${JSON.stringify(html)};\nexport const webFrameScript = ${JSON.stringify(code)};\nexport default webFrameHTML;\n`,
          loader: 'js',
          resolveDir: dirname(join(dir, entry)),
          watchFiles,
        };
      });
    },
  };
}
