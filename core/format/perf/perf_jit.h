// perf.data + jit-PID.dump: names the JIT frames of samples the way
// `perf inject --jit` + `perf script` do.
//
// perf inject --jit (tools/perf/util/jitdump.c) turns every CODE_LOAD into a
// jitted-PID-N.so mapped at code_addr from the load's timestamp on (a MMAP2
// event carrying that time), and every CODE_MOVE into one mapped at
// new_code_addr; a later mapping overlays older ones. perf then names a
// sample's address by the latest such mapping in effect at the sample's time,
// so a frame's name is the CODE_LOAD name of the newest function whose code
// covers the address and whose load time is not after the sample. DEBUG_INFO
// applies to the CODE_LOAD that follows it (perf keeps the last one and hands
// it to the next load), giving the frame a file:line.
//
// perf refuses dumps whose clock is not the samples' clock: without
// ARCH_TIMESTAMP every event must use clockid CLOCK_MONOTONIC (`perf record -k 1`);
// with ARCH_TIMESTAMP (TSC stamps) the dump's times are converted to perf's
// time with the recording's TIME_CONV record, as perf inject --jit does.
//
// The dump's code loads and moves also become timeline markers ("code load",
// "code move") on the perf.data's timeline, in perf's clock, on the thread
// of the record's tid; they have no record row in perf.data (record = -1).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/jitdump/jitdump_format.h"
#include "core/io/keyed_hash.h"

namespace profscope::perf {

struct JitFunc {
  std::string name;
  uint64_t start = 0, end = 0;   // code range [start, end)
  uint64_t time = 0;             // from when it applies (load / move timestamp)
  uint64_t until = UINT64_MAX;   // a CODE_MOVE of the same code_index ends it
  uint64_t code_index = 0;
  int32_t debug = -1;            // index into JitIndex debug entries, or -1
  int32_t unwind = -1;           // index into the dump's unwinding records, or -1
};

// Where perf inject --jit puts a code load's bytes in its jitted-PID-N.so
// (genelf.c): the code at GEN_ELF_TEXT_OFFSET (also the MMAP2's pgoff), the
// .eh_frame of its UNWINDING_INFO at the next 8-aligned address after the
// code, the .eh_frame_hdr right after that. JIT frames unwind in this layout.
inline constexpr uint64_t kJitTextOffset = 0x80;
inline uint64_t JitEhFrameAddress(uint64_t code_size) { return (kJitTextOffset + code_size + 7) & ~uint64_t{7}; }

// Address -> function over time, for one dump.
class JitIndex {
 public:
  void Build(const jitdump::Dump& d);
  // The newest function covering addr that is in effect at time, or nullptr.
  const JitFunc* Find(uint64_t addr, uint64_t time) const;
  // "file:line" of addr inside f from its DEBUG_INFO (last entry at or before addr), or "".
  std::string SourceLine(const JitFunc& f, uint64_t addr) const;
  // The load of code_index (its first placement), or nullptr.
  const JitFunc* Load(uint64_t code_index) const;
  size_t size() const { return funcs_.size(); }
  uint64_t first_time() const { return first_time_; }

 private:
  std::vector<JitFunc> funcs_;            // sorted by start address
  std::vector<std::vector<jitdump::DebugEntry>> debug_;
  std::unordered_map<uint64_t, JitFunc, KeyedIntHash> loads_;  // code_index -> its (latest) CODE_LOAD
  uint64_t max_len_ = 0;
  uint64_t first_time_ = UINT64_MAX;
};

// PERF_RECORD_TIME_CONV (tools/lib/perf/include/perf/event.h, struct
// perf_record_time_conv): how perf turns the CPU's timestamp counter (TSC)
// into its own time. Newer perf writes time_cycles .. cap_user_time_short too
// (perf's event_contains(): the record is longer than 32 bytes).
struct TimeConv {
  bool present = false;
  bool extended = false;
  uint64_t time_shift = 0, time_mult = 0, time_zero = 0;
  uint64_t time_cycles = 0, time_mask = 0;
  bool cap_user_time_zero = false, cap_user_time_short = false;
  int32_t row = -1;  // record row of the TIME_CONV record
};

// perf's tsc_to_perf_time() (tools/perf/util/tsc.c) with the parameters as
// jitdump.c's convert_timestamp() takes them (time_mult as u32, time_shift as
// u16; the extended fields only when the record has them).
uint64_t TscToPerfTime(uint64_t cyc, const TimeConv& tc);

// "jit-1234.dump" -> 1234 (the name perf's jitdump.c gives a dump); -1 when
// the file name is not of that form.
int64_t JitDumpFilePid(const std::string& base);

// What the perf decoder knows that the join needs.
struct JitJoinInput {
  // Per attr: its flags word has use_clockid (bit 25) and its clockid.
  std::vector<std::pair<bool, int32_t>> clocks;
  TimeConv time_conv;  // for ARCH_TIMESTAMP dumps
};

// Reads every jitdump side file, ties each to a process, checks the clocks
// and renames the JIT frames of matching samples: frames get new funcs (by
// the CODE_LOAD name, in the frame's mapping) and the samples' stacks are
// re-derived through sb (stacks left without samples stay in the table,
// unreferenced). Side files of other kinds are reported as unused.
void UseJitDumps(std::vector<SideFile>& files, const JitJoinInput& in, StackBuilder& sb, DecodeResult& out);

}  // namespace profscope::perf
