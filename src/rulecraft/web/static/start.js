// The start form: the seat count may depend on the options, so choosing one asks for the form again
// with the choices so far (no inline script: the page's content security policy allows none).
"use strict";
(function () {
  const form = document.getElementById("start");
  if (!form) return;
  function refresh() {
    const params = new URLSearchParams(new FormData(form));
    for (const [k, v] of [...params]) if (v === "") params.delete(k);
    location.href = "/start?" + params.toString();
  }
  for (const field of form.querySelectorAll("[data-refresh]")) field.addEventListener("change", refresh);
})();
