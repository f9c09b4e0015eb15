// One opened file: detects the format, decodes it, and answers questions
// about it. The native CLI and the WASM bindings both use this class, so the
// texts they print are produced by the same code.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/output_sink.h"
#include "core/analysis/call_lanes.h"
#include "core/analysis/call_tree.h"
#include "core/analysis/record_composition.h"
#include "core/analysis/record_index.h"
#include "core/analysis/sample_lanes.h"
#include "core/analysis/sample_nodes.h"
#include "core/model/interval_view.h"
#include "core/format/decoder.h"
#include "core/symbols/debug_file_search.h"

namespace profscope {

class Session {
 public:
  Session(ByteSource& src, std::string name);
  ~Session();

  // Adds a further file of the same recording, decoded after the main one
  // (perf record --threads: perf.data/data is the main file, data.N follow).
  void AddDataFile(ByteSource& src, std::string name);
  // Adds a side file (program binary, jit dump, XRay instrumentation map),
  // classified by content and offered to the decoder after decoding.
  void AddSideFile(ByteSource& src, std::string name);
  // A file of a side folder (SideFile::folder: a --symbols DIR, a dropped
  // folder), named "FOLDER/relative/path": offered for symbols only, read
  // lazily (headers first, the bytes of the files that match a mapping).
  // Folders are walked by the shells within the limits of side_folder.h.
  void AddSideFolderFile(ByteSource& src, std::string name, std::string folder);
  // What the shell's walk of a side folder found: `capped` when a limit of
  // side_folder.h stopped it, `offered` files added with AddSideFolderFile.
  // Either says so as a warning of every decode (side_file_unused).
  void NoteSideFolder(const std::string& folder, bool capped, size_t offered);
  // The shell's read access to the host's files (the CLIs; the page has
  // none). With it, the first Decode looks for each ELF side file's separate
  // debug file where perf looks (core/symbols/debug_file_search.h) and adds
  // the one it finds as a further side file named by its path.
  void SetFileAccess(symbols::FileAccess* files) { files_ = files; }

  // Detects and decodes; false when nothing could be decoded (fatal diagnostic present).
  bool Decode(const ProgressFn& progress = nullptr);
  // The same decode in steps (the page's worker: it reads ahead and hears a
  // cancel between them). DecodeStart begins it; with `pause` (PauseFn), a
  // decoder that can pause returns kPaused before a record of the main file,
  // (or of a perf --threads data file) and DecodeResume goes on (with the same
  // progress function) or DecodeStop ends it there: a decode_stopped warning
  // names the offset, the rest of that file and the data files after it are not
  // read, side files still name what was read, and everything read before is kept. kDone: the decode is complete
  // (DecodeOk says what Decode would have returned).
  enum class DecodeState { kDone, kPaused };
  DecodeState DecodeStart(const ProgressFn& progress, PauseFn pause, uint64_t pause_every = 1u << 20);
  DecodeState DecodeResume();
  void DecodeStop();
  bool DecodeOk() const { return decode_ok_; }
  // Where a paused decode stopped: the next record's offset in the file PausedFile
  // names (0: the main file, N: the Nth data file of a perf --threads directory).
  uint64_t PausedAt() const { return decoder_ && decoder_->Paused() ? decoder_->PausedAt() : 0; }
  uint8_t PausedFile() const { return decoder_ && decoder_->Paused() ? decoder_->PausedFile() : 0; }

  const DecodeResult& result() const { return res_; }
  const std::string& name() const { return name_; }

  // The CLI's outputs (byte-identical natively and in WASM; core/api/text_writers.h),
  // as one string or written to a sink as they are made.
  std::string InfoJson() const;
  std::string RecordsText() const;
  void WriteRecords(OutputSink& out) const;
  // Folded stacks, one line per distinct stack: "root;..;leaf count". For
  // simpleperf files, simpleperf's stackcollapse.py form instead (see
  // DecodeResult::stacks_thread_root): "thread;caller;..;callee period".
  // weighted: values are summed sample weights (XRay: time in ticks; perf: period), not counts.
  std::string StacksText(bool addresses, const std::string& event, bool weighted = false) const;
  void WriteStacks(bool addresses, const std::string& event, OutputSink& out, bool weighted = false) const;
  // `perf script`'s default output (core/api/script_writer.h); false (nothing
  // written) for formats that have none.
  bool WriteScript(OutputSink& out);
  // One line per function record of a tracer (XRay), empty for other formats.
  std::string EventsText() const;
  void WriteEvents(OutputSink& out) const;
  // Sample-less entries over time (jitdump: [{time, kind:"load"|"move", name, addr, size, index, record}]).
  std::string TimelineJson() const;

  std::string DiagnosticsJson() const;
  std::string SummaryJson() const;
  std::string ThreadsJson() const;
  std::string MappingsJson() const;
  std::string EventsJson() const;
  // Per-function accounting (XRay: `llvm-xray account` columns), "[]" when the format has none.
  std::string AccountJson() const;
  // Each side file with what it was to the decoder (core/api/side_file_roles.h):
  // [{"name", "kind", "role"}], role one of symbols, jitdump, instr-map, unused.
  std::string SideFilesJson() const;
  // What is missing to name every frame (DecodeResult::missing; `info`'s
  // "missing" member): {"mappings": [{"path", "build_id", "dso", "samples",
  // "frames", "unwind_cut", "drop"}] (most samples first), "stack_copy":
  // {"samples", "copy_bytes", "needed_bytes", "fix"} or null}; "null" for
  // formats without one.
  std::string MissingJson() const;
  // A decoder option, applied at the next Decode (gperftools: "pc_minus_one",
  // "drop_duplicate_leaf", "strip_signal_frames" = "1"/"0"). Unknown keys are
  // reported as a diagnostic when decoding.
  void SetOption(std::string key, std::string value);
  // The memory budget of the next Decode, in MiB (MemoryBudget::kDefaultMiB
  // unless set; the CLI's --max-memory): reaching it stops the decode with a
  // memory_budget diagnostic, keeping what was decoded.
  void SetMaxMemoryMiB(uint64_t mib) { max_memory_mib_ = mib; }
  // The options the decoder of this file's format takes, with their values,
  // for a shell to offer as switches (core/api/decoder_options.h):
  // {"title": "...", "options": [{"key", "label", "help", "value"}]}; {} when none.
  std::string DecoderOptionsJson() const;

  std::string RecordLabel(int32_t row) const;
  // Every (kind, type) of the record table with its first row; bytes and counts per (kind, type)
  // (core/analysis/record_composition.h).
  RecordTypes ListRecordTypes() const { return profscope::ListRecordTypes(res_.records); }
  std::vector<CompositionGroup> RecordComposition() const { return profscope::RecordComposition(res_.records); }
  // Each row's children and the main file's leaves by offset (core/analysis/record_index.h).
  RecordIndex BuildRecordIndex() const { return profscope::BuildRecordIndex(res_.records); }
  // The row's type name without instance detail ("SAMPLE", "TSCWrap", "feature HOSTNAME"; "" for no row).
  std::string RecordTypeName(int32_t row) const;
  // The row's format-neutral category (kUnparsed for no row).
  profscope::RecordCategory RecordCategory(int32_t row) const;
  std::string RecordFieldsJson(int32_t row);
  // The decompressed bytes of container row `row` (perf -z COMPRESSED: what its nested rows'
  // offsets count in); empty when the row is no container.
  std::vector<uint8_t> ContainerBytes(int32_t row);

  // ---- times ----
  // Every time a shell gets from the session is relative to this origin (0
  // stays 0 = "no time"): 0 when every time of the profile fits a double
  // exactly, else one below the smallest non-zero time (XRay TSCs exceed 2^53).
  // Set by Decode.
  uint64_t TimeOrigin() const { return time_origin_; }
  // t - TimeOrigin() (0 for 0), exact for every time of this profile.
  double RelativeTime(uint64_t t) const { return static_cast<double>(Relative(t, time_origin_)); }
  // The start of the file as the views show it (their one time zero: rulers, ranges, tooltips):
  // the earliest non-zero time of any sample, call or marker (a COMM or MMAP before the first
  // sample counts), relative to TimeOrigin(); 0 when the file has no time.
  double TimeZero() const { return time_zero_ == 0 ? 0.0 : RelativeTime(time_zero_); }
  // Nanoseconds per unit of the profile's times: 1 for formats that record ns,
  // 1e9 / DecodeResult::clock_hz for ticks (XRay's TSC).
  double NanosPerTimeUnit() const;

  // ---- per thread, per CPU, per event (core/analysis/sample_lanes.h) ----
  // The samples by thread row (by_cpu: by CPU), each lane in time order; by CPU, no lanes (start
  // empty) when no sample names a CPU or one passes 65535.
  SampleLanes Lanes(bool by_cpu) const;
  // One sample's lane in Lanes(false): its thread row, or -1 (no thread, a thread past the table, or no such
  // sample): where the flame chart marks a selected record's sample.
  int32_t SampleLane(int64_t sample) const;
  // The exact calls (XRay enter/exit pairs; made once a decode: the depth of every stack is found once, not
  // for every box the flame chart asks for).
  const IntervalView& Calls() const;
  // The exact calls as the flame chart's rows: by thread, depth, start. Made once a decode (4 bytes a call),
  // the flame chart asks for boxes of them as it draws.
  const IntervalRows& FlameRows() const;
  // The flame chart's boxes of the rows `which` in [t0, t1) at `cols` columns (BoxIntervals), times as
  // RelativeTime times `scale`.
  IntervalBoxes FlameBoxes(const std::vector<int32_t>& which, double scale, double t0, double t1, int32_t cols) const;
  // Whether the exact calls are the samples (an XRay log's: every sample is a call): then the flame chart's
  // thread lanes are CallLanes and CallActivity (core/analysis/call_lanes.h), not Lanes(false).
  bool CallsAreSamples() const;
  // The thread lanes' summary of such a log (SummarizeCallLanes), times as RelativeTime times `scale`; empty
  // when the calls are not the samples.
  CallLaneSummary CallLanes(double scale) const;
  // The calls started per column of [t0, t1) at `cols` columns of the lanes `lanes` (CallActivity); zeros when
  // the calls are not the samples.
  std::vector<float> LaneCallActivity(const std::vector<int32_t>& lanes, double scale, double t0, double t1, int32_t cols) const;
  // The earliest start and latest end of the exact calls, as RelativeTime; {0, 0} when there are none.
  std::pair<double, double> IntervalSpan() const;
  // Samples per event (rows times their counts), one per event the file names or the samples use.
  std::vector<double> EventTotals() const;
  // (cpu, rows) for every CPU the samples name, by CPU.
  std::vector<std::pair<int32_t, uint32_t>> CpuRows() const;

  // ---- aggregation (core/analysis/call_tree.h), what the views show ----
  // Options from their JSON form (core/api/analysis_options_json.h; times relative to TimeOrigin()).
  bool ParseAnalysisOptions(std::string_view json, AnalysisOptions* out, std::string* error) const;
  CallTree Analyze(const AnalysisOptions& options);
  // The tree the page shows: as Analyze, but its sample -> node is kept here (SampleNodes: a bit a sample and
  // 4 bytes a stack), not returned (sample_node empty), until the next such tree or decode; KeptNodes reads
  // it (a node's samples, a sample's node, every sample's node).
  // A tree the core cannot make (CallTree::error) keeps the one before, as the page keeps showing it.
  CallTree AnalyzeKeeping(const AnalysisOptions& options);
  const SampleNodes& KeptNodes() const { return kept_nodes_; }  // (of result().profile.samples)
  // func row -> canonical function (functions merged by name).
  std::vector<int32_t> AnalysisCanon();
  // canonical function -> string id; kNone for the names the analysis made
  // ("[unknown]", "[lib] PATH"), which AnalysisName gives. Grows when a
  // collapse-library transform adds a pseudo function.
  const std::vector<int32_t>& AnalysisNameIds();
  std::string AnalysisName(int32_t canon);
  // The library (mapping path) collapse-library puts a canonical function in; "" when none.
  std::string AnalysisLibrary(int32_t canon);

 private:
  // DecodeStart's steps: the decoder for the file (false: none), a step of
  // the main file, and what follows it (data files, side files, Finish).
  bool BeginDecode(PauseFn pause, uint64_t pause_every);
  DecodeState Step(const std::function<bool()>& step);
  // The data.N files (once, after the main file); true when their decode paused.
  bool ReadDataFiles();
  void UseSideFiles();
  bool data_read_ = false;  // ReadDataFiles has begun
  void Conclude();
  void NoteOutOfMemory();
  // An error diagnostic when `w`'s source ended before its size (Window::ended_at); at that offset when it is
  // the main file's.
  void NoteFileChanged(const Window& w, const std::string& name, bool main_file);
  void NoteRecordCut(const Window& w, int32_t row, FieldList& fields) const;
  // Room set aside while a decode runs, given back when an allocation fails: what was decoded can then still
  // be finished (names, stacks) in a heap the decode filled (a WASM heap cannot grow past its maximum).
  static constexpr size_t kSpareBytes = size_t{8} << 20;
  std::unique_ptr<char[]> spare_;
  ProgressFn progress_;
  bool decode_ok_ = false;
  void FindDebugFiles();
  symbols::FileAccess* files_ = nullptr;
  bool debug_searched_ = false;
  std::vector<std::unique_ptr<ByteSource>> found_sources_;
  std::vector<Diagnostic> found_notes_;  // what the search found or refused, added to every decode's diagnostics
  CallTreeBuilder& Analyzer();
  std::unique_ptr<CallTreeBuilder> analyzer_;
  SampleNodes kept_nodes_;  // (AnalyzeKeeping's)
  mutable std::unique_ptr<IntervalView> calls_;  // (Calls and FlameRows, made when first asked)
  mutable std::unique_ptr<IntervalRows> flame_rows_;
  mutable bool calls_nest_ = false;  // (Lanes found the calls that are samples nested: FlameRows need not check their order)
  uint64_t time_origin_ = 0;
  uint64_t time_zero_ = 0;
  ByteSource& src_;
  std::string name_;
  Window window_;
  std::vector<std::unique_ptr<Window>> extra_;
  std::vector<std::string> extra_names_;
  std::vector<std::unique_ptr<Window>> side_windows_;
  std::vector<SideFile> side_;
  std::vector<std::pair<std::string, std::string>> options_;
  uint64_t max_memory_mib_ = MemoryBudget::kDefaultMiB;
  Window& WindowFor(int32_t row);
  std::unique_ptr<Decoder> decoder_;
  DecodeResult res_;
  bool decoded_ = false;
};

}  // namespace profscope
