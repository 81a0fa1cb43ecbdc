// The API reference page: Swagger UI (served from the host, no CDN) over the host's /openapi.json.
// "Authorize" takes the operator token for "Try it out"; it is kept in this page only.
window.addEventListener('load', () => {
  window.ui = window.SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
  });
});
