// Writes the files generated from the ContentKit element declarations
// (packages/api-client/src/contentkit/elements/, one file per element): docs/contentkit.md, the
// JSON Schema of a render output (docs/schemas/contentkit.schema.json) and the JSX names the JSX
// runtime reads (packages/api-client/src/contentkit/jsx-names.generated.ts). `npm run
// gen:contentkit`; packages/api-client/src/contentkit/generated.test.ts fails when a committed file
// differs from what this writes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'gen-contentkit-'));
try {
  // The declarations' TypeScript source, bundled (zod included) so this script needs no prior build.
  const out = join(scratch, 'contentkit.mjs');
  await build({
    entryPoints: [join(root, 'packages/api-client/src/contentkit-schema.ts')],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  const ck = await import(pathToFileURL(out).href);
  const files = {
    [ck.CONTENTKIT_DOCS_PATH]: ck.contentKitReference(),
    [ck.CONTENTKIT_SCHEMA_PATH]: `${JSON.stringify(ck.contentKitJsonSchema(), null, 2)}\n`,
    [ck.JSX_NAMES_PATH]: ck.jsxNamesSource(),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    console.log(`wrote ${path}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
