// The converter's thread: loads tband.js/tband.wasm once, then converts each
// request. Inputs are mounted from the page's File objects (WORKERFS) and
// outputs are streamed out of the converter in chunks.
//
// Where the browser has the origin-private file system with synchronous
// access handles (a secure context: https or localhost), the outputs are
// written to it, as the tband command writes files: the page gets each output
// as a File on disk and not as a copy in the tab's memory; and each input is
// copied into it by a stager (stager.js) while the converter reads the copy.
// That is also the fast way here: filling freshly allocated memory cost more
// than the copies themselves, and FileReaderSync more than a stream read
// (bench/RESULTS.md). Elsewhere, when the storage refuses, or where the copy
// has not got far enough yet, inputs are read from the File in blocks and
// outputs kept as chunks in memory.
'use strict';
importScripts('tband.js');

const kBlock = 8 << 20;  // input read size
const kWarmUpRounds = 20;  // of host/web/warm_up.cpp's conversion, while no job has come
let tband = null;
let jobsStarted = 0;  // the warm-up stops at the first
let warming = false;  // a warm-up round runs: its progress is not the page's
let outputs = new Map();  // name -> OpfsOutput or MemoryOutput, for the job that runs
let staged = new Map();  // a mounted File -> its copy in the private file system (an OpfsFile)
const ready = createTband({
  tbandProgress: (done, total) => warming || postMessage({type: 'progress', done, total}),
  // A view of the converter's memory, valid during the call only.
  tbandOutput: (name, bytes) => outputs.get(name).write(bytes),
}).then((module) => {
  tband = module;
  tband.FS.mkdir('/in');
  serveReads(tband.WORKERFS);
  warmUp();
});

/// While the page waits for a file, converts a small built-in trace a few
/// times, so that the first real conversion runs on the engine's optimised
/// code (host/web/warm_up.cpp says why). One round per turn of the event
/// loop: a job that comes waits for one round at most, and ends the warm-up.
/// Posts {type: 'warmed', rounds} when it stops.
async function warmUp() {
  let rounds = 0;
  while (rounds < kWarmUpRounds && jobsStarted === 0) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (jobsStarted !== 0) break;
    warming = true;
    let code = 70;
    try {
      code = tband.ccall('tband_web_warm_up', 'number', [], []);
    } catch (e) {
      // only a head start: a job converts all the same
    } finally {
      warming = false;
    }
    if (code !== 0) break;
    ++rounds;
  }
  postMessage({type: 'warmed', rounds});
}

/// An output kept in memory: a copy of each chunk.
class MemoryOutput {
  constructor() { this.chunks = []; }
  write(bytes) { this.chunks.push(bytes.slice().buffer); }
  async finish() { return this.chunks; }
  discard() {}
}

/// A file in the private file system with its synchronous handle (which locks it).
class OpfsFile {
  static async create(root, name, options = {}) {
    const fileHandle = await root.getFileHandle(name, {create: true});
    const handle = await fileHandle.createSyncAccessHandle(options);
    handle.truncate(0);
    return new OpfsFile(root, name, fileHandle, handle);
  }
  constructor(root, name, fileHandle, handle) {
    Object.assign(this, {root, name, fileHandle, handle});
  }
  close() {
    if (this.handle) this.handle.close();
    this.handle = null;
  }
  async remove() {
    this.close();
    await this.root.removeEntry(this.name).catch(() => {});
  }
}

/// An output written to the private file system; if the storage refuses a
/// write (quota), what is written so far moves to memory and the rest follows it.
class OpfsOutput {
  constructor(file) {
    this.file = file;
    this.size = 0;
    this.memory = null;
  }
  write(bytes) {
    if (this.memory) return this.memory.write(bytes);
    let written = 0;
    try {
      written = this.file.handle.write(bytes, {at: this.size});
    } catch (e) {
      // the storage refused (quota): memory from here on
    }
    this.size += written;
    if (written < bytes.length) {
      this.memory = new MemoryOutput();
      const head = new Uint8Array(this.size);
      this.file.handle.read(head, {at: 0});
      this.memory.chunks.push(head.buffer);
      this.memory.write(bytes.subarray(written));
    }
  }
  async finish() {
    if (this.memory) {
      await this.file.remove();
      return this.memory.finish();
    }
    this.file.close();  // not flushed: a scratch file, read back by the page only
    return [await this.file.fileHandle.getFile()];
  }
  discard() { return this.file.remove(); }
}

/// `promise`'s value, or `otherwise` if it has not settled within `ms`: the
/// storage and the stager are the browser's, and a job must end even if one
/// of them stops answering (the page then falls back to its memory).
function within(ms, promise, otherwise) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(otherwise), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/// The private file system's root, or null where there is none to use.
async function privateStorage() {
  try {
    if (typeof FileSystemSyncAccessHandle === 'undefined' || !navigator.storage) return null;
    return await within(10000, navigator.storage.getDirectory(), null);
  } catch (e) {
    return null;
  }
}

// Names of this worker's files in the private storage: unique per tab and job.
const kPrefix = 'tband-' + Math.random().toString(36).slice(2) + '-';
let jobNumber = 0;
let lastOutputs = [];  // the previous job's files: the page keeps them until the next job
let orphansRemoved = false;
// This worker's files are its own while it lives: a lock by their prefix says so to other tabs.
if (self.navigator && navigator.locks) navigator.locks.request(kPrefix, () => new Promise(() => {}));

/// Removes the scratch files of workers that are gone (a tab closed before
/// its next conversion): those whose prefix no lock holds.
async function removeOrphans(root) {
  try {
    if (!navigator.locks) return;
    const held = new Set((await navigator.locks.query()).held.map((lock) => lock.name));
    const orphans = [];
    for await (const name of root.keys()) {
      const prefix = /^tband-[a-z0-9]+-/.exec(name);
      if (prefix && !held.has(prefix[0])) orphans.push(name);
    }
    await Promise.all(orphans.map((name) => root.removeEntry(name).catch(() => {})));
  } catch (e) {
    // only housekeeping: the conversion goes on
  }
}

/// Starts copying `file` into the storage as `name` beside the conversion
/// (stager.js); the copy as an OpfsFile the converter reads while it grows,
/// with `finished`, a promise of the stager's end; null where it cannot start.
async function startStager(root, file, name) {
  // Both handles 'readwrite-unsafe': the stager writes while the converter reads.
  const copy = await within(10000, OpfsFile.create(root, name, {mode: 'readwrite-unsafe'}).catch(() => null), null);
  if (!copy) return null;
  const stager = new Worker('stager.js');
  copy.available = 0;  // bytes known to be copied
  copy.stop = () => stager.postMessage('stop');
  copy.kill = () => stager.terminate();
  let started;
  const running = new Promise((resolve) => { started = resolve; });
  copy.finished = new Promise((resolve) => {
    stager.onmessage = (e) => (e.data.started ? started(true) : resolve(e.data));
    stager.onerror = (e) => resolve({error: e.message});
  }).finally(() => {
    started(false);
    stager.terminate();
  });
  stager.postMessage({file, name});
  // A worker started from this one needs this one's event loop to start: wait
  // for it here, before the conversion holds the loop.
  if (!(await within(10000, running, false))) {
    stager.terminate();
    await within(5000, copy.remove());
    return null;
  }
  return copy;
}

/// Whether the staged copy holds the file's bytes up to `end`: waits for it
/// a little (the stager copies faster than the converter reads), and no more
/// once the copy has stopped growing while waited for (the stager failed).
function copiedUpTo(copy, end) {
  if (copy.available >= end) return true;
  const before = copy.available = copy.handle.getSize();
  const deadline = performance.now() + (copy.stalled ? 0 : 20);
  while (copy.available < end && performance.now() < deadline) {
    copy.available = copy.handle.getSize();
  }
  if (copy.available >= end) return true;
  copy.stalled = copy.available === before;
  return false;
}

// Serves the converter's reads of a mounted file: from its staged copy when
// that has the bytes, else from the File in 8 MiB blocks (WORKERFS alone makes one
// FileReaderSync call per request of the converter, 64 KiB and smaller, which
// costs far more than the bytes in Chromium: bench/RESULTS.md).
function serveReads(workerfs) {
  const reader = new FileReaderSync();
  let block = {file: null, start: 0, bytes: new Uint8Array(0)};
  workerfs.stream_ops.read = (stream, buffer, offset, length, position) => {
    const file = stream.node.contents;
    const end = Math.min(position + length, file.size);
    if (end <= position) return 0;
    const inBlock = block.file === file && position >= block.start && end <= block.start + block.bytes.length;
    const copy = staged.get(file);
    if (!inBlock && copy && copiedUpTo(copy, end)) {
      return copy.handle.read(buffer.subarray(offset, offset + (end - position)), {at: position});
    }
    let at = position;
    while (at < end) {
      if (block.file !== file || at < block.start || at >= block.start + block.bytes.length) {
        const start = at - (at % kBlock);
        block = {file, start, bytes: new Uint8Array(reader.readAsArrayBuffer(file.slice(start, start + kBlock)))};
      }
      const n = Math.min(end - at, block.start + block.bytes.length - at);
      buffer.set(block.bytes.subarray(at - block.start, at - block.start + n), offset + (at - position));
      at += n;
    }
    return end - position;
  };
}

onmessage = async (event) => {
  const job = event.data;
  ++jobsStarted;
  try {
    await ready;
  } catch (e) {
    postMessage({type: 'done', summary: {exit_code: 70, error: 'the converter did not load: ' + e}});
    return;
  }
  const phase = (name) => postMessage({type: 'phase', phase: name});
  const started = performance.now();  // the module is loaded (once per page)
  const prefix = kPrefix + (++jobNumber) + '-';
  const root = job.storage === false ? null : await privateStorage();  // false: the in-memory way
  phase('storage');
  if (root && !orphansRemoved) {
    orphansRemoved = true;
    await within(5000, removeOrphans(root));
  }
  phase('previous-outputs');
  // The page drops the previous outputs when it starts a job.
  await within(5000, Promise.all(lastOutputs.map((f) => f.remove())));
  lastOutputs = [];

  const files = job.inputs.map((i) => i.file);
  if (job.descriptor) files.push(job.descriptor);
  phase('stager');
  if (root) {
    for (const [i, input] of job.inputs.entries()) {
      const copy = await startStager(root, input.file, prefix + 'in' + i);
      if (copy) staged.set(input.file, copy);
    }
  }
  phase('output-files');
  const wanted = job.json ? ['pftrace', 'json'] : ['pftrace'];
  for (const name of wanted) {
    const file = root && await within(10000, OpfsFile.create(root, prefix + name).catch(() => null), null);
    outputs.set(name, file ? new OpfsOutput(file) : new MemoryOutput());
  }

  phase('converting');
  const setup_ms = performance.now() - started;
  tband.FS.mount(tband.WORKERFS, {files}, '/in');
  tband.FS.chdir('/in');
  const request = {
    inputs: job.inputs.map((i) => i.file.name + '@' + i.core),
    schemas: job.descriptor ? [job.descriptor.name] : [],
    mode: job.mode,
    format: job.format,
    ts_resolution_ns: job.ts_resolution_ns || 0,  // 0: the trace's own (or 1 ns, with a warning)
    threadx_clock_hz: job.threadx_clock_hz || 0,  // 0: a ThreadX buffer's default rate
    perfetto: 'js:pftrace',  // streamed to tbandOutput, not kept in the converter's file system
    json: job.json ? 'js:json' : '',
    stats: job.stats,
  };
  let summary;
  try {
    summary = JSON.parse(tband.ccall('tband_web_convert', 'string', ['string'], [JSON.stringify(request)]));
  } catch (e) {
    summary = {exit_code: 70, error: 'the converter stopped: ' + e};
  }
  const called_ms = performance.now() - started;
  tband.FS.chdir('/');
  tband.FS.unmount('/in');
  phase('stager-stop');
  await Promise.all([...staged.values()].map(async (copy) => {
    copy.stop();
    await within(5000, copy.finished);
    copy.kill();  // done already when it answered: a stager that did not is ended here
    await within(5000, copy.remove());
  }));
  const stagedInputs = staged.size;
  staged = new Map();

  // Each output as a list of parts for a Blob: [File] from the storage, or
  // the chunks in memory (transferred, not copied).
  phase('outputs');
  const result = {};
  for (const [name, output] of outputs) {
    if (summary.exit_code === 0) {
      result[name] = await output.finish();
      if (output.file && !output.memory) lastOutputs.push(output.file);
    } else {
      await output.discard();
    }
  }
  outputs = new Map();
  const pageOutputs = summary.exit_code === 0 ? {pftrace: result.pftrace, json: result.json || null} : {};
  // From the job's start to its outputs ready: the storage's files made and removed included.
  summary.convert_ms = performance.now() - started;  // shown on the page, read by bench/web_bench.py
  summary.outputs_in = root && lastOutputs.length ? 'storage' : 'memory';
  summary.staged_inputs = stagedInputs;  // inputs the converter read (in part) from a copy in the storage
  summary.phases_ms = {setup: setup_ms, converter: called_ms - setup_ms, outputs: summary.convert_ms - called_ms};
  const transfer = Object.values(pageOutputs).flat().filter((p) => p instanceof ArrayBuffer);
  postMessage({type: 'done', summary, outputs: pageOutputs}, transfer);
};
