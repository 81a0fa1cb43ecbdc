// The `@platform/api-client/contentkit-schema` entry: the ContentKit zod schema and the render
// output validator (the host's; integrations import types only, from the main entry), and the
// generators of the files derived from the element declarations (`npm run gen:contentkit`).

export { CONTENTKIT_DOCS_PATH, contentKitReference } from './contentkit/docs';
export { CONTENTKIT_SCHEMA_PATH, contentKitJsonSchema } from './contentkit/json-schema';
export { JSX_NAMES_PATH, jsxNamesSource } from './contentkit/jsx-names';
export * from './contentkit/schema';
export type { ContentKitProblem } from './contentkit/validate';
export { formatPath, validateRenderOutput } from './contentkit/validate';
