// The converter's thread: loads tband.js/tband.wasm once, then converts each
// request. Inputs are mounted read-only from the page's File objects
// (WORKERFS: read as the converter asks, never copied whole); outputs are
// streamed out of the converter in chunks (one copy) and handed to the page
// as transferred ArrayBuffers.
'use strict';
importScripts('tband.js');

let tband = null;
let chunks = {};  // the outputs as the converter streams them: name -> [ArrayBuffer]
const ready = createTband({
  tbandProgress: (done, total) => postMessage({type: 'progress', done, total}),
  // A view of the converter's memory, valid during the call: keep a copy (the one copy of the output).
  tbandOutput: (name, bytes) => (chunks[name] = chunks[name] || []).push(bytes.slice().buffer),
}).then((module) => {
  tband = module;
  tband.FS.mkdir('/in');
  readInBlocks(tband.WORKERFS);
});

// WORKERFS reads each request of the converter (64 KiB and smaller) as its
// own FileReaderSync call, which costs far more than the bytes in Chromium
// (bench/RESULTS.md); this reads the mounted files in 8 MiB blocks instead
// and serves the requests from the last block read.
function readInBlocks(workerfs) {
  const kBlock = 8 << 20;
  const reader = new FileReaderSync();
  let block = {file: null, start: 0, bytes: new Uint8Array(0)};
  workerfs.stream_ops.read = (stream, buffer, offset, length, position) => {
    const file = stream.node.contents;
    const end = Math.min(position + length, file.size);
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
    return Math.max(0, end - position);
  };
}

onmessage = async (event) => {
  const job = event.data;
  try {
    await ready;
  } catch (e) {
    postMessage({type: 'done', summary: {exit_code: 70, error: 'the converter did not load: ' + e}});
    return;
  }
  const files = job.inputs.map((i) => i.file);
  if (job.descriptor) files.push(job.descriptor);
  tband.FS.mount(tband.WORKERFS, {files}, '/in');
  tband.FS.chdir('/in');
  const request = {
    inputs: job.inputs.map((i) => i.file.name + '@' + i.core),
    schemas: job.descriptor ? [job.descriptor.name] : [],
    mode: job.mode,
    format: job.format,
    perfetto: 'js:pftrace',  // streamed to tbandOutput, not kept in the file system
    json: job.json ? 'js:json' : '',
    stats: job.stats,
  };
  let summary;
  try {
    const started = performance.now();
    summary = JSON.parse(tband.ccall('tband_web_convert', 'string', ['string'], [JSON.stringify(request)]));
    summary.convert_ms = performance.now() - started;  // shown on the page, read by bench/web_bench.py
  } catch (e) {
    summary = {exit_code: 70, error: 'the converter stopped: ' + e};
  }
  tband.FS.chdir('/');
  tband.FS.unmount('/in');
  // Each output as its list of chunks, transferred, not copied (app.js joins them only for Perfetto).
  const outputs = summary.exit_code === 0 ? {pftrace: chunks.pftrace || [], json: chunks.json || null} : {};
  chunks = {};
  postMessage({type: 'done', summary, outputs}, [...(outputs.pftrace || []), ...(outputs.json || [])]);
};
