// The page's engine in a Web Worker, so the page never freezes: musket-web.js (the command
// registry compiled to WebAssembly, web/web_entry.cpp) answers {words, files} with the CLI's
// exit code, stdout and stderr. Files (a scenario or plan opened on the phone) are written to
// /files/ first. The page cancels a long run by ending this worker and starting a new one.
/* global createMusket */
importScripts('musket-web.js');

let out = [];
let err = [];
const engine = createMusket({
  preRun: [(module) => {
    module.FS.init(null, (c) => { if (c !== null) out.push(c); }, (c) => { if (c !== null) err.push(c); });
    module.ENV.MUSKET_DATA_DIR = '/data';
    module.ENV.COLUMNS = '72';  // a phone-wide table when text is copied
  }],
});

const utf8 = new TextDecoder();
function text(bytes) {
  return utf8.decode(new Uint8Array(bytes));
}

onmessage = async (event) => {
  const { id, words, files } = event.data;
  const musket = await engine;
  for (const [name, content] of Object.entries(files || {})) {
    try { musket.FS.mkdir('/files'); } catch (e) { /* already there */ }
    musket.FS.writeFile('/files/' + name, content);
  }
  out = [];
  err = [];
  const started = performance.now();
  const argument = JSON.stringify(words);
  const size = musket.lengthBytesUTF8(argument) + 1;
  const pointer = musket._malloc(size);
  musket.stringToUTF8(argument, pointer, size);
  let code;
  try {
    code = musket._musket_run(pointer);
  } catch (e) {
    code = 1;
    err = Array.from(new TextEncoder().encode('musket: internal error: ' + e + '\n'));
  }
  musket._free(pointer);
  postMessage({ id, code, stdout: text(out), stderr: text(err), ms: performance.now() - started });
};
engine.then(() => postMessage({ ready: true }));
