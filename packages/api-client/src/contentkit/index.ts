// ContentKit types, the icon names and the JSX names (no zod: safe for integration bundles). The
// schema and the validator are in the `@platform/api-client/contentkit-schema` entry, imported by
// the host only.

export { ContentKitIcon } from './icons';
export { CONTENTKIT_JSX, type ContentKitJsxName } from './jsx-names.generated';
export type * from './types';
