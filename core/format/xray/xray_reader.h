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
#include <unordered_map>
#include <vector>

#include "core/format/decoder.h"
#include "core/io/byte_reader.h"
#include "core/io/keyed_hash.h"
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

// Where the read of the records stands between two of them (a paused read resumes from it).
struct XRayReadState {
  bool started = false;
  bool paused = false;
  size_t off = 0;
  // FDR: the current buffer and what it says about its records
  uint64_t v1_buffer_size = 0;
  uint64_t buffer_left = 0;   // v3+: bytes of the current buffer not yet read
  size_t buffer_start = 0;    // v1: start of the current buffer
  bool ignoring = false;      // after EndOfBuffer until the next NewBuffer
  bool fn_open = false;       // a function record can still take CallArgument records
  uint32_t tid = 0, pid = 0;
  uint16_t cpu = 0;
  uint64_t base_tsc = 0;
  std::unordered_map<uint32_t, uint16_t, KeyedIntHash> thread_cpu;  // last NewCPUId per thread (for "cpu" markers)
  size_t wall_pending = SIZE_MAX;  // a WallTimeMarker waiting for the buffer's first TSC
  int32_t block = kNone;           // the current BlockIndexer block
  bool extents_past_end_said = false;
};

struct XRayLog {
  ByteOrder order = ByteOrder::kLittle;
  uint16_t version = 0, type = 0;
  uint64_t freq = 0;                 // cycle frequency (TSC ticks per second), 0 when unknown
  CallLog calls;                     // function records, file order (columns; core/model/call_log.h)
  std::vector<XRayMarker> markers;   // custom/typed events, wall time, cpu changes
  std::vector<XRayBlock> blocks;     // FDR
  XRayReadState read;
};

// Reads the header and every record into out.records (a row each, with its
// category) and `log`; damage gives a diagnostic and what came before stays.
// False (with a fatal diagnostic) when the header is not an XRay log's.
// With a pause check, the read may stop between records with log->read.paused
// set (see PauseFn); ContinueXRayLog goes on from there.
bool ReadXRayLog(Window& w, XRayLog* log, DecodeResult& out, PauseCheck* pause = nullptr);
void ContinueXRayLog(Window& w, XRayLog* log, DecodeResult& out, PauseCheck* pause);

}  // namespace profscope::xray
