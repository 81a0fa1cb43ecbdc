// Writes the files generated from the event catalogue (packages/events): the JSON Schema of every
// webhook body, its TypeScript types for @platform/webhooks (scripts/webhook-types.mjs) and docs/events.md. `npm run gen:events`; packages/events/src/generated.test.ts fails
// when the committed files differ from what this writes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { WEBHOOK_TYPES_PATH, webhookTypesSource } from './webhook-types.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'gen-events-'));
try {
  // The catalogue's TypeScript source, bundled (zod included) so this script needs no prior build.
  const out = join(scratch, 'events.mjs');
  await build({
    entryPoints: [join(root, 'packages/events/src/index.ts')],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  const events = await import(pathToFileURL(out).href);
  const files = {
    [events.WEBHOOK_SCHEMA_PATH]: `${JSON.stringify(events.webhookEventsJsonSchema(), null, 2)}\n`,
    [events.EVENTS_PAGE_PATH]: events.renderEventsPage(),
    [WEBHOOK_TYPES_PATH]: await webhookTypesSource(events.webhookEventsJsonSchema()),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    console.log(`wrote ${path}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
