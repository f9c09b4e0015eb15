// The user part of `perf record --call-graph dwarf` stacks: a SAMPLE with
// PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER is unwound (core/unwind)
// with the binaries the person gave (found through the symbol store: ELF side
// files, perf archive tarballs, build-id cache folders...), the way perf
// 6.1 built with libunwind does it (util/unwind-libunwind-local.c,
// machine.c thread__resolve_callchain): the kernel callchain first (perf
// records with exclude_callchain_user), then the unwound user frames.
//
// A binary serves a mapping when its build-id is the mapping's (MMAP2 or the
// BUILD_ID feature), else -- the mapping has no build-id -- when its file name
// is the mapping's; a binary whose name matches but whose build-id differs is
// reported, never used. As perf, a process none of whose mappings has a
// binary gets no user frame at all (unwind__prepare_access registers no
// unwinder), and unwinding keeps the pc and stops in a mapping without one.
//
// What was missing is counted and said at Finish(): per mapping whose
// missing binary cut samples short (ranked), and the samples whose stack
// copy ended before the root, with the --call-graph dwarf,SIZE that would
// have held it. The stack copy is read from the record's own bytes (the
// decoder's window), never from a copy of the file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/diag/diagnostics.h"
#include "core/format/decoder.h"
#include "core/format/perf/perf_attr.h"
#include "core/format/perf/perf_jit_unwind.h"
#include "core/format/perf/perf_sample.h"
#include "core/io/byte_reader.h"
#include "core/io/keyed_hash.h"
#include "core/model/address_space.h"
#include "core/model/profile.h"
#include "core/symbols/symbol_store.h"
#include "core/unwind/unwinder.h"

namespace profscope::perf {

class PerfUnwind {
 public:
  PerfUnwind(Profile& p, Diagnostics& diags);
  ~PerfUnwind();

  // The binaries come from `store` (the side files' symbol inputs, matched to
  // each mapping's DSO as its names are: core/symbols/symbol_store.h; it must
  // outlive this object; nullptr: none); the side files of kind "jitdump" give
  // JIT code its unwind tables (perf_jit_unwind.h).
  void AddBinaries(const std::vector<SideFile>& files, symbols::SymbolStore* store);
  // The recording's TIME_CONV (ARCH_TIMESTAMP jit dumps), read when needed.
  void SetTimeConv(const TimeConv* tc) { jit_.SetTimeConv(tc); }
  // The recording's HEADER_ARCH ("x86_64", "aarch64", ...); "" = x86_64.
  void SetArch(const std::string& arch);
  // Whose register numbering the samples use (simpleperf's differs for 32-bit tasks on arm64).
  void SetRegisterAbi(unwind::RegisterAbi who) { regs_abi_ = who; }

  // Mapping table row `row` was just mapped into process `pid`.
  void Mapped(int32_t pid, int32_t row);
  // A new process `child` forked from `parent` with a copy of its maps (perf's
  // maps__clone, which prepares the child's unwinding as the parent's was).
  void Forked(int32_t parent, int32_t child);

  // For a sample that carries user registers and a stack copy: unwinds it and
  // returns the user frames perf adds after the callchain (leaf first; valid
  // until the next call). nullptr when the sample has neither (its stack is
  // made from its callchain/ip as before). `rec` is the whole record.
  const std::vector<uint64_t>* UserFrames(const SampleData& s, const PerfEventAttr& attr, ByteReader rec,
                                          int32_t pid, const AddressSpaces& spaces);

  // The diagnostics of what stopped unwinding (once, after the last sample).
  void Finish();

  // One sample unwound again after the decode (the record's field view: the
  // stack-copy slot of each return address). The process's mappings at the
  // sample's time are rebuilt from the mapping table (its rows of `pid` made
  // at or before `time`); nothing is counted. The sampled frame's `ra_slot` is
  // the ip register's place in regs_user. False when the sample has no user
  // registers and stack copy or no binary was given.
  bool Reunwind(const SampleData& s, const PerfEventAttr& attr, ByteReader rec, int32_t pid,
                unwind::UnwindResult* out);

  // Counts, for tests and benchmarks.
  struct Counts {
    uint64_t samples = 0;          // samples with user registers and a stack copy
    uint64_t unwound = 0;          // ... that reached the root (StopReason::kOutermost)
    uint64_t no_unwinder = 0;      // ... of a process without any binary: no user frame
    uint64_t missing_binary = 0;   // ... stopped in a mapping without a binary
    uint64_t stack_too_small = 0;  // ... stopped at the end of the stack copy
    uint64_t frames = 0;           // user frames made
    uint64_t jit_frames = 0;       // ... of which in JIT code unwound with a jit dump's tables
    uint64_t jit_no_info = 0;      // samples stopped in JIT code that has no unwinding info
  };
  const Counts& counts() const { return counts_; }

  // For the "what is missing" report: each (path, build-id) string id pair
  // (build-id kNone when none) whose missing binary cut samples short, with
  // how many; and the samples whose stack copy was too small.
  struct MissingBinary {
    int32_t path = kNone, build_id = kNone;
    uint64_t samples = 0;
  };
  std::vector<MissingBinary> MissingBinaries() const;
  uint64_t stack_copy_bytes() const { return short_copy_size_; }
  uint64_t stack_needed_bytes() const { return short_needed_; }
  // The --call-graph dwarf,SIZE that holds `needed` bytes (a power of two
  // from 1024, perf's largest copy 65528 at most); 0 when even that is too small.
  static uint64_t DwarfSizeFor(uint64_t needed);

 private:
  class Lookup;
  struct Binary {
    std::unique_ptr<MemorySource> src;  // over the store's bytes of the file
    std::unique_ptr<unwind::UnwindModule> module;
  };
  struct MapInfo {
    bool resolved = false;
    bool anonymous = false;  // [stack], //anon, memfd...: no file (JIT code is looked up in the jit dumps)
    int32_t binary = -1;  // index into binaries_, -1: none
    bool jit = false;     // perf inject --jit's jitted-PID-N.so, served by a given jit dump
    unwind::UnwindModule* jit_module = nullptr;  // its tables (null: the code has none)
    bool bias_ok = false;
    uint64_t bias = 0;
  };
  MapInfo& Resolve(int32_t row);
  void CountMissing(int32_t row, uint64_t offset);
  void CountJitNoInfo(const std::string& dump, uint64_t offset);

  Profile& p_;
  Diagnostics& diags_;
  symbols::SymbolStore* store_ = nullptr;
  bool have_binaries_ = false;  // the store holds some ELF file
  std::vector<Binary> binaries_;
  std::unordered_map<const std::vector<uint8_t>*, int32_t> binary_of_;  // store bytes -> binaries_ index (-1: unusable)
  JitUnwind jit_;
  std::vector<MapInfo> maps_;                    // by mapping row
  std::unordered_map<int32_t, bool, KeyedIntHash> unwinds_;    // pid -> a mapping with a binary was mapped
  // pid -> binary -> the lowest start of a mapping of it in that process (inherited ones
  // included: perf keeps a forked process's copy of its parent's maps after exec).
  std::unordered_map<int32_t, std::unordered_map<int32_t, uint64_t>, KeyedIntHash> lowest_;
  unwind::Arch machine_ = unwind::Arch::kX86_64;
  unwind::RegisterAbi regs_abi_ = unwind::RegisterAbi::kPerf;
  std::unique_ptr<unwind::Unwinder> unwinder_;
  unwind::UnwindResult result_;
  std::vector<uint64_t> frames_;
  Counts counts_;
  // (path, build-id) of a mapping without a binary -> samples it cut short, first record offset.
  struct Missing {
    uint64_t samples = 0;
    uint64_t offset = 0;
  };
  std::map<std::pair<int32_t, int32_t>, Missing> missing_;
  std::map<std::string, uint64_t> mismatch_reported_;
  uint64_t short_first_offset_ = 0, short_copy_size_ = 0, short_needed_ = 0;
  std::map<std::string, Missing> jit_no_info_;    // jit dump -> samples stopped in its code without tables
  std::map<std::string, uint64_t> other_stops_;  // stop reason -> samples
  uint64_t other_first_offset_ = 0;
};

}  // namespace profscope::perf
