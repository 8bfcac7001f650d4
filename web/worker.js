// The converter's thread: loads tband.js/tband.wasm once, then converts each
// request. Inputs are mounted read-only from the page's File objects
// (WORKERFS: read as the converter asks, never copied whole); outputs are
// written to memory and handed back as transferred ArrayBuffers.
'use strict';
importScripts('tband.js');

let tband = null;
const ready = createTband({
  tbandProgress: (done, total) => postMessage({type: 'progress', done, total}),
}).then((module) => {
  tband = module;
  tband.FS.mkdir('/in');
  tband.FS.mkdir('/out');
});

function readOutput(path) {
  try {
    const bytes = tband.FS.readFile(path);
    tband.FS.unlink(path);
    return bytes.buffer;
  } catch (e) {
    return null;
  }
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
    perfetto: '/out/trace.pftrace',
    json: job.json ? '/out/trace.json' : '',
  };
  let summary;
  try {
    summary = JSON.parse(tband.ccall('tband_web_convert', 'string', ['string'], [JSON.stringify(request)]));
  } catch (e) {
    summary = {exit_code: 70, error: 'the converter stopped: ' + e};
  }
  tband.FS.chdir('/');
  tband.FS.unmount('/in');
  const pftrace = readOutput('/out/trace.pftrace');
  const json = readOutput('/out/trace.json');
  const outputs = summary.exit_code === 0 ? {pftrace, json} : {};
  postMessage({type: 'done', summary, outputs}, Object.values(outputs).filter(Boolean));
};
