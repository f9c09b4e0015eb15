// `speedscope`: speedscope's file format (one sampled profile per thread, and per event when several are kept; shared frames with file:line where known; weights = samples, period or time).
#pragma once

#include "core/api/export/export_common.h"

namespace profscope::exporter {

Output WriteSpeedscope(const DecodeResult& res, const Options& opts);

}  // namespace profscope::exporter
