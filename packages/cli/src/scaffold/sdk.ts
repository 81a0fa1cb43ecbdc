import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SdkSpecs } from './templates.js';

function packageDir(name: string, cliRoot: string): string | undefined {
  const folder = {
    '@platform/runtime': 'runtime',
    '@platform/api-client': 'api-client',
    '@platform/cli': 'cli',
  }[name];
  if (!folder) return undefined;
  const dir = join(cliRoot, '..', folder);
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
    return pkg.name === name ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** The CLI package's own folder: the nearest parent with the `@platform/cli` package.json. */
export function cliRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === '@platform/cli') return dir;
    } catch {
      // no package.json here
    }
    const parent = dirname(dir);
    if (parent === dir) return dirname(dirname(fileURLToPath(import.meta.url)));
    dir = parent;
  }
}

/**
 * How a new integration in `target` depends on the SDK. The SDK is not on the npm registry: when
 * this CLI runs from the monorepo, `file:` paths (relative to `target`) to its packages/runtime,
 * packages/api-client and packages/cli, so `npm install` links them without downloading them;
 * otherwise the CLI's own version, for a registry that has them.
 *
 * @example
 * ```ts
 * sdkSpecs('/home/ada/my-integration'); // { runtime: 'file:../../work/main/packages/runtime', ... }
 * ```
 */
export function sdkSpecs(target: string, root = cliRoot()): SdkSpecs {
  const version = (() => {
    try {
      return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return '0.1.0';
    }
  })();
  const spec = (name: string) => {
    const dir = packageDir(name, root);
    if (!dir || !existsSync(dir)) return version;
    const rel = relative(target, dir).split('\\').join('/');
    return `file:${rel.startsWith('.') ? rel : `./${rel}`}`;
  };
  return {
    runtime: spec('@platform/runtime'),
    apiClient: spec('@platform/api-client'),
    cli: spec('@platform/cli'),
  };
}
