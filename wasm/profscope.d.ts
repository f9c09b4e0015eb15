// Hand-written types of the embind module built from wasm/bindings.cc.
// Every array getter returns a fresh copy (never a view into the WASM heap),
// so the worker can transfer it to the page.

export interface ProfscopeModule {
  /** Decodes a file pulled in chunks through `read` (offset, length) => bytes. */
  Session: new (read: (offset: number, length: number) => Uint8Array, size: number, name: string) => Session;
  version(): string;
}

/** Record kinds (Uint8): what a row of the record table is. */
export const enum RecordKind {
  FileHeader = 0,   // perf_file_header / pipe header
  Attr = 1,         // one perf_event_attr (+ ids section) in file mode
  AttrIds = 2,      // the ids array of an attr
  EventTypes = 3,   // old event_types section
  DataSection = 4,  // the data section container
  Record = 5,       // a perf_event record (type = numeric perf type)
  FeatureTable = 6, // the perf_file_section table after the data
  Feature = 7,      // one feature section (type = feature id)
  Payload = 8,      // bytes that follow a record but are not counted in its size (AUXTRACE, TRACING_DATA in pipe mode)
  Nested = 9,       // a record inside a decompressed COMPRESSED payload (offset within the decompressed stream)
  Unparsed = 10,    // bytes that form no record (trailing garbage, skipped damage)
}

export interface Session {
  /** perf record --threads directories: add each data.N file (in order) before decode(). */
  addDataFile(read: (offset: number, length: number) => Uint8Array, size: number, name: string): void;
  /** A program binary (ELF), jit-PID.dump or `llvm-xray extract` YAML to use with the profile; before decode(). */
  addSideFile(read: (offset: number, length: number) => Uint8Array, size: number, name: string): void;
  /** Same text as `profscope events FILE` (XRay function records); "" for other formats. */
  eventsText(): string;
  /**
   * Sample-less entries over time as JSON (jitdump: code loads and moves, in file order):
   * [{time, kind: "load"|"move", name, addr: "0x..", size, index, record, old_addr? (moves)}]; "[]" for other formats.
   */
  timelineJson(): string;
  /** Decodes everything; progress(doneBytes, totalBytes) is called at most every ~1 MiB. Returns false when fatal. */
  decode(progress: (done: number, total: number) => void): boolean;

  /** Same JSON object `profscope info FILE` prints. */
  infoJson(): string;
  /** Same text as `profscope records FILE`. */
  recordsText(): string;
  /** Same text as `profscope stacks FILE [--addresses] [--event NAME]`; event "" = all. */
  stacksText(addresses: boolean, event: string): string;
  /** JSON array of {code, severity, offset, length, message}. */
  diagnosticsJson(): string;
  /** JSON: {format, mode, byte_order, size, records, samples, time_start, time_end, events:[{name,samples}], threads:[...]} */
  summaryJson(): string;

  // ---- record table (one row per record/section; rows in file order, children after parents) ----
  recordCount(): number;
  recordOffsets(): Float64Array;   // absolute file offset (Nested: offset inside the decompressed stream)
  recordSizes(): Float64Array;     // bytes covered (including payload for Payload rows)
  recordTypes(): Uint32Array;      // numeric type as written (perf record type, feature id, attr index)
  recordKinds(): Uint8Array;       // RecordKind
  recordParents(): Int32Array;     // row index of the container, -1 for top level
  recordFiles(): Uint8Array;       // 0 = the main file; i = the i-th added data file (offsets are within that file)
  /** Human label: "SAMPLE", "MMAP2", "feature HOSTNAME", "attr 0 (cpu-clock)", "header". */
  recordLabel(row: number): string;
  /** JSON array of Field {name, offset, size, value, children?}; offsets absolute. */
  recordFieldsJson(row: number): string;
  /** Row index of the innermost top-level-or-nested record covering file offset, or -1. */
  recordAt(offset: number): number;

  // ---- profile tables (Firefox Profiler's processed model; -1 = none) ----
  stringsJson(): string;           // JSON array of strings; ids index into it
  /** XRay: `llvm-xray account` rows [{funcid,count,min,median,p90,p99,max,sum,function}] (seconds); "[]" for other formats. */
  accountJson(): string;
  /** Calls with start and end (XRay) as JSON [{thread,func,start,end,depth,record}]; times in TSC ticks. */
  intervalsJson(): string;
  /** A decoder option, applied by the next decode() (gperftools: "pc_minus_one", "drop_duplicate_leaf", "strip_signal_frames" = "1"/"0"). */
  setOption(key: string, value: string): void;
  /** profscope export: the file's bytes (JSON text, or gzip for pprof), or why none was written.
   *  format: folded|speedscope|gecko|pprof|chrome; weight: ""|samples|period|time; event: "" = every event. */
  exportFile(format: string, weight: string, event: string): { bytes: Uint8Array; error: string };
  /** profscope diff THIS OTHER: "STACK COUNT_A COUNT_B" lines (difffolded.pl's form), or an error. */
  diffText(other: Session, event: string, normalize: boolean): { text: string; error: string };
  funcNames(): Int32Array;         // func -> string id
  funcMappings(): Int32Array;      // func -> mapping (-1)
  frameAddresses(): Float64Array;  // frame -> absolute address
  frameFuncs(): Int32Array;        // frame -> func
  frameMappings(): Int32Array;     // frame -> mapping (-1)
  stackFrames(): Int32Array;       // stack -> frame (leaf-most frame of that stack node)
  stackPrefixes(): Int32Array;     // stack -> parent stack (-1 for a root); parents before children
  /** Decimal u64 subtracted from every time getter's values ("0" unless the file's times exceed 2^53, as XRay TSCs do). */
  timeOrigin(): string;
  sampleTimes(): Float64Array;     // ns (perf time) minus timeOrigin(); 0 when the file has no time
  sampleThreads(): Int32Array;     // sample -> thread row
  sampleCpus(): Int32Array;        // -1 when unknown
  sampleEvents(): Int32Array;      // sample -> event row
  sampleWeights(): Float64Array;   // period when recorded, else 1
  sampleStacks(): Int32Array;      // sample -> stack (-1 for an empty stack)
  sampleRecords(): Int32Array;
  sampleCounts(): Uint32Array;     // samples each row stands for (gperftools counts); empty = 1 each     // sample -> record row
  intervalThreads(): Int32Array;   // interval -> thread row (XRay enter/exit pairs)
  intervalFuncs(): Int32Array;     // interval -> func row
  intervalStarts(): Float64Array;  // interval -> entry TSC (ticks; see summary facts for the frequency)
  intervalEnds(): Float64Array;    // interval -> exit TSC
  intervalDepths(): Int32Array;    // interval -> call depth on its thread (0 = outermost)
  intervalRecords(): Int32Array;   // interval -> record row of the entry
  // Markers: non-sample moments for the timeline (perf MMAP/COMM/EXIT/FORK/SWITCH/LOST/THROTTLE,
  // jitdump code loads/moves, XRay custom/typed events); times in the samples'/intervals' clock.
  markerTimes(): Float64Array;
  markerKinds(): Int32Array;       // marker -> string id ("MMAP2", "code load", "custom event", ...)
  markerThreads(): Int32Array;     // marker -> thread row (-1 = process-wide/unknown)
  markerCpus(): Int32Array;        // -1 when unknown
  markerLabels(): Int32Array;      // marker -> string id of a one-line description
  markerRecords(): Int32Array;     // marker -> record row (-1: a jit side file's load/move on a perf timeline)
  // Source positions (jitdump DEBUG_INFO): sparse pairs frame -> string id "file:line".
  frameSourceFrames(): Int32Array;
  frameSourceStrings(): Int32Array;
  /** JSON array of {tid, pid, name, names:[{time,name}], start, end}. */
  threadsJson(): string;
  /** JSON array of {pid, start, end, pgoff, path, build_id, time, record}. */
  mappingsJson(): string;
  /** JSON array of {name, samples, attr: {type, config, sample_type, ...}}. */
  eventsJson(): string;

  // ---- aggregation in the core (core/analysis/call_tree.h): what the worker runs after each change ----
  /**
   * Call-node tree of the samples passing `filter` (times in sampleTimes() units), after `transforms`
   * ({type: 'focus-subtree'|'focus-function'|'merge-function'|'drop-function'|'collapse-recursion'|'collapse-library',
   * func?, path?, lib?}, funcs are canonical ids), inverted, or one half of a sandwich of a function.
   * Node 0 is the root; parents come before children; self/total count samples.
   */
  analyze(opts: {
    filter?: { event?: number; threads?: number[]; cpus?: number[]; t0?: number; t1?: number };
    transforms?: { type: string; func?: number; path?: number[]; lib?: string }[];
    invert?: boolean;
    sandwich?: { mode: 'callers' | 'callees'; func: number };
  }): { parent: Int32Array; func: Int32Array; depth: Int32Array; self: Float64Array; total: Float64Array; sampleNode: Int32Array; count: number; samples: number };
  analysisCanon(): Int32Array;          // func row -> canonical func (merged by name)
  analysisNameIds(): Int32Array;        // canonical func -> string id, -1 for names made by the analysis
  analysisExtraNamesJson(): string;     // {"index": "name"} for those ("[unknown]", "[lib] PATH")

  delete(): void;
}

declare const factory: (opts?: object) => Promise<ProfscopeModule>;
export default factory;
