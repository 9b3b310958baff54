/* The audit report's behaviour: draws the questions from the page's JSON block, filters
   them, moves between them from the keyboard, and expands them all for print.
   Every text from the answers goes into the page with textContent, never as HTML.
   A long run is drawn in chunks: the first screen at once, the rest between frames. */
(function () {
  "use strict";

  var FIRST = 40; // questions drawn before the page is shown
  var CHUNK = 250; // questions drawn per slice afterwards

  var rows = JSON.parse(document.getElementById("data").textContent);
  var list = document.getElementById("questions");
  var empty = document.getElementById("empty");
  var shown = document.getElementById("shown");
  var outcome = document.getElementById("outcome");
  var documentPick = document.getElementById("document");
  var search = document.getElementById("search");
  var flagged = document.getElementById("flagged");

  var built = new Array(rows.length); // a question's element, built the first time shown
  var haystacks = null; // lower-cased searchable text per row, built at the first search
  var visible = []; // indexes of the rows the filters let through, in file order
  var drawn = 0; // how many of them are in the page
  var generation = 0; // bumped by each new filter, so an old slice stops drawing
  var current = -1; // position in visible of the selected question

  // -- building one question --

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function labelled(className, label, text) {
    var node = el("p", className);
    node.appendChild(el("span", "label", label));
    node.appendChild(document.createTextNode(text));
    return node;
  }

  // The cited text with the spans Python marked (UTF-16 offsets, sorted, disjoint).
  function marked(text, spans) {
    var out = document.createDocumentFragment();
    var at = 0;
    (spans || []).forEach(function (span) {
      var start = span[0], end = span[1];
      if (start < at || end > text.length || start >= end) return;
      out.appendChild(document.createTextNode(text.slice(at, start)));
      out.appendChild(el("mark", "", text.slice(start, end)));
      at = end;
    });
    out.appendChild(document.createTextNode(text.slice(at)));
    return out;
  }

  function citation(cited) {
    var item = el("li", "citation" + (cited.flag ? " flagged" : ""));
    var where = el("div", "where");
    where.appendChild(el("span", "doc", cited.document));
    where.appendChild(document.createTextNode(" #" + cited.position));
    var extra = [cited.kind, cited.trust !== undefined ? "trust " + cited.trust : null,
      cited.speaker ? "said by " + cited.speaker : null, cited.date];
    where.appendChild(document.createTextNode(
      extra.filter(Boolean).map(function (x) { return " · " + x; }).join("")));
    item.appendChild(where);
    var quote = el("blockquote", "cited");
    quote.appendChild(marked(cited.text, cited.marks));
    item.appendChild(quote);
    if (cited.flag) {
      item.appendChild(el("p", "flag-text", "Not in the store as cited: " + cited.flag + "."));
      if (cited.stored !== undefined) {
        item.appendChild(el("div", "section-title", "The store holds"));
        item.appendChild(el("blockquote", "stored", cited.stored));
      }
    }
    return item;
  }

  function plan(tried) {
    var box = el("div", "plan" + (tried.answered ? "" : " dead"));
    var title = el("div", "section-title", tried.answered ? "Computed" : "Plan tried");
    if (tried.note) title.appendChild(el("span", "note", tried.note));
    box.appendChild(title);
    var steps = el("ol");
    tried.steps.forEach(function (step) {
      var li = el("li");
      li.appendChild(el("span", "call", step.call));
      if (step.result) li.appendChild(document.createTextNode(" → " + step.result));
      if (step.inputs.length || step.dropped.length) {
        var inputs = el("ul", "inputs");
        step.inputs.forEach(function (x) { inputs.appendChild(el("li", "", "read " + x)); });
        step.dropped.forEach(function (x) { inputs.appendChild(el("li", "warn", "dropped " + x)); });
        li.appendChild(inputs);
      }
      steps.appendChild(li);
    });
    box.appendChild(steps);
    if (tried.said) {
      box.appendChild(el("p", "meta", "Said: " + tried.said + (tried.rounding ? " (rounding " + tried.rounding + ")" : "")));
    }
    if (tried.death) box.appendChild(el("p", "death", "Died at " + tried.death));
    return box;
  }

  function listOf(className, entries, line) {
    var ul = el("ul", className);
    entries.forEach(function (entry) { ul.appendChild(line(entry)); });
    return ul;
  }

  function gateLine(decision, verb) {
    var li = el("li");
    li.appendChild(el("span", "gate", decision.gate));
    var who = decision.candidates.length === 1 ? "candidate " : decision.candidates.length + " candidates ";
    var reason = decision.reason ? " (" + decision.reason + ")" : "";
    li.appendChild(document.createTextNode(
      " " + verb + " " + who + decision.candidates.join(", ") + reason + ": " + decision.detail));
    return li;
  }

  function build(index) {
    var row = rows[index];
    var kind = row.outcome === "input error" ? "error" : row.refused ? "refused" : "answered";
    var item = el("article", "item " + kind);
    item.tabIndex = -1;
    item.dataset.index = String(index);
    item.dataset.outcome = row.outcome;
    var head = el("header");
    if (row.id != null) head.appendChild(el("span", "qid", row.id));
    head.appendChild(el("span", "line", "line " + row.line));
    head.appendChild(el("span", "badge", row.outcome));
    var citations = row.citations || [];
    var changed = citations.filter(function (c) { return c.flag; }).length;
    if (changed) head.appendChild(el("span", "badge flag", changed + " not in the store as cited"));
    item.appendChild(head);

    if (kind === "error") {
      item.appendChild(labelled("message", "Input error on line " + row.line, row.error));
      return item;
    }
    item.appendChild(el("p", "question", row.question));
    if (row.refused) {
      item.appendChild(labelled("refusal", "Refused (" + row.outcome + ")", row.text));
    } else {
      item.appendChild(labelled("answer", "Answer", row.text));
    }
    var meta = [row.value !== undefined ? "value " + row.value : null,
      row.asked_at ? "asked " + row.asked_at : null, row.speaker ? "by " + row.speaker : null,
      row.engine ? "engine " + row.engine : null];
    meta = meta.filter(Boolean);
    if (meta.length) item.appendChild(el("p", "meta", meta.join(" · ")));
    if (row.pages) {
      var pages = el("p", "meta", "Pages: ");
      row.pages.forEach(function (page, i) {
        var link = el("a", "", page[0]);
        link.href = "#" + page[1];
        if (i) pages.appendChild(document.createTextNode(", "));
        pages.appendChild(link);
      });
      item.appendChild(pages);
    }
    if (citations.length) {
      item.appendChild(listOf("citations", citations, citation));
    }
    (row.plans || []).forEach(function (tried) { item.appendChild(plan(tried)); });
    if (row.vetoed) {
      item.appendChild(el("div", "section-title", "Candidates vetoed by the gate"));
      item.appendChild(listOf("gates", row.vetoed, function (d) { return gateLine(d, "vetoed"); }));
    }
    if (row.notes) {
      item.appendChild(el("div", "section-title", "Withheld or contested"));
      item.appendChild(listOf("notes", row.notes, function (n) { return el("li", "", n); }));
    }
    if (row.passed || row.census || row.chosen) {
      var toggle = el("button", "toggle", "Gate passes and census");
      toggle.type = "button";
      toggle.setAttribute("aria-expanded", "false");
      item.appendChild(toggle);
    }
    return item;
  }

  // What a reviewer rarely needs is built only when opened (or printed).
  function more(item) {
    if (item.querySelector(".more")) return;
    var row = rows[Number(item.dataset.index)];
    var box = el("div", "more");
    if (row.chosen) box.appendChild(labelled("meta", "Chosen", row.chosen));
    if (row.passed) {
      box.appendChild(el("div", "section-title", "Passed the gate"));
      box.appendChild(listOf("passes", row.passed, function (d) { return gateLine(d, "passed"); }));
    }
    if (row.census) box.appendChild(labelled("meta", "Census", row.census));
    item.appendChild(box);
  }

  function toggle(item, open) {
    var button = item.querySelector(".toggle");
    if (!button) return;
    more(item);
    var now = open === undefined ? !item.classList.contains("open") : open;
    item.classList.toggle("open", now);
    button.setAttribute("aria-expanded", String(now));
  }

  function element(index) {
    if (!built[index]) built[index] = build(index);
    return built[index];
  }

  // -- filtering and drawing --

  function haystack(row) {
    var parts = [row.id, row.question, row.text, row.value, row.error];
    (row.citations || []).forEach(function (c) { parts.push(c.document, c.text); });
    return parts.filter(function (x) { return x !== undefined && x !== null; }).join("\n").toLowerCase();
  }

  function passes(row, index, wanted, documentName, words, onlyFlagged) {
    if (wanted === "*refused" ? !row.refused : wanted && row.outcome !== wanted) return false;
    var citations = row.citations || [];
    if (documentName && !citations.some(function (c) { return c.document === documentName; })) return false;
    if (onlyFlagged && !citations.some(function (c) { return c.flag; })) return false;
    if (words.length) {
      if (!haystacks) haystacks = rows.map(haystack);
      var text = haystacks[index];
      for (var i = 0; i < words.length; i++) if (text.indexOf(words[i]) < 0) return false;
    }
    return true;
  }

  function apply() {
    var wanted = outcome.value, documentName = documentPick.value, onlyFlagged = flagged.checked;
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (current >= 0) element(visible[current]).classList.remove("current");
    visible = [];
    for (var i = 0; i < rows.length; i++) {
      if (passes(rows[i], i, wanted, documentName, words, onlyFlagged)) visible.push(i);
    }
    generation += 1;
    current = -1;
    drawn = 0;
    list.replaceChildren();
    shown.textContent = visible.length + " of " + rows.length + " shown";
    shown.dataset.shown = String(visible.length);
    empty.hidden = visible.length > 0 || rows.length === 0; // none at all: claims alone
    drawTo(FIRST);
    later(generation);
  }

  function drawTo(count) {
    var end = Math.min(count, visible.length);
    if (end <= drawn) return;
    var slice = document.createDocumentFragment();
    for (; drawn < end; drawn++) slice.appendChild(element(visible[drawn]));
    list.appendChild(slice);
  }

  function later(mine) {
    setTimeout(function () {
      if (mine !== generation) return;
      drawTo(drawn + CHUNK);
      if (drawn < visible.length) later(mine);
      else if (!document.documentElement.dataset.drawnAllMs) {
        document.documentElement.dataset.drawnAllMs = String(Math.round(performance.now()));
      }
    }, 0);
  }

  // -- keyboard --

  function select(position) {
    if (!visible.length) return;
    position = Math.max(0, Math.min(position, visible.length - 1));
    drawTo(position + FIRST);
    if (current >= 0 && current < visible.length) element(visible[current]).classList.remove("current");
    current = position;
    var item = element(visible[current]);
    item.classList.add("current");
    item.focus({ preventScroll: true });
    item.scrollIntoView({ block: "nearest" });
  }

  function typing(target) {
    return target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA");
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape" && (event.target === search || search.value)) {
      search.value = "";
      search.blur();
      apply();
      return;
    }
    if (typing(event.target)) return;
    if (event.key === "/") {
      event.preventDefault();
      search.focus();
      search.select();
    } else if (event.key === "j" || event.key === "ArrowDown") {
      event.preventDefault();
      select(current + 1);
    } else if (event.key === "k" || event.key === "ArrowUp") {
      event.preventDefault();
      select(current < 0 ? 0 : current - 1);
    } else if (event.key === "Enter" && current >= 0 && event.target.tagName !== "BUTTON") {
      toggle(element(visible[current]));
    }
  });

  list.addEventListener("click", function (event) {
    var item = event.target.closest(".item");
    if (!item) return;
    if (event.target.closest(".toggle")) toggle(item);
    var position = visible.indexOf(Number(item.dataset.index));
    if (position >= 0 && position !== current) {
      if (current >= 0 && current < visible.length) element(visible[current]).classList.remove("current");
      current = position;
      item.classList.add("current");
    }
  });

  // The summary's reasons and documents set the filters.
  document.getElementById("summary").addEventListener("click", function (event) {
    var pick = event.target.closest("button.pick");
    if (!pick) return;
    if (pick.dataset.outcome !== undefined) outcome.value = pick.dataset.outcome;
    if (pick.dataset.document !== undefined) documentPick.value = pick.dataset.document;
    apply();
    document.getElementById("controls").scrollIntoView();
  });

  var pending = 0;
  search.addEventListener("input", function () {
    clearTimeout(pending);
    pending = setTimeout(apply, 120);
  });
  [outcome, documentPick, flagged].forEach(function (control) {
    control.addEventListener("change", apply);
  });

  // -- print: every shown question, expanded --

  function forPrint() {
    drawTo(visible.length);
    visible.forEach(function (index) { toggle(element(index), true); });
  }
  window.addEventListener("beforeprint", forPrint);
  if (window.matchMedia) {
    var printing = window.matchMedia("print");
    var onChange = function (query) { if (query.matches) forPrint(); };
    if (printing.addEventListener) printing.addEventListener("change", onChange);
    else if (printing.addListener) printing.addListener(onChange);
  }

  apply();
  // From navigation to the first screen drawn: the load time a reviewer waits.
  document.documentElement.dataset.renderMs = String(Math.round(performance.now()));
})();
