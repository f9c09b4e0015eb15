// The CLI's texts, written through an OutputSink as they are made:
// `profscope records`, `profscope stacks` (folded stacks, or simpleperf's
// stackcollapse.py form) and `profscope events`.
#pragma once

#include <string>

#include "core/api/output_sink.h"
#include "core/format/decoder.h"

namespace profscope {

// "OFFSET\tSIZE\tTYPE[\tin:CONTAINER][\tfile:NAME]" per listed record, in file order.
void WriteRecordsText(const DecodeResult& res, const Decoder& decoder, OutputSink& out);
// Folded stacks, one line per distinct stack "root;..;leaf count" (sorted),
// frames by name or address; only the samples of `event` when one is named
// (none when it names no event). For simpleperf files (stacks_thread_root)
// stackcollapse.py's "thread;caller;..;callee period" instead.
void WriteStacksText(const DecodeResult& res, bool addresses, const std::string& event, OutputSink& out);
// "TID\tTSC\tACTION\tFUNC[\tARG,ARG..]" per function record of a tracer.
void WriteEventsText(const CallLog& calls, OutputSink& out);

}  // namespace profscope
