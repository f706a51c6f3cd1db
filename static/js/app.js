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
        var raw = input.value;
        var digits = raw.replace(/\D/g, "");
        // Leave alone anything else (an ISO date pasted in, an edit in the middle, too many digits):
        // the server checks the date and says what is wrong.
        if (!/^[\d/]*$/.test(raw) || digits.length > 8 || input.selectionStart !== raw.length) {
          return;
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
