// ===- check_page.js - an ompdp HTML page in a real browser ----------------===//
//
// node check_page.js PAGE.html REPORT.json SCREENSHOT.png
//
// Opens the page in Debian's chromium, headless, through playwright-core
// ($OMPDP_CHROMIUM or /usr/bin/chromium), and checks what a person would
// see:
//   - it loads with no console error, no uncaught exception and no request
//     for anything outside the file;
//   - the summary shows the report's count of each kind, the finding list
//     one row per finding of the report, under group headers (printed);
//   - a click on the finding with the most operations on the timeline opens
//     it, dims the timeline and highlights exactly its operations (the
//     page's data says which), and its rewrites show a diff;
//   - sorting by time saved, ascending, puts the smallest saving first;
//   - a click on an avoidable bar selects a finding it belongs to;
//   - each device that allocated memory has a memory-in-use track on the
//     timeline with its peak marked, and a line of the summary.
// Prints one line per check for FileCheck, keeps a screenshot (the whole
// page, the finding selected) and exits 1 at the first failure, after an
// "error:" line.
// ===------------------------------------------------------------------------===//
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

function fail(msg) {
  console.log('error: ' + msg);
  process.exitCode = 1;
  throw new Error(msg);
}

async function main() {
  const [pagePath, reportPath, shot] = process.argv.slice(2);
  const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
  const browser = await chromium.launch({
    executablePath: process.env.OMPDP_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [], requests = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => {
      const u = r.url();
      if (!u.startsWith('file:') && !u.startsWith('data:')) requests.push(u);
    });
    await page.goto('file://' + path.resolve(pagePath));
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 }).catch(() => {});
    console.log('loaded: ' + (await page.title()));
    console.log('console errors: ' + errors.length);
    if (errors.length) fail('console: ' + errors.join(' | '));
    if (!(await page.$('body[data-ready="1"]'))) fail('the page did not finish drawing');

    for (const c of await page.$$eval('#summary .card[data-kind]', (cs) =>
      cs.map((c) => ({ kind: c.dataset.kind, count: Number(c.dataset.count) })))) {
      const key = c.kind + 's';
      const want = report.summary[key] || 0;
      console.log('summary ' + c.kind + ': page=' + c.count + ' report=' + want);
      if (c.count !== want) fail('summary of ' + c.kind + ' differs');
    }
    const note = await page.$('#timeline-note');
    console.log('timeline note: ' + (note ? await note.textContent() : 'none'));
    for (const h of await page.$$eval('#findings .group .gh', (gs) =>
      gs.map((g) => Array.from(g.children).map((c) => c.textContent).join(' | '))))
      console.log('group header: ' + h);
    const rows = await page.$$eval('#findings .finding', (fs) => fs.length);
    console.log('findings: page=' + rows + ' report=' + report.findings.length);
    if (rows !== report.findings.length) fail('finding rows differ');

    // The page's own data says which operations belong to which finding.
    const data = await page.$eval('#ompdp-data', (s) => JSON.parse(s.textContent));
    // Device memory (report/memory.h): a track and a marked peak per device
    // on the timeline, a line per device in the summary.
    const mem = report.device_memory || [];
    const tracks = await page.$$eval('svg.tl path.mem-area', (s) => s.length);
    const peaks = await page.$$eval('svg.tl g.mem-peak', (s) => s.length);
    const lines = await page.$$eval('#device-memory .mem-peak-line', (s) => s.map((e) => e.textContent));
    console.log('memory: devices=' + mem.length + ' tracks=' + tracks + ' peaks marked=' + peaks +
                ' summary lines=' + lines.length);
    lines.forEach((l) => console.log('memory line: ' + l));
    if (lines.length !== mem.length || (data.timeline && (tracks !== mem.length || peaks !== mem.length)))
      fail('the memory tracks or lines differ from the report');
    if (data.timeline && data.findings.length) {
      const linked = (i) => data.timeline.ops.filter((o) => o[8].indexOf(i) >= 0).length;
      let best = 0;
      data.findings.forEach((f, i) => { if (linked(i) > linked(best)) best = i; });
      const f = data.findings[best];
      await page.click('.finding[data-index="' + best + '"] > .fh');
      const lit = await page.$$eval('svg.tl rect.op.sel', (rs) => rs.length);
      const dim = await page.$$eval('svg.tl.dim', (s) => s.length);
      const state = await page.$eval('.finding[data-index="' + best + '"]', (e) => e.className);
      console.log('selected finding ' + best + ' (' + f.kind + ' ' + (f.variable || '-') + '): ' +
                  'highlighted=' + lit + ' expected=' + linked(best) + ' dimmed=' + (dim > 0) +
                  ' row=' + state);
      if (lit !== linked(best) || !lit) fail('highlighted operations differ');
      if (!/selected/.test(state) || !/open/.test(state)) fail('the finding is not selected and open');
      const diffs = await page.$$eval('.finding[data-index="' + best + '"] pre.diff .add', (s) => s.length);
      console.log('diff lines added: ' + (diffs > 0 ? 'some' : 'none'));
      await page.screenshot({ path: shot, fullPage: true });
      console.log('screenshot: ' + path.basename(shot));

      await page.click('button[data-sort="saved-asc"]');
      const saved = await page.$$eval('#findings .group .saved', (s) => s.map((e) => e.textContent));
      console.log('sorted ascending: first group ' + saved[0]);

      await page.click('.finding[data-index="' + best + '"] > .fh'); // unselect
      const bar = await page.$('svg.tl rect.op.avoid');
      if (bar) {
        const of = (await bar.getAttribute('data-findings')).split(' ').map(Number);
        await bar.dispatchEvent('click');
        const sel = await page.$$eval('.finding.selected', (s) => s.map((e) => Number(e.dataset.index)));
        console.log('bar click selects: ' + (sel.length === 1 && of.indexOf(sel[0]) >= 0 ? 'its finding' : 'wrong ' + sel));
        if (!(sel.length === 1 && of.indexOf(sel[0]) >= 0)) fail('a bar selects another finding');
      }
    } else {
      await page.screenshot({ path: shot, fullPage: true });
      console.log('screenshot: ' + path.basename(shot));
    }
    console.log('console errors at the end: ' + errors.length);
    console.log('requests outside the file: ' + requests.length);
    if (errors.length) fail('console: ' + errors.join(' | '));
    if (requests.length) fail('requests: ' + requests.join(' '));
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  if (!process.exitCode) {
    console.log('error: ' + e.message);
    process.exitCode = 1;
  }
});
