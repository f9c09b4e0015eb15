// The CLI's texts, written through an OutputSink as they are made:
// `profscope records` and `profscope events` (`profscope stacks` is the
// folded export, core/api/export/folded_writer.h).
#pragma once

#include <string>

#include "core/api/output_sink.h"
#include "core/format/decoder.h"
#include "core/model/call_log.h"

namespace profscope {

// "OFFSET\tSIZE\tTYPE[\tin:CONTAINER][\tfile:NAME]" per listed record, in file order.
void WriteRecordsText(const DecodeResult& res, const Decoder& decoder, OutputSink& out);
// "TID\tTSC\tACTION\tFUNC[\tARG,ARG..]" per function record of a tracer.
void WriteEventsText(const CallLog& calls, OutputSink& out);

}  // namespace profscope
