import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const madgeCli = createRequire(import.meta.url).resolve('madge/bin/cli.js');

const CONTENTKIT = 'packages/api-client/src/contentkit/';
const REGISTRY = `${CONTENTKIT}registry.ts`;

/**
 * The one cycle allowed, and only as types: ContentKit's grammar is recursive (a container's children
 * are any element, and the union of elements is derived in registry.ts from the element files, which
 * registry.ts imports). Its files name that union with `import type` from registry.ts; every other
 * arrow of the cycle must not run back into registry.ts (docs/architecture.md, "Import cycles").
 */
function isContentKitGrammar(cycle: readonly string[]): boolean {
  if (!cycle.every((file) => file.startsWith(CONTENTKIT))) return false;
  return cycle.every((file, i) => {
    const next = cycle[(i + 1) % cycle.length];
    if (next !== REGISTRY) return true;
    const source = readFileSync(join(root, file), 'utf8');
    const imports = source.match(/^import[^;]*from '\.{1,2}\/registry';$/gm) ?? [];
    return imports.length > 0 && imports.every((line) => line.startsWith('import type '));
  });
}

// No source file may import itself through others (type-only imports included): a cycle ties modules
// into one unit that cannot be read, tested or moved apart. See docs/architecture.md.
it('has no import cycle between source files', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      madgeCli,
      '--circular',
      '--json',
      '--extensions',
      'ts,tsx',
      'packages',
      'integrations',
      'examples',
      'test',
    ],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: unknown) => {
    // madge exits 1 when it finds a cycle; its JSON is still on stdout (the allowed cycle is filtered below).
    const stdout = (error as { stdout?: unknown }).stdout;
    if (typeof stdout === 'string' && stdout.trim().startsWith('[')) return { stdout };
    throw error;
  });
  const cycles = (JSON.parse(stdout) as string[][]).filter((cycle) => !isContentKitGrammar(cycle));
  expect(cycles.map((cycle) => cycle.join(' > '))).toEqual([]);
}, 120_000);
