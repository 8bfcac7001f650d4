// Drives the web converter's page in headless Chromium over the DevTools
// protocol (Node's WebSocket; run with --experimental-websocket on Node 20):
//   node page_driver.js CHROMIUM PROFILE_DIR PAGE_URL DOWNLOAD_DIR SCREENSHOT [--perfetto] FILE...
// Sets FILE(s) on the page's file input, converts, waits for the summary or
// the error (TBAND_PAGE_TIMEOUT_S, default 120), downloads the .pftrace (and
// with --perfetto clicks "Open in Perfetto"), saves a screenshot and prints
// what the page showed as JSON.
'use strict';
const {spawn} = require('child_process');
const fs = require('fs');
const path = require('path');

const [chromium, profile, pageUrl, downloadDir, screenshot, ...rest] = process.argv.slice(2);
const perfetto = rest[0] === '--perfetto';
const files = perfetto ? rest.slice(1) : rest;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-popup-blocking',
    '--window-size=1100,1200', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
  {stdio: 'ignore'});
  try {
    return await drive();
  } finally {
    browser.kill();
  }
}

async function drive() {
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

  await send('Page.enable');
  await send('Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: downloadDir});
  await send('Page.navigate', {url: pageUrl});
  for (let i = 0; i < 300 && (await evaluate('document.readyState')) !== 'complete'; ++i) await sleep(100);
  const doc = await send('DOM.getDocument');
  const input = await send('DOM.querySelector', {nodeId: doc.root.nodeId, selector: '#files'});
  await send('DOM.setFileInputFiles', {nodeId: input.nodeId, files});
  const started = Date.now();
  await evaluate("document.getElementById('convert').click()", true);
  // The page stays responsive while the worker converts: it answers at once.
  const responsive = [];
  let pageState = '';
  const limitMs = 1000 * Number(process.env.TBAND_PAGE_TIMEOUT_S || 120);
  while (Date.now() - started < limitMs) {
    const t0 = Date.now();
    pageState = await evaluate("document.body.dataset.state || ''");
    responsive.push(Date.now() - t0);
    if (pageState === 'done' || pageState === 'error') break;
    // Refused before converting (e.g. above the size limit): the error shows, the state stays ''.
    if (await evaluate("!document.getElementById('error').hidden")) break;
    await sleep(50);
  }
  const result = {
    state: pageState,
    convert_ms: Date.now() - started,
    slowest_answer_ms: Math.max(...responsive),
    error: await evaluate("document.getElementById('error').hidden ? '' : document.getElementById('error').textContent"),
    summary: await evaluate(`Object.fromEntries([...document.querySelectorAll('#summary dd')].map((d) => [d.id.replace('summary-', ''), d.textContent]))`),
    diagnostic_kinds: await evaluate(`[...document.querySelectorAll('#diagnostic-kinds tbody tr')].map((r) => r.dataset.kind)`),
    stats_tables: await evaluate(`[...document.querySelectorAll('table.stats')].map((t) => t.dataset.title)`),
    heap_bytes: await evaluate('performance.memory ? performance.memory.usedJSHeapSize : 0'),
  };
  if (pageState === 'done') {
    await evaluate("document.getElementById('download-pftrace').click()", true);
    for (let i = 0; i < 200 && !fs.readdirSync(downloadDir).some((f) => f.endsWith('.pftrace')); ++i) await sleep(100);
    result.downloads = fs.readdirSync(downloadDir);
    if (perfetto) {
      await evaluate("document.getElementById('open-perfetto').click()", true);
      result.perfetto_clicked = true;
    }
  }
  const shot = await send('Page.captureScreenshot', {format: 'png'});
  fs.writeFileSync(screenshot, Buffer.from(shot.data, 'base64'));
  if (perfetto) await sleep(100);
  ws.close();
  return result;
}

main().then((r) => { process.stdout.write(JSON.stringify(r) + '\n'); },
  (e) => { console.error(e); process.exitCode = 1; });
