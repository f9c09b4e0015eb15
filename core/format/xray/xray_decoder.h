// LLVM XRay logs: basic ("naive") mode versions 1-3 and FDR mode versions 1-5.
//
// Every record becomes a row of the record table (FDR metadata records with
// their event payloads, function records, basic-mode records and argument
// payloads). Function records are expanded the way LLVM's TraceExpander does
// (per-buffer thread/pid/cpu, TSC = base + deltas, CallArgument records
// attaching to the preceding function record). Finish() names function ids
// (side files), pairs enters and exits per thread into intervals and builds
// the call stacks like `llvm-xray stack`: one sample per accounted exit on
// the stack node (root = "thread_TID"), so the folded stacks' values are
// llvm-xray's `-aggregation-type=count`. The `llvm-xray account` table takes
// the records in the order LLVM's loader yields them (FDR: per (pid, tid) in
// its DenseMap's bucket order, each thread's blocks by wall time), because
// account drops every record older than the first one it sees.
//
// Markers (Profile::markers, TSC clock like the intervals): one per
// CustomEventMarker ("custom event", label "N bytes: preview"), per
// TypedEventMarker ("typed event", label "type T, N bytes: preview"), per
// WallTimeMarker ("wall time", label "SECONDS.MICROS", at the TSC of the
// buffer's following NewCPUId or function record) and per NewCPUId that
// changes a thread's CPU ("cpu", label "cpu N"). A marker's record is the row
// holding its payload bytes (the event payload row, a child of the metadata
// row) or, without payload, the metadata record itself. Basic mode has no
// event records (compiler-rt's basic logging writes only function and
// argument records), so basic logs have no markers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/elf/symbolizer.h"

namespace profscope::xray {

// True when the 32-byte header looks like an XRay log.
bool Sniff(const uint8_t* head, size_t n);

// A marker found while decoding; its thread row is known only in Finish.
struct XRayMarker {
  uint64_t tsc = 0;
  uint32_t tid = 0;
  uint32_t pid = 0;
  int32_t cpu = kNone;
  uint8_t kind = 0;  // MetadataKind
  std::string label;
  int32_t row = kNone;
};

struct XRayEvent {
  uint32_t tid = 0;
  uint32_t pid = 0;
  uint16_t cpu = 0;
  uint8_t action = 0;  // Action
  int32_t func = 0;
  uint64_t tsc = 0;
  std::vector<uint64_t> args;
  int32_t row = kNone;  // function record row
  int32_t block = kNone;  // FDR: index into the decoder's blocks (LLVM's BlockIndexer blocks)
};

// One line of `llvm-xray account`.
struct AccountRow {
  int32_t func = 0;
  uint64_t count = 0;
  double min = 0, median = 0, p90 = 0, p99 = 0, max = 0, sum = 0;  // seconds (ticks when no frequency)
  std::string name;
};

class XRayDecoder : public Decoder {
 public:
  bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  void UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) override;
  void Finish(DecodeResult& out) override;
  std::string EventsText(const DecodeResult& res) const override;
  std::string RecordLabel(const DecodeResult& res, int32_t row) const override;
  std::string RecordTypeText(const DecodeResult& res, int32_t row) const override;
  void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) override;
  bool IsListedRecord(const DecodeResult& res, int32_t row) const override;
  std::string AccountJson(const DecodeResult& res) const override;

  const std::vector<XRayEvent>& events() const { return events_; }
  const std::vector<XRayMarker>& markers() const { return markers_; }
  const std::vector<AccountRow>& account() const { return account_; }
  // `llvm-xray account` text (same layout, for comparisons).
  std::string AccountText() const;
  uint16_t version() const { return version_; }
  uint16_t log_type() const { return type_; }

 private:
  void DecodeBasic(Window& w, size_t n, DecodeResult& out);
  void DecodeFdr(Window& w, size_t n, DecodeResult& out);
  void LoadYamlMap(Window& w, const std::string& name, DecodeResult& out);
  void BuildProfile(DecodeResult& out);
  void BuildAccount();
  std::string FuncName(int32_t id) const;

  ByteOrder order_ = ByteOrder::kLittle;
  uint16_t version_ = 0, type_ = 0;
  uint64_t freq_ = 0;
  std::vector<XRayEvent> events_;
  std::vector<XRayMarker> markers_;
  // FDR blocks as LLVM's BlockIndexer cuts them (a NewBuffer starts one): the
  // (pid, tid) key and wall time llvm-xray orders a log's records by.
  struct Block {
    uint64_t pid = 0;
    int32_t tid = 0;
    uint64_t seconds = 0;
    uint32_t micros = 0;
  };
  std::vector<Block> blocks_;
  // Event indices in the order llvm-xray's loader gives them (basic: file
  // order; FDR: per (pid, tid) in its hash map's order, blocks by wall time).
  std::vector<size_t> LlvmOrder() const;
  std::map<int32_t, std::string> names_;     // from a side file
  std::map<int32_t, uint64_t> addresses_;    // function id -> address (side file)
  std::vector<AccountRow> account_;
};

}  // namespace profscope::xray
