(function () {
'use strict';
var t0 = performance.now();
var meta = JSON.parse(document.getElementById('tbmeta').textContent);
var names = meta.names;
var ROW = 16, MAXPX = 32767, MAX_ROWS = 40; // a thread's timeline draws MAX_ROWS rows
var canvas = document.getElementById('canvas'), ctx = canvas.getContext('2d');
var tip = document.getElementById('tip');
var state = { collapsed: new Set(), pinned: [], fetches: 0, view: 'flame', sortBy: 'self', picked: null, sel: null, thread: -1, invert: false, focus: null, search: null, matchCount: 0, matchedShare: 0, zoomed: false, t0: 0, t1: 0 };

// --- the data: each thread's slices, unpacked from its base64 blocks ---
function bytesOf(id) {
  var s = document.getElementById('tb' + id).textContent, bin = atob(s), a = new Uint8Array(bin.length);
  for (var i = 0; i < bin.length; i++) a[i] = bin.charCodeAt(i);
  return a;
}
function unpack(th) {
  var n = th.slices, r = { name: new Int32Array(n), start: new Float64Array(n), dur: new Float64Array(n), depth: new Int32Array(n), flags: new Uint8Array(n), maxDepth: 0, n: n };
  var k = 0, last = 0;
  th.blocks.forEach(function (id) {
    var a = bytesOf(id), p = 0;
    function uv() { var v = 0, m = 1, b; do { b = a[p++]; v += (b & 127) * m; m *= 128; } while (b & 128); return v; }
    while (p < a.length && k < n) {
      r.name[k] = uv();
      var z = uv(); last += (z % 2 === 0) ? z / 2 : -(z + 1) / 2; r.start[k] = last;
      r.dur[k] = uv();
      var d = uv(); r.depth[k] = Math.floor(d / 4); r.flags[k] = d % 4;
      if (r.depth[k] > r.maxDepth) r.maxDepth = r.depth[k];
      k++;
    }
  });
  if (th.unsorted) {
    var idx = new Int32Array(n); for (var i = 0; i < n; i++) idx[i] = i;
    idx.sort(function (x, y) { return r.start[x] - r.start[y] || r.depth[x] - r.depth[y]; });
    ['name', 'start', 'dur', 'depth', 'flags'].forEach(function (f) { var o = r[f], c = new o.constructor(n); for (var i = 0; i < n; i++) c[i] = o[idx[i]]; r[f] = c; });
  }
  return r;
}
// A served page (tracebeat view) has no slices yet: the timeline asks the
// server for those of the window it shows (fetchWindow).
function emptyThread(th) {
  return { name: new Int32Array(0), start: new Float64Array(0), dur: new Float64Array(0), depth: new Int32Array(0), flags: new Uint8Array(0), maxDepth: th.max_depth || 0, n: 0, calls: th.slices };
}
// A page of levels of detail (a trace past the calls a page holds one by
// one) is drawn as a served one, its windows taken from the levels.
var served = meta.server || !!meta.lod;
var threads = meta.threads.map(function (th) { var s = served ? emptyThread(th) : unpack(th); s.label = th.name; if (!served) s.calls = s.n; return s; });
var tmin = Infinity, tmax = -Infinity;
if (served) { tmin = meta.t_min || 0; tmax = meta.t_max || 1; }
threads.forEach(function (s) { for (var i = 0; i < s.n; i++) { if (s.start[i] < tmin) tmin = s.start[i]; if (s.start[i] + s.dur[i] > tmax) tmax = s.start[i] + s.dur[i]; } });
if (!isFinite(tmin)) { tmin = 0; tmax = 1; }
state.t0 = tmin; state.t1 = Math.max(tmax, tmin + 1);

// --- the call tree: a node per call path, merged over the threads chosen ---
function Node(name, parent) { this.name = name; this.parent = parent; this.total = 0; this.self = 0; this.calls = 0; this.children = []; this.byName = null; this.base = null; }
Node.prototype.child = function (name) {
  if (!this.byName) this.byName = new Map();
  var c = this.byName.get(name);
  if (!c) { c = new Node(name, this); this.byName.set(name, c); this.children.push(c); }
  return c;
};
function buildTree(which) {
  var root = new Node(-1, null);
  if (meta.diff || served) return diffTree(); // a served page's tree comes whole, all threads merged
  threads.forEach(function (s, ti) {
    if (which >= 0 && which !== ti) return;
    var stack = [], kids = [];
    for (var i = 0; i < s.n; i++) {
      var d = Math.min(s.depth[i], stack.length);
      stack.length = d; kids.length = d;
      var parent = d > 0 ? stack[d - 1] : root;
      var node = parent.child(s.name[i]);
      node.total += s.dur[i]; node.calls++;
      node.self += s.dur[i];
      if (d > 0) stack[d - 1].self -= s.dur[i];
      stack.push(node);
    }
  });
  root.children.forEach(function (c) { root.total += c.total; root.calls += c.calls; });
  sortTree(root);
  return root;
}
// A diff's tree: [parent, name, newTotal, newSelf, newCalls, baseTotal, baseSelf, baseCalls] a node.
function diffTree() {
  var t = meta.tree, nodes = [new Node(-1, null)], root = nodes[0];
  for (var i = 0; i < t.length; i += 8) {
    var n = nodes[t[i]].child(t[i + 1]);
    n.total = t[i + 2]; n.self = t[i + 3]; n.calls = t[i + 4];
    if (meta.diff) n.base = { total: t[i + 5], self: t[i + 6], calls: t[i + 7] };
    nodes.push(n);
  }
  root.children.forEach(function (c) { root.total += c.total; root.calls += c.calls; });
  sortTree(root);
  return root;
}
function sortTree(n) { n.children.sort(function (a, b) { return names[a.name] < names[b.name] ? -1 : 1; }); n.children.forEach(sortTree); }
function depthOf(n) { var d = 0; n.children.forEach(function (c) { d = Math.max(d, 1 + depthOf(c)); }); return d; }

// --- drawing ---
var rects = [];
function ms(ns) { return ns >= 1e6 ? (ns / 1e6).toFixed(3) + ' ms' : (ns / 1e3).toFixed(3) + ' µs'; }
function hue(s) { var h = 0; for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return h; }
// A frame's label leads with what tells it apart: the class's simple name
// and the method ("Element.text" for org.jsoup.nodes.Element.text()L...;);
// the full name is in the tooltip.
function shortName(full) {
  var p = full.indexOf('('), head = p >= 0 ? full.slice(0, p) : full;
  var dot = head.lastIndexOf('.'), cls = head.lastIndexOf('.', dot - 1);
  return dot > 0 ? head.slice(cls + 1) : head;
}
// The package of a method's class ("" for none).
function packageOf(full) {
  var p = full.indexOf('('), head = p >= 0 ? full.slice(0, p) : full;
  var dot = head.lastIndexOf('.'), cls = head.lastIndexOf('.', dot - 1);
  return cls > 0 ? head.slice(0, cls) : '';
}
var labels = names.map(shortName);
// Colours tell packages apart (a hue for each), the JDK's and Kotlin's own
// in greys; methods of one package differ a little in lightness.
var colors = names.map(function (full) {
  var pkg = packageOf(full), h = hue(full);
  if (/^(java|javax|jdk|sun|kotlin|kotlinx|scala)(\.|$)/.test(pkg)) return 'hsl(40,6%,' + (70 + Math.abs(h) % 12) + '%)';
  var hh = Math.abs(hue(pkg)) % 310; if (hh >= 280) hh += 50; // never the search's magenta (280 to 330)
  return 'hsl(' + hh + ',' + (45 + Math.abs(h >> 8) % 20) + '%,' + (66 + Math.abs(h >> 16) % 12) + '%)';
});
function baseColor(n) { return colors[n]; }
// A diff's frame takes its method's verdict, the table's: red regressed,
// blue improved (the deeper, the larger the change), yellow new, grey the same.
function verdictColor(status, change) {
  if (status === 'new') return 'rgb(240,210,60)';
  if (status !== 'regressed' && status !== 'improved') return 'rgb(215,215,210)';
  var l = Math.round(200 - 140 * Math.min(Math.abs(change) / 100, 1));
  return status === 'regressed' ? 'rgb(235,' + l + ',' + l + ')' : 'rgb(' + l + ',' + l + ',235)';
}
function diffColor(n) { return verdictColor(meta.status[n.name], meta.change[n.name]); }
function matches(n) { return state.search && state.search.test(names[n.name]); }
function size(h) {
  var w = document.documentElement.clientWidth;
  canvas.width = w * devicePixelRatio; canvas.height = h * devicePixelRatio;
  canvas.style.width = w + 'px'; canvas.style.height = h + 'px';
  ctx.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0);
  ctx.font = '11px system-ui, sans-serif'; ctx.textBaseline = 'middle';
  return w;
}
var tree = null;
function drawFlame() {
  var focus = state.focus || tree, levels = Math.min(depthOf(tree) + 1, Math.floor(MAXPX / ROW) - 1);
  // The graph fills the window below the toolbar; a deeper one scrolls,
  // and opens scrolled to its root (drawFirst).
  var room = innerHeight - (canvas.getBoundingClientRect().top + scrollY);
  var h = Math.max(levels * ROW + 4, room, 200), w = size(h);
  ctx.clearRect(0, 0, w, h);
  rects = [];
  var y = function (level) { return state.invert ? level * ROW : h - (level + 1) * ROW; };
  // The focus's ancestors span the width, the focus's subtree is drawn to scale.
  var chain = []; for (var a = focus; a; a = a.parent) chain.unshift(a);
  chain.forEach(function (n, level) { if (n !== tree) box(n, 0, w, level - 1); });
  var base = chain.length - 2;
  if (focus.total <= 0) return;
  var scale = w / focus.total;
  (function walk(n, x, level) {
    if (level >= levels) return;
    n.children.forEach(function (c) {
      var cw = c.total * scale;
      if (cw >= 0.5) { box(c, x, cw, level); walk(c, x, level + 1); }
      x += cw;
    });
  })(focus, 0, base + 1);
  function box(n, x, bw, level) {
    if (level < 0) return;
    var yy = y(level), m = matches(n);
    ctx.fillStyle = m ? 'rgb(200,60,200)' : meta.diff ? diffColor(n) : baseColor(n.name);
    ctx.fillRect(x, yy, Math.max(bw - 0.5, 0.5), ROW - 1);
    if (bw > 30) {
      ctx.fillStyle = '#000';
      var label = labels[n.name], max = Math.floor((bw - 6) / 6.5);
      ctx.fillText(label.length > max ? label.slice(0, Math.max(max - 1, 1)) + '…' : label, x + 3, yy + ROW / 2);
    }
    rects.push({ x: x, y: yy, w: bw, h: ROW - 1, node: n });
  }
  updateMatches(focus);
}
function updateMatches(focus) {
  var count = 0, sum = 0;
  // The focus itself counts (a zoom to a matching frame matches it whole).
  (function visit(n, inMatch) {
    var m = n !== tree && matches(n);
    if (m) count++;
    if (m && !inMatch) sum += n.total;
    n.children.forEach(function (c) { visit(c, inMatch || m); });
  })(focus, false);
  state.matchCount = count; state.matchedShare = focus.total > 0 ? sum / focus.total : 0;
  document.getElementById('matched').textContent = state.search ? 'Matched: ' + (100 * state.matchedShare).toFixed(2) + '%' : '';
}
// drawTrack draws thread ti's header and rows from top.
function drawTrack(ti, top, rows, w, scale) {
  var s = threads[ti];
  var head = (rows === 0 ? '\u25b8 ' : '\u25be ') + s.label + ' (' + s.calls + ' calls)', pinned = state.pinned.indexOf(ti) >= 0;
  ctx.fillStyle = '#333'; ctx.fillText(head, 4, top + ROW / 2);
  var hw = ctx.measureText(head).width + 8;
  ctx.fillStyle = pinned ? '#b04000' : '#888'; ctx.fillText(pinned ? '\u25c6 pinned' : '\u25c7 pin', hw + 4, top + ROW / 2);
  rects.push({ x: 0, y: top, w: hw, h: ROW, track: ti, act: 'collapse' });
  rects.push({ x: hw, y: top, w: 60, h: ROW, track: ti, act: 'pin' });
  top += ROW;
  var lastPx = new Float64Array(rows).fill(-1);
  for (var i = 0; i < s.n; i++) {
    var d = s.depth[i]; if (d >= rows) continue;
    var x0 = (s.start[i] - state.t0) * scale, x1 = (s.start[i] + s.dur[i] - state.t0) * scale;
    if (x1 < 0 || x0 > w) continue;
    var yy = top + d * ROW, n = { name: s.name[i], dur: s.dur[i], start: s.start[i], flags: s.flags[i] };
    if (s.flags[i] & 4) {
      // Calls narrower than a pixel, merged (by the server, or in the
      // levels of detail): grey, as wide as they span.
      ctx.fillStyle = '#aaa'; ctx.fillRect(x0, yy, Math.max(x1 - x0, 1), ROW - 1);
      rects.push({ x: x0, y: yy, w: Math.max(x1 - x0, 1), h: ROW - 1, slice: n });
      continue;
    }
    if (x1 - x0 < 1) {
      // Narrower than a pixel: one pixel stands for all that fall in it.
      var px = Math.floor(x0);
      if (px === lastPx[d]) continue;
      lastPx[d] = px;
      ctx.fillStyle = '#999'; ctx.fillRect(px, yy, 1, ROW - 1);
      continue;
    }
    ctx.fillStyle = matches(n) ? 'rgb(200,60,200)' : baseColor(n.name);
    ctx.fillRect(x0, yy, Math.max(x1 - x0 - 1, 1), ROW - 1); // a pixel apart: two calls of one method do not merge
    if (x1 - x0 > 30) { ctx.fillStyle = '#000'; var label = labels[n.name], max = Math.floor((x1 - x0 - 6) / 6.5); ctx.fillText(label.length > max ? label.slice(0, Math.max(max - 1, 1)) + '…' : label, Math.max(x0, 0) + 3, yy + ROW / 2); }
    rects.push({ x: x0, y: yy, w: x1 - x0, h: ROW - 1, slice: n });
  }
}
function drawTimeline() {
  // Pinned tracks first, in the order they were pinned; a collapsed track
  // keeps its header row only.
  var shown = threads.map(function (s, i) { return i; }).filter(function (i) { return state.thread < 0 || state.thread === i; });
  shown.sort(function (a, b) { var pa = state.pinned.indexOf(a), pb = state.pinned.indexOf(b); return (pa < 0 ? 1e9 : pa) - (pb < 0 ? 1e9 : pb) || a - b; });
  var rowsOf = function (s) { return state.collapsed.has(threads.indexOf(s)) ? 0 : Math.min(s.maxDepth + 1, MAX_ROWS); };
  var heightOf = function (ti) { return (rowsOf(threads[ti]) + 1) * ROW + 4; };
  var h = RULER; shown.forEach(function (i) { h += heightOf(i); });
  h = Math.min(Math.max(h, 200), MAXPX);
  var w = size(h), span = state.t1 - state.t0, scale = w / span;
  ctx.clearRect(0, 0, w, h);
  rects = [];
  drawRuler(w, h, scale);
  if (meta.lod && state.detailStops) {
    var stop = 'detail stops at ' + pxLabel(meta.lod.detail_ns) + ' a pixel';
    ctx.fillStyle = '#b04000'; ctx.fillText(stop, w - ctx.measureText(stop).width - 6, RULER / 2);
  }
  var top = RULER;
  shown.forEach(function (ti) { drawTrack(ti, top, rowsOf(threads[ti]), w, scale); top += heightOf(ti); });
  // The ruler and the pinned tracks stay in view while the page scrolls:
  // drawn again over the others at the top of what is visible (drawn
  // last, they are what a click there hits).
  var pins = shown.filter(function (ti) { return state.pinned.indexOf(ti) >= 0; });
  var hidden = Math.floor(document.getElementById('bar').getBoundingClientRect().bottom - canvas.getBoundingClientRect().top);
  state.stuck = 0;
  if (hidden > 0) {
    var ph = RULER; pins.forEach(function (ti) { ph += heightOf(ti); });
    if (hidden + ph <= h) {
      ctx.fillStyle = '#fff'; ctx.fillRect(0, hidden, w, ph);
      ctx.save(); ctx.translate(0, hidden); drawRuler(w, ph, scale); ctx.restore();
      var y = hidden + RULER;
      pins.forEach(function (ti) { drawTrack(ti, y, rowsOf(threads[ti]), w, scale); y += heightOf(ti); });
      ctx.fillStyle = '#999'; ctx.fillRect(0, y - 1, w, 1);
      state.stuck = pins.length;
    }
  }
  if (state.sel) {
    var sa = (Math.min(state.sel[0], state.sel[1]) - state.t0) * scale, sb = (Math.max(state.sel[0], state.sel[1]) - state.t0) * scale;
    ctx.fillStyle = 'rgba(60,110,220,0.15)'; ctx.fillRect(sa, RULER, Math.max(sb - sa, 1), h - RULER);
    ctx.fillStyle = 'rgba(60,110,220,0.8)'; ctx.fillRect(sa, RULER, 1, h - RULER); ctx.fillRect(sb, RULER, 1, h - RULER);
  }
  document.getElementById('matched').textContent = '';
  if (served) fetchWindow(w);
}
// fetchWindow asks the server for the calls of three times the window
// shown (a pan stays within it) at the window's resolution, unless what
// it holds covers the window at a resolution no more than twice coarser.
var loaded = null, pending = null;
function fetchWindow(w) {
  var span = state.t1 - state.t0, per = Math.max(span / w, 1);
  if (loaded && state.t0 >= loaded.t0 && state.t1 <= loaded.t1 && per >= loaded.per / 2 && per <= loaded.per * 2) return;
  var want = { t0: Math.max(tmin, Math.floor(state.t0 - span)), t1: Math.min(tmax, Math.ceil(state.t1 + span)), per: per, asked: performance.now() };
  if (meta.lod) { levelWindow(want); return; }
  if (pending && pending.t0 === want.t0 && pending.t1 === want.t1 && pending.per === want.per) return;
  pending = want;
  fetch('window?from=' + want.t0 + '&to=' + want.t1 + '&px=' + Math.max(1, Math.ceil((want.t1 - want.t0) / per)) + '&depth=' + MAX_ROWS)
    .then(function (r) { if (!r.ok) throw new Error('the server answered ' + r.status); return r.arrayBuffer(); })
    .then(function (buf) {
      if (pending !== want) return; // a newer window was asked for
      pending = null; loaded = want;
      // Float64s: the windows, then each window's calls, merged calls,
      // slices, and five numbers a slice (view's encodeWindows).
      var a = new Float64Array(buf), p = 1;
      for (var ti = 0; ti < a[0]; ti++) {
        var s = threads[ti], n = a[p + 2]; p += 3;
        s.name = new Int32Array(n); s.start = new Float64Array(n); s.dur = new Float64Array(n); s.depth = new Int32Array(n); s.flags = new Uint8Array(n); s.n = n;
        for (var i = 0; i < n; i++, p += 5) { s.name[i] = a[p]; s.start[i] = a[p + 1]; s.dur[i] = a[p + 2]; s.depth[i] = a[p + 3]; s.flags[i] = a[p + 4]; }
      }
      state.fetches++; state.fetchMs = performance.now() - want.asked;
      draw();
    })
    .catch(function (err) { pending = null; document.getElementById('info').textContent = 'tracebeat view: ' + err.message; });
}
// levelWindow fills the threads with the slices of a window from the
// levels of detail: the coarsest level whose pixel is no wider than the
// window's (the finest there is when none is), its merged slices and the
// whole ones of it and the coarser levels; then draws. A level's lists
// are in chunks of slices, each unpacked when a window first needs it.
var levels = [], blockBytes = new Map();
function level(j) {
  if (levels[j]) return levels[j];
  var L = meta.lod.levels[j], lists = new Map(), ls = L.lists || [];
  for (var i = 0; i < ls.length;) {
    var n = ls[i + 2], c = ls[i + 3], list = { chunks: [] };
    for (var k = 0; k < c; k++) {
      var at = i + 4 + 4 * k;
      list.chunks.push({ block: ls[at], offset: ls[at + 1], first: ls[at + 2], reach: ls[at + 3], n: Math.min(meta.lod.chunk, n - meta.lod.chunk * k), slices: null });
    }
    var key = ls[i] * 65536 + ls[i + 1]; // a thread and depth may have two lists: its calls' and its sections'
    if (!lists.has(key)) lists.set(key, []);
    lists.get(key).push(list);
    i += 4 + 4 * c;
  }
  return (levels[j] = lists);
}
function unpackChunk(ch) {
  if (ch.slices) return ch.slices;
  var a = blockBytes.get(ch.block);
  if (!a) { a = bytesOf(ch.block); blockBytes.set(ch.block, a); }
  var p = ch.offset, n = ch.n, last = 0;
  var uv = function () { var v = 0, m = 1, b; do { b = a[p++]; v += (b & 127) * m; m *= 128; } while (b & 128); return v; };
  var r = { name: new Int32Array(n), start: new Float64Array(n), dur: new Float64Array(n), flags: new Uint8Array(n), end: new Float64Array(n) }, end = -Infinity;
  for (var k = 0; k < n; k++) {
    r.name[k] = uv(); var z = uv(); last += (z % 2 === 0) ? z / 2 : -(z + 1) / 2; r.start[k] = last; r.dur[k] = uv(); r.flags[k] = uv();
    end = Math.max(end, last + r.dur[k]); r.end[k] = end; // the latest end so far: a binary search finds the first that reaches t0
  }
  return (ch.slices = r);
}
function levelWindow(want) {
  var lv = meta.lod.levels, j = lv.findIndex(function (L) { return L.px_ns <= want.per; });
  state.detailStops = j < 0;
  if (j < 0) j = lv.length - 1;
  threads.forEach(function (s, ti) {
    var out = { name: [], start: [], dur: [], depth: [], flags: [] };
    for (var d = 0; d < Math.min(s.maxDepth + 1, MAX_ROWS); d++) {
      for (var i = 0; i <= j; i++) {
        (level(i).get(ti * 65536 + d) || []).forEach(function (list) {
          var chunks = list.chunks, lo = 0, hi = chunks.length;
          while (lo < hi) { var mid = (lo + hi) >> 1; if (chunks[mid].reach <= want.t0) lo = mid + 1; else hi = mid; }
          for (var c = lo; c < chunks.length && chunks[c].first < want.t1; c++) {
            var r = unpackChunk(chunks[c]), k0 = 0, k1 = r.start.length;
            while (k0 < k1) { var m2 = (k0 + k1) >> 1; if (r.end[m2] <= want.t0) k0 = m2 + 1; else k1 = m2; }
            for (var k = k0; k < r.start.length && r.start[k] < want.t1; k++) {
              if (i < j && (r.flags[k] & 4)) continue; // a coarser level's merged calls: this level has them finer
              out.name.push(r.name[k]); out.start.push(r.start[k]); out.dur.push(r.dur[k]); out.depth.push(d); out.flags.push(r.flags[k]);
            }
          }
        });
      }
    }
    s.name = Int32Array.from(out.name); s.start = Float64Array.from(out.start); s.dur = Float64Array.from(out.dur); s.depth = Int32Array.from(out.depth); s.flags = Uint8Array.from(out.flags); s.n = out.name.length;
  });
  loaded = want; state.fetches++; state.fetchMs = performance.now() - want.asked; state.level = j;
  draw();
}
// The time ruler: ticks at 1, 2 or 5 times a power of ten, about every
// 100 px, labelled from the recording's start in the unit that suits the
// zoom, with faint lines down the tracks.
var RULER = 20;
function tickStep(nsPerPx) {
  var raw = nsPerPx * 100, p = Math.pow(10, Math.floor(Math.log10(raw)));
  return [1, 2, 5, 10].map(function (m) { return m * p; }).find(function (v) { return v >= raw; });
}
function tickLabel(ns, step) {
  var unit = step >= 1e6 ? [1e6, ' ms'] : step >= 1e3 ? [1e3, ' µs'] : [1, ' ns'];
  var digits = Math.max(0, Math.ceil(-Math.log10(step / unit[0]) - 1e-9));
  return (ns / unit[0]).toFixed(digits) + unit[1];
}
function drawRuler(w, h, scale) {
  var step = tickStep(1 / scale), first = Math.ceil(state.t0 / step) * step;
  ctx.fillStyle = '#eeede6'; ctx.fillRect(0, 0, w, RULER - 2);
  ctx.fillStyle = '#444'; ctx.strokeStyle = 'rgba(0,0,0,0.08)';
  state.ticks = [];
  for (var t = first; t <= state.t1; t += step) {
    var x = Math.round((t - state.t0) * scale) + 0.5;
    ctx.fillRect(x - 0.5, RULER - 7, 1, 5);
    ctx.beginPath(); ctx.moveTo(x, RULER); ctx.lineTo(x, h); ctx.stroke();
    var label = tickLabel(t, step);
    state.ticks.push(label);
    ctx.fillText(label, x + 3, (RULER - 4) / 2);
  }
}
function draw() {
  var s = performance.now();
  var table = state.view === 'table';
  document.getElementById('view').hidden = table; document.getElementById('tablePane').hidden = !table;
  var shownRows = 0;
  if (state.view === 'flame') drawFlame(); else if (table) shownRows = drawTable(); else drawTimeline();
  showSelection();
  state.drawMs = performance.now() - s;
  document.getElementById('info').textContent = table ? shownRows + ' methods' + (state.search && state.picked === null ? ' matching' : '') + whose() + ', click a header to sort, a method for its callers and callees'
    : state.view === 'flame'
    ? (state.focus && state.focus !== tree ? 'zoomed: ' + labels[state.focus.name] + ', ' : '') + 'total ' + ms((state.focus || tree).total) + whose()
    : 'showing ' + ms(state.t1 - state.t0) + ' of ' + ms(tmax - tmin) + ' (wheel or W/S: zoom, drag or A/D: move)';
}

// --- methods: per method over a span of time, and one method's callers
// and callees (the sandwich) ---
// Each call counts the part of it inside [from, to]: its total that part,
// its self that part less its callees' parts; a call of a method already
// open on its thread's stack adds to the calls and self but not again to
// the total (the total of a recursive method is counted once, as decode
// counts it).
var TOP = '(top level)';
function methodStats(which, from, to, pick) {
  var stats = new Map(), callers = new Map(), callees = new Map();
  function get(m, k) { var v = m.get(k); if (!v) { v = { name: k, calls: 0, self: 0, total: 0 }; m.set(k, v); } return v; }
  if (served) {
    // A served page has the whole call tree and not every call: the same
    // figures from the tree's paths (a recursive method's total counted
    // where it is outermost on its path).
    var onPath = new Map();
    (function walk(n, parent) {
      n.children.forEach(function (c) {
        var st = get(stats, c.name), k = onPath.get(c.name) || 0;
        st.calls += c.calls; st.self += c.self; if (k === 0) st.total += c.total;
        if (pick !== undefined && c.name === pick) { var cl = get(callers, parent ? parent.name : TOP); cl.calls += c.calls; cl.total += c.total; }
        if (pick !== undefined && parent && parent.name === pick) { var ce = get(callees, c.name); ce.calls += c.calls; ce.total += c.total; }
        onPath.set(c.name, k + 1); walk(c, c); onPath.set(c.name, k);
      });
    })(tree, null);
    return { methods: Array.from(stats.values()), callers: Array.from(callers.values()), callees: Array.from(callees.values()) };
  }
  threads.forEach(function (s, ti) {
    if (which >= 0 && which !== ti) return;
    var stack = [], open = new Map();
    for (var i = 0; i < s.n; i++) {
      var d = Math.min(s.depth[i], stack.length);
      while (stack.length > d) { var j = stack.pop(); open.set(s.name[j], open.get(s.name[j]) - 1); }
      var a = s.start[i], b = a + s.dur[i];
      stack.push(i); open.set(s.name[i], (open.get(s.name[i]) || 0) + 1);
      if (!(a < to && b > from) && !(a === b && a >= from && a <= to)) continue;
      var part = Math.min(b, to) - Math.max(a, from), st = get(stats, s.name[i]);
      st.calls++; st.self += part;
      if (open.get(s.name[i]) === 1) st.total += part;
      var parent = stack.length > 1 ? stack[stack.length - 2] : -1;
      if (parent >= 0) get(stats, s.name[parent]).self -= part;
      if (pick === undefined) continue;
      if (s.name[i] === pick) { var c = get(callers, parent >= 0 ? s.name[parent] : TOP); c.calls++; c.total += part; }
      if (parent >= 0 && s.name[parent] === pick) { var e = get(callees, s.name[i]); e.calls++; e.total += part; }
    }
  });
  return { methods: Array.from(stats.values()), callers: Array.from(callers.values()), callees: Array.from(callees.values()) };
}
function nameOf(k) { return k === TOP ? TOP : names[k]; }
function labelOf(k) { return k === TOP ? TOP : labels[k]; }
// rowsTable fills a table body with rows of methods: the label (the full
// name as its title) and the figures.
function rowsTable(body, rows, cols, onPick) {
  body.textContent = '';
  rows.forEach(function (r) {
    var tr = document.createElement('tr');
    var td = document.createElement('td'); td.textContent = labelOf(r.name); td.title = nameOf(r.name); tr.appendChild(td);
    cols.forEach(function (c) { var x = document.createElement('td'); x.textContent = c === 'calls' ? r.calls : ms(r[c]); tr.appendChild(x); });
    if (r.name === state.picked) tr.className = 'picked';
    if (onPick && r.name !== TOP) tr.onclick = function () { onPick(r.name); };
    body.appendChild(tr);
  });
}
function smallTable(title, rows, cols) {
  var box = document.createElement('div'), h = document.createElement('h3'); h.textContent = title; box.appendChild(h);
  var t = document.createElement('table'); t.className = 'grid';
  var head = document.createElement('tr');
  ['method'].concat(cols).forEach(function (c) { var th = document.createElement('th'); th.textContent = c; head.appendChild(th); });
  var thead = document.createElement('thead'); thead.appendChild(head); t.appendChild(thead);
  var body = document.createElement('tbody'); t.appendChild(body); box.appendChild(t);
  rowsTable(body, rows, cols, pickMethod);
  return box;
}
var TABLE_ROWS = 500;
function drawTable() {
  var st = methodStats(state.thread, -Infinity, Infinity, state.picked === null ? undefined : state.picked);
  var key = state.sortBy, rows = st.methods.filter(function (r) { return !state.search || state.picked !== null || state.search.test(names[r.name]); }); // a pick highlights, a search typed filters
  rows.sort(function (a, b) { return key === 'name' ? (labels[a.name] < labels[b.name] ? -1 : 1) : b[key] - a[key] || a.name - b.name; });
  state.tableRows = rows.slice(0, TABLE_ROWS).map(function (r) { return { name: names[r.name], calls: r.calls, self: r.self, total: r.total }; });
  rowsTable(document.querySelector('#methods tbody'), rows.slice(0, TABLE_ROWS), ['calls', 'self', 'total'], pickMethod);
  document.querySelectorAll('#methods th').forEach(function (th) { th.className = th.dataset.key === key ? 'sorted' : ''; });
  var sw = document.getElementById('sandwich'); sw.textContent = '';
  state.sandwich = null;
  if (state.picked !== null) {
    var byTotal = function (a, b) { return b.total - a.total; };
    st.callers.sort(byTotal); st.callees.sort(byTotal);
    state.sandwich = { callers: st.callers.map(function (r) { return { name: nameOf(r.name), calls: r.calls, total: r.total }; }),
      callees: st.callees.map(function (r) { return { name: nameOf(r.name), calls: r.calls, total: r.total }; }) };
    sw.appendChild(smallTable('callers of ' + labels[state.picked] + ' (its calls from each, their time)', st.callers, ['calls', 'total']));
    sw.appendChild(smallTable('callees of ' + labels[state.picked] + ' (its calls of each, their time)', st.callees, ['calls', 'total']));
  }
  return rows.length;
}
// pickMethod chooses a method: the sandwich shows its callers and
// callees, and the flame graph and the timeline highlight it.
function pickMethod(k) {
  state.picked = k;
  search.value = '^' + names[k].replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$';
  state.search = new RegExp(search.value);
  draw();
}
// The selection on the timeline: the methods in it, aggregated.
function showSelection() {
  var box = document.getElementById('selection'); box.textContent = ''; state.selRows = null;
  if (!state.sel || state.view !== 'timeline') return;
  var a = Math.min(state.sel[0], state.sel[1]), b = Math.max(state.sel[0], state.sel[1]);
  var st = methodStats(state.thread, a, b);
  st.methods.sort(function (x, y) { return y.self - x.self || x.name - y.name; });
  state.selRows = st.methods.map(function (r) { return { name: names[r.name], calls: r.calls, self: r.self, total: r.total }; });
  var calls = st.methods.reduce(function (n, r) { return n + r.calls; }, 0);
  box.appendChild(smallTable('selected: ' + ms(b - a) + ' from ' + ms(a) + ' to ' + ms(b) + ', ' + calls + ' calls in it (shift-drag selects, Esc clears)', st.methods.slice(0, 100), ['calls', 'self', 'total']));
}

// whose says what a flame graph's total adds up.
function whose() {
  if (meta.diff) return ' (NEW, medians)';
  if (state.thread >= 0 && !served) return ' (' + threads[state.thread].label + ')';
  return threads.length > 1 ? ' (' + threads.length + ' threads summed)' : '';
}

// --- interaction ---
function hit(e) {
  var r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
  for (var i = rects.length - 1; i >= 0; i--) { var q = rects[i]; if (x >= q.x && x < q.x + q.w && y >= q.y && y < q.y + q.h) return q; }
  return null;
}
canvas.addEventListener('mousemove', function (e) {
  var q = hit(e);
  if (!q || q.track !== undefined) { tip.style.display = 'none'; canvas.style.cursor = q ? 'pointer' : ''; return; }
  canvas.style.cursor = '';
  var t;
  if (q.node) {
    var n = q.node, root = state.focus || tree;
    t = names[n.name] + '\ncalls ' + n.calls + ', self ' + ms(n.self) + ', total ' + ms(n.total) + ' (' + (100 * n.total / (root.total || 1)).toFixed(2) + '%)';
    if (n.base) t += '\nBASE: calls ' + n.base.calls + ', self ' + ms(n.base.self) + ', total ' + ms(n.base.total) +
      '\n' + (meta.status[n.name] || 'same') + (meta.change[n.name] ? ' (' + (meta.change[n.name] > 0 ? '+' : '') + meta.change[n.name].toFixed(1) + '%)' : '');
  } else {
    var s = q.slice;
    t = (s.flags & 4 ? 'calls narrower than a pixel here, merged (zoom in to see them), the first ' : '') + names[s.name] + '\nstarts ' + ms(s.start) + ' after the recording\u2019s start, lasts ' + ms(s.dur) + (s.flags & 1 ? '\n(no exit recorded)' : '') + (s.flags & 2 ? '\n(started before the buffer)' : '');
  }
  tip.textContent = t; tip.style.display = 'block';
  tip.style.left = Math.min(e.clientX + 12, innerWidth - 300) + 'px'; tip.style.top = (e.clientY + 12) + 'px';
});
canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
canvas.addEventListener('click', function (e) {
  if (dragMoved > 3) return; // the end of a drag, not a click
  var q = hit(e);
  if (q && q.track !== undefined) {
    if (q.act === 'collapse') { if (state.collapsed.has(q.track)) state.collapsed.delete(q.track); else state.collapsed.add(q.track); }
    else { var k = state.pinned.indexOf(q.track); if (k >= 0) state.pinned.splice(k, 1); else state.pinned.push(q.track); }
    draw();
    return;
  }
  if (state.view === 'flame' && q && q.node) { state.focus = q.node; state.zoomed = q.node !== tree; draw(); }
  else if (state.view === 'timeline' && q && q.slice) { zoomTime(q.slice.start, q.slice.start + Math.max(q.slice.dur, 1)); }
});
function zoomTime(a, b) { var pad = (b - a) * 0.05; state.t0 = a - pad; state.t1 = b + pad; state.zoomed = true; draw(); }
canvas.addEventListener('wheel', function (e) {
  if (state.view !== 'timeline') return;
  e.preventDefault();
  var r = canvas.getBoundingClientRect(), f = (e.clientX - r.left) / r.width, span = state.t1 - state.t0;
  var k = e.deltaY > 0 ? 1.25 : 0.8, ns = Math.max(span * k, 1000), at = state.t0 + f * span;
  state.t0 = at - f * ns; state.t1 = state.t0 + ns; state.zoomed = true; draw();
}, { passive: false });
var dragX = null, dragMoved = 0, selecting = false;
function timeAt(clientX) { var r = canvas.getBoundingClientRect(); return state.t0 + (clientX - r.left) / r.width * (state.t1 - state.t0); }
canvas.addEventListener('mousedown', function (e) {
  dragMoved = 0;
  if (state.view !== 'timeline') return;
  dragX = e.clientX; selecting = e.shiftKey && !served; // a served page holds merged calls: no exact sums
  if (selecting) { var t = timeAt(e.clientX); state.sel = [t, t]; }
});
addEventListener('mouseup', function (e) { dragX = null; if (selecting) { selecting = false; state.sel[1] = timeAt(e.clientX); draw(); } });
addEventListener('mousemove', function (e) {
  if (dragX === null) return;
  if (selecting) { dragMoved += Math.abs(e.clientX - dragX); dragX = e.clientX; state.sel[1] = timeAt(e.clientX); drawTimeline(); return; }
  dragMoved += Math.abs(e.clientX - dragX);
  var dx = (e.clientX - dragX) / canvas.clientWidth * (state.t1 - state.t0);
  state.t0 -= dx; state.t1 -= dx; dragX = e.clientX; state.zoomed = true; draw();
});
// W/S zoom the timeline in and out about its middle, A/D move it, as in
// Perfetto.
function zoomBy(k) { var mid = (state.t0 + state.t1) / 2, ns = Math.max((state.t1 - state.t0) * k, 1000); state.t0 = mid - ns / 2; state.t1 = mid + ns / 2; state.zoomed = true; draw(); }
function panBy(f) { var d = (state.t1 - state.t0) * f; state.t0 += d; state.t1 += d; state.zoomed = true; draw(); }
function reset() { state.focus = null; state.zoomed = false; state.t0 = tmin; state.t1 = Math.max(tmax, tmin + 1); draw(); }
document.getElementById('reset').onclick = reset;
function setView(v) {
  state.view = v;
  document.getElementById('flameBtn').className = v === 'flame' ? 'on' : '';
  document.getElementById('timeBtn').className = v === 'timeline' ? 'on' : '';
  document.getElementById('tableBtn').className = v === 'table' ? 'on' : '';
  draw();
}
document.getElementById('flameBtn').onclick = function () { setView('flame'); };
document.getElementById('timeBtn').onclick = function () { setView('timeline'); };
document.getElementById('tableBtn').onclick = function () { setView('table'); };
document.querySelectorAll('#methods th').forEach(function (th) { th.onclick = function () { state.sortBy = th.dataset.key; draw(); }; });
document.getElementById('invert').onchange = function (e) { state.invert = e.target.checked; draw(); };
var sel = document.getElementById('thread');
sel.innerHTML = '<option value="-1">all threads, merged</option>' + threads.map(function (s, i) { return '<option value="' + i + '">' + s.label.replace(/[<&]/g, '') + '</option>'; }).join('');
sel.onchange = function () { state.thread = +sel.value; tree = buildTree(state.thread); state.focus = null; draw(); };
var search = document.getElementById('search');
search.oninput = function () {
  state.picked = null;
  try { state.search = search.value ? new RegExp(search.value) : null; search.style.background = ''; } catch (err) { state.search = null; search.style.background = '#fdd'; }
  draw();
};
addEventListener('keydown', function (e) {
  if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); search.focus(); }
  else if (document.activeElement === search) return;
  else if (e.key === '0') reset();
  else if (e.key === 'Escape') { state.sel = null; draw(); }
  else if (state.view === 'timeline' && !e.ctrlKey && !e.metaKey && !e.altKey) {
    var k = e.key.toLowerCase();
    if (k === 'w') zoomBy(0.8); else if (k === 's') zoomBy(1.25); else if (k === 'a') panBy(-0.1); else if (k === 'd') panBy(0.1);
  }
});
addEventListener('resize', draw);
// A scroll keeps the ruler and the pinned tracks in view (drawTimeline).
var scrollDraw = false;
addEventListener('scroll', function () {
  if (state.view !== 'timeline' || scrollDraw) return;
  scrollDraw = true;
  requestAnimationFrame(function () { scrollDraw = false; draw(); });
});
if (meta.diff) {
  document.getElementById('timeBtn').style.display = 'none'; document.getElementById('tableBtn').style.display = 'none'; sel.style.display = 'none';
  var lg = document.getElementById('legend');
  lg.textContent = 'width: NEW\u2019s total time (median); colour: the method\u2019s verdict, as in the table: ';
  [['regressed', 'regressed', 100], ['improved', 'improved', -100], ['new', 'new', 0], ['same', 'the same', 0]].forEach(function (v) {
    var b = document.createElement('span'); b.className = 'swatch'; b.style.background = verdictColor(v[0], v[2]);
    lg.appendChild(b); lg.appendChild(document.createTextNode(v[1] + '  '));
  });
  (meta.gone || []).forEach(function (g) { var d = document.createElement('div'); d.textContent = g; lg.appendChild(d); });
}
var notes = document.getElementById('notes');
(meta.clock ? [meta.clock] : []).concat(meta.notes).forEach(function (n) { var li = document.createElement('li'); li.textContent = n; notes.appendChild(li); });
// Which part of the run the page holds: the calls' span against the
// recording's length (a ring keeps only its newest records).
var covers = document.getElementById('covers');
if (meta.length_ns > 0 && (served || threads.some(function (s) { return s.n > 0; }))) {
  covers.textContent = 'the calls from ' + ms(tmin) + ' to ' + ms(tmax) + ' after the start of a ' + ms(meta.length_ns) + ' recording' +
    (meta.lost ? ': the recording lost records, the page holds part of the run (the notes say what went)' : ': every call it recorded');
  covers.className = meta.lost ? 'part' : '';
}
// A page of levels of detail says what it left out.
function pxLabel(ns) { return ns < 1000 ? ns + ' ns' : ms(ns); }
if (meta.lod) {
  var lodNote = document.createElement('div');
  lodNote.id = 'lod';
  lodNote.textContent = meta.lod.calls + ' calls, more than the ' + meta.lod.limit + ' a page holds one by one: the timeline merges calls narrower than a pixel (grey), down to ' +
    pxLabel(meta.lod.detail_ns) + ' a pixel' + (meta.lod.detail_ns > 1 ? ' (detail stops there: tracebeat view shows every call)' : '') + '; the flame graph and the methods hold every call';
  covers.parentNode.insertBefore(lodNote, covers.nextSibling);
}

tree = buildTree(-1);
draw();
if (!state.invert && document.documentElement.scrollHeight > innerHeight) scrollTo(0, document.documentElement.scrollHeight); // the root, at the bottom
// For tests and scripts: the state, and where a frame named so is drawn.
window.tracebeat = {
  state: state,
  search: function (re) { search.value = re; search.oninput(); return state.matchCount; },
  frameCenter: function (name) {
    for (var i = 0; i < rects.length; i++) { var q = rects[i], n = q.node || q.slice; if (n && names[n.name] === name && q.w > 4) { var r = canvas.getBoundingClientRect(); return { x: r.left + q.x + q.w / 2, y: r.top + q.y + q.h / 2 }; } }
    return null;
  },
  setView: setView,
  labels: labels,
  pick: function (full) { pickMethod(names.indexOf(full)); },
  select: function (a, b) { state.sel = [a, b]; draw(); return state.selRows; },
  slicesOf: function (full) {
    var k = names.indexOf(full), out = [];
    threads.forEach(function (s) { for (var i = 0; i < s.n; i++) if (s.name[i] === k) out.push([s.start[i], s.dur[i]]); });
    return out;
  },
  calls: threads.reduce(function (a, s) { return a + s.calls; }, 0),
  levels: meta.lod ? meta.lod.levels.length : 0,
  windowSlices: function () { var out = []; threads.forEach(function (s) { for (var i = 0; i < s.n; i++) out.push([names[s.name[i]], s.start[i], s.dur[i], s.flags[i]]); }); return out; },
  trackHeads: function () { var r = canvas.getBoundingClientRect(); return rects.filter(function (q) { return q.track !== undefined; }).map(function (q) { return { track: q.track, act: q.act, x: r.left + q.x + q.w / 2, y: r.top + q.y + q.h / 2, label: threads[q.track].label }; }); },
  zoomTo: function (a, b) { state.t0 = a; state.t1 = b; state.zoomed = true; draw(); },
  // timed runs a step (a key's zoom or pan) and resolves with the
  // milliseconds until its window is drawn with the calls it needs.
  // timed runs a step (a key's zoom or pan) and resolves with the
  // milliseconds until its frame is drawn (with the calls already held)
  // and until it is drawn again with the calls its window needs.
  timed: function (key) {
    var t = performance.now();
    if (key === 'w') zoomBy(0.8); else if (key === 's') zoomBy(1.25); else if (key === 'a') panBy(-0.1); else if (key === 'd') panBy(0.1);
    var frame = performance.now() - t;
    return new Promise(function (done) {
      (function wait() { if (pending) setTimeout(wait, 1); else done([frame, performance.now() - t]); })();
    });
  },
  renderMs: performance.now() - t0,
  ready: true
};
})();
