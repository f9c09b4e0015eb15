// Writes a synthetic pipe-mode perf.data with N samples (default 1,000,000) for the flame chart
// benchmark: the header records of tests/data/perf/pipe_mode/pipe.data (pipe header, attr,
// features, COMM, MMAP2…) followed by its 305 real SAMPLE records repeated round-robin, each
// copy's time rewritten to base + i * 1 ms / 1000 (1 µs apart: 1 M samples = 1 s).
//   node e2e/bench/make-big-pipe.mjs [N] [OUT]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const N = Number(process.argv[2] || 1_000_000);
const OUT = process.argv[3] || path.join(REPO, 'build', 'bench', 'big.pipe.data');
const src = fs.readFileSync(path.join(REPO, 'tests', 'data', 'perf', 'pipe_mode', 'pipe.data'));
const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);

// walk the records: header 16 bytes, then {u32 type, u16 misc, u16 size}
let off = 16;
let firstSample = -1;
const samples = [];
while (off + 8 <= src.length) {
  const type = dv.getUint32(off, true);
  const size = dv.getUint16(off + 6, true);
  if (size < 8) break;
  if (type === 9) {
    if (firstSample < 0) firstSample = off;
    samples.push(src.subarray(off, off + size));
  }
  off += size;
}
if (firstSample < 0 || !samples.length) throw new Error('no SAMPLE records in pipe.data');
// pipe.data's sample_type: IP | TID | TIME | ID | PERIOD | CALLCHAIN -> time at +24
const TIME_AT = 24;
const base = Number(dv.getBigUint64(firstSample + TIME_AT, true));
fs.mkdirSync(path.dirname(OUT), { recursive: true });
const fd = fs.openSync(OUT, 'w');
fs.writeSync(fd, src.subarray(0, firstSample));
const CHUNK = 1 << 22;
let buf = Buffer.alloc(CHUNK);
let used = 0;
for (let i = 0; i < N; i++) {
  const rec = samples[i % samples.length];
  if (used + rec.length > CHUNK) {
    fs.writeSync(fd, buf.subarray(0, used));
    used = 0;
  }
  rec.copy ? rec.copy(buf, used) : buf.set(rec, used);
  buf.writeBigUInt64LE(BigInt(base + i * 1000), used + TIME_AT);
  used += rec.length;
}
fs.writeSync(fd, buf.subarray(0, used));
fs.closeSync(fd);
console.log(`${OUT}: ${N} samples, ${fs.statSync(OUT).size} bytes`);
