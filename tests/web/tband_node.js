// Runs the WebAssembly converter under Node as `tband conv` would run:
//   node tband_node.js WEBDIR [--json OUT] [-o OUT.pftrace] [--schema D.json]
//        [--mode freertos|bare-metal] [--format F] [--core-count N] [--ts-resolution-ns NS] [--time] [--no-stats]
//        [--fs-output] [--warm-up N] INPUT[@CORE]...
// Inputs are copied into the converter's file system under their base names
// (the working directory is /in), so messages name them as the CLI run from
// their folder does. Prints the converter's JSON summary; exit code as the CLI's.
// --warm-up N: first N rounds of the page's warm-up (host/web/warm_up.cpp);
// their exit codes go into the summary as "warm_up".
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const args = process.argv.slice(2);
  const webdir = args.shift();
  const request = {inputs: [], schemas: [], mode: 'freertos', format: 'auto'};
  const outs = {};
  const files = [];
  let timed = false;  // --time: the conversion's milliseconds in the summary (bench/RESULTS.md)
  let viaFs = false;  // --fs-output: outputs through the module's file system, not streamed (bench/RESULTS.md)
  let warmUpRounds = 0;  // --warm-up N
  while (args.length) {
    const a = args.shift();
    if (a === '--json') outs.json = args.shift();
    else if (a === '-o') outs.perfetto = args.shift();
    else if (a === '--schema') files.push(['schema', args.shift()]);
    else if (a === '--mode') request.mode = args.shift();
    else if (a === '--format') request.format = args.shift();
    else if (a === '--core-count') request.core_count = Number(args.shift());
    else if (a === '--ts-resolution-ns') request.ts_resolution_ns = Number(args.shift());
    else if (a === '--threadx-clock-hz') request.threadx_clock_hz = Number(args.shift());
    else if (a === '--time') timed = true;
    else if (a === '--no-stats') request.stats = false;
    else if (a === '--fs-output') viaFs = true;
    else if (a === '--warm-up') warmUpRounds = Number(args.shift());
    else files.push(['input', a]);
  }
  const createTband = require(path.resolve(webdir, 'tband.js'));
  // Streamed outputs ("js:NAME") are written as the chunks come, into a
  // temporary file renamed over the destination only when the conversion succeeds.
  const streams = {};
  const tbandOutput = (name, bytes) => {
    if (!(name in streams)) streams[name] = fs.openSync(outs[name] + '.part', 'w');
    fs.writeSync(streams[name], bytes);
  };
  const tband = await createTband({wasmBinary: fs.readFileSync(path.resolve(webdir, 'tband.wasm')), tbandOutput});
  tband.FS.mkdir('/in');
  tband.FS.mkdir('/out');
  tband.FS.chdir('/in');
  for (const [kind, arg] of files) {
    const at = kind === 'input' ? arg.lastIndexOf('@') : -1;
    const file = at > 0 && /^\d+$/.test(arg.slice(at + 1)) ? arg.slice(0, at) : arg;
    const name = path.basename(file);
    tband.FS.writeFile('/in/' + name, fs.readFileSync(file));
    if (kind === 'schema') request.schemas.push(name);
    else request.inputs.push(name + arg.slice(file.length));
  }
  for (const name of ['json', 'perfetto']) {
    if (outs[name]) request[name] = viaFs ? '/out/' + name : 'js:' + name;
  }
  const warmUp = [];
  for (let i = 0; i < warmUpRounds; i++) warmUp.push(tband.ccall('tband_web_warm_up', 'number', [], []));
  const started = process.hrtime.bigint();
  const summary = JSON.parse(tband.ccall('tband_web_convert', 'string', ['string'], [JSON.stringify(request)]));
  if (viaFs && summary.exit_code === 0) {
    for (const name in outs) fs.writeFileSync(outs[name], tband.FS.readFile('/out/' + name));
  }
  if (warmUpRounds) summary.warm_up = warmUp;
  if (timed) summary.convert_ms = Number(process.hrtime.bigint() - started) / 1e6;
  for (const name in streams) {
    fs.closeSync(streams[name]);
    if (summary.exit_code === 0) fs.renameSync(outs[name] + '.part', outs[name]);
    else fs.unlinkSync(outs[name] + '.part');
  }
  process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
  process.exitCode = summary.exit_code;
}
main().catch((e) => { console.error(e); process.exitCode = 70; });
