// Builds the hostile-input test set (issue 16) from real recordings in
// tests/data: perf record -z bombs (containers that expand to the header's
// mmap_len, one that expands past it), zstd frames that lie about their
// content size, and count lies (a callchain claiming 2^28 entries in
// 20 000 SAMPLE records). Each case names the diagnostic profscope must give.
// Needs the zstd command line tool (scripts/setup.sh installs it).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const PERF_Z = 'perf/perfparser_vector_static_gcc_zstd/perf.data';  // perf record -z (tests/data/SOURCES.perf.md)
const kCompressed = 81;
const kSample = 9;
const kFeatCompressed = 27;
const kFinishedRound = 12;
const kBlock = 128 << 10;  // zstd's largest block

function zstd(args, input) {
  const r = spawnSync('zstd', args, { input, maxBuffer: 1 << 30 });
  if (r.error) throw new Error(`zstd: ${r.error.message}`);
  return r;
}

// A perf.data (file mode, little-endian) cut into what the bombs keep and replace.
function parsePerfZ(buf) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.length);
  const u64 = (o) => Number(dv.getBigUint64(o, true));
  const f = { buf, dv, dataOff: u64(40), dataSize: u64(48), attrsOff: u64(24) };
  f.sampleType = dv.getBigUint64(f.attrsOff + 24, true);
  // Feature table: one {offset, size} per set bit of the header's bitmap, after the data.
  f.sections = [];
  let t = f.dataOff + f.dataSize;
  for (let b = 0; b < 256; b++) {
    if ((dv.getBigUint64(72 + 8 * (b >> 6), true) >> BigInt(b & 63)) & 1n) {
      f.sections.push({ id: b, entry: t, off: u64(t), size: u64(t + 8) });
      t += 16;
    }
  }
  const comp = f.sections.find((s) => s.id === kFeatCompressed);
  if (!comp) throw new Error('the -z recording has no HEADER_COMPRESSED feature');
  f.mmapLen = dv.getUint32(comp.off + 16, true);
  // The records inside its containers, decompressed by the zstd tool (perf
  // flushes but never ends the stream's frame: zstd reports a premature end
  // after writing everything).
  const parts = [];
  for (let off = f.dataOff; off < f.dataOff + f.dataSize; ) {
    const type = dv.getUint32(off, true), size = dv.getUint16(off + 6, true);
    if (type === kCompressed) parts.push(buf.subarray(off + 8, off + size));
    off += size;
  }
  const inner = zstd(['-d', '-c', '-q'], Buffer.concat(parts)).stdout;
  f.prefix = [];  // every record but SAMPLEs (COMM, MMAP2, ...): what names the samples
  f.samples = [];
  for (let o = 0; o + 8 <= inner.length; ) {
    const type = inner.readUInt32LE(o), size = inner.readUInt16LE(o + 6);
    if (size < 8) break;
    (type === kSample ? f.samples : f.prefix).push(inner.subarray(o, o + size));
    o += size;
  }
  return f;
}

function compressedRecord(z) {
  if (z.length + 8 > 0xffff) throw new Error(`zstd frame of ${z.length} bytes does not fit a COMPRESSED record`);
  const h = Buffer.alloc(8);
  h.writeUInt32LE(kCompressed, 0);
  h.writeUInt16LE(0, 4);
  h.writeUInt16LE(z.length + 8, 6);
  return Buffer.concat([h, z]);
}

// The recording with its data section replaced by `data`; feature sections follow it.
function withData(f, data) {
  const oldEnd = f.dataOff + f.dataSize;
  const delta = data.length - f.dataSize;
  const head = Buffer.from(f.buf.subarray(0, f.dataOff));
  head.writeBigUInt64LE(BigInt(data.length), 48);
  const tail = Buffer.from(f.buf.subarray(oldEnd));
  for (const s of f.sections) {
    const at = s.entry - oldEnd;
    if (s.off >= oldEnd) tail.writeBigUInt64LE(BigInt(s.off + delta), at);
  }
  return Buffer.concat([head, data, tail]);
}

// A periodic zstd stream: `records` (whole records, fewer than 128 KiB of
// them) padded with 8-byte FINISHED_ROUND records to one 128 KiB zstd block
// of content. zstd encodes every block of such content after the second the
// same way (one match at the period), so `head` (frame header and two blocks)
// followed by `rep` any number of times is a valid unended frame (perf never
// ends its stream's frame either) that expands to one cycle per block.
function periodicStream(records) {
  const cycle = [];
  let n = 0;
  for (const r of records) {
    if (n + r.length > kBlock) break;
    cycle.push(r);
    n += r.length;
  }
  const samples = cycle.length;
  const round = Buffer.alloc(8);
  round.writeUInt32LE(kFinishedRound, 0);
  round.writeUInt16LE(8, 6);
  for (; n < kBlock; n += 8) cycle.push(round);
  const one = Buffer.concat(cycle);
  const z = zstd(['-c', '-q', '-3', '--no-check'], Buffer.concat([one, one, one, one, one, one])).stdout;
  const fhd = z[4];
  const single = (fhd >> 5) & 1;
  let p = 5 + (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3] + [single ? 1 : 0, 2, 4, 8][fhd >> 6];
  const hdr = p;
  const blocks = [];
  while (p < z.length && blocks.length < 4) {
    const h = z[p] | (z[p + 1] << 8) | (z[p + 2] << 16);
    const len = 3 + (((h >> 1) & 3) === 1 ? 1 : h >> 3);
    blocks.push(z.subarray(p, p + len));
    p += len;
  }
  if (blocks.length < 4 || !blocks[2].equals(blocks[3])) throw new Error('zstd did not encode the periodic blocks alike');
  return { head: Buffer.concat([z.subarray(0, hdr), blocks[0], blocks[1]]), rep: blocks[2], samples, cycle: one };
}

// A zstd frame of `bytes` from standard input: no content size in its header.
const frame = (bytes) => zstd(['-c', '-q', '-3'], bytes).stdout;

// A zstd frame that declares its content size (compressed from a file), and where that field is.
function frameWithSize(bytes, dir) {
  const p = path.join(dir, 'fcs.tmp');
  fs.writeFileSync(p, bytes);
  const z = Buffer.from(zstd(['-c', '-q', '-3', p]).stdout);
  fs.unlinkSync(p);
  const fhd = z[4];
  const fcsFlag = fhd >> 6, single = (fhd >> 5) & 1, dictFlag = fhd & 3;
  const fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag];
  const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][dictFlag];
  return { z, at, fcsBytes };
}

// The offset of a SAMPLE's callchain nr (PERF_SAMPLE_CALLCHAIN) within the record; -1 without one.
function callchainAt(sampleType) {
  const has = (bit) => (sampleType >> BigInt(bit)) & 1n;
  if (!has(5)) return -1;
  let o = 8;
  for (const bit of [16, 0, 1, 2, 3, 6, 9, 7, 8]) if (has(bit)) o += 8;  // IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD
  return has(4) ? -1 : o;  // READ's size varies: not handled
}

// Writes the set into `dir`; returns [{name, file, args, code, what}].
export function makeHostileSet(dataDir, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const f = parsePerfZ(fs.readFileSync(path.join(dataDir, PERF_Z)));
  const cases = [];
  const add = (name, bytes, code, what, args = []) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    cases.push({ name, file, code, what, args });
  };
  const prefix = frame(Buffer.concat(f.prefix));  // a complete frame; the stream's next frame follows
  const head = compressedRecord(frame(Buffer.concat([...f.prefix, ...f.samples])));
  const blocksPerMmap = Math.floor(f.mmapLen / kBlock);
  if (blocksPerMmap < 1) throw new Error(`mmap_len ${f.mmapLen} is below one zstd block`);

  // 1. Legal: after the first, each container expands to mmap_len rounded
  // down to 128 KiB blocks of real samples; 20 000 of them are ~10 GB of
  // samples in a ~1 MB file. The memory budget stops the decode.
  const ps = periodicStream(f.samples);
  const full = compressedRecord(Buffer.concat(Array(blocksPerMmap).fill(ps.rep)));
  const bomb = [compressedRecord(Buffer.concat([prefix, ps.head]))];
  for (let i = 0; i < 20000; i++) bomb.push(full);
  const bombFile = withData(f, Buffer.concat(bomb));
  add('z_bomb_mmap_len.data', bombFile, 'memory_budget',
    `20000 COMPRESSED records each expanding to ${blocksPerMmap * kBlock} of mmap_len ${f.mmapLen} bytes`);
  add('z_bomb_mmap_len_64.data', bombFile, 'memory_budget', 'the same with --max-memory 64', ['--max-memory', '64']);

  // 2. One zstd stream of ~4 GB in 400 KB: containers of 64 KB that each
  // expand to 680 MB, past mmap_len: perf refuses them. The first is cut at
  // mmap_len; the stream is then out of step, so the next ones fail.
  const perRecord = Math.floor((0xffff - 8) / ps.rep.length);
  const huge = compressedRecord(Buffer.concat(Array(perRecord).fill(ps.rep)));
  add('z_past_mmap_len.data', withData(f, Buffer.concat([compressedRecord(Buffer.concat([prefix, ps.head])), ...Array(6).fill(huge)])),
    'limit_exceeded', `6 COMPRESSED records of one stream each expanding to ${perRecord * kBlock} bytes, past mmap_len`);

  // 3. A frame whose header declares a content size it does not have: smaller, and 4 GB.
  const real = Buffer.concat([...f.prefix, ...f.samples]);
  for (const [name, value] of [['z_content_size_small.data', 64n], ['z_content_size_huge.data', 0xfffffff0n]]) {
    const { z, at, fcsBytes } = frameWithSize(real, dir);
    if (fcsBytes === 4) z.writeUInt32LE(Number(value), at);
    else if (fcsBytes === 8) z.writeBigUInt64LE(value, at);
    else throw new Error(`unexpected ${fcsBytes}-byte content size field`);
    add(name, withData(f, compressedRecord(z)), 'decompress_failed', `a zstd frame declaring ${value} bytes of content`);
  }

  // 4. 20 000 SAMPLE records whose callchain claims 2^28 entries (inside the containers).
  const cc = callchainAt(f.sampleType);
  if (cc >= 0) {
    const lies = f.samples.map((r) => {
      const s = Buffer.from(r);
      s.writeBigUInt64LE(1n << 28n, cc);
      return s;
    });
    const ls = periodicStream(lies);
    const blocks = Math.ceil(20000 / ls.samples) - 2;
    const conts = [compressedRecord(Buffer.concat([prefix, ls.head]))];
    for (let b = 0; b < blocks; b += blocksPerMmap)
      conts.push(compressedRecord(Buffer.concat(Array(Math.min(blocksPerMmap, blocks - b)).fill(ls.rep))));
    add('callchain_count_lie.data', withData(f, Buffer.concat(conts)), 'callchain_too_deep',
      `${(blocks + 2) * ls.samples} SAMPLE records whose callchain claims 2^28 entries`);
  }
  return { cases, mmapLen: f.mmapLen, sampleType: f.sampleType };
}
