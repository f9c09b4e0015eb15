// Linux perf.data decoder (file and pipe mode, both byte orders, Android
// simpleperf's files too). The rooms it is made of, in data-flow order:
//   perf_tokenizer     cuts the file into record-table rows (header, attrs,
//                      data records, payloads, COMPRESSED contents, features)
//   perf_ordered_events hands the records on in perf's time order (its ordered-events queue)
//   perf_zstd_stream   the zstd stream of perf record -z, and every row's bytes again
//   perf_record_parser interprets each record into the profile tables, through
//   perf_records       one parser per record kind (also the field view's),
//   perf_stacks        a SAMPLE's frames and stack (perf_unwind: the user frames
//                      of --call-graph dwarf samples, unwound with core/unwind), and
//   perf_markers       the timeline markers
//   perf_session       what the recording says about itself (attrs, ids, features, names)
//   perf_record_fields the field view of a record
//   simpleperf/        simpleperf's records, features and SPLIT/INIT_MAP joining
// Threads and address spaces are the shared trackers of core/model.
// Layout source of truth: perf's tools/perf/util/header.c and session.c and
// the kernel's include/uapi/linux/perf_event.h.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/model/packed_column.h"
#include "core/trace/trace_printer.h"
#include "core/trace/tracing_data.h"
#include "core/format/perf/perf_missing.h"
#include "core/format/perf/perf_script_sample.h"
#include "core/format/perf/perf_session.h"

namespace profscope::symbols {
class SymbolStore;
}

namespace profscope::perf {

struct ScriptHeader {
  int name_width = 0;          // the longest event name
  bool any_callchain = false;  // some event samples callchains
};

// True when the first bytes look like perf.data (either byte order, file or pipe).
bool Sniff(const uint8_t* head, size_t n);

class PerfOrderedEvents;
class PerfRecordParser;
class PerfTokenizer;

class PerfDecoder : public Decoder {
 public:
  PerfDecoder();
  ~PerfDecoder() override;
  bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  bool DecodeDataFiles(const std::vector<Window*>& files, DecodeResult& out, const ProgressFn& progress) override;
  uint8_t PausedFile() const override;
  // "queue_size" (bytes, as perf's report.queue-size; K/M/G suffixes): how many bytes of records wait
  // for time ordering before the older half is interpreted. Default: 64 MiB, and for the data files of a
  // perf --threads recording at least two turns of every file (perf's own queue has no bound there).
  bool SetOption(const std::string& key, const std::string& value) override;
  void SetPause(PauseFn pause, uint64_t every) override {
    pause_ = std::move(pause);
    pause_every_ = every;
  }
  bool Paused() const override;
  uint64_t PausedAt() const override;
  bool Resume(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  void Stop(Window& w, DecodeResult& out) override;
  // jit-PID.dump side files name JIT frames (perf_jit.h), ELF binaries name
  // mapped files' frames (perf_symbols.h); other kinds are reported unused.
  // ELF binaries unwind --call-graph dwarf samples while decoding (perf_unwind.h).
  void PrepareSideFiles(const std::vector<SideFile>& files) override { early_side_ = files; }
  void UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) override;
  void Finish(DecodeResult& out) override;
  std::string RecordLabel(const DecodeResult& res, int32_t row) const override;
  std::string TypeName(const DecodeResult& res, int32_t row) const override;
  void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) override;
  bool ContainerBytes(Window& w, const DecodeResult& res, int32_t row, std::vector<uint8_t>& out) override;
  bool IsListedRecord(const DecodeResult& res, int32_t row) const override;

  // perf script's view of every sample, in the order they were interpreted
  // (perf's time order), for core/api/script_writer.h: resolved through the
  // symbol store of the side files (or an empty one: DSO names only).
  // `row_window` gives the window of a record row's file.
  bool ScriptSamples(const DecodeResult& res, const std::function<Window&(int32_t)>& row_window, ScriptHeader& header,
                     const std::function<void(const ScriptSampleInfo&)>& each);

  const PerfSession& session() const { return session_; }

 private:
  // A --call-graph dwarf SAMPLE's field view: its user frames unwound again, each with the
  // bytes that gave it (the ip register, the stack-copy slot of each return address).
  void AddUnwoundFields(ByteReader rec, const DecodeResult& res, int32_t row, FieldList& out);
  // A tracepoint SAMPLE's field view: its raw data's fields by name, from the file's TRACING_DATA formats.
  void AddTracepointFields(Window& w, ByteReader rec, const DecodeResult& res, int32_t row, FieldList& out);
  // The row of the file's TRACING_DATA (feature section or pipe-mode payload), kNone without one.
  static int32_t TracingDataRow(const DecodeResult& res);
  bool tracing_read_ = false;
  trace::TracingData tracing_;
  // Profile::funcs.unknown: the funcs still named `path+0xoffset` that perf prints "[unknown]".
  void MarkUnknownFuncs(Profile& p, const std::vector<uint8_t>& address_named);
  // The kernel symbol holding addr, as perf's tracepoint printer resolves it.
  // kernel_maps: the mapping rows of the kernel (pid -1) that have a DSO.
  bool KernelSymbolAt(const Profile& p, const std::vector<size_t>& kernel_maps, uint64_t addr,
                      trace::TracePrinter::KernelSymbol* out) const;
  // Fields of the rows that are not records: header, attrs, ids, event_types, feature table.
  void SectionFields(ByteReader r, const DecodeResult& res, int32_t row, FieldList& out) const;

  PerfSession session_;
  // The side files' symbols and binaries (perf_symbols.h); the parser's unwinder reads from it.
  std::unique_ptr<symbols::SymbolStore> store_;
  std::unique_ptr<PerfRecordParser> parser_;
  std::unique_ptr<PerfOrderedEvents> ordered_;
  uint64_t queue_size_ = 0;  // "queue_size" option; 0: the default
  std::vector<int32_t> mapping_dso_;             // mapping row -> store DSO
  MissingInputs missing_in_;                     // the side files as the "what is missing" report sees them
  std::vector<uint8_t> inlined_frames_;          // frame row -> an inlined function's frame (perf_inlines.h)
  PackedColumn<int32_t> sample_comm_;            // sample -> comm at its time (kNone: ":tid")
  std::vector<uint32_t> empty_chain_;            // samples whose callchain perf shows empty, in order
  std::unique_ptr<PerfTokenizer> tokenizer_;
  PauseFn pause_;
  uint64_t pause_every_ = 1u << 20;
  std::vector<SideFile> early_side_;
};

}  // namespace profscope::perf
