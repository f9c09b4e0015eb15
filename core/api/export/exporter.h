// Writes a decoded profile in another tool's format (profscope export): the
// one entry point the CLI and the bindings call. Output is bytes (JSON text, or
// gzip for pprof), byte-identical in the native and the WASM build, and holds
// nothing but what is in the profile (no input path, no host data).
//
//   exporter::Options o;            // format, weight, event
//   exporter::ParseFormat("pprof", &o.format);
//   exporter::Output r = exporter::Export(session.result(), o);
//   if (!r.error.empty()) ...       // refused: why (unknown event, weight not in the profile...)
#pragma once

#include "core/api/export/export_common.h"

namespace profscope::exporter {

Output Export(const DecodeResult& res, const Options& opts);

// File name suffix for a format: ".folded", ".speedscope.json", ".gecko.json", ".pb.gz", ".trace.json".
const char* FileSuffix(Format f);

}  // namespace profscope::exporter

namespace profscope::exporter {

// The CLI's `export`: format and weight by name ("" weight = samples); an
// unknown name is an error in the Output.
Output ExportByName(const DecodeResult& res, const std::string& format, const std::string& weight, const std::string& event);

}  // namespace profscope::exporter
