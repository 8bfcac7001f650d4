// The page: collects files and options, runs the converter in a Web Worker
// (worker.js), shows its summary and statistics, opens the trace in the
// Perfetto UI by postMessage and offers the outputs for download. No
// conversion here: the converter is tband's C++ compiled to WebAssembly.
'use strict';

// Inputs above this (all files together) are refused: the converter's
// memory is WebAssembly's (4 GiB at most), and without the browser's private
// storage the outputs stay in the tab's memory too (worker.js). The tband
// command has no such limit.
const MAX_INPUT_BYTES = 512 * 1024 * 1024;
const params = new URLSearchParams(location.search);
// ?perfetto=URL: another Perfetto UI (a local one, or the tests' stand-in).
const PERFETTO_UI = params.get('perfetto') || 'https://ui.perfetto.dev';

const $ = (id) => document.getElementById(id);
const state = {inputs: [], descriptor: null, outputs: null, title: ''};
let worker = null;

function mib(n) {
  return n >= 1 << 30 ? (n / (1 << 30)).toFixed(1) + ' GiB' : (n / (1 << 20)).toFixed(1) + ' MiB';
}

function showError(text) {
  $('error').textContent = text;
  $('error').hidden = !text;
}

function addFiles(list) {
  for (const file of list) {
    if (file.name === 'tband_schema.json') {
      state.descriptor = file;
      continue;
    }
    if (state.inputs.some((i) => i.file.name === file.name)) {
      showError(`${file.name}: a file of that name is there already (rename one to give both)`);
      continue;
    }
    state.inputs.push({file, core: state.inputs.length});
  }
  renderFiles();
}

function renderFiles() {
  const body = $('file-list').querySelector('tbody');
  body.textContent = '';
  state.inputs.forEach((input, index) => {
    const row = body.insertRow();
    row.insertCell().textContent = input.file.name;
    const size = row.insertCell();
    size.className = 'num';
    size.textContent = input.file.size + ' B';
    const core = document.createElement('input');
    core.type = 'number';
    core.min = '0';
    core.max = '31';
    core.value = input.core;
    core.className = 'core';
    core.onchange = () => { input.core = Math.max(0, parseInt(core.value, 10) || 0); };
    row.insertCell().append(core);
    const remove = document.createElement('button');
    remove.className = 'remove';
    remove.textContent = '×';
    remove.title = 'remove';
    remove.onclick = () => { state.inputs.splice(index, 1); renderFiles(); };
    row.insertCell().append(remove);
  });
  $('file-list').hidden = state.inputs.length === 0;
  $('convert').disabled = state.inputs.length === 0;
}

// The tables `tband stats` prints (the converter's stats_tables), cell for cell.
function renderStats(tables) {
  const box = $('stats');
  box.textContent = '';
  for (const t of tables) {
    box.append(Object.assign(document.createElement('h4'), {textContent: t.title}));
    const table = document.createElement('table');
    table.className = 'stats';
    table.dataset.title = t.title;
    const head = table.createTHead().insertRow();
    for (const name of t.header) head.append(Object.assign(document.createElement('th'), {textContent: name}));
    const body = table.createTBody();
    for (const row of t.rows) {
      const tr = body.insertRow();
      row.forEach((cell, i) => {
        const td = tr.insertCell();
        td.textContent = cell;
        if (t.right[i]) td.className = 'num';
      });
    }
    box.append(table);
  }
}

function renderSummary(s) {
  const dl = $('summary');
  dl.textContent = '';
  const items = [
    ['events', s.events], ['tracks', s.tracks], ['duration', (s.duration_ns / 1e6).toFixed(3) + ' ms'],
    ['dropped-events', s.dropped_events], ['undecodable-frames', s.decode_errors], ['input-bytes', s.input_bytes],
    ['perfetto-bytes', s.perfetto_bytes], ['json-bytes', s.json_bytes],
    ['conversion-time', (s.convert_ms / 1e3).toFixed(2) + ' s'],
    ['outputs-kept-in', s.outputs_in === 'storage' ? "the browser's private storage" : "the tab's memory"],
  ];
  for (const [key, value] of items) {
    dl.append(Object.assign(document.createElement('dt'), {textContent: key.replace(/-/g, ' ')}));
    const dd = Object.assign(document.createElement('dd'), {textContent: String(value)});
    dd.id = 'summary-' + key;
    dl.append(dd);
  }
  // What the CLI says as warnings besides the diagnostics (tick options in the page's terms).
  const warnings = $('warnings');
  warnings.textContent = '';
  for (const text of [...s.unused_options, ...s.schema_conflicts]) {
    warnings.append(Object.assign(document.createElement('li'), {textContent: 'warning: ' + text}));
  }
  warnings.hidden = !warnings.childElementCount;
  const diag = $('diagnostics');
  diag.textContent = '';
  if (!s.diagnostics.length) {
    diag.textContent = 'none';
  } else {
    const table = document.createElement('table');
    table.id = 'diagnostic-kinds';
    const head = table.createTHead().insertRow();
    for (const name of ['kind', 'count', 'first']) head.append(Object.assign(document.createElement('th'), {textContent: name}));
    const body = table.createTBody();
    for (const d of s.diagnostics) {
      const tr = body.insertRow();
      tr.dataset.kind = d.id;
      tr.insertCell().textContent = d.kind;
      tr.insertCell().textContent = d.count;
      tr.insertCell().textContent = d.first.join('\n');
    }
    diag.append(table);
    diag.append(Object.assign(document.createElement('pre'), {textContent: s.diagnostics_text}));
  }
  renderStats(s.stats_tables);
}

/// The converter's worker, started when the page opens: it loads the
/// converter and warms it up while the user picks files (web/worker.js).
function startWorker() {
  if (worker) return;
  worker = new Worker('worker.js');
  worker.onerror = (e) => { showError('the converter failed to load: ' + e.message); $('convert').disabled = false; };
  worker.onmessage = onWorkerMessage;
}

function convert() {
  showError('');
  $('result').hidden = true;
  document.body.dataset.state = '';  // this attempt's state: '' until it converts
  const total = state.inputs.reduce((n, i) => n + i.file.size, 0);
  if (total > MAX_INPUT_BYTES) {
    showError(`tband conv: error: ${mib(total)} of input is above this page's limit of ${mib(MAX_INPUT_BYTES)}: ` +
              'convert it with the tband command');
    return;
  }
  startWorker();
  $('convert').disabled = true;
  state.outputs = null;  // the worker removes the previous job's output files
  $('result').hidden = true;
  $('progress').hidden = false;
  $('progress').removeAttribute('value');
  document.body.dataset.state = 'converting';
  state.title = state.inputs.map((i) => i.file.name).join(' + ');
  worker.postMessage({
    inputs: state.inputs.map((i) => ({file: i.file, core: i.core})),
    descriptor: state.descriptor,
    mode: $('mode').value,
    format: $('format').value,
    ts_resolution_ns: Number($('tick').value) || 0,  // empty: the trace's own
    threadx_clock_hz: Number($('threadx-hz').value) || 0,  // empty: ThreadX's default, 1 MHz
    json: $('want-json').checked,  // a big trace's JSON is several times its .pftrace
    stats: params.get('stats') !== '0',  // ?stats=0: the .pftrace only, as `tband conv` (bench/web_bench.py)
    storage: params.get('storage') !== '0',  // ?storage=0: outputs in the tab's memory, not the private storage
  });
}

function onWorkerMessage(event) {
  const msg = event.data;
  if (msg.type === 'phase') {  // where the worker is in a job: for the tests, and to see where one stalls
    document.body.dataset.phase = msg.phase;
    return;
  }
  if (msg.type === 'warmed') {  // the warm-up's rounds (web/worker.js): for the tests
    document.body.dataset.warmed = msg.rounds;
    return;
  }
  if (msg.type === 'progress') {
    if (msg.total > 0) {
      $('progress').max = msg.total;
      $('progress').value = msg.done;
    }
    return;
  }
  $('progress').hidden = true;
  $('convert').disabled = false;
  const s = msg.summary;
  if (s.exit_code !== 0) {
    showError(`tband conv: error: ${s.error} (exit code ${s.exit_code})`);
    document.body.dataset.state = 'error';
    return;
  }
  state.outputs = msg.outputs;
  $('download-json').disabled = !msg.outputs.json;
  renderSummary(s);
  $('result').hidden = false;
  document.body.dataset.state = 'done';
}

function baseName() {
  const first = state.inputs.length ? state.inputs[0].file.name : 'trace';
  return first.replace(/\.[^.]*$/, '') || 'trace';
}

// An output's parts (worker.js: [File] in the browser's private storage, or
// ArrayBuffer chunks) as one ArrayBuffer, for Perfetto's postMessage.
async function joined(parts) {
  if (!parts.every((p) => p instanceof ArrayBuffer)) return new Blob(parts).arrayBuffer();
  const all = new Uint8Array(parts.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of parts) {
    all.set(new Uint8Array(c), at);
    at += c.byteLength;
  }
  return all.buffer;
}

function download(parts, name, type) {
  const url = URL.createObjectURL(new Blob(parts, {type}));
  const a = Object.assign(document.createElement('a'), {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// Perfetto's documented handshake: open the UI, send PING until it answers
// PONG, then post {perfetto: {buffer, title, fileName}}.
function openInPerfetto() {
  const origin = new URL(PERFETTO_UI).origin;
  const ui = window.open(PERFETTO_UI);
  if (!ui) {
    showError('the browser blocked the Perfetto window: allow pop-ups for this page');
    return;
  }
  const buffer = joined(state.outputs.pftrace);  // read while the UI loads
  let tries = 0;
  const timer = setInterval(() => {
    if (++tries > 300) {
      clearInterval(timer);
      window.removeEventListener('message', onPong);
      showError(`${PERFETTO_UI} did not answer (PING without PONG for 30 s)`);
      return;
    }
    ui.postMessage('PING', origin);
  }, 100);
  function onPong(event) {
    if (event.source !== ui || event.data !== 'PONG') return;
    clearInterval(timer);
    window.removeEventListener('message', onPong);
    buffer.then((b) => ui.postMessage({perfetto: {buffer: b, title: state.title, fileName: baseName() + '.pftrace'}}, origin),
                (e) => showError('the .pftrace could not be read back: ' + e));
  }
  window.addEventListener('message', onPong);
}

$('files').onchange = (e) => { addFiles(e.target.files); e.target.value = ''; };
$('descriptor').onchange = (e) => { state.descriptor = e.target.files[0] || null; };
$('convert').onclick = convert;
$('open-perfetto').onclick = openInPerfetto;
$('download-pftrace').onclick = () => download(state.outputs.pftrace, baseName() + '.pftrace', 'application/octet-stream');
$('download-json').onclick = () => download(state.outputs.json, baseName() + '.json', 'application/json');
const drop = $('drop');
drop.ondragover = (e) => { e.preventDefault(); drop.classList.add('over'); };
drop.ondragleave = () => drop.classList.remove('over');
drop.ondrop = (e) => { e.preventDefault(); drop.classList.remove('over'); addFiles(e.dataTransfer.files); };
try {
  startWorker();
} catch (e) {
  // e.g. a page opened from file://, where no worker starts: Convert tries again and says why
}
