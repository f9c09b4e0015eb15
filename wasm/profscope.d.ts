// Hand-written types of the embind module built from wasm/bindings.cc: the
// contract between the core and the worker. The worker (web/src/worker/, with
// // @ts-check) is type-checked against it by `npm run test` (web/tsconfig.json).
// Every array getter returns a fresh copy (never a view into the WASM heap), so
// the worker can transfer it to the page.

export interface ProfscopeModule {
  /** Decodes a file pulled in chunks through `read` (offset, length) => bytes. */
  Session: new (read: ByteReadFn, size: number, name: string) => Session;
  version(): string;
  /** Whether tracepoint payloads print through libtraceevent (else as name=value fields): false while Debian's libtraceevent source cannot be fetched for WASM. */
  traceEventAvailable(): boolean;
  /** The command line (core/api/cli.h, from wasm/cli_bindings.cc): `profscope ARGS...` with the host's files; returns the exit status. */
  runCli(args: string[], host: CliHost): number;
  /** The module's linear memory (what the benchmark reports as the WASM heap). */
  HEAP8?: Int8Array;
  HEAPU8?: Uint8Array;
  /** Message of a C++ exception pointer (builds without JS exception support throw numbers). */
  getExceptionMessage?(ptr: number): string | string[];
}

/** What wasm/cli.mjs gives the command line: its files, and where the output goes (chunks as they are made). */
export interface CliHost {
  open(path: string): { read: ByteReadFn; size: number } | { error: string };
  isDirectory(path: string): boolean;
  list(dir: string): string[];
  /** export -o: writes the file; "" when written, else why not. */
  writeFile(path: string, bytes: Uint8Array): string;
  stdout(bytes: Uint8Array): void;
  stderr(bytes: Uint8Array): void;
}

/**
 * The bytes [offset, offset + length) of a file: a Uint8Array, or (given `into`, a view of where
 * they go in the module's heap, valid during the call) the number of bytes written into `into`.
 */
export type ByteReadFn = (offset: number, length: number, into?: Uint8Array) => Uint8Array | number;

/**
 * Record kinds (the Uint8 recordKinds() column): what a row of the record table is.
 * Mirrors core/model/record_table.h RecordKind; web/src/lib/record-kind.js is the one
 * JavaScript declaration and is checked against this.
 */
export interface RecordKinds {
  FileHeader: 0;   // perf_file_header / pipe header
  Attr: 1;         // one perf_event_attr (+ ids section) in file mode
  AttrIds: 2;      // the ids array of an attr
  EventTypes: 3;   // old event_types section
  DataSection: 4;  // the data section container
  Record: 5;       // a record of the format (type = its numeric type in that format)
  FeatureTable: 6; // the perf_file_section table after the data
  Feature: 7;      // one feature section (type = feature id)
  Payload: 8;      // bytes that follow a record but are not counted in its size (AUXTRACE, TRACING_DATA in pipe mode)
  Nested: 9;       // a record inside a decompressed COMPRESSED payload (offset within the decompressed stream)
  Unparsed: 10;    // bytes that form no record (trailing garbage, skipped damage)
}
export type RecordKind = RecordKinds[keyof RecordKinds];

/** Interned strings: string i is the UTF-8 bytes[offsets[i], offsets[i + 1]). */
export interface StringBlob {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** Times of the profile: every time getter returns times minus `origin`, in the file's units. */
export interface TimeBase {
  /** Decimal u64 subtracted from every time ("0" unless the file's times exceed 2^53, as XRay TSCs do). */
  origin: string;
  /** The sample time span (DecodeResult time_start/time_end) minus origin; 0 when the file has none. */
  start: number;
  end: number;
  /** The views' one time zero (Session::TimeZero): the earliest time of any sample, call or marker, minus origin; 0 without time. */
  zero: number;
  /** Nanoseconds per unit: 1 for ns clocks, 1e9 / cycle frequency for XRay TSC ticks. */
  scale: number;
}

/**
 * The analysis options' JSON form (core/api/analysis_options_json.h), passed to analyze() as text.
 * Functions are canonical ids (analysisCanon()); t0/t1 in sampleTimes() units (relative to the origin).
 */
export interface AnalysisOptionsJson {
  filter?: { event?: number; threads?: number[]; cpus?: number[]; t0?: number | null; t1?: number | null };
  transforms?: AnalysisTransformJson[];
  invert?: boolean;
  /** time/period: each sample counts its weight (XRay: the call's duration in ticks; perf: its period); count/samples (default): 1 */
  weight?: 'count' | 'samples' | 'time' | 'period';
  sandwich?: { mode: 'callers' | 'callees'; func: number };
}
export interface AnalysisTransformJson {
  type: 'focus-subtree' | 'focus-function' | 'merge-function' | 'drop-function' | 'collapse-recursion' | 'collapse-library';
  func?: number;
  path?: number[];
  lib?: string;
}

/**
 * A call-node tree in depth-first order: node 0 is the root (func -1); the nodes
 * [n, subtreeEnd[n]) are n's subtree; self/total count samples.
 */
export interface CallTreeColumns {
  parent: Int32Array;
  func: Int32Array;
  depth: Int32Array;
  subtreeEnd: Int32Array;
  self: Float64Array;
  total: Float64Array;
  count: number;
  /** set when the tree is shown in part: an inverted tree too large to build whole holds its heaviest nodes */
  notice?: string;
}
export interface CallTreeResult extends CallTreeColumns {
  /** sample -> node, -1 when filtered out or dropped */
  sampleNode: Int32Array;
  /** samples counted (rows times their counts) */
  samples: number;
}

/**
 * Two profiles compared (core/analysis/diff.h): functions matched by (module, name), the merged
 * call tree (node 0 = root, func -1; parents before children, not depth-first) with the counts of
 * A and B (samples; A scaled to B's total with normalize), and the functions table sorted by |self delta|.
 */
export interface DiffResult {
  error: '';
  labels: StringBlob;   // func -> "name", or "name [module]" when the pair has the name in two modules
  modules: StringBlob;  // func -> mapping file name, "" when none
  parent: Int32Array;
  func: Int32Array;
  depth: Int32Array;
  selfA: Float64Array;
  totalA: Float64Array;
  selfB: Float64Array;
  totalB: Float64Array;
  functions: {
    func: Int32Array;
    selfA: Float64Array; selfB: Float64Array; totalA: Float64Array; totalB: Float64Array;
    deltaSelf: Float64Array; deltaTotal: Float64Array;   // B - A
    deltaSelfPct: Float64Array; deltaTotalPct: Float64Array; // 100 * delta / A; Infinity when A is 0
  };
  sumA: number;     // A's samples (B's total after normalizing)
  sumB: number;
  rawSumA: number;  // A's samples before normalizing
}

/** Decode progress: bytes decoded of the total, and the samples and record rows decoded so far. */
export type ProgressFn = (done: number, total: number, samples: number, records: number) => void;

/** An int column held as runs of a constant step (web/src/lib/int-runs.js). */
export interface IntRuns {
  length: number;
  starts: Int32Array;
  firsts: Int32Array | Float64Array;
  steps: Int32Array;
}

export interface Session {
  /** perf record --threads directories: add each data.N file (in order) before decode(). */
  addDataFile(read: ByteReadFn, size: number, name: string): void;
  /** A program binary (ELF), jit-PID.dump or `llvm-xray extract` YAML to use with the profile; before decode(). */
  addSideFile(read: ByteReadFn, size: number, name: string): void;
  /**
   * A file of a side folder (a dropped build-id cache, usr/lib/debug tree or folder of binaries),
   * named "FOLDER/relative/path", offered for symbols only and read lazily; before decode().
   */
  addSideFolderFile(read: ByteReadFn, size: number, name: string, folder: string): void;
  /** What the walk of a side folder found: a warning when a limit stopped it or it offered no file. */
  noteSideFolder(folder: string, capped: boolean, offered: number): void;
  /** A decoder option, applied by the next decode() (decoderOptionsJson() lists those of the format). */
  setOption(key: string, value: string): void;
  /**
   * Decodes everything; progress(doneBytes, totalBytes, samples, records) is called at most every ~1 MiB, with
   * the samples and record rows decoded so far. Returns false when fatal.
   */
  decode(progress: ProgressFn): boolean;
  /**
   * The same decode in steps (Session::DecodeStart), so the caller can read ahead and hear a cancel
   * between them: pause(offset, file) is asked at most once per `every` bytes (0: 1 MiB) between the
   * records of the main file (file 0) and of the data files (file N) (perf.data, XRay logs; jitdumps and gperftools profiles decode in one step); returning true pauses before the
   * record at offset. Returns true while paused: then decodeResume() (true: paused again) or
   * decodeStop() (ends the decode there, keeping what was read; a decode_stopped warning names the offset).
   */
  decodeStart(progress: ProgressFn | null, pause: ((offset: number, file: number) => boolean) | null, every: number): boolean;
  decodeResume(): boolean;
  decodeStop(): void;
  /** After the stepped decode: what decode() would have returned. */
  decodeOk(): boolean;
  /** The offset a paused decode stopped at (the next record's), in the file pausedFile() names. */
  pausedAt(): number;
  /** The file a paused decode is in: 0 the main file, N the Nth data file (addDataFile order). */
  pausedFile(): number;

  // ---- the CLI's texts (byte-identical to the native CLI) ----
  /** Same JSON object `profscope info FILE` prints. */
  infoJson(): string;
  /** Same text as `profscope records FILE`. */
  recordsText(): string;
  /** Same text as `profscope stacks FILE [--addresses] [--event NAME]`; event "" = all. */
  stacksText(addresses: boolean, event: string): string;
  /** Same text as `profscope events FILE` (XRay function records); "" for other formats. */
  eventsText(): string;

  // ---- small tables as JSON ----
  /** JSON array of {code, severity, offset, length, message}. */
  diagnosticsJson(): string;
  /** JSON: infoJson's object plus {name, rows, diagnostics_suppressed, samples_are_calls (each sample one traced
   * call, weighted by its duration: XRay), facts: {key: value}}. */
  summaryJson(): string;
  /** JSON array of {tid, pid, name, samples, names:[{time,name}], start, end}. */
  threadsJson(): string;
  /** JSON array of {pid, start, end, pgoff, path, build_id, time, record}. */
  mappingsJson(): string;
  /** JSON array of {name, samples, interval_ns?, interval_from?: "period"|"frequency"} (interval: the time one sample stands for, when the file says). */
  eventsJson(): string;
  /**
   * Sample-less entries over time as JSON (jitdump: code loads and moves, in file order):
   * [{time, kind: "load"|"move", name, addr: "0x..", size, index, record, old_addr? (moves)}]; "[]" for other formats.
   */
  timelineJson(): string;
  /** XRay: `llvm-xray account` rows [{funcid,count,min,median,p90,p99,max,sum,function}] (seconds); "[]" for other formats. */
  accountJson(): string;
  /**
   * Each side file (addSideFile order) and what it was to the decoder:
   * [{name, kind, role}], kind sniffed by content (elf, jitdump, yaml, archive, kallsyms, unknown),
   * or "folder" (one entry per side folder, named by the folder),
   * role one of symbols, jitdump, instr-map, unused. Parse with JSON.parse.
   */
  sideFilesJson(): string;
  /**
   * What is missing to name every frame (perf.data; "null" for other formats), JSON of MissingReport:
   * mappings most samples first, each saying what to drop; stack_copy the dwarf samples whose
   * stack copy was too small (null when none), fix the `perf record --call-graph dwarf,SIZE` that holds them.
   */
  missingJson(): string;
  /** The options the format's decoder takes: {title, options: [{key, label, help, value}]}; "{}" when none. */
  decoderOptionsJson(): string;

  // ---- record table (one row per record/section; rows in file order, children after parents) ----
  recordCount(): number;
  sampleCount(): number;           // sample rows
  // (record columns come as the narrowest typed array that holds every value: Uint32Array offsets and sizes
  // unless one passes 4 GB, Uint8Array or Uint16Array types when they fit)
  recordOffsets(): Float64Array | Uint32Array | Uint16Array | Uint8Array;   // offset in its file (Nested: offset inside the decompressed stream)
  recordSizes(): Float64Array | Uint32Array | Uint16Array | Uint8Array;     // bytes covered (including payload for Payload rows)
  recordTypes(): Uint32Array | Uint16Array | Uint8Array; // numeric type in the format (perf record type, feature id, attr index, XRay record type)
  recordKinds(): Uint8Array;       // RecordKind
  recordParents(): Int32Array;     // row index of the container, -1 for top level
  /** the parents as runs ({length, starts, firsts, steps}: value i = firsts[k] + steps[k] * (i - starts[k]),
   * k the last run starting at or before i) when at most `share` runs a row, else as recordParents() */
  recordParentRuns(share: number): Int32Array | IntRuns;
  recordFiles(): Uint8Array;       // 0 = the main file; i = the i-th added data file (offsets are within that file)
  /** The same columns as runs (as recordParentRuns; firsts a Float64Array past 32 bits) where that takes at
   * most a third of the bytes (an XRay log's fixed-size records, a perf file's kinds and files), else as above. */
  recordOffsetRuns(): Float64Array | Uint32Array | Uint16Array | Uint8Array | IntRuns;
  recordSizeRuns(): Float64Array | Uint32Array | Uint16Array | Uint8Array | IntRuns;
  recordTypeRuns(): Uint32Array | Uint16Array | Uint8Array | IntRuns;
  recordKindRuns(): Uint8Array | IntRuns;
  recordFileRuns(): Uint8Array | IntRuns;
  /** Human label: "SAMPLE", "MMAP2", "feature HOSTNAME", "attr 0 (cpu-clock)", "header". */
  recordLabel(row: number): string;
  /** The name of a row's type, from its decoder (Session::RecordTypeName): "SAMPLE", "feature CACHE", "function enter"; "" for no row. */
  recordTypeName(row: number): string;
  /** Every (kind, type) of the record table with its first row, in that row's order (Session::ListRecordTypes). */
  recordTypeList(): { kind: Uint8Array; type: Uint32Array; first: Int32Array };
  /** Bytes and counts per (kind, type) of the record table: containers and pieces inside a record left out; by bytes, then count (Session::RecordComposition). */
  recordComposition(): { kind: Uint8Array; type: Uint32Array; count: Float64Array; bytes: Float64Array; first: Int32Array };
  /**
   * The record table's children lists and the main file's leaves by offset (Session::BuildRecordIndex): kidsStart,
   * kids and leafOrder as runs where they take at most `share` runs a value (leafOrder: a third), else arrays.
   */
  recordIndex(share: number): { kidsStart: Int32Array | IntRuns; kids: Int32Array | IntRuns; leafOrder: Int32Array | IntRuns; leafMaxEnd: Float64Array | null; containers: Int32Array };
  /** JSON array of Field {name, offset, size, value, children?}; offsets absolute. */
  recordFieldsJson(row: number): string;
  /**
   * The decompressed bytes of a container row (perf -z COMPRESSED): the stream its Nested rows'
   * offsets count in (offset 0 = its first output byte). Empty when the row is no container.
   * Re-decompresses the file's stream up to the row (the decode keeps none of it).
   */
  containerBytes(row: number): Uint8Array;

  // ---- profile tables (Firefox Profiler's processed model; -1 = none) ----
  strings(): StringBlob;           // string ids index into it
  /** profscope export: the file's bytes (JSON text, or gzip for pprof), or why none was written.
   *  format: folded|speedscope|gecko|pprof|chrome; weight: ""|samples|period|time; event: "" = every event. */
  exportFile(format: string, weight: string, event: string): { bytes: Uint8Array; error: string };
  /** perf script's default text (perf.data only; `profscope script`), or an error past 256 MiB. */
  scriptFile(): { bytes: Uint8Array; error: string };
  /** profscope diff THIS OTHER: "STACK COUNT_A COUNT_B" lines (difffolded.pl's form), or an error. */
  diffText(other: Session, event: string, normalize: boolean): { text: string; error: string };
  /** The page's Compare tab: the diff model of THIS (A) and OTHER (B) (core/api/compare.h CompareProfiles). */
  diff(other: Session, event: string, normalize: boolean): DiffResult | { error: string };
  funcNames(): Int32Array;         // func -> string id
  funcMappings(): Int32Array;      // func -> mapping (-1)
  frameAddresses(): BigUint64Array; // frame -> absolute address (exact, kernel addresses included)
  frameFuncs(): Int32Array;        // frame -> func
  frameInlined(): Uint8Array;      // frame -> 1: an inlined function's frame (perf's "(inlined)"); shorter than the frames: the rest 0
  frameMappings(): Int32Array;     // frame -> mapping (-1)
  stackFrames(): Int32Array;       // stack -> frame (leaf-most frame of that stack node)
  stackPrefixes(): Int32Array;     // stack -> parent stack (-1 for a root); parents before children
  timeBase(): TimeBase;
  sampleTimes(): Float64Array;     // file's units (ns; XRay ticks) minus the time origin; 0 when the file has no time
  sampleTime(sample: number): number; // one sample's, as sampleTimes gives it (0 for a sample that is not there)
  sampleThreads(): Int32Array;     // sample -> thread row
  sampleCpus(): Int32Array;        // -1 when unknown
  sampleEvents(): Int32Array;      // sample -> event row
  sampleWeights(): Float64Array;   // period when recorded, else 1
  sampleStacks(): Int32Array;      // sample -> stack (-1 for an empty stack)
  sampleRecords(): Int32Array;     // sample -> record row
  sampleCounts(): Uint32Array;     // samples each row stands for (gperftools counts); empty = 1 each
  sampleStack(sample: number): number;  // one sample's stack (-1 for a sample that is not there)
  sampleRecord(sample: number): number; // one sample's record row (-1 for a sample that is not there)
  sampleLane(sample: number): number;   // one sample's thread lane (sampleLanes(false)'s): its thread row, -1 for none (or a sample that is not there)
  sampleRecordsOf(samples: Int32Array): Int32Array; // the record rows of these samples (-1 for one not there)
  recordSample(row: number): number;    // the first sample of record row `row` (-1: no sample's)
  // The samples by thread row (byCpu: by CPU), each lane in time order (equal times in sample order):
  // lane l (l < lanes) is samples[start[l], start[l + 1]), and lane `lanes` (start.length - 2) holds the
  // samples of no thread (no CPU); times are theirs, in that order, as sampleTimes gives them. By CPU,
  // start is empty when no sample names a CPU or one passes 65535.
  sampleLanes(byCpu: boolean): { samples: Int32Array; start: Int32Array; times: Float64Array };
  // The exact calls (XRay enter/exit pairs) as the flame chart draws them: each call's function, entry and
  // exit time (as intervalStarts/Ends) and entry record, ordered by row: row r holds the calls
  // [rows.first[r], rows.first[r + 1]) of thread rows.thread[r] at depth rows.depth[r] (a negative depth as 0),
  // in entry order; rows by thread, then depth; the calls of no thread follow the last row.
  /** The flame chart's rows of exact calls (XRay): row r is thread[r]'s calls at depth[r], first[r] .. first[r + 1]; their count and span (earliest start, latest end; times as every time here). The calls stay in the session: flameBoxes. */
  flameRows(): { thread: Int32Array; depth: Int32Array; first: Int32Array; calls: number; lo: number; hi: number };
  /** The boxes the flame chart draws of rows `rows` (flameRows' indexes) in [t0, t1) at `cols` columns: calls thinner than a column that start in a column drawn already are left out. Times are this session's times times `scale` (as t0, t1). */
  flameBoxes(rows: Int32Array, scale: number, t0: number, t1: number, cols: number): { row: Int32Array; start: Float64Array; end: Float64Array; func: Int32Array; record: Int32Array };
  /** Are the exact calls the samples (an XRay log)? Its thread lanes are then callLanes', and no lane draws samples. */
  callsAreSamples(): boolean;
  /** The flame chart's thread lanes of a log whose exact calls are its samples (XRay), with no entry per call: per lane with calls, in sampleLanes(false)'s order (thread rows, then -1 = no thread), its thread, calls, first and last start (times as every time here, times `scale`), and the median gap of its starts that the page's typicalGap takes of a lane's times (of a lane of more than 65 536 calls, their mean gap: under a pixel of the whole chart either way); fileGap: that of every sample, when some lane's gap is 0 (else 0). null when the calls are not the samples (sampleLanes then). */
  callLanes(scale: number): { thread: Int32Array; count: Float64Array; first: Float64Array; last: Float64Array; gap: Float64Array; fileGap: number } | null;
  /** The calls (samples) started per column of [t0, t1) at `cols` columns of each of `lanes` (callLanes' threads): lane j's column c is [j * cols + c]; times as flameBoxes'. */
  callActivity(lanes: Int32Array, scale: number, t0: number, t1: number, cols: number): Float32Array;
  eventTotals(): Float64Array;     // event -> samples (rows times their counts): the file's events, or as many as the samples use
  cpuRows(): { cpus: Int32Array; rows: Uint32Array }; // every CPU the samples name (ascending), and its sample rows
  intervalThreads(): Int32Array;   // interval -> thread row (XRay enter/exit pairs)
  intervalFuncs(): Int32Array;     // interval -> func row
  intervalStarts(): Float64Array;  // interval -> entry time (ticks minus the origin)
  intervalEnds(): Float64Array;    // interval -> exit time
  intervalDepths(): Int32Array;    // interval -> call depth on its thread (0 = outermost)
  intervalRecords(): Int32Array;   // interval -> record row of the entry
  // Markers: non-sample moments for the timeline (perf MMAP/COMM/EXIT/FORK/SWITCH/LOST/THROTTLE,
  // jitdump code loads/moves, XRay custom/typed events); times as the samples'.
  markerTimes(): Float64Array;
  markerKinds(): Int32Array;       // marker -> string id ("MMAP2", "code load", "custom event", ...)
  markerThreads(): Int32Array;     // marker -> thread row (-1 = process-wide/unknown)
  markerCpus(): Int32Array;        // -1 when unknown
  markerLabels(): Int32Array;      // marker -> string id of a one-line description
  markerRecords(): Int32Array;     // marker -> record row (-1: a jit side file's load/move on a perf timeline)
  // Source positions (jitdump DEBUG_INFO): sparse pairs frame -> string id "file:line".
  frameSourceFrames(): Int32Array;
  frameSourceStrings(): Int32Array;

  // ---- aggregation in the core (Session::Analyze, core/analysis/call_tree.h) ----
  /**
   * Call-node tree of the samples passing the filter, after the transforms, inverted, or one half
   * of a sandwich: `json` is JSON.stringify of AnalysisOptionsJson. {error} when it is not.
   */
  analyze(json: string): CallTreeResult | { error: string };
  /** As analyze, but the tree's sample -> node stays in the module (kept until the next analyzeKeeping): nodeSamples, sampleNode and keptSampleNode read it. */
  analyzeKeeping(json: string): CallTreeColumns & { samples: number } | { error: string };
  /** The samples of call node `node` of the kept tree (its subtree), in sample order. */
  nodeSamples(node: number): Int32Array;
  /** The call node of a sample in the kept tree: -1 when filtered out or dropped, or not there. */
  sampleNode(sample: number): number;
  /** A copy of the kept tree's sample -> node (for a page whose lanes draw samples). */
  keptSampleNode(): Int32Array;
  analysisCanon(): Int32Array;          // func row -> canonical func (merged by name)
  analysisNameIds(): Int32Array;        // canonical func -> string id, -1 for names made by the analysis
  analysisName(canon: number): string;  // the name of a canonical func ("[unknown]", "[lib] PATH" for those)
  analysisLibrary(canon: number): string; // the library collapse-library puts it in; "" when none

  delete(): void;
}

declare const factory: (opts?: object) => Promise<ProfscopeModule>;
export default factory;

/** Session.missingJson(), parsed. */
export interface MissingReport {
  mappings: {
    path: string;
    build_id: string;
    /** perf's DSO name: the path, "[kernel.kallsyms]", "[ext4]", "[vdso]" */
    dso: string;
    /** samples with an unnamed frame in this mapping */
    samples: number;
    /** unnamed frames there, summed over the samples */
    frames: number;
    /** --call-graph dwarf samples whose user stack stops here (its binary was not given) */
    unwind_cut: number;
    /** what to drop, one sentence */
    drop: string;
  }[];
  stack_copy: { samples: number; copy_bytes: number; needed_bytes: number; fix: string } | null;
}
