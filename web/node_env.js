// The Node programs (build-web/node/*.js) see the real environment, as the native ones do
// (Emscripten's own is a fixed stand-in), and find the game data beside the build tree unless
// MUSKET_DATA_DIR says otherwise. Their .wasm is read from disk here: Emscripten 3.1.6 would
// otherwise fetch() it, which Node 18+ has but cannot use on a file path.
Module['wasmBinary'] = require('fs').readFileSync(__filename.replace(/\.js$/, '.wasm'));
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  Object.assign(ENV, process.env);
  if (!ENV['MUSKET_DATA_DIR'])
    ENV['MUSKET_DATA_DIR'] = require('path').join(__dirname, '..', 'share', 'musket', 'data');
});
