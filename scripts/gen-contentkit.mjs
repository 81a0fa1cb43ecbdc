// Writes the files generated from the ContentKit element declarations
// (packages/api-client/src/contentkit/elements/, one file per element): the list of element files
// (elements/index.ts), docs/contentkit.md, the JSON Schema of a render output
// (docs/schemas/contentkit.schema.json) and the JSX names the JSX runtime reads
// (packages/api-client/src/contentkit/jsx-names.generated.ts). `npm run gen:contentkit`;
// packages/api-client/src/contentkit/generated.test.ts fails when a committed file differs from what
// this writes.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importBundled, importBundledSource, root, writeGenerated } from './generated-files.mjs';

// First the list of element files, from the folder itself (a new file is not in the old list yet).
const ELEMENTS_DIR = 'packages/api-client/src/contentkit/elements';
const files = readdirSync(join(root, ELEMENTS_DIR))
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.includes('.test.'))
  .map((f) => f.slice(0, -'.ts'.length));
const modules = await importBundledSource(
  files.map((f, i) => `export * as m${i} from './${f}';`).join('\n'),
  ELEMENTS_DIR,
);
// A file without an `element` export is a helper that element files share (e.g. stack.ts).
const elements = files.flatMap((file, i) => {
  const declared = modules[`m${i}`].element;
  if (!declared) return [];
  const { type, place, group } = declared;
  if (type !== file)
    throw new Error(`${ELEMENTS_DIR}/${file}.ts declares type "${type}": name the file ${type}.ts`);
  return [{ type, place, group }];
});
const list = await importBundled('packages/api-client/src/contentkit/elements-index.ts');
writeGenerated({ [list.ELEMENTS_INDEX_PATH]: list.elementsIndexSource(elements) });

// Then everything derived from the declarations, through the new list.
const ck = await importBundled('packages/api-client/src/contentkit-schema.ts');
writeGenerated({
  [ck.CONTENTKIT_DOCS_PATH]: ck.contentKitReference(),
  [ck.CONTENTKIT_SCHEMA_PATH]: `${JSON.stringify(ck.contentKitJsonSchema(), null, 2)}\n`,
  [ck.JSX_NAMES_PATH]: ck.jsxNamesSource(),
});
