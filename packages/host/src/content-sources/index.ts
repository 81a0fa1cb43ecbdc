export { composeDocument, type FlatPage, flattenPages } from './compose.js';
export { type ContentSourceSync, syncContentSource } from './service.js';
