// ContentKit types and the icon names (no zod: safe for integration bundles). The schema and
// the validator are in the `@platform/api-client/contentkit-schema` entry, imported by the host only.

export { ContentKitIcon } from './icons';
export type * from './types';
