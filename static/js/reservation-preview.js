/* Live preview of the reserved vacancies while a vacancy count is typed.
 *
 * The rule is never computed here: each change asks the server's quota engine (a JSON endpoint) and
 * shows its answer. Markup: templates/includes/reservation_preview.html.
 */
(function () {
  "use strict";

  var FIELDS = ["vacancies", "open", "racial", "pcd", "carried_fraction_display", "racial_explanation", "pcd_explanation"];

  function setup(panel) {
    var input = document.getElementById(panel.getAttribute("data-input"));
    if (!input) {
      return;
    }
    var summary = panel.querySelector("[data-preview='summary']");
    var timer = null;
    var controller = null;
    var lastAsked = null;

    function show(data) {
      FIELDS.forEach(function (name) {
        var slot = panel.querySelector("[data-preview='" + name + "']");
        if (slot) {
          slot.textContent = data[name] === undefined || data[name] === "" ? "—" : String(data[name]);
        }
      });
      summary.textContent = data.summary;
      panel.classList.remove("preview--error");
    }

    function showError(message) {
      FIELDS.forEach(function (name) {
        var slot = panel.querySelector("[data-preview='" + name + "']");
        if (slot) {
          slot.textContent = "—";
        }
      });
      summary.textContent = message;
      panel.classList.add("preview--error");
    }

    function ask() {
      var value = input.value.trim();
      if (value === "") {
        summary.textContent = "Digite o número de vagas para ver a reserva.";
        panel.classList.remove("preview--error");
        return;
      }
      if (value === lastAsked) {
        return;
      }
      lastAsked = value;
      var url = new URL(panel.getAttribute("data-url"), window.location.href);
      url.searchParams.set("vagas", value);
      if (controller) {
        controller.abort();
      }
      controller = new AbortController();
      panel.setAttribute("aria-busy", "true");
      fetch(url.toString(), {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: controller.signal,
      })
        .then(function (response) {
          return response.json().then(function (data) {
            return { ok: response.ok, data: data };
          });
        })
        .then(function (result) {
          if (result.ok) {
            show(result.data);
          } else {
            showError(result.data.error || "Não foi possível calcular a reserva.");
          }
        })
        .catch(function (error) {
          if (error.name !== "AbortError") {
            showError("Não foi possível calcular a reserva agora. O valor será conferido ao salvar.");
            lastAsked = null;
          }
        })
        .finally(function () {
          panel.removeAttribute("aria-busy");
        });
    }

    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, 250);
    });
    ask();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-reservation-preview]").forEach(setup);
  });
})();
