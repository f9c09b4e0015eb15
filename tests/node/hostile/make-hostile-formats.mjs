// Count lies in every format, and wide and deep inputs (issue 16's hostile-input set beyond the
// perf -z bombs of make-hostile.mjs), each built from a real recording in tests/data by changing
// the bytes named below. Each case says the diagnostic code `info` must give, and what must still
// be decoded around the damage (`keep`: the same samples as the intact file, or at least some).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';

const u32 = (b, at, v) => b.writeUInt32LE(v >>> 0, at);
const u64 = (b, at, v) => b.writeBigUInt64LE(BigInt(v), at);
const HUGE = 1n << 50n;

// perf.data (file mode): the header's sections and the feature table after the data section.
function perfFile(bytes) {
  const sec = (at) => ({ at, offset: Number(bytes.readBigUInt64LE(at)), size: Number(bytes.readBigUInt64LE(at + 8)) });
  const attrs = sec(24), data = sec(40);
  const table = data.offset + data.size;
  const features = [];
  let i = 0;
  for (let bit = 0; bit < 256; bit++) {
    if (!((bytes[72 + (bit >> 3)] >> (bit & 7)) & 1)) continue;
    features.push({ bit, entry: table + 16 * i, ...sec(table + 16 * i) });
    i++;
  }
  return { attrs, data, features };
}

// Records of a pipe-mode perf.data: [{type, at, size}].
function pipeRecords(bytes) {
  const out = [];
  for (let at = 16; at + 8 <= bytes.length; ) {
    const type = bytes.readUInt32LE(at), size = bytes.readUInt16LE(at + 6);
    if (size < 8) break;
    out.push({ type, at, size });
    at += size;
  }
  return out;
}

// A gperftools CPU profile's records after its 5-word header: [{at, count, depth}] (64-bit, little-endian).
function gperfRecords(bytes) {
  const out = [];
  for (let at = 40; at + 16 <= bytes.length; ) {
    const count = Number(bytes.readBigUInt64LE(at)), depth = Number(bytes.readBigUInt64LE(at + 8));
    if (count === 0) break;  // the trailer
    out.push({ at, count, depth });
    at += 16 + 8 * depth;
  }
  return out;
}

// A jit dump's records after its header: [{id, at, size}].
function jitRecords(bytes) {
  const out = [];
  for (let at = bytes.readUInt32LE(8); at + 16 <= bytes.length; ) {
    const id = bytes.readUInt32LE(at), size = bytes.readUInt32LE(at + 4);
    if (size < 16) break;
    out.push({ id, at, size });
    at += size;
  }
  return out;
}

// A 64-bit little-endian ELF's section headers: [{index, type, at (of the header), offset, size}].
function elfSections(bytes) {
  const shoff = Number(bytes.readBigUInt64LE(0x28)), ent = bytes.readUInt16LE(0x3a), n = bytes.readUInt16LE(0x3c);
  return Array.from({ length: n }, (_, index) => {
    const at = shoff + index * ent;
    return { index, at, type: bytes.readUInt32LE(at + 4), offset: Number(bytes.readBigUInt64LE(at + 24)), size: Number(bytes.readBigUInt64LE(at + 32)), link: bytes.readUInt32LE(at + 40) };
  });
}

// A ustar header's octal field, with the header's checksum made right again.
function tarSetOctal(tar, at, field, len, value) {
  tar.write(value.toString(8).padStart(len - 1, '0') + '\0', at + field, 'latin1');
  tar.fill(0x20, at + 148, at + 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += tar[at + i];
  tar.write(sum.toString(8).padStart(6, '0') + '\0 ', at + 148, 'latin1');
}

// An XRay FDR (version 5) log of one thread whose function 1 recurses `depth` deep (or, distinct, calls a
// chain of `depth` functions), then returns:
// the header of a real log, one buffer (BufferExtents, NewBuffer, WallTimeMarker, PID, NewCPUId),
// 2 x depth function records.
export function deepXRay(realLog, depth, { distinct = false } = {}) {
  const meta = (kind, body) => {
    const r = Buffer.alloc(16);
    r[0] = (kind << 1) | 1;
    body(r);
    return r;
  };
  const fn = (action, id) => {
    const r = Buffer.alloc(8);
    u32(r, 0, (id << 4) | (action << 1));
    u32(r, 4, 1);  // one tick later
    return r;
  };
  const records = [
    meta(0, (r) => u32(r, 1, 7)),                    // NewBuffer, tid 7
    meta(4, (r) => { u64(r, 1, 1); u32(r, 9, 0); }), // WallTimeMarker
    meta(9, (r) => u32(r, 1, 4242)),                 // PID
    meta(2, (r) => { r.writeUInt16LE(0, 1); u64(r, 3, 1000); }),  // NewCPUId, tsc 1000
  ];
  // (distinct: a chain of `depth` different functions, ids 1..depth, instead of one recursing)
  for (let i = 0; i < depth; i++) records.push(fn(0, distinct ? i + 1 : 1));
  for (let i = depth; i-- > 0; ) records.push(fn(1, distinct ? i + 1 : 1));
  const body = Buffer.concat(records);
  const extents = meta(7, (r) => u64(r, 1, body.length));
  return Buffer.concat([realLog.subarray(0, 32), extents, body]);
}

/**
 * Writes the set into `dir`.
 * @returns {{name: string, file: string, args: string[], code: string | null, what: string,
 *   keep: 'same-samples' | 'some-samples' | 'some-records' | null, intact?: string, script?: boolean}[]}
 *   (script: `script` is run too: tracepoint payload text)
 */
export function makeHostileFormats(dataDir, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const cases = [];
  const read = (rel) => fs.readFileSync(path.join(dataDir, rel));
  const add = (name, bytes, code, what, opts = {}) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    cases.push({ name, file, code, what, args: opts.args || [], keep: opts.keep ?? null, intact: opts.intact, script: !!opts.script });
  };

  // perf.data, file mode (a real perf 6.1 recording): section and feature count lies.
  const perfRel = 'perf/archive_mt_fp/perf.data';
  const perf = read(perfRel);
  const pf = perfFile(perf);
  let b = Buffer.from(perf);
  u64(b, pf.attrs.at + 8, HUGE);
  add('perf_attrs_size_lie.data', b, 'section_out_of_bounds', 'the attrs section claims 2^50 bytes');
  b = Buffer.from(perf);
  u64(b, pf.data.at + 8, HUGE);
  add('perf_data_size_lie.data', b, 'section_out_of_bounds', 'the data section claims 2^50 bytes', { keep: 'same-samples', intact: perfRel });
  const feature = (bit) => pf.features.find((f) => f.bit === bit);
  b = Buffer.from(perf);
  u64(b, feature(2).entry + 8, HUGE);
  add('perf_build_id_feature_size_lie.data', b, 'section_out_of_bounds', 'the BUILD_ID feature section claims 2^50 bytes', { keep: 'same-samples', intact: perfRel });
  b = Buffer.from(perf);
  u32(b, feature(12).offset, 0x7fffffff);
  add('perf_event_desc_count_lie.data', b, 'bad_feature', 'EVENT_DESC claims 2^31-1 events', { keep: 'same-samples', intact: perfRel });
  b = Buffer.from(perf);
  u32(b, feature(11).offset, 0x7fffffff);
  add('perf_cmdline_count_lie.data', b, 'bad_feature', 'CMDLINE claims 2^31-1 arguments', { keep: 'same-samples', intact: perfRel });

  // simpleperf (a real simpleperf recording): a feature section claiming 2^50 bytes.
  const spRel = 'simpleperf/perf_g_fp/perf.data';
  const sp = read(spRel);
  b = Buffer.from(sp);
  u64(b, perfFile(sp).features[0].entry + 8, HUGE);
  add('simpleperf_feature_size_lie.data', b, 'section_out_of_bounds', "simpleperf's first feature section claims 2^50 bytes", { keep: 'same-samples', intact: spRel });

  // gperftools (a real CPU profile): the fourth sample record claims 2^40 frames; the three before it stay.
  const gp = read('gperf/calltree_1000hz/cpu.prof');
  const gr = gperfRecords(gp);
  b = Buffer.from(gp);
  u64(b, gr[3].at + 8, 1n << 40n);
  add('gperf_depth_lie.prof', b, 'record_truncated', 'a sample record claims 2^40 frames', { keep: 'some-samples' });

  // jit dump (node --perf-prof): a record in the middle claims 4 GB; a CODE_LOAD claims 2^62 bytes of code.
  const jd = read('jitdump/node_perf_prof/jit-25578.dump');
  const jr = jitRecords(jd);
  b = Buffer.from(jd);
  u32(b, jr[Math.floor(jr.length / 2)].at + 4, 0xfffffff0);
  add('jit_total_size_lie.dump', b, 'record_truncated', 'a record in the middle claims total_size 4 GB', { keep: 'some-records' });
  const load = jr.find((r) => r.id === 0);
  b = Buffer.from(jd);
  u64(b, load.at + 16 + 24, 1n << 62n);  // CODE_LOAD: pid, tid, vma, code_addr, then code_size
  add('jit_code_size_lie.dump', b, 'record_field_overrun', 'a CODE_LOAD claims 2^62 bytes of code', { keep: 'some-records' });

  // XRay FDR (clang's runtime): the first BufferExtents claims 2^60 bytes.
  const xrRel = 'xray/fdr_threads/xray.log';
  const xr = read(xrRel);
  b = Buffer.from(xr);
  if (((b[32] >> 1) & 0x7f) !== 7) throw new Error('fdr_threads: no BufferExtents at 32');
  u64(b, 33, 1n << 60n);
  add('xray_extents_lie.log', b, 'record_truncated', 'a BufferExtents claims 2^60 bytes', { keep: 'same-samples', intact: xrRel });

  // ELF side files (the program of a real recording): a .symtab and its string table claiming 2^50 bytes.
  const symdir = 'perf_symdirs/symdir_fp';
  const elf = read(`${symdir}/symdir`);
  const secs = elfSections(elf);
  const symtab = secs.find((s) => s.type === 2);
  for (const [name, sec] of [['elf_symtab_size_lie', symtab], ['elf_strtab_size_lie', secs[symtab.link]]]) {
    b = Buffer.from(elf);
    u64(b, sec.at + 32, HUGE);
    const side = path.join(dir, name);
    fs.writeFileSync(side, b);
    cases.push({ name, file: path.join(dataDir, symdir, 'perf.data'), args: ['--symbols', side], code: 'side_file_mismatch',
      what: `the side file's ${sec === symtab ? '.symtab' : 'string table'} claims 2^50 bytes`, keep: 'same-samples', intact: `${symdir}/perf.data` });
  }

  // perf archive tarball: the program's entry claims 8 GB.
  const archive = 'perf/archive_mt_fp';
  const bz = spawnSync('bzip2', ['-dc', path.join(dataDir, archive, 'perf.data.tar.bz2')], { maxBuffer: 1 << 28 });
  if (bz.status !== 0) throw new Error(`bzip2 -dc ${archive}/perf.data.tar.bz2 failed: ${bz.stderr}`);
  {
    const t = Buffer.from(bz.stdout);
    let at = 0;
    while (at + 512 <= t.length && t[at] !== 0) {
      const size = parseInt(t.toString('latin1', at + 124, at + 136).replace(/\0.*$/, '').trim() || '0', 8);
      const name = t.toString('latin1', at, at + 100).replace(/\0.*$/, '');
      if (/\/elf$/.test(name)) {
        tarSetOctal(t, at, 124, 12, 0o77777777777);
        break;
      }
      at += 512 + Math.ceil(size / 512) * 512;
    }
    const side = path.join(dir, 'tar_entry_size_lie.tar.gz');
    fs.writeFileSync(side, zlib.gzipSync(t));
    cases.push({ name: 'tar_entry_size_lie.tar.gz', file: path.join(dataDir, archive, 'perf.data'), args: ['--symbols', side], code: 'side_file_mismatch',
      what: "a perf archive tarball whose program entry claims 8 GB", keep: 'same-samples', intact: `${archive}/perf.data` });
  }

  // Wide: a real pipe-mode recording followed by 100 000 threads (a COMM and a SAMPLE each) and
  // 50 000 mappings of one process (copies of its own records, pid/tid/address changed).
  const pipe = read('perf/pipe_mode/pipe.data');
  const pr = pipeRecords(pipe);
  const comm = pr.find((r) => r.type === 3), sample = pr.find((r) => r.type === 9), mmap2 = pr.find((r) => r.type === 10);
  const extra = [];
  for (let i = 0; i < 100000; i++) {
    const c = Buffer.from(pipe.subarray(comm.at, comm.at + comm.size));
    u32(c, 8, 1000000 + i);
    u32(c, 12, 1000000 + i);
    c.write(`t${i}`.padEnd(15, '\0'), 16, 'latin1');
    const s = Buffer.from(pipe.subarray(sample.at, sample.at + sample.size));
    u32(s, 16, 1000000 + i);  // sample_type IP|TID|...: pid, tid after the IP
    u32(s, 20, 1000000 + i);
    extra.push(c, s);
  }
  add('wide_100k_threads.data', Buffer.concat([pipe, ...extra]), null, '100 000 threads, one sample each', { keep: 'some-samples' });
  const maps = [];
  const start = pipe.readBigUInt64LE(mmap2.at + 16);
  for (let i = 0; i < 50000; i++) {
    const m = Buffer.from(pipe.subarray(mmap2.at, mmap2.at + mmap2.size));
    u64(m, 16, start + BigInt(i + 1) * 0x100000000n);
    maps.push(m);
  }
  add('wide_50k_mappings.data', Buffer.concat([pipe, ...maps]), null, '50 000 mappings in one process', { keep: 'some-samples' });

  // Tracepoint formats libtraceevent (perf's parser) cannot survive, in a real kmem/timer recording: the
  // kmem:kmalloc format's print fmt line rewritten in place (same length, padded with spaces) with a quoted
  // string that never closes (its tokenizer reads forever), brackets 2 000 deep and a chain of 2 100
  // operators (its recursive parser and printer overflow the stack).
  {
    const tpRel = 'perf/tracepoint_kmem_timer/perf.data';
    const tp = read(tpRel);
    const at = tp.indexOf('name: kmalloc\n', 0, 'latin1');
    const fmt = tp.indexOf('print fmt:', at, 'latin1');
    const eol = tp.indexOf('\n', fmt, 'latin1');
    const line = (body) => {
      const text = `print fmt: "%d", ${body}`;
      if (text.length > eol - fmt) throw new Error('the kmalloc print fmt is too short for the case');
      b = Buffer.from(tp);
      b.write(text.padEnd(eol - fmt, ' '), fmt, 'latin1');
      return b;
    };
    const cases3 = [
      ['tracepoint_unclosed_quote.data', line('"REC->bytes_req'), 'a tracepoint format whose quoted string never closes'],
      ['tracepoint_brackets_deep.data', line('('.repeat(2000) + 'REC->bytes_req' + ')'.repeat(2000)), 'a tracepoint format with brackets 2 000 deep'],
      ['tracepoint_operator_chain.data', line('REC->bytes_req' + '+1'.repeat(2100)), 'a tracepoint format with a chain of 2 100 operators'],
    ];
    for (const [name, bytes, what] of cases3) add(name, bytes, 'bad_feature', what, { keep: 'same-samples', intact: tpRel, script: true });
  }

  // Deep: a 100 000-deep recursion in an XRay FDR log.
  add('deep_xray_100k.log', deepXRay(xr, 100000), null, 'one thread recursing 100 000 deep', { keep: 'some-samples' });
  return cases;
}
