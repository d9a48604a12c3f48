// Replaces the webjar's own initializer (which shows a sample API): Swagger UI shows this service's contract.
window.onload = function () {
  window.ui = SwaggerUIBundle({
    configUrl: "/v3/api-docs/swagger-config",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout"
  });
};
