export { RENDER_CACHE_ENTRIES, RenderCache } from './cache.js';
export { checkRenderAnswer } from './output.js';
