import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const madgeCli = createRequire(import.meta.url).resolve('madge/bin/cli.js');

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
  );
  const cycles = JSON.parse(stdout) as string[][];
  expect(cycles.map((cycle) => cycle.join(' > '))).toEqual([]);
}, 120_000);
