/* The accessibility bar (templates/includes/a11y_bar.html): high contrast, remembered on this device.
   Loaded in <head> without defer so the choice applies before the page is painted (no flash). Plain JS,
   no dependencies (CSP: scripts from 'self' only, no inline script or style). */
(function () {
  "use strict";
  var KEY = "cotas-alto-contraste";
  var root = document.documentElement;

  function stored() {
    try {
      return window.localStorage.getItem(KEY) === "1";
    } catch (error) {
      return false; // storage blocked: the toggle still works for this page
    }
  }

  function apply(on) {
    root.classList.toggle("high-contrast", on);
    document.querySelectorAll("[data-contrast-toggle]").forEach(function (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    apply(root.classList.contains("high-contrast"));
    document.querySelectorAll("[data-contrast-toggle]").forEach(function (button) {
      button.addEventListener("click", function () {
        var on = !root.classList.contains("high-contrast");
        apply(on);
        try {
          window.localStorage.setItem(KEY, on ? "1" : "0");
        } catch (error) {
          /* storage blocked: nothing to remember */
        }
      });
    });
    // A skip link moves the keyboard focus to its target, not only the scroll position.
    function skipTo(link) {
      var target = document.getElementById(link.getAttribute("href").slice(1));
      if (target) {
        target.focus();
        target.scrollIntoView({ block: "start" });
      }
      return Boolean(target);
    }
    document.querySelectorAll(".a11y-bar__skip a[href^='#']").forEach(function (link) {
      link.addEventListener("click", function (event) {
        if (skipTo(link)) {
          event.preventDefault();
        }
      });
    });
    // e-MAG's access keys as Alt+1, Alt+2, Alt+3 in every browser (each browser has its own modifier for
    // accesskey, and some let the key only focus the link): the same jump as the skip link.
    document.addEventListener("keydown", function (event) {
      if (!event.altKey || event.ctrlKey || event.metaKey) {
        return;
      }
      var digit = /^Digit([1-3])$/.exec(event.code || "");
      var key = digit ? digit[1] : event.key;
      var link = key && document.querySelector(".a11y-bar__skip a[accesskey='" + key + "']");
      if (link && skipTo(link)) {
        event.preventDefault();
      }
    });
  });
})();
