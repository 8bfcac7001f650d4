// Drives the web converter's page in headless Chromium over the DevTools
// protocol (Node's WebSocket; run with --experimental-websocket on Node 20):
//   node page_driver.js CHROMIUM PROFILE_DIR PAGE_URL DOWNLOAD_DIR JOBS.json
// One browser start, one tab, the jobs of JOBS.json one after the other in it
// (as a user would: remove the files, pick others): each job is
//   {"files": [...], "descriptor": "path" (optional), "perfetto": true (optional),
//    "screenshot": "path"}
// It sets the files (and the descriptor) on the page's inputs, converts,
// probes the page's main thread every 50 ms while it waits for the summary or
// the error (TBAND_PAGE_TIMEOUT_S, default 120), downloads the .pftrace (and
// with "perfetto" clicks "Open in Perfetto"), saves the screenshot. Prints a
// JSON array, one entry per job: what the page showed, the slowest answer of
// the main thread, and the peak resident memory of the tab's renderer process.
// TBAND_CHROMIUM_FLAGS adds browser flags (space-separated), e.g. for
// bench/web_bench.py's engine comparisons: --js-flags=--no-liftoff.
'use strict';
const {spawn} = require('child_process');
const fs = require('fs');
const path = require('path');

const [chromium, profile, pageUrl, downloadDir, jobsFile] = process.argv.slice(2);
const jobs = JSON.parse(fs.readFileSync(jobsFile, 'utf8'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-popup-blocking',
    '--window-size=1100,1200', '--remote-debugging-port=0', `--user-data-dir=${profile}`,
    ...(process.env.TBAND_CHROMIUM_FLAGS || '').split(' ').filter(Boolean), 'about:blank'],
  {stdio: 'ignore'});
  try {
    return await drive(browser.pid);
  } finally {
    browser.kill();
  }
}

// The renderer processes under the browser (Linux /proc; [] elsewhere).
function renderers(browserPid) {
  let children;
  try {
    children = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch (e) {
    return [];
  }
  const parent = new Map();
  const found = [];
  for (const pid of children) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch (e) { /* gone */ }
  }
  for (const pid of parent.keys()) {
    let p = pid;
    while (p > 1 && p !== browserPid) p = parent.get(p) || 0;
    if (p !== browserPid) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) found.push(pid);
    } catch (e) { /* gone */ }
  }
  return found;
}

// The largest peak resident set (VmHWM) among the renderers: the tab with its worker.
function peakRendererBytes(browserPid) {
  let peak = 0;
  for (const pid of renderers(browserPid)) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch (e) { /* gone */ }
  }
  return peak;
}

async function drive(browserPid) {
  const portFile = path.join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 300 && !fs.existsSync(portFile); ++i) await sleep(100);
  const port = fs.readFileSync(portFile, 'utf8').split('\n')[0];
  let targets = [];
  for (let i = 0; i < 100 && !targets.some((t) => t.type === 'page'); ++i) {
    targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    if (!targets.some((t) => t.type === 'page')) await sleep(100);
  }
  const ws = new WebSocket(targets.find((t) => t.type === 'page').webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  let nextId = 1;
  const pending = new Map();
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.id && pending.has(msg.id)) {
      const {resolve, reject} = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error)));
      else resolve(msg.result);
    }
  };
  const send = (method, params = {}) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, {resolve, reject});
    ws.send(JSON.stringify({id, method, params}));
  });
  const evaluate = async (expression, userGesture = false) =>
    (await send('Runtime.evaluate', {expression, returnByValue: true, awaitPromise: true, userGesture})).result.value;
  const setFiles = async (selector, files) => {
    const doc = await send('DOM.getDocument');
    const input = await send('DOM.querySelector', {nodeId: doc.root.nodeId, selector});
    await send('DOM.setFileInputFiles', {nodeId: input.nodeId, files});
  };

  await send('Page.enable');
  await send('Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: downloadDir});
  await send('Page.navigate', {url: pageUrl});
  for (let i = 0; i < 300 && (await evaluate('document.readyState')) !== 'complete'; ++i) await sleep(100);
  const results = [];
  for (const job of jobs) results.push(await runJob(job, {send, evaluate, setFiles, browserPid}));
  ws.close();
  return results;
}

async function runJob(job, {send, evaluate, setFiles, browserPid}) {
  if (process.env.TBAND_PAGE_LOG) console.error(`page_driver: ${job.files.join(' ')}`);
  // What the previous job left: its files (removed with the page's buttons) and descriptor.
  await evaluate("while (document.querySelector('#file-list button.remove')) document.querySelector('#file-list button.remove').click()", true);
  await evaluate("{const d = document.getElementById('descriptor'); d.value = ''; d.dispatchEvent(new Event('change'));}");
  if (job.descriptor) await setFiles('#descriptor', [job.descriptor]);
  await setFiles('#files', job.files);
  const downloadsBefore = new Set(fs.readdirSync(downloadDir));
  const started = Date.now();
  await evaluate("document.getElementById('convert').click()", true);
  // The page stays responsive while the worker converts: it answers at once.
  const responsive = [];
  let pageState = '';
  const limitMs = 1000 * Number(process.env.TBAND_PAGE_TIMEOUT_S || 120);
  while (Date.now() - started < limitMs) {
    const t0 = Date.now();
    // One evaluation reads both: the state, and the error shown when refused before converting
    // (e.g. above the size limit: the state stays '').
    const [state, refused] = await evaluate(
      "[document.body.dataset.state || '', !document.getElementById('error').hidden && !document.body.dataset.state]");
    pageState = state;
    responsive.push(Date.now() - t0);
    if (pageState === 'done' || pageState === 'error' || refused) break;
    await sleep(50);
  }
  const result = {
    state: pageState,
    wait_ms: Date.now() - started,
    probes: responsive.length,
    slowest_answer_ms: Math.max(...responsive),
    error: await evaluate("document.getElementById('error').hidden ? '' : document.getElementById('error').textContent"),
    summary: await evaluate(`Object.fromEntries([...document.querySelectorAll('#summary dd')].map((d) => [d.id.replace('summary-', ''), d.textContent]))`),
    diagnostic_kinds: await evaluate(`[...document.querySelectorAll('#diagnostic-kinds tbody tr')].map((r) => r.dataset.kind)`),
    stats_tables: await evaluate(`[...document.querySelectorAll('table.stats')].map((t) => t.dataset.title)`),
    heap_bytes: await evaluate('performance.memory ? performance.memory.usedJSHeapSize : 0'),
  };
  if (pageState === 'done') {
    await evaluate("document.getElementById('download-pftrace').click()", true);
    const fresh = () => fs.readdirSync(downloadDir).filter((f) => !downloadsBefore.has(f) && f.endsWith('.pftrace'));
    for (let i = 0; i < 600 && !fresh().length; ++i) await sleep(100);
    result.downloads = fresh();
    if (job.perfetto) {
      await evaluate("document.getElementById('open-perfetto').click()", true);
      result.perfetto_clicked = true;
    }
  }
  const shot = await send('Page.captureScreenshot', {format: 'png'});
  fs.writeFileSync(job.screenshot, Buffer.from(shot.data, 'base64'));
  if (job.perfetto) await sleep(100);
  result.tab_peak_rss_bytes = peakRendererBytes(browserPid);
  return result;
}

main().then((r) => { process.stdout.write(JSON.stringify(r) + '\n'); },
  (e) => { console.error(e); process.exitCode = 1; });
