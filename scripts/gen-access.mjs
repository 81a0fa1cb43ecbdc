// Writes the table of who may call each route into docs/security.md, from the host's access rules
// (packages/host/src/access/rules.ts). `npm run gen:access`; packages/host/src/access/table.test.ts fails
// when the committed table differs from what this writes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'gen-access-'));
try {
  const out = join(scratch, 'table.mjs');
  await build({
    entryPoints: [join(root, 'packages/host/src/access/table.ts')],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  const { withAccessTable } = await import(pathToFileURL(out).href);
  const path = join(root, 'docs/security.md');
  writeFileSync(path, withAccessTable(readFileSync(path, 'utf8')));
  console.log('wrote docs/security.md (access table)');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
