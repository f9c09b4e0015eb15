// One opened file: detects the format, decodes it, and answers questions
// about it. The native CLI and the WASM bindings both use this class, so the
// texts they print are produced by the same code.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/format/decoder.h"

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

  // Detects and decodes; false when nothing could be decoded (fatal diagnostic present).
  bool Decode(const ProgressFn& progress = nullptr);

  const DecodeResult& result() const { return res_; }
  const std::string& name() const { return name_; }

  // The CLI's outputs (byte-identical natively and in WASM).
  std::string InfoJson() const;
  std::string RecordsText() const;
  // Folded stacks, one line per distinct stack: "root;..;leaf count". For
  // simpleperf files, simpleperf's stackcollapse.py form instead (see
  // DecodeResult::stacks_thread_root): "thread;caller;..;callee period".
  std::string StacksText(bool addresses, const std::string& event) const;
  std::string EventsText() const;
  // Sample-less entries over time (jitdump: [{time, kind:"load"|"move", name, addr, size, index, record}]).
  std::string TimelineJson() const;

  std::string DiagnosticsJson() const;
  std::string SummaryJson() const;
  std::string ThreadsJson() const;
  std::string MappingsJson() const;
  std::string EventsJson() const;
  std::string StringsJson() const;
  // Per-function accounting (XRay: `llvm-xray account` columns), "[]" when the format has none.
  std::string AccountJson() const;
  // Calls with start and end (XRay), JSON rows {thread,func,start,end,depth,record}.
  std::string IntervalsJson() const;
  // A decoder option, applied at the next Decode (gperftools: "pc_minus_one",
  // "drop_duplicate_leaf", "strip_signal_frames" = "1"/"0"). Unknown keys are
  // reported as a diagnostic when decoding.
  void SetOption(std::string key, std::string value);

  std::string RecordLabel(int32_t row) const;
  std::string RecordFieldsJson(int32_t row);
  // Innermost top-level-or-nested row whose bytes cover the file offset, or -1.
  int32_t RecordAt(uint64_t offset) const;

 private:
  ByteSource& src_;
  std::string name_;
  Window window_;
  std::vector<std::unique_ptr<Window>> extra_;
  std::vector<std::string> extra_names_;
  std::vector<std::unique_ptr<Window>> side_windows_;
  std::vector<SideFile> side_;
  std::vector<std::pair<std::string, std::string>> options_;
  Window& WindowFor(int32_t row);
  std::unique_ptr<Decoder> decoder_;
  DecodeResult res_;
  bool decoded_ = false;
};

}  // namespace profscope
