// jitdump decoder: the header and every record of a jit-PID.dump into the
// record table, fields on demand, and the code loads/moves as markers and
// as CodeEvents (the timeline).
// See jitdump_format.h for the layout.
#pragma once

#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/jitdump/jitdump_format.h"

namespace profscope::jitdump {

// Fields of one record (rec covers the whole record, header included) or of
// the file header (kind kFileHeader). Also used by ReadDump to collect the
// records' contents, so the two walks never disagree.
void RecordFieldsOf(ByteReader rec, bool file_header, FieldList* fields);

class JitdumpDecoder : public Decoder {
 public:
  // Walks the records in steps as the page's worker asks (SetPause); the markers, facts and info once done.
  bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  void SetPause(PauseFn pause, uint64_t every) override { pause_.Set(std::move(pause), every); }
  bool Paused() const override { return dump_.walk.paused; }
  uint64_t PausedAt() const override { return dump_.walk.off; }
  bool Resume(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  void Stop(Window& w, DecodeResult& out) override;
  std::string RecordLabel(const DecodeResult& res, int32_t row) const override;
  void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) override;
  bool IsListedRecord(const DecodeResult& res, int32_t row) const override;
  std::string TypeName(const DecodeResult& res, int32_t row) const override;
  std::vector<CodeEvent> CodeEvents(const DecodeResult& res) const override;

  const Dump& dump() const { return dump_; }

 private:
  // Timeline markers ("code load", "code move") on thread rows made from the records' tids.
  void AddMarkers(Profile& p) const;

  // After a step of the walk (Decode, Resume): the progress, and Complete once it ended.
  void AfterStep(Window& w, DecodeResult& out, const ProgressFn& progress);
  // What the walk's end adds: each row's load/debug index, the markers, the facts and info.
  void Complete(DecodeResult& out);

  Dump dump_;
  bool ok_ = false;
  PauseCheck pause_;
  std::vector<int32_t> row_load_;   // row -> index into dump_.loads, or -1
  std::vector<int32_t> row_debug_;  // row -> index into dump_.debug, or -1
};

}  // namespace profscope::jitdump
