// The `@platform/api-client/document-schema` entry: the zod schema of a space's document (the host
// validates with it; clients import the types and the Markdown conversion from the main entry).

export * from './document/content-source';
export * from './document/schema';
