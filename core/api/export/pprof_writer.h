// `pprof`: profile.proto (google/pprof proto/profile.proto), gzip-compressed: sample types per event, locations with mappings and addresses, functions with names and source files where known.
#pragma once

#include "core/api/export/export_common.h"

namespace profscope::exporter {

Output WritePprof(const DecodeResult& res, const Options& opts);

}  // namespace profscope::exporter
