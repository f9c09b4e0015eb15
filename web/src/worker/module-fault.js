// @ts-check
// When a call into the WASM module failed in a way that leaves the module unusable: it trapped or aborted
// (WebAssembly.RuntimeError: Aborted(), unreachable, out of bounds), or the engine's stack ran out inside it
// (a RangeError: the module's own stack pointer is then left mid-call). The worker drops such a module and
// opens the next file in a fresh one (decode-worker.js).

/**
 * @param {unknown} err
 */
export function isModuleFault(err) {
  if (typeof WebAssembly !== 'undefined' && err instanceof WebAssembly.RuntimeError) return true;
  return err instanceof RangeError;
}

/**
 * What the page says about it.
 * @param {unknown} err
 * @param {string} message the error's own text
 */
export function moduleFaultMessage(err, message) {
  const why = err instanceof RangeError && /call stack/i.test(message) ? 'nested too deeply for the stack' : 'out of memory?';
  return `the decoder stopped: ${message} (${why}); open the file again or another one`;
}
