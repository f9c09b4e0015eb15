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
  bool Decode(Window& w, DecodeResult& out, const ProgressFn& progress) override;
  std::string RecordLabel(const DecodeResult& res, int32_t row) const override;
  void RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) override;
  bool IsListedRecord(const DecodeResult& res, int32_t row) const override;
  std::string TypeName(const DecodeResult& res, int32_t row) const override;
  std::vector<CodeEvent> CodeEvents(const DecodeResult& res) const override;

  const Dump& dump() const { return dump_; }

 private:
  // Timeline markers ("code load", "code move") on thread rows made from the records' tids.
  void AddMarkers(Profile& p) const;

  Dump dump_;
  std::vector<int32_t> row_load_;   // row -> index into dump_.loads, or -1
  std::vector<int32_t> row_debug_;  // row -> index into dump_.debug, or -1
};

}  // namespace profscope::jitdump
