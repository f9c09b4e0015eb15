// `chrome`: Chrome trace event JSON (traceEvents): X events for the flame chart's merged runs of consecutive samples per thread, or XRay's exact calls; i events for markers; M events naming processes and threads.
#pragma once

#include "core/api/export/export_common.h"

namespace profscope::exporter {

Output WriteChrome(const DecodeResult& res, const Options& opts);

}  // namespace profscope::exporter
