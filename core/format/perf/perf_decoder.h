// Linux perf.data decoder (file and pipe mode, both byte orders).
// Tokenizes the file into the record table, interprets the records into the
// profile tables, and decodes any row's fields on demand.
// Layout source of truth: perf's tools/perf/util/header.c (perf_session__read_header,
// perf_file_section), session.c (reader loop, user event payloads) and the kernel's
// include/uapi/linux/perf_event.h.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/perf/perf_attr.h"
#include "core/format/perf/perf_features.h"
#include "core/format/perf/perf_sample.h"

namespace profscope::perf {

// True when the first bytes look like perf.data (either byte order, file or pipe).
bool Sniff(const uint8_t* head, size_t n);

class PerfDecoder : public Decoder {
 public:
  PerfDecoder();
  ~PerfDecoder() override;
  bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  std::string RecordLabel(const DecodeResult& res, int32_t row) const override;
  void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) override;
  bool IsListedRecord(const DecodeResult& res, int32_t row) const override;
  bool DecodeDataFile(Window& w, uint8_t file_index, DecodeResult& out, const ProgressFn& progress) override;
  void Finish(DecodeResult& out) override { FinishEvents(out); }
  // jit-PID.dump side files name JIT frames (perf_jit.h); other kinds are reported unused.
  void UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) override;

  struct AttrInfo {
    PerfEventAttr attr;
    std::vector<uint64_t> ids;
    std::string name;
    int32_t event = kNone;  // event table row
    int32_t row = kNone;    // record row
  };
  const std::vector<AttrInfo>& attrs() const { return attrs_; }
  const FeatureContext& features() const { return features_; }

 private:
  struct State;
  bool DecodeFileMode(Window& w, DecodeResult& out, const ProgressFn& progress);
  bool DecodePipeMode(Window& w, DecodeResult& out, const ProgressFn& progress);
  void ReadRecords(Window& w, DecodeResult& out, uint64_t begin, uint64_t end, int32_t parent,
                   const ProgressFn& progress);
  void ProcessRecord(ByteReader rec, int32_t row, DecodeResult& out, Window* w);
  void ProcessSample(ByteReader rec, int32_t row, DecodeResult& out);
  void ProcessCompressed(ByteReader rec, int32_t row, DecodeResult& out);
  void ReadNestedRecords(const uint8_t* data, size_t size, int32_t container, DecodeResult& out);
  void AddAttr(const PerfEventAttr& attr, std::vector<uint64_t> ids, int32_t row, DecodeResult& out);
  void FinishEvents(DecodeResult& out);
  const AttrInfo* AttrForRecord(ByteReader rec, uint32_t type) const;
  int32_t ThreadRow(DecodeResult& out, int32_t pid, int32_t tid, uint64_t time);
  int32_t FindMapping(const DecodeResult& out, int32_t pid, uint64_t addr, bool kernel) const;
  // perf keeps one zstd stream for the whole session (it flushes, never ends
  // frames, between COMPRESSED records), so decompression state carries over.
  std::vector<uint8_t> Decompress(void* dctx, const uint8_t* data, size_t size, uint64_t at, Diagnostics* diags);
  ByteReader RowBytes(Window& w, const DecodeResult& res, int32_t row, std::vector<uint8_t>& keep);

  ByteOrder order_ = ByteOrder::kLittle;
  bool pipe_ = false;
  uint64_t attr_size_ = 0;
  std::vector<AttrInfo> attrs_;
  std::unordered_map<uint64_t, int32_t> id_to_attr_;
  IdPos id_pos_;
  FeatureContext features_;
  std::unordered_map<uint64_t, std::string> event_type_names_;  // old event_types section: config -> name
  std::unordered_map<uint64_t, std::string> update_names_;      // EVENT_UPDATE NAME: id -> name
  // pid -> start -> (end, mapping row): the address space now, older maps clipped by newer ones.
  std::unordered_map<int32_t, std::map<uint64_t, std::pair<uint64_t, int32_t>>> maps_;
  std::unordered_map<int64_t, int32_t> thread_rows_;              // tid -> thread row
  std::unique_ptr<State> st_;
  std::unique_ptr<StackBuilder> stacks_;
  struct U64PairHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& k) const {
      return std::hash<uint64_t>()(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
    }
  };
  std::unordered_map<std::pair<uint64_t, uint64_t>, int32_t, U64PairHash> frame_cache_;  // (address, mapping) -> frame  // interns funcs, frames and stacks across all samples
  void* zstd_ = nullptr;  // ZSTD_DCtx* of the decode pass
  std::vector<uint8_t> carry_;
  int32_t carry_owner_ = kNone;
  uint64_t carry_base_ = 0;  // decompressed bytes of a record split across containers
  std::vector<uint64_t> frame_addrs_;  // scratch
  std::vector<uint8_t> frame_kernel_;  // scratch: frame is in kernel context
  SampleData sample_;                  // scratch
};

}  // namespace profscope::perf
