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
#include "core/format/perf/perf_jit.h"
#include "core/format/perf/perf_sample.h"

namespace profscope::perf {

// True when the file was written by Android's simpleperf: it has simpleperf
// features or records, or (older files, which have neither) its CMDLINE
// starts with a simpleperf binary ("/data/local/tmp/simpleperf", "simpleperf_ndk64").
bool RecordedBySimpleperf(const FeatureContext& f);

// True when the first bytes look like perf.data (either byte order, file or pipe).
bool Sniff(const uint8_t* head, size_t n);

inline constexpr size_t kMarkerKinds = 32;  // record types 0..31

class PerfDecoder : public Decoder {
 public:
  PerfDecoder();
  ~PerfDecoder() override;
  bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  std::string RecordLabel(const DecodeResult& res, int32_t row) const override;
  void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) override;
  bool IsListedRecord(const DecodeResult& res, int32_t row) const override;
  bool DecodeDataFile(Window& w, uint8_t file_index, DecodeResult& out, const ProgressFn& progress) override;
  void Finish(DecodeResult& out) override {
    FinishEvents(out);
    FinishMarkers(out);
    out.stacks_thread_root = features_.simpleperf.present || RecordedBySimpleperf(features_);
    ReleaseCaches();
  }
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
  // Frees the interning indexes and frame caches once no sample can follow.
  void ReleaseCaches();
  // Timeline markers (MMAP, COMM, SWITCH, LOST, ...): one per such record.
  void AddMarker(ByteReader rec, uint32_t type, uint16_t misc, int32_t row, DecodeResult& out);
  void FinishMarkers(DecodeResult& out);
  // simpleperf: SPLIT pieces joined at SPLIT_END; INIT_MAP feature records.
  void ProcessSplit(ByteReader rec, uint32_t type, int32_t row, DecodeResult& out);
  void ProcessInitMap(ByteReader sec, DecodeResult& out);
  // Fields of the record a SPLIT_END row completes (RecordFields).
  void JoinedSplitFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out);
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
  using AddrSpace = std::map<uint64_t, std::pair<uint64_t, int32_t>>;
  std::unordered_map<int32_t, AddrSpace> maps_;
  // FindMapping for the frames of one sample: the process's and the kernel's
  // address spaces found once, and the last mapping hit in each remembered.
  class SampleMaps {
   public:
    SampleMaps(const std::unordered_map<int32_t, AddrSpace>& maps, int32_t pid);
    int32_t Find(uint64_t addr, bool kernel);

   private:
    struct Space {
      const AddrSpace* space = nullptr;
      uint64_t start = 0, end = 0;
      int32_t row = kNone;
    };
    static int32_t Look(Space& sp, uint64_t addr);
    Space user_, kernel_;
  };
  std::unordered_map<int64_t, int32_t> thread_rows_;              // tid -> thread row
  std::unique_ptr<State> st_;
  std::unique_ptr<StackBuilder> stacks_;
  // (address, mapping) -> frame of the samples decoded so far: the frame and its
  // `path+0xoffset` name are made once per distinct (address, mapping).
  FlatIndex frame_cache_;
  std::string name_buf_;           // scratch: a frame's `path+0xoffset` name
  int32_t unknown_func_ = kNone;   // the "[unknown]" func (frames in no mapping)
  void* zstd_ = nullptr;  // ZSTD_DCtx* of the decode pass
  std::vector<uint8_t> carry_;
  int32_t carry_owner_ = kNone;
  uint64_t carry_base_ = 0;  // decompressed bytes of a record split across containers
  std::vector<uint64_t> frame_addrs_;  // scratch
  std::vector<uint8_t> frame_kernel_;  // scratch: frame is in kernel context
  std::vector<int32_t> frame_maps_;    // scratch: mapping row of each frame
  // Per thread row, the previous sample's frames root first with their stack nodes.
  struct ChainEntry {
    uint64_t address;
    int32_t mapping;
    int32_t stack;
  };
  std::vector<std::vector<ChainEntry>> thread_chains_;
  SampleData sample_;                  // scratch
  // Markers: kind string per record type (interned once); how many markers
  // the records made (their thread column holds a tid, INT32_MIN = none,
  // until Finish resolves it to a thread row, when every thread is known);
  // a label scratch buffer.
  int32_t marker_kind_[kMarkerKinds];
  size_t perf_markers_ = 0;
  struct LabelSlot {
    std::string text;
    int32_t id = kNone;
  };
  LabelSlot label_cache_[kMarkerKinds][2];
  std::string label_;
  // PERF_RECORD_TIME_CONV (TSC -> perf time, for ARCH_TIMESTAMP jit dumps).
  TimeConv time_conv_;
  // simpleperf SPLIT pieces waiting for their SPLIT_END.
  std::vector<uint8_t> split_;
  int32_t split_first_row_ = kNone;
  uint64_t split_first_off_ = 0;
  // INIT_MAP records decoded before the feature rows exist: their mapping
  // and marker rows get the feature's row once it is added.
  size_t init_map_mappings_[2] = {0, 0};
  size_t init_map_markers_[2] = {0, 0};
};

}  // namespace profscope::perf
