// LLVM XRay logs: basic ("naive") mode versions 1-3 and FDR mode versions 1-5.
// Rooms: xray_reader (the log into rows, function records and markers),
// xray_map (function names from side files), xray_calls (enter/exit pairs
// into calls, intervals and stacks); the `llvm-xray account` statistics are
// core/analysis/xray_account.
//
// Every record becomes a row of the record table (FDR metadata records with
// their event payloads, function records, basic-mode records and argument
// payloads). Function records are expanded the way LLVM's TraceExpander does
// (per-buffer thread/pid/cpu, TSC = base + deltas, CallArgument records
// attaching to the preceding function record). Finish() names function ids
// (side files), pairs enters and exits per thread into intervals and builds
// the call stacks like `llvm-xray stack`: one sample per accounted exit on
// the stack node (root = "thread_TID"), so the folded stacks' values are
// llvm-xray's `-aggregation-type=count`. Calls() gives the function records
// with the order LLVM's loader yields them in (FDR: per (pid, tid) in its
// DenseMap's bucket order, each thread's blocks by wall time), which the
// account needs because it drops every record older than the first one it sees.
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

#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/xray/xray_map.h"
#include "core/format/xray/xray_reader.h"

namespace profscope::xray {

class XRayDecoder : public Decoder {
 public:
  bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  // Pausing between the log's records (see PauseFn); a stop keeps what was read, as the budget does.
  void SetPause(PauseFn pause, uint64_t every) override { pause_.Set(std::move(pause), every); }
  bool Paused() const override { return log_.read.paused; }
  uint64_t PausedAt() const override { return log_.read.off; }
  bool Resume(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  void Stop(Window& w, DecodeResult& out) override;
  void UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) override;
  void Finish(DecodeResult& out) override;
  std::string RecordLabel(const DecodeResult& res, int32_t row) const override;
  void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) override;
  bool IsListedRecord(const DecodeResult& res, int32_t row) const override;
  // The function records after Finish.
  const CallLog* Calls() const override { return &calls_; }

  uint16_t version() const { return log_.version; }
  uint16_t log_type() const { return log_.type; }

 private:
  XRayLog log_;
  XRayFunctionMap names_;
  CallLog calls_;
  PauseCheck pause_;
};

}  // namespace profscope::xray
