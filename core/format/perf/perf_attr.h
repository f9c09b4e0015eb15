// perf_event_attr, parsed from any size perf has written (VER0 = 64 bytes up
// to 136 and beyond: unknown tail bytes are kept but not interpreted).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/byte_reader.h"
#include "core/model/fields.h"

namespace profscope::perf {

struct PerfEventAttr {
  uint32_t type = 0;
  uint32_t size = 0;          // as written in the attr
  uint64_t config = 0;
  uint64_t sample_period_or_freq = 0;
  uint64_t sample_type = 0;
  uint64_t read_format = 0;
  uint64_t flags = 0;         // the bitfield word (disabled, inherit, ... sample_id_all ...)
  uint32_t wakeup = 0;
  uint32_t bp_type = 0;
  uint64_t config1 = 0;       // also bp_addr
  uint64_t config2 = 0;       // also bp_len
  uint64_t branch_sample_type = 0;
  uint64_t sample_regs_user = 0;
  uint32_t sample_stack_user = 0;
  int32_t clockid = 0;
  uint64_t sample_regs_intr = 0;
  uint32_t aux_watermark = 0;
  uint16_t sample_max_stack = 0;
  uint32_t aux_sample_size = 0;
  uint64_t sig_data = 0;
  uint64_t config3 = 0;

  bool freq() const { return flags & (1ULL << 10); }
  bool sample_id_all() const { return flags & (1ULL << 18); }
  bool exclude_kernel() const { return flags & (1ULL << 5); }
  int precise_ip() const { return static_cast<int>((flags >> 15) & 3); }
};

// Names of the bits of PerfEventAttr::flags, index = bit: "disabled", "inherit", ...
const char* AttrFlagName(int bit);

// Parses an attr occupying exactly `r` (the caller slices the declared size).
// When `byte_swapped` the bitfield word is also bit-reversed per byte as perf
// does for cross-endian files (see perf's perf_event__attr_swap / bswap_field).
// Returns false when the slice is shorter than VER0 (64 bytes).
bool ParseAttr(ByteReader r, PerfEventAttr* out, FieldList* fields);

// Event name as perf prints it ("cpu-clock", "cycles", "cache-misses", a raw
// "r1a8", a tracepoint "sched:sched_switch" when a name is known), plus the
// ":u/:k/:ppp" modifiers perf appends; `given_name` from EVENT_DESC wins.
std::string EventName(const PerfEventAttr& attr, const std::string& given_name);

// Size of the sample_id trailer (sample_id_all) for this attr's sample_type.
uint32_t SampleIdSize(uint64_t sample_type);

}  // namespace profscope::perf
