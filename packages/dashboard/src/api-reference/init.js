// The API reference page: Swagger UI (served from the host, no CDN) over the host's /openapi.json.
// "Authorize" takes the operator token for "Try it out"; it is kept in this page only.
// Started as soon as the bundle has run (this script comes after it), not at the window's `load`, which
// waits for every stylesheet and image first; /openapi.json is already on its way (preloaded).
window.ui = window.SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
});
