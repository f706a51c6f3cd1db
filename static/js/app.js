/* Small progressive enhancements for every page. Plain JS, no dependencies (CSP: scripts from 'self'). */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    // A form returned with errors: move focus to the summary so screen readers announce it.
    var summary = document.querySelector("[data-focus-on-load]");
    if (summary) {
      summary.focus();
    }

    // Links in the error summary focus the field, not just scroll to it.
    document.querySelectorAll(".error-summary a[href^='#']").forEach(function (link) {
      link.addEventListener("click", function (event) {
        var target = document.getElementById(link.getAttribute("href").slice(1));
        if (target) {
          event.preventDefault();
          target.focus();
          target.scrollIntoView({ block: "center" });
        }
      });
    });

    // Dates typed as dd/mm/aaaa: add the slashes while typing digits.
    document.querySelectorAll("input.input-date").forEach(function (input) {
      input.addEventListener("input", function (event) {
        if (event.inputType && event.inputType.indexOf("delete") === 0) {
          return;
        }
        var digits = input.value.replace(/\D/g, "").slice(0, 8);
        if (!/^[\d/]*$/.test(input.value)) {
          return; // leave anything else (an ISO date pasted in) alone
        }
        var out = digits.slice(0, 2);
        if (digits.length > 2) out += "/" + digits.slice(2, 4);
        if (digits.length > 4) out += "/" + digits.slice(4, 8);
        if (digits.length === 2 || digits.length === 4) out += "/";
        input.value = out;
      });
    });

    // Buttons that ask for confirmation: <button data-confirm="Texto">.
    document.querySelectorAll("[data-confirm]").forEach(function (button) {
      button.addEventListener("click", function (event) {
        if (!window.confirm(button.getAttribute("data-confirm"))) {
          event.preventDefault();
        }
      });
    });
  });
})();
