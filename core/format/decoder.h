// The interface every format decoder implements, and what a decode produces.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/diag/diagnostics.h"
#include "core/io/byte_source.h"
#include "core/model/fields.h"
#include "core/model/profile.h"
#include "core/model/record_table.h"

namespace profscope {

using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;

struct DecodeResult {
  std::string format;      // "perf.data"
  std::string mode;        // "file" / "pipe"
  std::string byte_order;  // "little" / "big"
  uint64_t file_size = 0;
  std::vector<std::string> files;  // names of the input files; [0] is the main file
  RecordTable records;
  Profile profile;
  Diagnostics diags;
  uint64_t time_start = 0, time_end = 0;  // sample time span (0 when none)
  // Ticks per second of the profile's time columns when they are not nanoseconds
  // (XRay: the TSC frequency from the log header); 0 = times are ns.
  uint64_t clock_hz = 0;
  // Summary facts a decoder wants shown (hostname, perf version, ...), as key/value text.
  std::vector<std::pair<std::string, std::string>> facts;
  // Further members a decoder adds to `profscope info`'s JSON object, as
  // JSON text starting with ',' (",\"header\":{...}"); empty for most formats.
  std::string info_extra;
  // `profscope stacks` in simpleperf's stackcollapse.py form: each stack
  // starts with the thread's name at the sample's time, the sample's own
  // frame left out, weighted by period, one event (the first sample's unless
  // one is named). Set by the perf decoder for simpleperf files.
  bool stacks_thread_root = false;
};

// A file dropped or named next to the profile that is not part of the
// recording itself but helps decode it: the program's ELF binary (symbols,
// XRay instrumentation map), a jit-PID.dump, an `llvm-xray extract` YAML map.
struct SideFile {
  std::string name;
  std::string kind;  // sniffed by content: "elf", "jitdump", "yaml", "unknown"
  Window* window = nullptr;
};

// What a side file is, by content.
std::string SniffSideFile(Window& w);

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Decodes everything it can; false when nothing could be decoded (fatal diagnostic added).
  virtual bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) = 0;
  // A further file of the same recording (perf record --threads writes
  // perf.data/data plus data.N files holding only records). Rows added get
  // records.file = file_index. Returns false when the format has no such files.
  virtual bool DecodeDataFile(Window& w, uint8_t file_index, DecodeResult& out, const ProgressFn& progress) {
    (void)w; (void)file_index; (void)out; (void)progress;
    return false;
  }
  // Side files (see SideFile), offered after the main and data files were
  // decoded and before Finish. A decoder reports a side file it cannot use
  // or that does not match the profile as a diagnostic; it never uses a
  // mismatching one silently.
  virtual void UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) {
    for (const auto& f : files)
      out.diags.Warning(DiagCode::kSideFileUnused, 0, 0, "side file " + f.name + " (" + f.kind + ") is not used by the " + out.format + " decoder");
  }
  // Called once after the main file and every data file were decoded.
  virtual void Finish(DecodeResult& out) { (void)out; }
  // `profscope events FILE`: one line per event of a tracer (XRay function
  // records); empty for formats without such events.
  virtual std::string EventsText(const DecodeResult& res) const { (void)res; return {}; }
  // Sample-less things over time a timeline can show (jitdump: code loads
  // and moves), as a JSON array; "[]" when the format has none.
  virtual std::string TimelineJson(const DecodeResult& res) const { (void)res; return "[]"; }
  // "SAMPLE", "feature HOSTNAME", "attr 0 (cpu-clock)", ...
  virtual std::string RecordLabel(const DecodeResult& res, int32_t row) const = 0;
  // Fields of one row, decoded on demand (re-reading its bytes through w).
  virtual void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) = 0;
  // Rows that `profscope records` lists (records in file order), and the
  // container row for nested ones.
  virtual bool IsListedRecord(const DecodeResult& res, int32_t row) const = 0;
  // Third column of `profscope records`: the record's type as text. Default:
  // the numeric type (perf.data); formats with named kinds override it.
  virtual std::string RecordTypeText(const DecodeResult& res, int32_t row) const {
    return std::to_string(res.records.type[static_cast<size_t>(row)]);
  }
  // Per-function accounting table (XRay: like `llvm-xray account`) as JSON; "[]" when none.
  virtual std::string AccountJson(const DecodeResult& res) const { (void)res; return "[]"; }
  // A decoder option set by the user before decoding (gperftools: pprof's
  // PC adjustments). Returns false when the decoder does not know it.
  virtual bool SetOption(const std::string& key, const std::string& value) { (void)key; (void)value; return false; }
};

// Chooses a decoder by content (magic, structure), never by file name.
// Returns nullptr when no format matches.
std::unique_ptr<Decoder> DetectFormat(Window& w);

}  // namespace profscope
