// Drives the web converter's page in headless Chromium over the DevTools
// protocol (Node's WebSocket; run with --experimental-websocket on Node 20):
//   node page_driver.js CHROMIUM PROFILE_DIR PAGE_URL DOWNLOAD_DIR JOBS.json
// One browser start, one tab, the jobs of JOBS.json one after the other in it
// (as a user would: remove the files, pick others): each job is
//   {"files": [...], "descriptor": "path" (optional), "perfetto": true (optional),
//    "perfetto_received_url": "url" (optional: answers 200 once the trace arrived),
//    "screenshot": "path"}
// It sets the files (and the descriptor) on the page's inputs, converts,
// probes the page's main thread every 50 ms while it waits for the summary or
// the error (TBAND_PAGE_TIMEOUT_S, default 120), downloads the .pftrace, saves
// the screenshot (and then, with "perfetto", clicks "Open in Perfetto"; each
// DevTools call fails after TBAND_PAGE_CALL_TIMEOUT_S, default 60). Prints a
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
// TBAND_PAGE_LOG=1: each job on stderr; 2: each DevTools call too, with its time.
const logLevel = Number(process.env.TBAND_PAGE_LOG || 0);
const log = (text, level = 1) => { if (logLevel >= level) console.error(`page_driver: ${text}`); };

async function main() {
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-popup-blocking',
    '--window-size=1100,1200', '--remote-debugging-port=0', `--user-data-dir=${profile}`,
    ...(process.env.TBAND_CHROMIUM_FLAGS || '').split(' ').filter(Boolean), 'about:blank'],
  // TMPDIR beside the profile (the test's folder): the browser's singleton
  // socket folder, left behind when it is killed, goes with that folder.
  {stdio: 'ignore', env: {...process.env, TMPDIR: path.dirname(profile)}});
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
  // Every DevTools call has a deadline: a browser that stops answering fails
  // the run, naming the call, instead of hanging it.
  const callLimitMs = 1000 * Number(process.env.TBAND_PAGE_CALL_TIMEOUT_S || 60);
  const send = (method, params = {}) => new Promise((resolve, reject) => {
    const id = nextId++;
    const what = method + (params.expression ? ` ${params.expression.slice(0, 60)}` : '');
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`the browser did not answer ${what} in ${callLimitMs / 1000} s`));
    }, callLimitMs);
    const t0 = Date.now();
    pending.set(id, {
      resolve: (r) => { clearTimeout(timer); log(`${what}: ${Date.now() - t0} ms`, 2); resolve(r); },
      reject: (e) => { clearTimeout(timer); reject(e); },
    });
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
  log(job.files.join(' '));
  // What the previous job left: its files (removed with the page's buttons) and descriptor.
  await evaluate("while (document.querySelector('#file-list button.remove')) document.querySelector('#file-list button.remove').click()", true);
  await evaluate("{const d = document.getElementById('descriptor'); d.value = ''; d.dispatchEvent(new Event('change'));}");
  if (job.descriptor) await setFiles('#descriptor', [job.descriptor]);
  await setFiles('#files', job.files);
  // The job's settings (element id -> value), the others as the page starts.
  const settings = {mode: 'freertos', format: 'auto', tick: '', 'threadx-hz': '', ...(job.settings || {})};
  for (const [id, value] of Object.entries(settings)) {
    await evaluate(`document.getElementById(${JSON.stringify(id)}).value = ${JSON.stringify(value)}`);
  }
  const downloadsBefore = new Set(fs.readdirSync(downloadDir));
  const started = Date.now();
  await evaluate("document.getElementById('convert').click()", true);
  // The page stays responsive while the worker converts: it answers at once.
  const responsive = [];
  let pageState = '';
  let lastPhase = '';
  const limitMs = 1000 * Number(process.env.TBAND_PAGE_TIMEOUT_S || 120);
  while (Date.now() - started < limitMs) {
    const t0 = Date.now();
    // One evaluation reads both: the state, and the error shown when refused before converting
    // (e.g. above the size limit: the state stays '').
    const [state, refused, phase] = await evaluate(
      "[document.body.dataset.state || '', !document.getElementById('error').hidden && !document.body.dataset.state," +
      " document.body.dataset.phase || '']");
    if (phase !== lastPhase) log(`worker phase ${phase} at ${Date.now() - started} ms`);
    lastPhase = phase;
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
    warmed: await evaluate("document.body.dataset.warmed || ''"),  // the worker's warm-up rounds, as the page took them
    summary: await evaluate(`Object.fromEntries([...document.querySelectorAll('#summary dd')].map((d) => [d.id.replace('summary-', ''), d.textContent]))`),
    warnings: await evaluate(`[...document.querySelectorAll('#warnings li')].map((l) => l.textContent)`),
    diagnostic_kinds: await evaluate(`[...document.querySelectorAll('#diagnostic-kinds tbody tr')].map((r) => r.dataset.kind)`),
    stats_tables: await evaluate(`[...document.querySelectorAll('table.stats')].map((t) => t.dataset.title)`),
    heap_bytes: await evaluate('performance.memory ? performance.memory.usedJSHeapSize : 0'),
  };
  log(`page ${pageState || 'still converting'} after ${result.wait_ms} ms`);
  if (pageState === 'done') {
    await evaluate("document.getElementById('download-pftrace').click()", true);
    const fresh = () => fs.readdirSync(downloadDir).filter((f) => !downloadsBefore.has(f) && f.endsWith('.pftrace'));
    for (let i = 0; i < 600 && !fresh().length; ++i) await sleep(100);
    result.downloads = fresh();
    log(`downloaded ${result.downloads.join(' ') || 'nothing'}`);
  }
  // Before "Open in Perfetto": once that window is open, headless Chromium
  // may never render this tab again, and the screenshot would wait for ever
  // (seen under load).
  log('screenshot');
  const shot = await send('Page.captureScreenshot', {format: 'png'});
  fs.writeFileSync(job.screenshot, Buffer.from(shot.data, 'base64'));
  if (pageState === 'done' && job.perfetto) {
    await evaluate("document.getElementById('open-perfetto').click()", true);
    result.perfetto_clicked = true;
    // The browser stays until the stand-in says it got the trace (or 60 s).
    for (let i = 0; i < 600 && job.perfetto_received_url; ++i) {
      if ((await fetch(job.perfetto_received_url)).status === 200) {
        result.perfetto_received = true;
        break;
      }
      await sleep(100);
    }
    log(`Perfetto stand-in ${result.perfetto_received ? 'got the trace' : 'got nothing'}`);
  }
  result.tab_peak_rss_bytes = peakRendererBytes(browserPid);
  return result;
}

main().then((r) => { process.stdout.write(JSON.stringify(r) + '\n'); },
  (e) => { console.error(e); process.exitCode = 1; });
