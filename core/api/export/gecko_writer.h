// `gecko`: the Firefox Profiler's Gecko profile format as Linux perf's gecko.py writes it (meta version 24, presymbolicated; one thread per thread with samples at their times in ms from the profile start, stackTable, frameTable, stringTable, markers).
#pragma once

#include "core/api/export/export_common.h"

namespace profscope::exporter {

Output WriteGecko(const DecodeResult& res, const Options& opts);

}  // namespace profscope::exporter
