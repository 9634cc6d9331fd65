// Prolific search: filters search.json in the browser. Results are built with textContent, never
// innerHTML, so nothing a player wrote can become markup.
(function () {
  "use strict";
  var script = document.currentScript;
  var root = script.getAttribute("data-root") || "";
  var indexURL = script.getAttribute("data-index");
  var input = document.getElementById("q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var entries = null;

  function fold(text) {
    return (text || "").toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function matches(entry, terms) {
    var hay = fold([entry.title, entry.tags.join(" "), entry.authors.join(" "), entry.text].join(" "));
    return terms.every(function (t) { return hay.indexOf(t) !== -1; });
  }

  function score(entry, terms) {
    var title = fold(entry.title);
    return terms.reduce(function (s, t) { return s + (title.indexOf(t) !== -1 ? 2 : 0); }, 0);
  }

  function render(query) {
    list.textContent = "";
    var terms = fold(query).split(/\s+/).filter(Boolean);
    if (!terms.length) { status.textContent = ""; return; }
    var found = entries.filter(function (e) { return matches(e, terms); });
    found.sort(function (a, b) { return score(b, terms) - score(a, terms); });
    status.textContent = found.length === 1 ? "1 result" : found.length + " results";
    found.slice(0, 100).forEach(function (e) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + e.url;
      a.textContent = e.title;
      var meta = document.createElement("p");
      meta.className = "meta";
      meta.textContent = [e.kind].concat(e.authors.length ? ["by " + e.authors.join(", ")] : []).concat(e.tags).join(" · ");
      var text = document.createElement("p");
      text.textContent = e.text.length > 200 ? e.text.slice(0, 200) + "…" : e.text;
      li.appendChild(a); li.appendChild(meta); li.appendChild(text);
      list.appendChild(li);
    });
  }

  var query = new URLSearchParams(window.location.search).get("q") || "";
  input.value = query;
  status.textContent = "Loading the index…";
  fetch(indexURL).then(function (r) { return r.json(); }).then(function (data) {
    entries = data;
    status.textContent = "";
    render(input.value);
    input.addEventListener("input", function () { render(input.value); });
  }).catch(function () {
    status.textContent = "The search index could not be loaded (search works when the site is served over HTTP). Browse the stories and players lists instead.";
  });
})();
