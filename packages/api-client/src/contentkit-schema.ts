// The `@platform/api-client/contentkit-schema` entry: the ContentKit zod schema and the render
// output validator (the host's; integrations import types only, from the main entry).

export { contentKitReference } from './contentkit/docs';
export * from './contentkit/schema';
export type { ContentKitProblem } from './contentkit/validate';
export { formatPath, validateRenderOutput } from './contentkit/validate';
