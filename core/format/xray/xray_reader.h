// Reading an LLVM XRay log into the record table and its function and event
// records: basic ("naive") mode versions 1-3 (32-byte records) and FDR mode
// versions 1-5 (16-byte metadata records, 8-byte function records, buffers
// delimited by NewBuffer/EndOfBuffer or BufferExtents). Function records are
// expanded the way LLVM's TraceExpander does (per-buffer thread/pid/cpu,
// TSC = base + deltas, CallArgument records attaching to the preceding
// function record). Layouts: compiler-rt's xray_records.h /
// xray_fdr_log_records.h and LLVM's lib/XRay readers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/io/byte_reader.h"
#include "core/model/call_log.h"

namespace profscope::xray {

// True when the 32-byte header looks like an XRay log.
bool Sniff(const uint8_t* head, size_t n);

// A marker found while reading; its thread row is known only when the calls are built.
struct XRayMarker {
  uint64_t tsc = 0;
  uint32_t tid = 0;
  uint32_t pid = 0;
  int32_t cpu = kNone;
  uint8_t kind = 0;  // MetadataKind
  std::string label;
  int32_t row = kNone;
};

// An FDR block as LLVM's BlockIndexer cuts them (a NewBuffer starts one): the
// (pid, tid) key and wall time llvm-xray orders a log's records by.
struct XRayBlock {
  uint64_t pid = 0;
  int32_t tid = 0;
  uint64_t seconds = 0;
  uint32_t micros = 0;
};

struct XRayLog {
  ByteOrder order = ByteOrder::kLittle;
  uint16_t version = 0, type = 0;
  uint64_t freq = 0;                 // cycle frequency (TSC ticks per second), 0 when unknown
  CallLog calls;                     // function records, file order (columns; core/model/call_log.h)
  std::vector<XRayMarker> markers;   // custom/typed events, wall time, cpu changes
  std::vector<XRayBlock> blocks;     // FDR
};

// Reads the header and every record into out.records (a row each, with its
// category) and `log`; damage gives a diagnostic and what came before stays.
// False (with a fatal diagnostic) when the header is not an XRay log's.
bool ReadXRayLog(Window& w, XRayLog* log, DecodeResult& out);

}  // namespace profscope::xray
