import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { buildIntegration } from '../build/build-integration.js';
import type { CommandContext } from '../context.js';
import { formatBytes, withProgress } from '../progress.js';
import { printJson } from './shared.js';

/**
 * Registers `platform build [dir]`: bundles the integration into `dist/index.js` (minified; `--dev`
 * keeps it readable with a source map) and reports its size.
 *
 * @example
 * ```ts
 * registerBuild(program, context); // platform build my-integration
 * ```
 */
export function registerBuild(program: Command, context: CommandContext): void {
  const { io } = context;
  program
    .command('build')
    .description('bundle the integration (ESM for workerd) into dist/index.js and report its size')
    .argument('[dir]', 'integration folder', '.')
    .option('--dev', 'readable output with a source map (dist/index.js.map) instead of minified')
    .option('--out <file>', 'output file, relative to the integration folder', 'dist/index.js')
    .option('--json', 'print {"file", "bytes", "entry", "exports"} as JSON')
    .addHelpText(
      'after',
      `
Fails (exit 1) when the script does not bundle, has named exports besides the default export
(workerd refuses them), does not default-export createIntegration(...), or a manifest
blocks[].id has no matching component.

Examples:
  $ platform build
  $ platform build my-integration --dev
  $ platform build --json`,
    )
    .action(async (dir: string, options: { dev?: boolean; out: string; json?: boolean }) => {
      const folder = resolve(io.cwd, dir);
      const built = await withProgress(io, 'Bundling', () =>
        buildIntegration(folder, { mode: options.dev ? 'dev' : 'publish' }),
      );
      const file = resolve(folder, options.out);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, built.bundle.code);
      if (built.bundle.map) writeFileSync(`${file}.map`, built.bundle.map);
      const shown = relative(io.cwd, file) || file;
      if (options.json) {
        printJson(context, {
          file: shown,
          bytes: built.bundle.bytes,
          entry: built.bundle.entry,
          exports: built.bundle.exports,
        });
        return;
      }
      for (const warning of built.bundle.warnings) io.stderr(`warning: ${warning}\n`);
      io.stdout(
        `Built ${built.manifest.name} from ${built.bundle.entry} → ${shown} (${formatBytes(built.bundle.bytes)})\n`,
      );
    });
}
