// Writes the files generated from the ContentKit element declarations
// (packages/api-client/src/contentkit/elements/, one file per element): docs/contentkit.md, the
// JSON Schema of a render output (docs/schemas/contentkit.schema.json) and the JSX names the JSX
// runtime reads (packages/api-client/src/contentkit/jsx-names.generated.ts). `npm run
// gen:contentkit`; packages/api-client/src/contentkit/generated.test.ts fails when a committed file
// differs from what this writes.
import { importBundled, writeGenerated } from './generated-files.mjs';

const ck = await importBundled('packages/api-client/src/contentkit-schema.ts');
writeGenerated({
  [ck.CONTENTKIT_DOCS_PATH]: ck.contentKitReference(),
  [ck.CONTENTKIT_SCHEMA_PATH]: `${JSON.stringify(ck.contentKitJsonSchema(), null, 2)}\n`,
  [ck.JSX_NAMES_PATH]: ck.jsxNamesSource(),
});
