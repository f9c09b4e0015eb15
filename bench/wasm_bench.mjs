// WASM decode throughput under node (bench/run.sh): the module the web worker
// runs, fed from an in-memory Uint8Array through the read(offset, length)
// callback, as in the browser. Prints one JSON object: medians of RUNS decodes,
// and the WASM heap size after decoding (the module's linear memory).
//   node bench/wasm_bench.mjs FILE [RUNS]
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadProfscope } from '../wasm/load-node.mjs';

const [file, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 5);
const bytes = new Uint8Array(fs.readFileSync(file));
const mod = await loadProfscope();
const read = (offset, length) => {
  const start = Math.min(Number(offset), bytes.length);
  return bytes.subarray(start, Math.min(bytes.length, start + Number(length)));
};
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const tDecode = [];
const tStacks = [];
let records = 0;
let samples = 0;
let heap = 0;
let heapDecode = 0;
for (let r = 0; r < runs; r++) {
  const s = new mod.Session(read, bytes.length, file);
  let t0 = performance.now();
  const ok = s.decode(() => {});
  tDecode.push((performance.now() - t0) / 1000);
  if (!ok) throw new Error('decode failed');
  // linear memory never shrinks: after the first decode it is the decode's own high-water mark
  if (r === 0) heapDecode = (mod.HEAP8 ?? mod.HEAPU8)?.buffer.byteLength ?? 0;
  t0 = performance.now();
  s.stacksText(false, '');
  tStacks.push((performance.now() - t0) / 1000);
  records = s.recordCount();
  samples = s.sampleStacks().length;
  heap = Math.max(heap, (mod.HEAP8 ?? mod.HEAPU8)?.buffer.byteLength ?? 0);
  s.delete();
}
const d = median(tDecode);
const mb = bytes.length / 1048576;
console.log(JSON.stringify({
  file, bytes: bytes.length, runs, records, samples,
  decode_s: +d.toFixed(4), decode_MBps: +(mb / d).toFixed(1), decode_records_per_s: Math.round(records / d),
  stacks_text_s: +median(tStacks).toFixed(4),
  wasm_heap_MB: heap ? +(heap / 1048576).toFixed(1) : null,
  wasm_heap_after_first_decode_MB: heapDecode ? +(heapDecode / 1048576).toFixed(1) : null,
  node_rss_MB: +(process.memoryUsage().rss / 1048576).toFixed(1),
}));
