/* Live preview of a phase's cut-off split between the lists while K (and any K per list) is typed.
 *
 * The rule is never computed here: each change asks the server (candidates:phase_cut_preview, which calls
 * the engine's split) and shows its answer, as static/js/reservation-preview.js does for the reserve.
 * Markup: templates/candidates/phase_form.html (inputs marked data-cut="cutoff|cutoff_open|…").
 */
(function () {
  "use strict";

  var PARAMS = { cutoff: "k", cutoff_open: "open", cutoff_racial: "racial", cutoff_pcd: "pcd" };

  function setup(panel) {
    var form = panel.closest(".with-aside") || document;
    var inputs = Array.prototype.slice.call(form.querySelectorAll("[data-cut]"));
    var summary = panel.querySelector("[data-preview='summary']");
    var list = panel.querySelector("[data-preview='rows']");
    var timer = null;
    var controller = null;
    var lastAsked = null;

    function clearRows() {
      while (list.firstChild) {
        list.removeChild(list.firstChild);
      }
    }

    function show(data) {
      clearRows();
      data.rows.forEach(function (row) {
        var item = document.createElement("li");
        var strong = document.createElement("strong");
        strong.textContent = row.label + ": " + row.count;
        item.appendChild(strong);
        item.appendChild(document.createTextNode(" – " + row.why));
        list.appendChild(item);
      });
      summary.textContent = data.summary;
      panel.classList.remove("preview--error");
    }

    function showMessage(message, isError) {
      clearRows();
      summary.textContent = message;
      panel.classList.toggle("preview--error", isError);
    }

    function ask() {
      var url = new URL(panel.getAttribute("data-url"), window.location.href);
      var k = "";
      inputs.forEach(function (input) {
        var value = input.value.trim();
        var name = PARAMS[input.getAttribute("data-cut")];
        if (name === "k") {
          k = value;
        }
        if (value !== "") {
          url.searchParams.set(name, value);
        }
      });
      if (k === "") {
        lastAsked = null;
        showMessage("Sem K, a fase não tem corte: passam todos os que alcançam a nota mínima.", false);
        return;
      }
      var asked = url.searchParams.toString();
      if (asked === lastAsked) {
        return;
      }
      lastAsked = asked;
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
            showMessage(result.data.error || "Não foi possível calcular a divisão.", true);
          }
        })
        .catch(function (error) {
          if (error.name !== "AbortError") {
            showMessage("Não foi possível calcular a divisão agora. Os valores serão conferidos ao salvar.", true);
            lastAsked = null;
          }
        })
        .finally(function () {
          panel.removeAttribute("aria-busy");
        });
    }

    inputs.forEach(function (input) {
      input.addEventListener("input", function () {
        window.clearTimeout(timer);
        timer = window.setTimeout(ask, 250);
      });
    });
    ask();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-cut-preview]").forEach(setup);
  });
})();
