// gperftools CPU profiles (the "legacy" binary CPU profile of libprofiler,
// also written by old Go runtimes and, with header version 1, by pprof's
// Java agents): a header of five machine words (0, 3, version, period in
// microseconds, 0), sample records (count, depth, depth PCs), a trailer
// (0, 1, 0) and the text of /proc/self/maps. Word size (4/8) and byte order
// are detected from the header as Go pprof's legacy_profile.go does.
//
// PCs are kept exactly as stored; pprof's silent adjustments are options
// (SetOption, all off by default): "pc_minus_one" (non-leaf PC - 1, as Go
// pprof), "drop_duplicate_leaf" (drop the second PC when it equals the first),
// "strip_signal_frames" (Go pprof: drop a second frame shared by nearly all
// sample records, pushed by the signal handler; at most twice).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/io/byte_reader.h"

namespace profscope::gperf {

bool Sniff(const uint8_t* head, size_t n);

// RecordTable.type values.
inline constexpr uint32_t kTypeHeader = 0;
inline constexpr uint32_t kTypeSample = 1;
inline constexpr uint32_t kTypeTrailer = 2;
inline constexpr uint32_t kTypeMaps = 3;

class GperfDecoder : public Decoder {
 public:
  // Reads the records through the window a slice at a time (never the whole file), pausing between
  // records as the page's worker asks (SetPause); the maps text after the trailer once they end.
  bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  void SetPause(PauseFn pause, uint64_t every) override { pause_.Set(std::move(pause), every); }
  bool Paused() const override { return paused_; }
  uint64_t PausedAt() const override { return off_; }
  bool Resume(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  void Stop(Window& w, DecodeResult& out) override;
  void UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) override;
  void Finish(DecodeResult& out) override;
  std::string RecordLabel(const DecodeResult& res, int32_t row) const override;
  void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) override;
  bool IsListedRecord(const DecodeResult& res, int32_t row) const override;
  bool SetOption(const std::string& key, const std::string& value) override;

  size_t word_size() const { return word_; }
  uint64_t period_us() const { return period_; }

 private:
  uint64_t Word(const uint8_t* p) const;
  // The records from off_ on, until the trailer, the file's end, a pause or the budget.
  void ReadRecords(Window& w, DecodeResult& out);
  void ParseMaps(const std::string& text, uint64_t base, DecodeResult& out);
  // What the records keep until Finish and what Finish adds for them, as the budget counts it.
  uint64_t KeptBytes() const;

  size_t word_ = 8;
  ByteOrder order_ = ByteOrder::kLittle;
  uint64_t version_ = 0, period_ = 0;
  bool pc_minus_one_ = false, drop_duplicate_leaf_ = false, strip_signal_frames_ = false;
  // The sample records, in file order: record i's count, row, and PCs (leaf first, as stored)
  // pcs_[first_[i], first_[i + 1]): columns, not an object per record.
  std::vector<uint64_t> count_;
  std::vector<int32_t> row_;
  std::vector<uint64_t> first_{0};
  std::vector<uint64_t> pcs_;
  // Where the reading is: the next record's offset; paused before it (only then does Resume read on);
  // the trailer was read.
  uint64_t off_ = 0;
  bool paused_ = false, trailer_ = false;
  PauseCheck pause_;
  struct Map { uint64_t start, end, pgoff; std::string path; };
  std::vector<Map> maps_;
  std::vector<std::pair<std::string, std::string>> map_lines_;  // (raw line, after $build substitution)
  std::vector<uint64_t> map_line_offsets_;
  struct Binary;
  std::vector<std::shared_ptr<Binary>> binaries_;
};

}  // namespace profscope::gperf
