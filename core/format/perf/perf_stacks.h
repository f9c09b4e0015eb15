// The stack of one perf SAMPLE: its frames leaf first (the callchain without
// its context markers, the LBR call stack under --call-graph lbr, else the
// ip; simpleperf's joined callchains and hidden ART frames applied), each
// resolved to the mapping of its process at that moment and named
// `path+0xoffset` (simpleperf: from the file's own symbol tables), interned
// into the profile's frame/func/stack tables.
//
// The decode's hot path: most samples repeat a callchain seen before, so a
// whole callchain is looked up first (its raw entries, the cpumode and the
// versions of the address spaces its frames resolve in: one probe) and a hit
// gives its stack row without walking its frames. Otherwise a frame and its
// name are made once per distinct (address, mapping), and the outer frames a
// thread's sample shares with its previous one reuse their stack nodes
// without any lookup.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/format/perf/callchain_table.h"
#include "core/format/perf/perf_sample.h"
#include "core/format/perf/simpleperf/simpleperf_features.h"
#include "core/model/address_space.h"
#include "core/model/profile.h"

namespace profscope::perf {

class PerfStacks {
 public:
  explicit PerfStacks(Profile& p);
  // The stack row of sample `s` (kNone without frames) of process `pid`,
  // thread row `thread`; `misc` is the record header's (its cpumode).
  // `user` (--call-graph dwarf, perf_unwind.h): the unwound user frames, leaf
  // first, that follow the callchain's frames; with neither, the sample's ip.
  int32_t Stack(const SampleData& s, const PerfEventAttr& attr, uint16_t misc, int32_t pid, int32_t tid,
                uint64_t time, int32_t thread, const AddressSpaces& spaces, SimpleperfInfo& spi,
                const std::vector<uint64_t>* user = nullptr);
  // The last Stack() had a callchain that perf shows empty (only context
  // markers, or an entry >= PERF_CONTEXT_MAX that is no context: perf 6.1's
  // add_callchain_ip then discards the whole callchain): its stack is the
  // sample's ip, as perf report and perf's Python callchain fallback have it,
  // but perf script prints no callchain line for it.
  bool last_chain_empty() const { return chain_empty_; }
  StackBuilder& builder() { return *stacks_; }
  // Frees the caches once no sample can follow (the interning indexes too).
  void Release();
  // Frames may have been renamed (side files): the frame cache no longer holds.
  void ForgetFrames() {
    frame_cache_.Clear();
    chains_.Clear();
  }
  // Per frame row: 1 when a sample had it as an unwound user frame (perf adds
  // inlined frames to those only: perf_inlines.h). Kept by Release().
  const std::vector<uint8_t>& unwound_frames() const { return unwound_; }
  // func row -> 1 when its name is the address's `path+0xoffset` (no symbol yet).
  const std::vector<uint8_t>& address_named_funcs() const { return address_named_; }

 private:
  void CollectFrames(const SampleData& s, const PerfEventAttr& attr, uint16_t misc);
  void CollectUnwound(const SampleData& s, uint16_t misc, const std::vector<uint64_t>& user);
  void SimpleperfFrames(int32_t pid, int32_t tid, uint64_t time, const AddressSpaces& spaces, SimpleperfInfo& spi);
  int32_t NewFrame(size_t i, SimpleperfInfo& spi);
  // The stack of `s` frame by frame (what a cached callchain skips).
  int32_t WalkFrames(const SampleData& s, const PerfEventAttr& attr, uint16_t misc, int32_t pid, int32_t tid,
                     uint64_t time, int32_t thread, const AddressSpaces& spaces, SimpleperfInfo& spi,
                     const std::vector<uint64_t>* user);
  // chain_head_ for a callchain of `pid` sampled in kernel mode or not.
  void ChainHead(bool kernel_mode, int32_t pid, const AddressSpaces& spaces);

  Profile& p_;
  std::unique_ptr<StackBuilder> stacks_;
  // (address, mapping) -> frame of the samples decoded so far.
  FlatIndex frame_cache_;
  std::string name_buf_;          // scratch: a frame's `path+0xoffset` name
  int32_t unknown_func_ = kNone;  // the "[unknown]" func (frames in no mapping)
  std::vector<uint64_t> addrs_;   // scratch: the sample's frames, leaf first
  std::vector<uint8_t> kernel_;   // scratch: frame is in kernel context
  std::vector<int32_t> maps_;     // scratch: mapping row of each frame
  // Per thread row, the previous sample's frames root first with their stack nodes.
  struct ChainEntry {
    uint64_t address;
    int32_t mapping;
    int32_t stack;
  };
  std::vector<std::vector<ChainEntry>> thread_chains_;
  std::vector<uint8_t> unwound_;
  std::vector<uint8_t> address_named_;
  bool chain_empty_ = false;

  // Callchains seen before -> their stack row.
  CallchainTable chains_;
  // The key's head for the callchain being looked up: the versions of the
  // process's and the kernel's address spaces, and the cpumode.
  uint64_t chain_head_[2] = {0, 0};
  // The versions of the last sample's spaces (valid while the spaces' epoch is the same).
  uint64_t ver_epoch_ = ~0ull, ver_user_ = 0, ver_kernel_ = 0;
  int32_t ver_pid_ = 0;
};

}  // namespace profscope::perf
