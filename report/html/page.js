// page.js - draws ompdp's HTML report from the JSON in #ompdp-data
// (report/report_html.c embeds this file and prepares the data). Text from
// the report only ever goes into textContent, never into markup.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('ompdp-data').textContent);
  var app = document.getElementById('app');
  var SVGNS = 'http://www.w3.org/2000/svg';
  var TYPES = ['h2d', 'd2h', 'd2d', 'alloc', 'delete', 'kernel'];
  var TYPE_TITLE = { h2d: 'to device', d2h: 'from device', d2d: 'device to device',
                     alloc: 'allocations', 'delete': 'deletes', kernel: 'kernels' };
  var state = { sort: 'saved', selected: -1, open: {}, view: null };

  function el(tag, attrs) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else if (k === 'on') for (var ev in attrs.on) e.addEventListener(ev, attrs.on[ev]);
      else e.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return e;
  }
  function sv(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function one(v, unit) { return (v >= 100 ? v.toFixed(0) : v.toFixed(1)) + ' ' + unit; }
  function fmtBytes(b) {
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
    return i ? one(b, u[i]) : b + ' B';
  }
  function fmtTime(ns) {
    if (ns < 1000) return Math.round(ns) + ' ns';
    if (ns < 1e6) return one(ns / 1e3, 'us');
    if (ns < 1e9) return one(ns / 1e6, 'ms');
    return one(ns / 1e9, 's');
  }
  // An axis label: in the unit of the largest time shown, with as many
  // decimals as the step between labels needs.
  function fmtTick(t, step, top) {
    var units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'us'], [1, 'ns']], u = units[3];
    for (var i = 0; i < units.length; i++) if (top >= units[i][0]) { u = units[i]; break; }
    var dec = Math.max(0, Math.ceil(-Math.log10(step / u[0]) - 1e-9));
    return (t / u[0]).toFixed(Math.min(dec, 6)) + ' ' + u[1];
  }
  function fmtLoc(l) {
    if (!l) return '<unknown location>';
    var s = l.file ? l.file + (l.line ? ':' + l.line + (l.column ? ':' + l.column : '') : '')
                   : '<unknown file>';
    return l['function'] ? s + ' in ' + l['function'] : s;
  }
  function base(path) { return path ? path.replace(/^.*\//, '') : path; }

  /*--- header and summary ---*/
  function header() {
    var p = D.program;
    var argv = p.argv.length ? p.argv.join(' ') : '(unknown program)';
    app.appendChild(el('h1', { text: 'ompdp report' }));
    /* A run whose target regions all ran on the host checked nothing: said
     * first, never a clean page alone (report.h, OMPDP_NO_DEVICE_MARK). */
    var noDevice = D.warnings.filter(function (w) {
      return /^(ranks? [^:]*: )?no device activity: /.test(w);
    });
    if (noDevice.length)
      app.appendChild(el('div', { cls: 'banner no-device', id: 'no-device', text: noDevice[0] }));
    app.appendChild(el('div', { cls: 'mono', text: argv }));
    app.appendChild(el('div', { cls: 'muted', text:
      'exit status ' + (p.exit_status === null ? 'unknown' : p.exit_status) +
      ' \u00b7 wall time ' + fmtTime(p.wall_time_ns) }));
    if (D.partial)
      app.appendChild(el('div', { cls: 'banner partial', text: 'This report is partial' +
        (D.recovered ? ': recovered from the journal (' + D.recovered + ')' : '') + '.' }));
    if (D.warnings.length) {
      var ul = el('ul', { cls: 'warnings' });
      D.warnings.forEach(function (w) { ul.appendChild(el('li', { text: w })); });
      app.appendChild(ul);
    }
    app.appendChild(el('h2', { text: 'Summary' }));
    var cards = el('div', { cls: 'cards', id: 'summary' });
    cards.appendChild(el('div', { cls: 'card big', id: 'time-saved' },
      el('div', { cls: 'n', text: fmtTime(D.time_saved_ns) }),
      el('div', { text: 'the fixes would save' + (D.predicted_speedup === null ? '' :
        ' (' + D.predicted_speedup.toFixed(2) + 'x)') })));
    if (D.excluded_time_ns)
      cards.appendChild(el('div', { cls: 'card', id: 'time-excluded' },
        el('div', { cls: 'n', text: fmtTime(D.excluded_time_ns) }),
        el('div', { text: 'no saving: necessary, coincidence, repeated computation' })));
    D.summary.forEach(function (c) {
      cards.appendChild(el('div', { cls: 'card ' + (c.count ? 'hit' : 'zero'), title: c.explanation,
                                    'data-kind': c.kind, 'data-count': String(c.count) },
        el('div', { cls: 'n', text: String(c.count) }), el('div', { text: c.key.replace(/_/g, ' ') })));
    });
    app.appendChild(cards);
    var o = D.observed;
    app.appendChild(el('div', { cls: 'observed muted', id: 'observed', text: 'Observed: ' +
      o.transfers + ' transfers (' + fmtBytes(o.bytes_transferred) + ', ' +
      fmtTime(o.transfer_time_ns) + '), ' + o.allocs + ' allocations, ' + o.deletes +
      ' deletes, ' + o.kernels + ' kernels.' }));
    memorySummary();
  }

  /*--- device memory in use ---*/
  var MEM = D.device_memory || [];
  function memWhere(m) { return (m.rank === null ? '' : 'rank ' + m.rank + ' ') + 'device ' + m.device; }
  // Each device's peak, when it came, what held it, and what the fixes
  // take off it.
  function memorySummary() {
    if (!MEM.length) return;
    var box = el('div', { cls: 'memory', id: 'device-memory' });
    MEM.forEach(function (m) {
      var line = el('div', { cls: 'mem-peak-line', 'data-device': m.device },
        el('b', { text: 'Peak device memory: ' }),
        fmtBytes(m.peak_bytes) + ' on ' + memWhere(m) + ' at ' + fmtTime(m.peak_time_ns) + ', ' +
        m.peak_allocations + ' allocation' + (m.peak_allocations === 1 ? '' : 's') + ' live' +
        (m.peak_saved_bytes ? '; with the fixes at most ' + fmtBytes(m.peak_bytes - m.peak_saved_bytes) +
                              ' (' + fmtBytes(m.peak_saved_bytes) + ' less)' : ''));
      var ul = el('ul', { cls: 'holders' });
      m.holders.forEach(function (h) {
        ul.appendChild(el('li', {}, h.variable ? el('code', { text: h.variable }) : null,
          (h.variable ? ' ' : '') + fmtBytes(h.bytes) +
          (h.allocations > 1 ? ' in ' + h.allocations + ' allocations' : '') + ' · ',
          h.clause || h.call ? el('code', { text: h.clause || h.call }) : null,
          (h.clause || h.call ? ' at ' : '') + fmtLoc(h.loc)));
      });
      if (m.other_allocations)
        ul.appendChild(el('li', { cls: 'muted', text: 'and ' + m.other_allocations + ' more (' +
          fmtBytes(m.other_bytes) + ')' }));
      box.appendChild(line);
      box.appendChild(ul);
    });
    app.appendChild(box);
  }
  function memOf(dev) {
    for (var i = 0; i < MEM.length; i++) if (MEM[i].rank === null && MEM[i].device === dev) return MEM[i];
    return null;
  }
  // The memory-in-use track of a device: the bytes in use as steps (each
  // point the most until the next), scaled to the peak, which is marked.
  function drawMemory(svg, m, LABEL, w, y, H, v, sx) {
    svg.appendChild(sv('rect', { 'class': 'lane-bg', x: LABEL, y: y, width: w, height: H - 2 }));
    var lab = sv('text', { x: 4, y: y + 12 }); lab.textContent = 'memory in use'; svg.appendChild(lab);
    var top = Math.max(m.peak_bytes, 1), base = y + H - 3, span = H - 8;
    function X(t) { return Math.min(Math.max(LABEL + (t - v[0]) * sx, LABEL), LABEL + w); }
    function Y(b) { return base - span * b / top; }
    var pts = m.series.concat([[Math.max(m.end_ns, m.series.length ? m.series[m.series.length - 1][0] : 0),
                                m.final_bytes]]);
    var d = 'M' + X(pts[0][0]) + ' ' + base, last = base;
    pts.forEach(function (p, i) {
      var x = X(p[0]);
      d += ' L' + x + ' ' + last + ' L' + x + ' ' + Y(p[1]);
      last = Y(p[1]);
    });
    d += ' L' + X(pts[pts.length - 1][0]) + ' ' + base + ' Z';
    var area = sv('path', { 'class': 'mem-area', d: d, 'data-device': m.device });
    var tt = sv('title');
    tt.textContent = 'device memory in use on device ' + m.device + ': peak ' + fmtBytes(m.peak_bytes) +
      ' at ' + fmtTime(m.peak_time_ns);
    area.appendChild(tt);
    svg.appendChild(area);
    var px = LABEL + (m.peak_time_ns - v[0]) * sx;
    if (px >= LABEL && px <= LABEL + w) {
      var g = sv('g', { 'class': 'mem-peak', 'data-device': m.device });
      g.appendChild(sv('line', { x1: px, x2: px, y1: y, y2: base }));
      g.appendChild(sv('circle', { cx: px, cy: Y(m.peak_bytes), r: 3 }));
      var pl = sv('text', { x: px + 4, y: y + 10 });
      pl.textContent = 'peak ' + fmtBytes(m.peak_bytes);
      g.appendChild(pl);
      var pt = sv('title');
      pt.textContent = 'peak device memory ' + fmtBytes(m.peak_bytes) + ' at ' + fmtTime(m.peak_time_ns) +
        m.holders.map(function (h) { return '\n' + (h.variable || fmtLoc(h.loc)) + ': ' + fmtBytes(h.bytes); }).join('');
      g.appendChild(pt);
      svg.appendChild(g);
    }
  }

  /*--- the timeline ---*/
  var T = D.timeline, tlBox = null;
  function devices() {
    var seen = {};
    T.ops.forEach(function (o) { (seen[o[2]] = seen[o[2]] || {})[o[1]] = 1; });
    T.rest.forEach(function (l) { (seen[l.device] = seen[l.device] || {})[l.type] = 1; });
    MEM.forEach(function (m) { if (m.rank === null) seen[m.device] = seen[m.device] || {}; });
    return Object.keys(seen).map(Number).sort(function (a, b) { return a - b; })
      .map(function (d) { return { device: d, types: TYPES.filter(function (t) { return seen[d][t]; }) }; });
  }
  function niceStep(span, n) {
    var raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }
  function drawDevice(dev, width) {
    var LABEL = 110, LANE = 18, w = width - LABEL - 8;
    var mem = memOf(dev.device), MEMH = mem ? 44 : 0, TOP = 18 + MEMH;
    var v = state.view, span = v[1] - v[0] || 1, sx = w / span;
    var h = TOP + dev.types.length * LANE + 4;
    var svg = sv('svg', { 'class': 'tl' + (state.selected >= 0 ? ' dim' : ''), width: width,
                          height: h, viewBox: '0 0 ' + width + ' ' + h,
                          'data-device': dev.device });
    var axis = sv('g', { 'class': 'axis' }), step = niceStep(span, 8);
    for (var t = Math.ceil(v[0] / step) * step; t <= v[1]; t += step) {
      var x = LABEL + (t - v[0]) * sx;
      axis.appendChild(sv('line', { x1: x, x2: x, y1: TOP - 4, y2: h }));
      var lab = sv('text', { x: x + 2, y: 11 });
      lab.textContent = fmtTick(t, step, Math.max(Math.abs(v[0]), Math.abs(v[1])));
      axis.appendChild(lab);
    }
    svg.appendChild(axis);
    if (mem) drawMemory(svg, mem, LABEL, w, 18, MEMH, v, sx);
    var maxBin = 1;
    T.rest.forEach(function (l) { l.bins.forEach(function (b) { if (b > maxBin) maxBin = b; }); });
    dev.types.forEach(function (type, li) {
      var y = TOP + li * LANE;
      svg.appendChild(sv('rect', { 'class': 'lane-bg', x: LABEL, y: y, width: w, height: LANE - 2 }));
      var lab = sv('text', { x: 4, y: y + 12 }); lab.textContent = TYPE_TITLE[type]; svg.appendChild(lab);
      T.rest.forEach(function (l) {
        if (l.device !== dev.device || l.type !== type) return;
        l.bins.forEach(function (b, k) {
          if (!b) return;
          var x0 = LABEL + (k * T.bin_ns - v[0]) * sx, bw = Math.max(1, T.bin_ns * sx);
          if (x0 + bw < LABEL || x0 > LABEL + w) return;
          var bh = Math.max(2, (LANE - 4) * b / maxBin);
          var r = sv('rect', { 'class': 'rest', x: Math.max(LABEL, x0), y: y + LANE - 2 - bh,
                               width: bw, height: bh });
          var tt = sv('title');
          tt.textContent = b + ' ' + TYPE_TITLE[type] + ' not drawn one by one, ' +
            fmtTime(k * T.bin_ns) + ' to ' + fmtTime((k + 1) * T.bin_ns);
          r.appendChild(tt); svg.appendChild(r);
        });
      });
      T.ops.forEach(function (o, i) {
        if (o[2] !== dev.device || o[1] !== type) return;
        var s = o[5], e = o[5] + o[6];
        if (e < v[0] || s > v[1]) return;
        var x0 = LABEL + (s - v[0]) * sx, x1 = LABEL + (e - v[0]) * sx;
        x0 = Math.max(LABEL, x0); x1 = Math.min(LABEL + w, x1);
        var cls = 'op t-' + type + (o[8].length ? ' avoid' : o[9].length ? ' rel' : '');
        if (state.selected >= 0) {
          if (o[8].indexOf(state.selected) >= 0) cls += ' sel';
          else if (o[9].indexOf(state.selected) >= 0) cls += ' sel-rel';
        }
        var r = sv('rect', { 'class': cls, x: x0, y: y + 2, width: Math.max(1.5, x1 - x0),
                             height: LANE - 6, 'data-op': i,
                             'data-findings': o[8].join(' '), 'data-related': o[9].join(' ') });
        var tt = sv('title');
        tt.textContent = TYPE_TITLE[type] + (o[7] ? ' ' + fmtBytes(o[7]) : '') + ' on device ' +
          o[2] + (type === 'd2d' ? ' from device ' + o[3] : '') + ', host thread ' + o[4] +
          ', at ' + fmtTime(o[5]) + ' for ' + fmtTime(o[6]) +
          o[8].map(function (f) { return '\navoidable: ' + D.findings[f].kind + ' ' +
            (D.findings[f].variable || '') + ' (' + fmtLoc(D.findings[f].loc) + ')'; }).join('') +
          o[9].map(function (f) { return '\nrepeated or undone later: ' + D.findings[f].kind; }).join('');
        r.appendChild(tt);
        svg.appendChild(r);
      });
    });
    // Zoom with the wheel, pan by dragging, reset with a double click.
    svg.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      var rect = svg.getBoundingClientRect();
      var px = (ev.clientX - rect.left) * width / rect.width - LABEL;
      var at = v[0] + Math.min(Math.max(px, 0), w) / sx, k = ev.deltaY > 0 ? 1.25 : 0.8;
      setView(at - (at - v[0]) * k, at + (v[1] - at) * k);
    }, { passive: false });
    svg.addEventListener('mousedown', function (ev) {
      var x0 = ev.clientX, v0 = state.view.slice(), rect = svg.getBoundingClientRect();
      function move(e2) {
        var d = (e2.clientX - x0) * width / rect.width / sx;
        setView(v0[0] - d, v0[1] - d);
      }
      function up() { window.removeEventListener('mousemove', move); window.removeEventListener('mouseup', up); }
      window.addEventListener('mousemove', move); window.addEventListener('mouseup', up);
    });
    svg.addEventListener('dblclick', function () { resetView(); });
    svg.addEventListener('click', function (ev) {
      var i = ev.target.getAttribute && ev.target.getAttribute('data-op');
      if (i === null || i === undefined) return;
      var o = T.ops[Number(i)], f = o[8].length ? o[8][0] : o[9].length ? o[9][0] : -1;
      if (f >= 0) select(f, true);
    });
    return svg;
  }
  function fullView() { return [0, Math.max(T.end_ns, 1)]; }
  function resetView() { state.view = fullView(); drawTimeline(); }
  function setView(a, b) {
    var full = fullView(), span = Math.max(b - a, 20);
    if (span > full[1] * 1.2) span = full[1] * 1.2;
    a = Math.max(-full[1] * 0.1, Math.min(a, full[1] * 1.1 - span));
    state.view = [a, a + span];
    drawTimeline();
  }
  function drawTimeline() {
    if (!tlBox) return;
    var graphs = tlBox.querySelector('.graphs');
    graphs.textContent = '';
    var width = Math.max(500, graphs.clientWidth || 1000);
    devices().forEach(function (dev) {
      graphs.appendChild(el('div', { cls: 'device' },
        el('h3', { text: 'device ' + dev.device }), drawDevice(dev, width)));
    });
  }
  function timelinePanel() {
    app.appendChild(el('h2', { text: 'Timeline' }));
    if (!T) {
      app.appendChild(el('p', { cls: 'note', text: 'This report has no timeline (written by an ' +
        'ompdp without one, or with the runtime option timeline=off).' }));
      return;
    }
    tlBox = el('div', { cls: 'timeline-panel', id: 'timeline' });
    var drawn = T.ops.length;
    var note = 'Drawn one by one: ' + drawn + ' of the run\u2019s ' + T.events + ' events';
    if (T.full) note += ' (the runtime kept every event: timeline=full)';
    else note += ' (the runtime keeps the first ' + T.first + ' events and up to ' +
      T.per_finding + ' operations of each finding: timeline=bounded)';
    if (T.folded) note += '; this page draws at most ' + T.max_ops + ', so ' + T.folded +
      ' more are counted';
    var rest = 0;
    T.rest.forEach(function (l) { rest += l.count; });
    if (rest) note += '. The other ' + rest + ' are summarised: gray bars count them per time bin';
    note += '. Red: avoidable (a finding\u2019s operation); orange: what a finding repeats or ' +
      'undoes. Click a finding to highlight its operations; wheel to zoom, drag to pan, double ' +
      'click to see the whole run.';
    var legend = el('div', { cls: 'legend' });
    TYPES.forEach(function (t) {
      legend.appendChild(el('span', {}, el('i', { style: 'background: var(--' + t + ')' }), TYPE_TITLE[t]));
    });
    legend.appendChild(el('span', {}, el('i', { style: 'background: var(--bad)' }), 'avoidable'));
    legend.appendChild(el('span', {}, el('i', { style: 'background: var(--rel)' }), 'repeated or undone'));
    legend.appendChild(el('span', {}, el('i', { style: 'background: #8c959f' }), 'summarised'));
    tlBox.appendChild(el('p', { cls: 'note', id: 'timeline-note', text: note }));
    tlBox.appendChild(el('div', { cls: 'toolbar' },
      el('button', { text: 'Whole run', on: { click: resetView } }), legend));
    tlBox.appendChild(el('div', { cls: 'graphs' }));
    app.appendChild(tlBox);
    state.view = fullView();
  }

  /*--- findings ---*/
  function diffView(d) {
    var box = el('div', {});
    box.appendChild(el('div', { cls: 'diff-file', text: d.file + (d.source ? '' :
      ' (' + d.why + ': the edit alone)') }));
    d.hunks.forEach(function (h) {
      var pre = el('pre', { cls: 'diff' }), old = h.start, nu = h.start;
      h.lines.forEach(function (l) {
        var tag = l[0], cls = tag === '+' ? 'add' : tag === '-' ? 'del' : tag === '@' ? 'at' : '';
        var num = tag === '+' ? nu++ : tag === '-' ? old++ : tag === ' ' ? (nu++, old++) : '';
        pre.appendChild(el('span', { cls: cls }, el('span', { cls: 'ln', text: d.source ? String(num) : '' }),
          (tag === '@' ? '' : tag + ' ') + l[1]));
      });
      box.appendChild(pre);
    });
    return box;
  }
  function rewriteView(rw) {
    var what = [];
    if (rw.transfers_removed) what.push(rw.transfers_removed + ' transfers (' + fmtBytes(rw.bytes_removed) + ')');
    if (rw.allocs_removed) what.push(rw.allocs_removed + ' allocations');
    var r = el('div', { cls: 'rewrite' },
      el('div', {}, el('span', { cls: 'rk', text: 'rewrite (' + rw.kind + ')' }),
        ' saves ' + (rw.lower_bound ? 'at least ' : '') + fmtTime(rw.time_saved_ns) +
        (what.length ? ': ' + what.join(', ') : '')),
      el('div', { text: rw.description }),
      rw.assumption ? el('div', { cls: 'muted', text: 'assumes: ' + rw.assumption }) : null);
    rw.diffs.forEach(function (d) { r.appendChild(diffView(d)); });
    return r;
  }
  function findingView(f) {
    var box = el('div', { cls: 'finding' + (state.selected === f.index ? ' selected' : '') +
                          (state.open[f.index] ? ' open' : ''), 'data-index': f.index,
                          'data-kind': f.kind });
    var shown = T ? (f.shown < f.count ? f.shown + ' of ' + f.count + ' operations on the timeline'
                                       : 'all on the timeline') : '';
    box.appendChild(el('button', { cls: 'fh', on: { click: function () { select(f.index, false); } } },
      el('span', { cls: 'kind', text: f.kind }),
      el('span', { text: 'count ' + f.count }),
      el('span', { text: fmtBytes(f.bytes) }),
      el('span', { text: 'time ' + fmtTime(f.time_ns) }),
      el('span', { cls: 'saved', text: f.peak_saved_bytes !== null
        ? (f.peak_saved_bytes ? 'lowers the peak by ' + fmtBytes(f.peak_saved_bytes) : 'does not lower the peak')
        : f.saves ? 'saves ' + fmtTime(f.time_saved_ns) : 'no saving (' + f.verdict + ')' }),
      el('span', { cls: 'muted', text: 'device' + (f.devices.length > 1 ? 's ' : ' ') + f.devices.join(', ') }),
      el('span', { cls: 'muted', text: shown })));
    var body = el('div', { cls: 'fb' },
      el('div', { cls: 'muted', text: f.title + ': ' + f.explanation }),
      f.clause ? el('div', {}, 'clause: ', el('code', { text: f.clause })) : null,
      f.call ? el('div', {}, 'call: ', el('code', { text: f.call })) : null,
      f.related ? el('div', { text: (f.peak_saved_bytes !== null ? f.related_at + ' '
                                     : f.kind === 'round_trip' ? 'outgoing copy at ' : 'first at ') +
                               fmtLoc(f.related) }) : null,
      el('div', { cls: 'verdict' }, el('b', { text: 'Verdict: ' }), f.verdict || ''),
      el('div', {}, el('b', { text: 'Suggestion: ' }), f.suggestion || ''));
    f.rewrites.forEach(function (rw) { body.appendChild(rewriteView(rw)); });
    if (!f.rewrites.length)
      body.appendChild(el('div', { cls: 'muted', text: 'No rewrite (compile with the ompdp plugin ' +
        'for source edits).' }));
    box.appendChild(body);
    return box;
  }
  // The groups as the data gives them (report_html.c): a group's saving
  // counts each avoidable operation once, as the run's total does; a range
  // where the timeline does not hold every operation of its findings.
  function groups() {
    var list = D.groups.map(function (g) {
      var fs = g.findings.map(function (i) { return D.findings[i]; });
      return { variable: fs[0].variable, loc: fs[0].loc, findings: fs,
               saved: g.saved_ns, savedMax: g.saved_max_ns };
    });
    var cmp = state.sort === 'saved' ? function (a, b) { return b.saved - a.saved; }
            : state.sort === 'saved-asc' ? function (a, b) { return a.saved - b.saved; }
            : function (a, b) { return fmtLoc(a.loc) < fmtLoc(b.loc) ? -1 : fmtLoc(a.loc) > fmtLoc(b.loc) ? 1 : 0; };
    var fcmp = state.sort === 'saved-asc' ? function (a, b) { return a.time_saved_ns - b.time_saved_ns; }
                                          : function (a, b) { return b.time_saved_ns - a.time_saved_ns; };
    list.forEach(function (g) { g.findings.sort(fcmp); });
    return list.sort(cmp);
  }
  function groupSaves(g) {
    return g.savedMax > g.saved ? 'saves ' + fmtTime(g.saved) + ' to ' + fmtTime(g.savedMax)
                                : 'saves ' + fmtTime(g.saved);
  }
  var fBox = null;
  function drawFindings() {
    fBox.textContent = '';
    if (!D.findings.length) {
      fBox.appendChild(el('p', { text: document.getElementById('no-device')
        ? 'Nothing was checked: no data moved on any device (see the warning at the top).'
        : 'No inefficient data movement found.' }));
      return;
    }
    groups().forEach(function (g) {
      var gb = el('div', { cls: 'group' },
        el('div', { cls: 'gh' }, el('span', { cls: 'var', text: g.variable || '(item not named: compile with the ompdp plugin)' }),
          el('span', { text: fmtLoc(g.loc) }),
          el('span', { cls: 'saved', text: groupSaves(g),
                       title: g.savedMax > g.saved ? 'each avoidable operation once; the timeline does ' +
                         'not hold every one of them, so this is a range' : 'each avoidable operation once, ' +
                         'as the run\u2019s total counts it' })));
      g.findings.forEach(function (f) { gb.appendChild(findingView(f)); });
      fBox.appendChild(gb);
    });
  }
  function findingsPanel() {
    app.appendChild(el('h2', { text: 'Findings (' + D.findings.length + '), by variable and construct' }));
    var bar = el('div', { cls: 'toolbar' }, el('span', { cls: 'muted', text: 'Sort by' }));
    [['saved', 'time saved \u2193'], ['saved-asc', 'time saved \u2191'], ['loc', 'location']].forEach(function (s) {
      bar.appendChild(el('button', { cls: state.sort === s[0] ? 'on' : '', 'data-sort': s[0], text: s[1],
        on: { click: function () {
          state.sort = s[0];
          bar.querySelectorAll('button').forEach(function (b) { b.className = b.getAttribute('data-sort') === s[0] ? 'on' : ''; });
          drawFindings();
        } } }));
    });
    app.appendChild(bar);
    fBox = el('div', { id: 'findings' });
    app.appendChild(fBox);
    drawFindings();
  }
  function select(i, fromTimeline) {
    var again = state.selected === i && !fromTimeline;
    state.selected = again ? -1 : i;
    state.open[i] = !again;
    if (!again && T) {
      var mine = T.ops.filter(function (o) { return o[8].indexOf(i) >= 0 || o[9].indexOf(i) >= 0; });
      if (mine.length && !fromTimeline) {
        var a = Infinity, b = -Infinity;
        mine.forEach(function (o) { a = Math.min(a, o[5]); b = Math.max(b, o[5] + o[6]); });
        var pad = Math.max((b - a) * 0.1, 1000);
        state.view = [a - pad, b + pad];
      }
    }
    drawFindings();
    drawTimeline();
    if (fromTimeline) {
      var row = fBox.querySelector('.finding[data-index="' + i + '"]');
      if (row) row.scrollIntoView({ block: 'center' });
    }
  }

  header();
  timelinePanel();
  findingsPanel();
  drawTimeline();
  window.addEventListener('resize', drawTimeline);
  document.body.setAttribute('data-ready', '1');
})();
