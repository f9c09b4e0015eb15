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
#include "core/model/info_value.h"
#include "core/model/memory_budget.h"
#include "core/model/profile.h"
#include "core/model/record_table.h"

namespace profscope {

struct CallLog;  // core/model/call_log.h

using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;
// Asked between a file's records (at most once per `every` bytes, see SetPause;
// the page: 1 MiB): true pauses the decode before the record at `offset` of
// `file` (0: the main file, N: the Nth data file of perf record --threads), so
// the shell can read ahead or hear a cancel, then resume it (Decoder::Resume)
// or stop it there (Decoder::Stop). Only decoders that can pause ask
// (perf.data, XRay logs).
using PauseFn = std::function<bool(uint64_t offset, uint8_t file)>;

// The decode_stopped warning of a decode stopped (Decoder::Stop) before the
// record at `at`, with the records up to `end` of a `file_size`-byte file unread.
// `file`: "" for the main file, else the name of the data file it stopped in.
void NoteDecodeStopped(Diagnostics& diags, uint64_t at, uint64_t end, uint64_t file_size, const std::string& file = "");

// A decoder's side of PauseFn: asks it at most once per `every` bytes.
class PauseCheck {
 public:
  void Set(PauseFn fn, uint64_t every) {
    fn_ = std::move(fn);
    every_ = every ? every : 1;  // never twice at one offset
  }
  // True: pause before the record at `offset` of `file`.
  bool Ask(uint64_t offset, uint8_t file = 0) {
    if (file != file_) {
      file_ = file;
      last_ = 0;
    }
    if (!fn_ || offset - last_ < every_) return false;
    last_ = offset;
    return fn_(offset, file);
  }
  // After Ask at some offset of `file`: Ask is false, without asking, at every offset from there up to this
  // one (exclusive), so a decoder may take the records before it at once.
  uint64_t QuietUntil(uint8_t file = 0) const {
    if (!fn_) return UINT64_MAX;
    const uint64_t last = file == file_ ? last_ : 0;
    return last > UINT64_MAX - every_ ? UINT64_MAX : last + every_;
  }

 private:
  PauseFn fn_;
  uint64_t every_ = 1u << 20;
  uint64_t last_ = 0;
  uint8_t file_ = 0;
};

// What is missing to name every frame (perf.data; the page's "what is
// missing" panel, `info`'s "missing"): each mapping with samples whose frames
// have no names, or whose missing binary stopped --call-graph dwarf unwinding.
struct MissingMapping {
  std::string path, build_id;  // as recorded ("" when no build-id)
  std::string dso;             // perf's name for it: the path, "[kernel.kallsyms]", "[ext4]", "[vdso]"
  uint64_t samples = 0;        // samples with an unnamed frame there
  uint64_t frames = 0;         // unnamed frames there, summed over the samples
  uint64_t unwind_cut = 0;     // dwarf samples whose user stack stops there (its binary was not given)
  std::string drop;            // what to drop, one sentence
};
struct MissingReport {
  bool computed = false;  // the decoder makes one (perf.data)
  std::vector<MissingMapping> mappings;  // most samples (+ unwind_cut) first
  // --call-graph dwarf samples whose stack copy ended before the root.
  uint64_t stack_short_samples = 0, stack_copy_bytes = 0, stack_needed_bytes = 0;
  std::string stack_fix;  // "perf record --call-graph dwarf,16384", "" when even perf's largest copy is too small
};

struct DecodeResult {
  std::string format;      // "perf.data"
  std::string mode;        // "file" / "pipe"
  std::string byte_order;  // "little" / "big"
  uint64_t file_size = 0;
  std::vector<std::string> files;  // names of the input files; [0] is the main file
  // Sizes of the input files, as `files` ([0] the main file; perf --threads data.N files after it): how far
  // a decode has come through all of them (the tables are reserved from it).
  std::vector<uint64_t> file_sizes;
  // While further files are read in turns (perf --threads data.N files, a turn of each in order): the
  // bytes read so far of all files, the main file's included (0 before them).
  uint64_t data_files_read = 0;
  // What a decoder holds besides the tables, counted by the budget (perf: the records waiting in the
  // ordered-events queue).
  uint64_t pending_bytes = 0;
  RecordTable records;
  Profile profile;
  Diagnostics diags;
  uint64_t time_start = 0, time_end = 0;  // sample time span (0 when none)
  // Ticks per second of the profile's time columns when they are not nanoseconds
  // (XRay: the TSC frequency from the log header); 0 = times are ns.
  uint64_t clock_hz = 0;
  // Summary facts a decoder wants shown (hostname, perf version, ...), as key/value text.
  std::vector<std::pair<std::string, std::string>> facts;
  // Further members of `profscope info`'s object (an object; jitdump: its header, record counts).
  InfoValue info;
  // What `profscope records` shows as a row's type: its number (perf.data,
  // jitdump), else its type name (XRay, gperftools).
  bool record_types_are_numbers = true;
  // Each sample is one traced call (XRay), weighted by its duration, which includes its callees': the
  // call tree subtracts those (self time), exports weigh by time, the page first by time and lists
  // functions by their call statistics. Set by a tracer's decoder.
  bool samples_are_calls = false;
  // `profscope stacks` in simpleperf's stackcollapse.py form: each stack
  // starts with the thread's name at the sample's time, the sample's own
  // frame left out, weighted by period, one event (the first sample's unless
  // one is named). Set by the perf decoder for simpleperf files.
  bool stacks_thread_root = false;
  // What a person should drop to have every frame named (perf.data).
  MissingReport missing;
  // The decode's memory budget (core/model/memory_budget.h), set before decoding.
  MemoryBudget budget;
  // True when the tables (and `extra` bytes a decoder keeps itself, e.g. its
  // call log) reach the budget: the decoder stops reading at `offset`
  // (reported once). Counts only every MemoryBudget::kCheckEvery calls.
  bool OverBudget(uint64_t offset, uint64_t extra = 0) {
    return OverBudgetKeeping(offset, [extra] { return extra; });
  }
  // The same, with what the decoder keeps besides the tables counted by `kept()` only when it is counted.
  template <typename F>
  bool OverBudgetKeeping(uint64_t offset, F kept) {
    if (budget.reached()) return true;
    if (!budget.Due()) return false;
    return budget.Reached(MemoryBudget::Bytes(records) + MemoryBudget::Bytes(profile) + pending_bytes + kept(), offset, diags);
  }
};

// A file dropped or named next to the profile that is not part of the
// recording itself but helps decode it: the program's ELF binary (symbols,
// XRay instrumentation map), a jit-PID.dump, an `llvm-xray extract` YAML map.
struct SideFile {
  std::string name;
  std::string kind;  // sniffed by content: "elf", "jitdump", "yaml", "unknown"
  Window* window = nullptr;
  // The folder it came from (a --symbols DIR, a dropped folder: a build-id
  // cache, /usr/lib/debug, any folder of binaries), as given; "" for a file
  // given alone. `name` is then "FOLDER/relative/path".
  std::string folder;
  // Not given by the person but offered by the host (the running kernel's
  // vdso): used where it matches, never reported when it does not.
  bool implicit = false;
  // Its path inside `folder` ("" for a file given alone).
  std::string RelativePath() const {
    if (folder.empty() || name.size() <= folder.size() || name.compare(0, folder.size(), folder) != 0) return {};
    size_t at = folder.size();
    while (at < name.size() && name[at] == '/') ++at;
    return name.substr(at);
  }
};

// A JIT code load or move of a jitdump (its timeline), in the runtime's clock.
struct CodeEvent {
  uint64_t time = 0;
  bool move = false;     // CODE_MOVE, else CODE_LOAD
  std::string name;      // the function loaded (a move: of the latest load of its code index)
  uint64_t addr = 0;     // code address (a move: the new one)
  uint64_t old_addr = 0; // a move: the old code address
  uint64_t size = 0, index = 0;
  int32_t record = kNone;
};

// What a side file is, by content.
std::string SniffSideFile(Window& w);

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Decodes everything it can; false when nothing could be decoded (fatal diagnostic added).
  // With a pause function set, a pausable decoder may return early with Paused() true.
  virtual bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) = 0;
  // Pausing (see PauseFn): Decode or DecodeDataFile returns early when `pause` says so,
  // Resume continues it where it stopped, Stop ends that file there (the rows after it are not read).
  virtual void SetPause(PauseFn pause, uint64_t every) { (void)pause; (void)every; }
  virtual bool Paused() const { return false; }
  // The offset the decode paused at (the next record's).
  virtual uint64_t PausedAt() const { return 0; }
  virtual bool Resume(Window& w, DecodeResult& out, const ProgressFn& progress) {
    (void)w; (void)out; (void)progress;
    return true;
  }
  virtual void Stop(Window& w, DecodeResult& out) { (void)w; (void)out; }
  // The further files of the same recording, after the main one (perf record
  // --threads writes perf.data/data plus data.N files holding only records):
  // files[k]'s rows get records.file = k + 1. Pausing as Decode does; the
  // window given to Resume and Stop is then not used (the decoder knows which
  // file it paused in: PausedFile). Returns false when the format has no such files.
  virtual bool DecodeDataFiles(const std::vector<Window*>& files, DecodeResult& out, const ProgressFn& progress) {
    (void)files; (void)out; (void)progress;
    return false;
  }
  // The file a paused decode is in: 0 the main file, k + 1 DecodeDataFiles' files[k].
  virtual uint8_t PausedFile() const { return 0; }
  // The side files, shown before decoding to a decoder that needs some of
  // them while it decodes (perf: the binaries that unwind --call-graph dwarf
  // stacks). The same files are offered again to UseSideFiles.
  virtual void PrepareSideFiles(const std::vector<SideFile>& files) { (void)files; }
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
  // "SAMPLE", "feature HOSTNAME", "attr 0 (cpu-clock)", ...
  virtual std::string RecordLabel(const DecodeResult& res, int32_t row) const = 0;
  // Fields of one row, decoded on demand (re-reading its bytes through w).
  virtual void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) = 0;
  // Rows that `profscope records` lists (records in file order), and the
  // container row for nested ones.
  virtual bool IsListedRecord(const DecodeResult& res, int32_t row) const = 0;
  // The row's type name without instance detail: "SAMPLE", "MMAP2",
  // "feature HOSTNAME", "attr", "file header", "TSCWrap", "CODE_LOAD".
  virtual std::string TypeName(const DecodeResult& res, int32_t row) const { return RecordLabel(res, row); }
  // The decompressed bytes of a container row (perf -z COMPRESSED), in which its nested rows'
  // offsets count; false when the row is none.
  virtual bool ContainerBytes(Window& w, const DecodeResult& res, int32_t row, std::vector<uint8_t>& out) {
    (void)w; (void)res; (void)row; out.clear();
    return false;
  }
  // The function entries/exits of a tracer (XRay), nullptr for other formats.
  virtual const CallLog* Calls() const { return nullptr; }
  // JIT code loads and moves in file order (jitdump), empty for other formats.
  virtual std::vector<CodeEvent> CodeEvents(const DecodeResult& res) const { (void)res; return {}; }
  // A decoder option set by the user before decoding (gperftools: pprof's
  // PC adjustments). Returns false when the decoder does not know it.
  virtual bool SetOption(const std::string& key, const std::string& value) { (void)key; (void)value; return false; }
};

// Chooses a decoder by content (magic, structure), never by file name.
// Returns nullptr when no format matches.
std::unique_ptr<Decoder> DetectFormat(Window& w);

}  // namespace profscope
