// Copies one input File into the browser's private storage for worker.js,
// beside the conversion: the converter reads the copy as it grows (a
// synchronous access handle on the same file) and is never made to wait
// for the whole copy. Stops early when told (the conversion ended).
'use strict';
const kBlock = 8 << 20;  // fewer, larger stream reads: less of the browser's time beside the conversion
let stopped = false;

onmessage = async (event) => {
  if (event.data === 'stop') {
    stopped = true;
    return;
  }
  const {file, name} = event.data;
  let handle = null;
  let copied = 0;
  try {
    const root = await navigator.storage.getDirectory();
    const fileHandle = await root.getFileHandle(name);
    handle = await fileHandle.createSyncAccessHandle({mode: 'readwrite-unsafe'});
    postMessage({started: true});  // the converter waits for this: a worker it starts cannot start while it converts
    const reader = file.stream().getReader({mode: 'byob'});
    let buffer = new ArrayBuffer(kBlock);  // one buffer, reused: fresh memory costs more than the copy
    while (!stopped) {
      const {done, value} = await reader.read(new Uint8Array(buffer));
      if (done) break;
      if (handle.write(value, {at: copied}) !== value.length) throw new Error('short write');
      copied += value.length;
      buffer = value.buffer;
    }
    postMessage({copied});
  } catch (e) {
    postMessage({copied, error: String(e)});  // the converter reads the rest from the File itself
  } finally {
    if (handle) handle.close();
  }
};
