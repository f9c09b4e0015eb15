// Markdown tables of bench/formats/run.sh's results:  node bench/formats/report.mjs build/bench/formats.json
import fs from 'node:fs';

const r = JSON.parse(fs.readFileSync(process.argv[2] || 'build/bench/formats.json', 'utf8'));
const f = (x, d = 2) => (x == null ? '–' : Number(x).toFixed(d));
const MB = (b) => (b / 1048576).toFixed(0);
const int = (x) => Math.round(x).toLocaleString('en');
console.log(`\n| format | file | MB | records | samples | native decode | native MB/s | records/s | WASM decode | WASM/native | WASM heap (MB) | native peak RSS (MB) |`);
console.log(`|---|---|---|---|---|---|---|---|---|---|---|---|`);
for (const [k, x] of Object.entries(r)) {
  const n = x.native, w = x.wasm;
  console.log(`| ${k} | ${n.file.split('/').pop()} | ${MB(n.bytes)} | ${int(n.records)} | ${int(n.samples)} | ${f(n.decode_s, 3)} s | ${f(n.decode_MBps, 1)} | ${int(n.decode_records_per_s)} | ${f(w.decode_s, 3)} s | ${f(w.decode_s / n.decode_s)}× | ${w.wasm_heap_MB} | ${f(n.peak_rss_MB, 0)} |`);
}
const x = r.xray.native;
console.log(`\nXRay (native, medians): decode with the YAML map (names) ${f(x.decode_with_side_s, 3)} s; StacksText ${f(x.stacks_text_s, 3)} s; EventsText ${f(x.events_text_s, 3)} s; ${x.diagnostics} diagnostics.`);
for (const [k, x] of Object.entries(r)) {
  if (!x.procs.length) continue;
  const base = x.procs.find((p) => p.name.startsWith('profscope info'));
  console.log(`\n| ${k}: process on the same file (output to /dev/null) | wall (median) | CPU user+sys (median) | peak RSS (MB) | exit | wall ÷ profscope info | CPU ÷ profscope info |`);
  console.log(`|---|---|---|---|---|---|---|`);
  for (const p of x.procs)
    console.log(`| \`${p.name}\` | ${f(p.wall_s)} s | ${f(p.cpu_s)} s | ${f(p.peak_rss_MB, 0)} | ${p.exit}${p.exit && p.stderr ? ' (' + p.stderr.trim().slice(0, 80) + ')' : ''} | ${base ? f(p.wall_s / base.wall_s, 1) + '×' : '–'} | ${base && base.cpu_s > 0 ? f(p.cpu_s / base.cpu_s, 1) + '×' : '–'} |`);
}
const j = r.jitdump;
console.log(`\njitdump: no competing tool reads a jit dump on its own (perf only through \`perf inject --jit\` with a perf.data); profscope native: ${int(j.native.decode_records_per_s)} records/s, WASM: ${int(j.wasm.decode_records_per_s)} records/s (${j.gen.code_load} CODE_LOAD, ${j.gen.code_move} CODE_MOVE, ${j.gen.debug_info} DEBUG_INFO).`);
