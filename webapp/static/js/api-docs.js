/* Starts Swagger UI on the API docs page (api/docs.py) over the OpenAPI document its container names: a static file,
   as the Content-Security-Policy runs no inline script. Deferred, after swagger-ui-bundle.js. */
(function () {
  "use strict";
  const container = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({url: container.dataset.specUrl, domNode: container});
})();
