export { composeDocument, type FlatPage, flattenPages } from './compose.js';
export { contentSourceRoutes } from './routes.js';
export { type ContentSourceSync, syncContentSource } from './service.js';
