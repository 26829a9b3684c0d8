/* modelmine lattice explorer: the Hasse diagram of the closed itemsets of the base models.
 *
 * Self-contained (no library, no network). Reads the JSON block with id "lattice-data",
 * draws at most `budget` itemsets as SVG (level of detail: inside the current view, the
 * itemsets matching the search first, then those of highest support), and exposes
 * window.modelmineLattice for tests and users' scripts. BSD-3-Clause, part of modelmine.
 */
(function () {
  "use strict";
  var root = document.getElementById("lattice");
  var dataNode = document.getElementById("lattice-data");
  if (!root || !dataNode) { return; }
  var D = JSON.parse(dataNode.textContent);
  var t0 = performance.now();

  // ---------------------------------------------------------------- data
  var names = D.names;
  var N = D.count.length;              // node 0 is the empty itemset (bottom)
  var B = D.n_transactions;
  var cnt = Int32Array.from(D.count);
  var itPtr = Int32Array.from(D.items_ptr);
  var itIdx = Int32Array.from(D.items);
  var lvl = new Int16Array(N);
  var maxLevel = 0;
  for (var i = 0; i < N; i++) {
    lvl[i] = itPtr[i + 1] - itPtr[i];
    if (lvl[i] > maxLevel) { maxLevel = lvl[i]; }
  }
  var levelStart = new Int32Array(maxLevel + 2);
  var levelSize = new Int32Array(maxLevel + 1);
  for (i = 0; i < N; i++) { levelSize[lvl[i]]++; }
  for (var L = 0; L <= maxLevel; L++) { levelStart[L + 1] = levelStart[L] + levelSize[L]; }
  // Nodes arrive sorted by level, then by their place in the level (barycentre layout).
  var xw = new Float64Array(N);        // x in [0, 1] within its level
  for (i = 0; i < N; i++) { xw[i] = (i - levelStart[lvl[i]] + 0.5) / levelSize[lvl[i]]; }

  function csr(from, to) {
    var ptr = new Int32Array(N + 1);
    for (var e = 0; e < from.length; e++) { ptr[from[e] + 1]++; }
    for (var k = 0; k < N; k++) { ptr[k + 1] += ptr[k]; }
    var fill = ptr.slice(0, N);
    var idx = new Int32Array(from.length);
    for (e = 0; e < from.length; e++) { idx[fill[from[e]]++] = to[e]; }
    return [ptr, idx];
  }
  var E = D.edges;                     // flat: parent, child, parent, child, ...
  var eFrom = new Int32Array(E.length / 2), eTo = new Int32Array(E.length / 2);
  for (var e = 0; e < eFrom.length; e++) { eFrom[e] = E[2 * e]; eTo[e] = E[2 * e + 1]; }
  var ch = csr(eFrom, eTo), chPtr = ch[0], chIdx = ch[1];
  var pa = csr(eTo, eFrom), paPtr = pa[0], paIdx = pa[1];

  var bySupport = new Int32Array(N);
  for (i = 0; i < N; i++) { bySupport[i] = i; }
  bySupport.sort(function (a, b) { return (cnt[b] - cnt[a]) || (lvl[a] - lvl[b]) || (a - b); });

  var txPtr = D.tx_ptr, txIdx = D.tx_items, txSize = D.tx_size;
  var sigs = D.signatures;             // [{label, operator, features: [local ids]}]
  var F = names.length;
  var sigFeat = sigs.map(function (s) {
    var m = new Uint8Array(F);
    s.features.forEach(function (f) { m[f] = 1; });
    return m;
  });
  var sigNodeCache = {};
  function insideSig(s) {              // Uint8Array over nodes: itemset within signature s
    if (sigNodeCache[s]) { return sigNodeCache[s]; }
    var m = sigFeat[s], out = new Uint8Array(N);
    for (var n = 0; n < N; n++) {
      var ok = 1;
      for (var k = itPtr[n]; k < itPtr[n + 1]; k++) { if (!m[itIdx[k]]) { ok = 0; break; } }
      out[n] = ok;
    }
    sigNodeCache[s] = out;
    return out;
  }

  function featNames(n) {
    var out = [];
    for (var k = itPtr[n]; k < itPtr[n + 1]; k++) { out.push(names[itIdx[k]]); }
    return out;
  }
  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;");
  }
  function fmt(x, d) { return x.toFixed(d === undefined ? 3 : d); }
  function thousands(x) { return String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function short(list, limit) {
    if (list.length === 0) { return "\u2205"; }
    if (list.length <= limit) { return list.join(", "); }
    return list.slice(0, limit).join(", ") + " +" + (list.length - limit);
  }

  // ---------------------------------------------------------------- state
  var S = {
    zoom: 1, ox: 0, minSupport: D.kept_min_count / B, lenMin: 0, lenMax: maxLevel,
    onlySig: -1, cmpA: -1, cmpB: -1, query: "", selected: -1
  };
  var pass = new Uint8Array(N);        // passes the filters
  var match = new Uint8Array(N);       // 2: contains a searched feature, 1: a subset of one
  var matchedFeatures = [];
  var nPass = 0, nMatch = 0, nRelated = 0;

  function applyFilters() {
    var minCount = Math.ceil(S.minSupport * B - 1e-9);
    var only = S.onlySig >= 0 ? insideSig(S.onlySig) : null;
    nPass = 0;
    for (var n = 0; n < N; n++) {
      var ok = cnt[n] >= minCount && lvl[n] >= S.lenMin && lvl[n] <= S.lenMax &&
        (!only || only[n]);
      pass[n] = ok ? 1 : 0;
      nPass += pass[n];
    }
  }

  function applySearch() {
    match.fill(0);
    nMatch = 0; nRelated = 0; matchedFeatures = [];
    var q = S.query.trim().toLowerCase();
    if (!q) { return; }
    var want = new Uint8Array(F), f;
    for (f = 0; f < F; f++) {
      if (names[f].toLowerCase() === q) { want[f] = 1; matchedFeatures.push(names[f]); }
    }
    if (!matchedFeatures.length) {   // no exact name: every name containing the text
      for (f = 0; f < F; f++) {
        if (names[f].toLowerCase().indexOf(q) >= 0) { want[f] = 1; matchedFeatures.push(names[f]); }
      }
    }
    var stack = [];
    for (var n = 0; n < N; n++) {
      for (var k = itPtr[n]; k < itPtr[n + 1]; k++) {
        if (want[itIdx[k]]) { match[n] = 2; nMatch++; stack.push(n); break; }
      }
    }
    // their closed subsets, down to the bottom (supersets of a match contain the feature too)
    while (stack.length) {
      var x = stack.pop();
      for (var p = paPtr[x]; p < paPtr[x + 1]; p++) {
        var y = paIdx[p];
        if (!match[y]) { match[y] = 1; nRelated++; stack.push(y); }
      }
    }
  }

  // ---------------------------------------------------------------- DOM
  function $(sel) { return root.querySelector(sel); }
  var svg = $("#lattice-svg");
  var canvas = $("#lattice-edges");    // the cover edges, drawn under the SVG (cheaper)
  var tip = $("#lattice-tip");
  var status = $("#lattice-status");
  var details = $("#lattice-details");
  var VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  function viridis(t) {
    t = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
    var k = Math.min(VIRIDIS.length - 2, Math.floor(t)), u = t - k;
    var a = VIRIDIS[k], b = VIRIDIS[k + 1];
    return "rgb(" + [0, 1, 2].map(function (j) { return Math.round(a[j] + u * (b[j] - a[j])); })
      .join(",") + ")";
  }
  var CMP = { both: "#7b3294", a: "#2c7bb6", b: "#e66101", none: "#d9d9d9" };
  var supLow = D.kept_min_count / B, supHigh = supLow;
  for (i = 1; i < N; i++) { supHigh = Math.max(supHigh, cnt[i] / B); }

  function fill(n) {
    if (S.cmpA >= 0 || S.cmpB >= 0) {
      var a = S.cmpA >= 0 && insideSig(S.cmpA)[n], b = S.cmpB >= 0 && insideSig(S.cmpB)[n];
      return a && b ? CMP.both : a ? CMP.a : b ? CMP.b : CMP.none;
    }
    // the colour scale spans the supports of the itemsets (the empty itemset, 1, is above it)
    return viridis(supHigh <= supLow ? 1 : (cnt[n] / B - supLow) / (supHigh - supLow));
  }

  var drawnMask = new Uint8Array(N);
  var lastDrawn = [];
  var hiddenPerLevel = new Int32Array(maxLevel + 1);
  var view = { W: 800, H: 520, rowH: 50, inView: 0, drawn: 0, hidden: 0, cutCount: 0 };

  function geometry() {
    view.W = Math.max(200, svg.parentNode.clientWidth || 800);
    view.H = Math.max(200, svg.parentNode.clientHeight || 520);
    var rows = Math.max(1, S.lenMax - S.lenMin + 1);
    view.rowH = (view.H - 30) / rows;
  }
  var PAD_L = 44, PAD_R = 96;         // room for the row names and the "+n hidden" counts
  function span() { return view.W - PAD_L - PAD_R; }
  function sx(n) { return PAD_L + S.ox + xw[n] * span() * S.zoom; }
  function sy(n) { return view.H - 15 - (lvl[n] - S.lenMin + 0.5) * view.rowH; }
  function radius(n) { return 2.5 + 7 * cnt[n] / B; }

  function render() {
    var tr0 = performance.now();
    geometry();
    for (var k = 0; k < lastDrawn.length; k++) { drawnMask[lastDrawn[k]] = 0; }
    var drawn = [];
    hiddenPerLevel.fill(0);
    var budget = D.budget, W = view.W, inView = 0, cutCount = -1;
    function visible(n) { var x = sx(n); return x >= -10 && x <= W + 10; }
    function take(n) { drawnMask[n] = 1; drawn.push(n); }
    if (S.selected >= 0 && pass[S.selected] && visible(S.selected)) { take(S.selected); }
    var n, j;
    if (nMatch) {                      // the search's itemsets have priority
      for (j = 0; j < N; j++) {
        n = bySupport[j];
        if (match[n] && pass[n] && !drawnMask[n] && drawn.length < budget && visible(n)) {
          take(n);
        }
      }
    }
    for (j = 0; j < N; j++) {
      n = bySupport[j];
      if (!pass[n] || !visible(n)) { continue; }
      inView++;
      if (drawnMask[n]) { continue; }
      if (drawn.length < budget) { take(n); } else {
        hiddenPerLevel[lvl[n]]++;
        if (cutCount < 0) { cutCount = cnt[n]; }
      }
    }
    lastDrawn = drawn;
    view.inView = inView; view.drawn = drawn.length; view.hidden = inView - drawn.length;
    view.cutCount = cutCount;

    var out = ['<style>.mmL-e{stroke:#9e9e9e;stroke-width:.6;fill:none}',
      '.mmL-es{stroke:#111;stroke-width:1.6;fill:none}',
      '.mmL-n{stroke:#333;stroke-width:.5;cursor:pointer}',
      '.mmL-ss{stroke:#1b7837;stroke-width:3}.mmL-ps{stroke:#1b7837;stroke-width:2;' +
      'stroke-dasharray:3 2}',
      '.mmL-m{stroke:#d62728;stroke-width:2.6}.mmL-r{stroke:#ff9896;stroke-width:1.8}',
      '.mmL-f{opacity:.25}.mmL-s{stroke:#000;stroke-width:3.2}',
      '.mmL-t{font:10px sans-serif;fill:#222;pointer-events:none}',
      '.mmL-l{font:11px sans-serif;fill:#666}.mmL-h{font:11px sans-serif;fill:#b71c1c}</style>'];
    for (L = S.lenMin; L <= S.lenMax; L++) {
      var y = view.H - 15 - (L - S.lenMin + 0.5) * view.rowH;
      out.push('<line x1="0" x2="' + W + '" y1="' + y + '" y2="' + y +
        '" stroke="#f0f0f0"/><text class="mmL-l" x="4" y="' + (y - 4) + '">' +
        (L === 0 ? "\u2205" : "size " + L) + '</text>');
      if (hiddenPerLevel[L]) {
        out.push('<text class="mmL-h" text-anchor="end" x="' + (W - 4) + '" y="' + (y - 4) +
          '" data-hidden-level="' + L + '">+' + thousands(hiddenPerLevel[L]) +
          ' hidden</text>');
      }
    }
    drawEdges(drawn);
    var labels = drawn.length <= D.label_max;
    var spacing = [];                  // horizontal room per itemset in each level, in px
    for (L = 0; L <= maxLevel; L++) { spacing.push(span() * S.zoom / Math.max(1, levelSize[L])); }
    var searching = nMatch > 0 || S.query.trim() !== "";
    for (k = 0; k < drawn.length; k++) {
      n = drawn[k];
      var fn = featNames(n), cls = "mmL-n" + verdictClass(n);
      if (searching) { cls += match[n] === 2 ? " mmL-m" : match[n] === 1 ? " mmL-r" : " mmL-f"; }
      if (n === S.selected) { cls += " mmL-s"; }
      out.push('<circle class="' + cls + '" data-i="' + n + '" data-itemset="' +
        esc(fn.join(",")) + '" cx="' + sx(n).toFixed(1) + '" cy="' + sy(n).toFixed(1) +
        '" r="' + radius(n).toFixed(1) + '" fill="' + fill(n) + '"/>');
      // labels: level, or slanted when the level is crowded, or none when too crowded
      if (labels && (spacing[lvl[n]] >= 20 || drawn.length <= 12)) {
        var lx = (sx(n) + radius(n) + 1).toFixed(1), ly = (sy(n) - 3).toFixed(1);
        out.push('<text class="mmL-t" x="' + lx + '" y="' + ly + '"' +
          (spacing[lvl[n]] < 110 ? ' transform="rotate(-35 ' + lx + " " + ly + ')"' : "") +
          ">" + esc(reducedLabel(n)) + "</text>");
      }
    }
    svg.innerHTML = out.join("");
    svg.setAttribute("viewBox", "0 0 " + W + " " + view.H);
    renderStatus();
    api.lastRenderMs = performance.now() - tr0;
  }

  function eachEdge(drawn, fn) {     // the cover edges between drawn itemsets
    for (var k = 0; k < drawn.length; k++) {
      var n = drawn[k];
      for (var p = paPtr[n]; p < paPtr[n + 1]; p++) {
        var u = paIdx[p];
        if (drawnMask[u]) { fn(u, n, n === S.selected || u === S.selected); }
      }
    }
  }
  function drawEdges(drawn) {
    var ratio = window.devicePixelRatio || 1;
    var w = Math.round(view.W * ratio), h = Math.round(view.H * ratio);
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    var ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, view.W, view.H);
    [[false, "#9e9e9e", 0.6], [true, "#111", 1.6]].forEach(function (style) {
      ctx.beginPath();
      eachEdge(drawn, function (u, n, sel) {
        if (sel !== style[0]) { return; }
        ctx.moveTo(sx(u), sy(u)); ctx.lineTo(sx(n), sy(n));
      });
      ctx.strokeStyle = style[1]; ctx.lineWidth = style[2]; ctx.stroke();
    });
  }
  function edgePaths() {              // the same edges as SVG paths, for the SVG export
    var path = [], sel = [];
    eachEdge(lastDrawn, function (u, n, s) {
      (s ? sel : path).push("M" + sx(u).toFixed(1) + " " + sy(u).toFixed(1) + "L" +
        sx(n).toFixed(1) + " " + sy(n).toFixed(1));
    });
    return '<path class="mmL-e" d="' + path.join("") + '"/>' +
      (sel.length ? '<path class="mmL-es" d="' + sel.join("") + '"/>' : "");
  }

  function reducedLabel(n) {
    // the features an itemset adds to its parents (reduced labelling), else the whole itemset
    if (lvl[n] === 0) { return "\u2205"; }
    var seen = {};
    for (var p = paPtr[n]; p < paPtr[n + 1]; p++) {
      var u = paIdx[p];
      for (var k = itPtr[u]; k < itPtr[u + 1]; k++) { seen[itIdx[k]] = 1; }
    }
    var added = [];
    for (k = itPtr[n]; k < itPtr[n + 1]; k++) { if (!seen[itIdx[k]]) { added.push(names[itIdx[k]]); } }
    if (added.length && added.length < lvl[n]) { return "+" + short(added, 2); }
    return short(featNames(n), 3);
  }

  function renderStatus() {
    var parts = [];
    parts.push("Drawn: <b data-field=\"drawn\">" + thousands(view.drawn) + "</b> of " +
      thousands(view.inView) + " itemsets in view; " + thousands(nPass) +
      " pass the filters, of " + thousands(N - 1) + " closed itemsets on this page (+ \u2205).");
    if (view.hidden > 0) {
      parts.push("<span class=\"mmL-warn\" data-field=\"hidden\">Level of detail: " +
        thousands(view.hidden) + " itemsets in view are hidden (support " +
        (view.cutCount >= 0 ? "\u2264 " + fmt(view.cutCount / B) : "low") +
        ", shown as \u201c+n hidden\u201d per size); zoom in (scroll wheel) or raise the " +
        "minimum support or narrow the sizes to see them.</span>");
    }
    if (S.query.trim()) {
      parts.push("Search \u201c" + esc(S.query.trim()) + "\u201d: " +
        (matchedFeatures.length ? esc(short(matchedFeatures, 6)) + " in <b data-field=\"n-match\">" +
          thousands(nMatch) + "</b> itemsets (red), " + thousands(nRelated) +
          " of their subsets (pink)." : "no feature of that name."));
    }
    status.innerHTML = parts.join("<br>");
  }

  // ---------------------------------------------------------------- details
  function chips(list, more) {
    var html = list.map(function (n) {
      return '<button type="button" class="mmL-chip" data-i="' + n + '">' +
        esc(short(featNames(n), 4)) + " <small>" + fmt(cnt[n] / B, 2) + "</small></button>";
    }).join(" ");
    return (html || "<i>none</i>") + (more > 0 ? " <i>and " + more + " more</i>" : "");
  }
  function neighbours(ptr, idx, n, limit) {
    var list = [];
    for (var p = ptr[n]; p < ptr[n + 1]; p++) { list.push(idx[p]); }
    list.sort(function (a, b) { return cnt[b] - cnt[a] || a - b; });
    return [list.slice(0, limit), Math.max(0, list.length - limit)];
  }
  function modelsContaining(n) {
    var mark = new Uint8Array(F), out = [];
    for (var t = 0; t < B; t++) {
      for (var k = txPtr[t]; k < txPtr[t + 1]; k++) { mark[txIdx[k]] = 1; }
      var ok = true;
      for (k = itPtr[n]; k < itPtr[n + 1]; k++) { if (!mark[itIdx[k]]) { ok = false; break; } }
      if (ok) { out.push(t); }
      for (k = txPtr[t]; k < txPtr[t + 1]; k++) { mark[txIdx[k]] = 0; }
    }
    return out;
  }
  function showDetails(n) {
    if (n < 0) {
      details.innerHTML = "<p class=\"mmL-muted\">Click an itemset to see its features, " +
        "support, parents and children, the base models that contain it and the signatures " +
        "that contain it.</p>";
      return;
    }
    var fn = featNames(n);
    var models = modelsContaining(n);
    var par = neighbours(paPtr, paIdx, n, 40), kid = neighbours(chPtr, chIdx, n, 40);
    var inSig = [];
    sigs.forEach(function (s, k) { if (insideSig(k)[n]) { inSig.push(s.label); } });
    var shown = models.slice(0, 300).map(function (t) {
      return "#" + t + " <small>(" + txSize[t] + ")</small>";
    }).join(", ");
    details.innerHTML =
      "<h4>Itemset <span data-field=\"length\">" + fn.length + "</span> feature" +
      (fn.length === 1 ? "" : "s") + "</h4><p class=\"mmL-feats\" data-field=\"features\">" +
      (fn.length ? fn.map(esc).join(", ") : "\u2205 (the empty itemset)") + "</p>" +
      "<table><tr><th>support</th><td data-field=\"support\">" + fmt(cnt[n] / B) +
      "</td></tr><tr><th>count</th><td><span data-field=\"count\">" + cnt[n] + "</span> of " +
      B + " base models</td></tr>" + significanceRows(n) + "</table>" +
      "<h4>Parents: immediate closed subsets (" + (paPtr[n + 1] - paPtr[n]) + ")</h4>" +
      chips(par[0], par[1]) +
      "<h4>Children: covers, minimal closed supersets (" + (chPtr[n + 1] - chPtr[n]) + ")</h4>" +
      chips(kid[0], kid[1]) +
      (D.children_cut && kid[0].length === 0 && cnt[n] > 0 ?
        "<p class=\"mmL-muted\">Supersets below the page's support cut are not on this page.</p>" : "") +
      "<h4>Base models containing it: <span data-field=\"n-models\">" + models.length +
      "</span> of " + B + "</h4><p class=\"mmL-models\">" + (shown || "<i>none</i>") +
      (models.length > 300 ? " <i>and " + (models.length - 300) + " more</i>" : "") +
      "</p><p class=\"mmL-muted\">#index (number of features the base model selected)</p>" +
      "<h4>Signatures containing it (" + inSig.length + ")</h4><p data-field=\"signatures\">" +
      (inSig.length ? inSig.map(esc).join("<br>") : "<i>none</i>") + "</p>";
  }
  function verdictClass(n) {
    // the co-selection test of self_sufficient_itemsets (issue 49): a ring on what passes
    if (!D.verdict) { return ""; }
    if (D.verdict[n] === "self-sufficient" || (D.inside && D.inside[n])) { return " mmL-ss"; }
    return D.verdict[n] === "passes" ? " mmL-ps" : "";
  }
  var VERDICT_WORDS = {
    "self-sufficient": "self-sufficient: co-selected beyond every split of it",
    "passes": "passes every split, explained by a passing superset",
    "fails": "tested, does not pass"
  };
  function significanceRows(n) {
    // lift and q-value against base models randomised with their margins kept (issue 25),
    // or of the test of every split (self_sufficient_itemsets, issue 49)
    var out = "";
    if (D.lift && D.lift[n] !== null && D.lift[n] !== undefined) {
      out += "<tr><th>lift</th><td data-field=\"lift\">" + fmt(D.lift[n]) + "</td></tr>" +
        "<tr><th>q-value</th><td data-field=\"q\">" + D.q[n].toPrecision(3) + "</td></tr>";
    }
    if (D.verdict && D.verdict[n]) {
      out += "<tr><th>co-selection</th><td data-field=\"verdict\">" +
        esc(VERDICT_WORDS[D.verdict[n]]) + "</td></tr>";
    }
    if (D.inside && D.inside[n]) {
      out += "<tr><th>holds</th><td data-field=\"inside\">the self-sufficient itemset" +
        (D.inside[n].length > 1 ? "s " : " ") + D.inside[n].map(function (t) {
          return "{" + esc(t) + "}";
        }).join(", ") + " (not closed in these models)</td></tr>";
    }
    return out;
  }
  function select(n, centre) {
    S.selected = n;
    if (n >= 0 && centre) {
      geometry();
      var x = sx(n);
      if (x < PAD_L || x > view.W - PAD_R) { S.ox += view.W / 2 - x; clampPan(); }
      if (lvl[n] < S.lenMin || lvl[n] > S.lenMax) { S.lenMin = 0; S.lenMax = maxLevel; syncInputs(); applyFilters(); }
    }
    showDetails(n);
    schedule();
  }

  // ---------------------------------------------------------------- exports
  function csvField(v) {
    // a cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP, as
    // modelmine's own CSV files: modelmine/_csv.py)
    v = String(v);
    if (/^[=+\-@\t\r]/.test(v)) { v = "'" + v; }
    return /[",\n\r]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
  }
  function selection() {
    // the itemsets that pass the filters (and match the search, when there is one)
    var out = [], q = S.query.trim() !== "";
    for (var n = 1; n < N; n++) { if (pass[n] && (!q || match[n] === 2)) { out.push(n); } }
    return out;
  }
  function csv() {
    var head = ["itemset", "length", "count", "support", "signatures"];
    if (D.lift) { head.push("lift", "q_value"); }
    if (D.verdict) { head.push("co_selection"); }
    var rows = [head.join(",")];
    selection().forEach(function (n) {
      var inSig = [];
      sigs.forEach(function (s, k) { if (insideSig(k)[n]) { inSig.push(s.label); } });
      var row = [csvField(featNames(n).join(";")), lvl[n], cnt[n], fmt(cnt[n] / B, 6),
        csvField(inSig.join(";"))];
      if (D.lift) {
        row.push(D.lift[n] === null ? "" : D.lift[n], D.q[n] === null ? "" : D.q[n]);
      }
      if (D.verdict) {
        row.push(D.verdict[n] || (D.inside && D.inside[n] ? "holds self-sufficient" : ""));
      }
      rows.push(row.join(","));
    });
    return rows.join("\n") + "\n";
  }
  function svgText() {
    var clone = svg.cloneNode(true);
    clone.setAttribute("width", view.W);
    clone.setAttribute("height", view.H);
    var text = new XMLSerializer().serializeToString(clone);
    // a white background and the edges (drawn on a canvas in the page) go first
    var at = text.indexOf("</style>") + "</style>".length;
    return text.slice(0, at) + '<rect x="0" y="0" width="' + view.W + '" height="' + view.H +
      '" fill="#fff"/>' + edgePaths() + text.slice(at);
  }
  function png() {
    return new Promise(function (resolve, reject) {
      var img = new Image();
      img.onload = function () {
        var c = document.createElement("canvas");
        c.width = view.W * 2; c.height = view.H * 2;
        var ctx = c.getContext("2d");
        ctx.scale(2, 2);
        ctx.drawImage(img, 0, 0);
        resolve(c.toDataURL("image/png"));
      };
      img.onerror = function () { reject(new Error("the SVG could not be rasterised")); };
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svgText());
    });
  }
  function download(name, href) {
    var a = document.createElement("a");
    a.href = href; a.download = name; a.style.display = "none";
    root.appendChild(a); a.click();
    setTimeout(function () { a.remove(); }, 1000);
  }

  // ---------------------------------------------------------------- events
  var pending = false;
  function schedule() {
    if (pending) { return; }
    pending = true;
    requestAnimationFrame(function () { pending = false; render(); });
  }
  function clampPan() {
    S.ox = Math.min(0, Math.max(S.ox, span() - span() * S.zoom));
  }
  var maxZoom = Math.max(4, levelSize.reduce(function (a, b) { return Math.max(a, b); }, 1) / 5);
  function zoomAt(cx, factor) {
    geometry();
    var nz = Math.max(1, Math.min(maxZoom, S.zoom * factor));
    var w = (cx - PAD_L - S.ox) / (span() * S.zoom);
    S.zoom = nz;
    S.ox = cx - PAD_L - w * span() * nz;
    clampPan();
    schedule();
  }
  svg.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var r = svg.getBoundingClientRect();
    zoomAt(ev.clientX - r.left, Math.exp(-ev.deltaY * 0.0015));
  }, { passive: false });
  var drag = null;
  svg.addEventListener("pointerdown", function (ev) {
    drag = { x: ev.clientX, ox: S.ox, moved: false };
  });
  window.addEventListener("pointermove", function (ev) {
    if (!drag) { return; }
    var dx = ev.clientX - drag.x;
    if (Math.abs(dx) > 3) { drag.moved = true; }
    if (drag.moved) { S.ox = drag.ox + dx; clampPan(); schedule(); }
  });
  window.addEventListener("pointerup", function () { setTimeout(function () { drag = null; }, 0); });
  svg.addEventListener("click", function (ev) {
    if (drag && drag.moved) { return; }
    var t = ev.target.closest ? ev.target.closest("[data-i]") : null;
    select(t ? +t.getAttribute("data-i") : -1, false);
  });
  svg.addEventListener("mouseover", function (ev) {
    var t = ev.target.closest ? ev.target.closest("[data-i]") : null;
    if (!t) { tip.hidden = true; return; }
    var n = +t.getAttribute("data-i");
    tip.textContent = short(featNames(n), 12) + " \u2014 support " + fmt(cnt[n] / B) + " (" +
      cnt[n] + "/" + B + ")";
    var r = svg.getBoundingClientRect();
    tip.style.left = (ev.clientX - r.left + 12) + "px";
    tip.style.top = (ev.clientY - r.top + 12) + "px";
    tip.hidden = false;
  });
  svg.addEventListener("mouseleave", function () { tip.hidden = true; });
  details.addEventListener("click", function (ev) {
    var t = ev.target.closest("[data-i]");
    if (t) { select(+t.getAttribute("data-i"), true); }
  });

  var inp = {
    search: $("#lattice-search"), minSup: $("#lattice-min-support"),
    lenMin: $("#lattice-len-min"), lenMax: $("#lattice-len-max"),
    only: $("#lattice-only-signature"), a: $("#lattice-compare-a"), b: $("#lattice-compare-b")
  };
  function syncInputs() {
    inp.minSup.value = fmt(S.minSupport); inp.lenMin.value = S.lenMin; inp.lenMax.value = S.lenMax;
  }
  [inp.only, inp.a, inp.b].forEach(function (el) {
    sigs.forEach(function (s, k) {
      var o = document.createElement("option");
      o.value = String(k); o.textContent = s.label;
      el.appendChild(o);
    });
  });
  if (!sigs.length) { root.querySelectorAll(".mmL-sigonly").forEach(function (el) { el.hidden = true; }); }
  inp.minSup.min = fmt(supLow); inp.minSup.step = String(1 / B);
  inp.lenMax.max = maxLevel; inp.lenMin.max = maxLevel;
  syncInputs();
  function readNumber(el, lo, hi, fallback) {
    var v = parseFloat(el.value);
    return isFinite(v) ? Math.max(lo, Math.min(hi, v)) : fallback;
  }
  function onFilter() {
    S.minSupport = readNumber(inp.minSup, 0, 1, S.minSupport);
    S.lenMin = Math.round(readNumber(inp.lenMin, 0, maxLevel, S.lenMin));
    S.lenMax = Math.round(readNumber(inp.lenMax, S.lenMin, maxLevel, S.lenMax));
    S.onlySig = +inp.only.value;
    applyFilters();
    schedule();
  }
  [inp.minSup, inp.lenMin, inp.lenMax].forEach(function (el) {
    el.addEventListener("input", onFilter); el.addEventListener("change", onFilter);
  });
  inp.only.addEventListener("change", onFilter);
  function onCompare() {
    S.cmpA = +inp.a.value; S.cmpB = +inp.b.value;
    $("#lattice-legend-compare").hidden = S.cmpA < 0 && S.cmpB < 0;
    $("#lattice-legend-support").hidden = !(S.cmpA < 0 && S.cmpB < 0);
    $("#lattice-legend-verdict").hidden = !D.verdict;
    schedule();
  }
  inp.a.addEventListener("change", onCompare);
  inp.b.addEventListener("change", onCompare);
  $("#lattice-legend-verdict").hidden = !D.verdict;
  inp.search.addEventListener("input", function () { S.query = inp.search.value; applySearch(); schedule(); });
  $("#lattice-zoom-in").addEventListener("click", function () { geometry(); zoomAt(view.W / 2, 2); });
  $("#lattice-zoom-out").addEventListener("click", function () { geometry(); zoomAt(view.W / 2, 0.5); });
  $("#lattice-reset").addEventListener("click", function () {
    S.zoom = 1; S.ox = 0; S.minSupport = supLow; S.lenMin = 0; S.lenMax = maxLevel;
    S.onlySig = -1; inp.only.value = "-1"; S.query = ""; inp.search.value = "";
    syncInputs(); applyFilters(); applySearch(); select(-1, false);
  });
  $("#lattice-csv").addEventListener("click", function () {
    download("lattice-selection.csv", URL.createObjectURL(new Blob([csv()], { type: "text/csv" })));
  });
  $("#lattice-svg-export").addEventListener("click", function () {
    download("lattice.svg", URL.createObjectURL(new Blob([svgText()], { type: "image/svg+xml" })));
  });
  $("#lattice-png").addEventListener("click", function () {
    png().then(function (url) { download("lattice.png", url); });
  });
  if (window.ResizeObserver) { new ResizeObserver(schedule).observe(svg.parentNode); }

  // ---------------------------------------------------------------- start
  var api = {
    state: S, nodes: N, csv: csv, svg: svgText, png: png, select: select,
    selection: selection, view: view, setupMs: 0, firstPaintMs: 0, lastRenderMs: 0,
    filter: function (opts) {         // apply filters now (no frame wait); returns ms
      var t = performance.now();
      if (opts.minSupport !== undefined) { S.minSupport = opts.minSupport; }
      if (opts.lenMin !== undefined) { S.lenMin = opts.lenMin; }
      if (opts.lenMax !== undefined) { S.lenMax = opts.lenMax; }
      if (opts.query !== undefined) { S.query = opts.query; applySearch(); }
      syncInputs(); applyFilters(); render();
      return performance.now() - t;
    },
    indexOf: function (itemset) {     // page node of an itemset given by feature names
      var key = itemset.slice().sort().join("\u0001");
      for (var n = 0; n < N; n++) { if (featNames(n).sort().join("\u0001") === key) { return n; } }
      return -1;
    }
  };
  window.modelmineLattice = api;
  applyFilters();
  showDetails(-1);
  api.setupMs = performance.now() - t0;
  render();
  api.firstPaintMs = performance.now() - t0;
  api.renderedAt = performance.now();  // since navigation start: parse + setup + render
  requestAnimationFrame(function () { api.frameAt = performance.now(); });
  root.setAttribute("data-ready", "1");
})();
