// Writes docs/contentkit.md from the ContentKit schema (packages/api-client/src/contentkit/schema.ts).
// Run after `npm run build` (it reads the built @platform/api-client/contentkit-schema entry).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { contentKitReference } = await import(join(root, 'packages/api-client/dist/contentkit-schema.js'));
writeFileSync(join(root, 'docs/contentkit.md'), contentKitReference());
console.log('wrote docs/contentkit.md');
