#include "core/format/perf/perf_stacks.h"

#include "core/format/perf/perf_format.h"

namespace profscope::perf {

namespace {
// A callchain context marker perf knows (machine.c add_callchain_ip); any
// other entry >= PERF_CONTEXT_MAX makes perf discard the whole callchain.
// perf script's and perf report's max_stack (PERF_MAX_STACK_DEPTH): the
// callchain is walked leaf first until that many entries that are no context.
constexpr size_t kMaxStack = 127;

bool KnownContext(uint64_t v) {
  return v == kContextHv || v == kContextKernel || v == kContextUser || v == kContextGuest ||
         v == kContextGuestKernel || v == kContextGuestUser;
}
}  // namespace

PerfStacks::PerfStacks(Profile& p) : p_(p), stacks_(std::make_unique<StackBuilder>(p)) {}

void PerfStacks::Release() {
  frame_cache_.Clear();
  chains_.Clear();
  std::vector<std::vector<ChainEntry>>().swap(thread_chains_);
  stacks_->ReleaseIndexes();
}

void PerfStacks::ChainHead(bool kernel_mode, int32_t pid, const AddressSpaces& spaces) {
  if (spaces.epoch() != ver_epoch_ || pid != ver_pid_) {
    ver_epoch_ = spaces.epoch();
    ver_pid_ = pid;
    ver_user_ = spaces.Version(pid);
    ver_kernel_ = spaces.Version(kKernelPid);
  }
  chain_head_[0] = ver_user_;
  chain_head_[1] = ver_kernel_ << 1 | static_cast<uint64_t>(kernel_mode);
}

void PerfStacks::CollectFrames(const SampleData& s, const PerfEventAttr& attr, uint16_t misc) {
  const uint64_t st = attr.sample_type;
  const bool kernel_mode = (misc & kMiscCpumodeMask) == 1 || (misc & kMiscCpumodeMask) == 4;
  addrs_.clear();
  kernel_.clear();
  if ((st & kSampleCallchain) && !s.callchain.empty()) {
    // --call-graph lbr: the user part comes from the LBR call stack, as perf resolves it
    // (resolve_lbr_callchain_sample, callee order): the callchain up to PERF_CONTEXT_USER,
    // then the first entry's target (the current function), then every entry's call site.
    size_t end = s.callchain.size();
    const bool lbr = !s.lbr_from.empty();
    if (lbr) {
      for (size_t i = 0; i < s.callchain.size(); ++i)
        if (s.callchain[i] == kContextUser) { end = i; break; }
    }
    bool kernel = kernel_mode;
    for (size_t i = 0; i < end && addrs_.size() < kMaxStack; ++i) {
      uint64_t v = s.callchain[i];
      if (v >= kContextMax) {
        if (!KnownContext(v)) {  // "invalid callchain context": perf discards it all
          addrs_.clear();
          kernel_.clear();
          return;
        }
        kernel = v == kContextKernel || v == kContextGuestKernel;
        continue;
      }
      addrs_.push_back(v);
      kernel_.push_back(kernel);
    }
    if (lbr && end < s.callchain.size()) {
      addrs_.push_back(s.lbr_to0);
      kernel_.push_back(0);
      for (uint64_t from : s.lbr_from) {
        addrs_.push_back(from);
        kernel_.push_back(0);
      }
    }
  } else if (st & kSampleIp) {
    addrs_.push_back(s.ip);
    kernel_.push_back(kernel_mode);
  }
}

// perf's thread__resolve_callchain with a dwarf unwinder: the callchain's
// entries (the kernel's; user ones would precede the unwound frames), at most
// PERF_MAX_STACK_DEPTH, then the unwound user frames; the ip when both are empty.
void PerfStacks::CollectUnwound(const SampleData& s, uint16_t misc, const std::vector<uint64_t>& user) {
  const bool kernel_mode = (misc & kMiscCpumodeMask) == 1 || (misc & kMiscCpumodeMask) == 4;
  addrs_.clear();
  kernel_.clear();
  bool kernel = kernel_mode;
  for (uint64_t v : s.callchain) {
    if (addrs_.size() == kMaxStack) break;
    if (v >= kContextMax) {
      if (!KnownContext(v)) {  // perf discards the callchain's entries; the unwound frames follow
        addrs_.clear();
        kernel_.clear();
        break;
      }
      kernel = v == kContextKernel || v == kContextGuestKernel;
      continue;
    }
    addrs_.push_back(v);
    kernel_.push_back(kernel);
  }
  for (uint64_t v : user) {
    addrs_.push_back(v);
    kernel_.push_back(0);
  }
  if (addrs_.empty()) {
    addrs_.push_back(s.ip);
    kernel_.push_back(kernel_mode);
  }
}

void PerfStacks::SimpleperfFrames(int32_t pid, int32_t tid, uint64_t time, const AddressSpaces& spaces,
                                  SimpleperfInfo& spi) {
  if (!spi.joined_callchains.empty()) {
    // simpleperf's callchain joiner wrote the complete user callchain of this
    // sample in a JOINED SIMPLEPERF_CALLCHAIN record (same tid and time): it
    // replaces the sample's user part.
    auto jc = spi.joined_callchains.find({static_cast<uint32_t>(tid), time});
    if (jc != spi.joined_callchains.end()) {
      size_t keep = 0;
      while (keep < addrs_.size() && kernel_[keep]) ++keep;
      addrs_.resize(keep);
      kernel_.resize(keep);
      for (uint64_t ip : jc->second) {
        addrs_.push_back(ip);
        kernel_.push_back(0);
      }
      spi.joined_callchains.erase(jc);
    }
  }
  if (addrs_.size() > 1) {
    // Hide the frames simpleperf report hides (ART runtime frames around Java ones).
    std::vector<SimpleperfFrame> sf(addrs_.size());
    for (size_t i = 0; i < sf.size(); ++i) {
      int32_t m = spaces.Lookup(pid, addrs_[i], kernel_[i]);
      sf[i].addr = addrs_[i];
      sf[i].kernel = kernel_[i];
      if (m == kNone) continue;
      sf[i].path = &p_.strings.Get(p_.mappings.path[static_cast<size_t>(m)]);
      sf[i].map_start = p_.mappings.start[static_cast<size_t>(m)];
      sf[i].map_pgoff = p_.mappings.pgoff[static_cast<size_t>(m)];
    }
    std::vector<uint8_t> keep = SimpleperfReportFrames(spi, sf);
    size_t w = 0;
    for (size_t i = 0; i < keep.size(); ++i) {
      if (!keep[i]) continue;
      addrs_[w] = addrs_[i];
      kernel_[w] = kernel_[i];
      ++w;
    }
    addrs_.resize(w);
    kernel_.resize(w);
  }
}

// A new (address, mapping): its frame and func are new rows (a func is
// (name, mapping) and the name holds the offset), except for names that
// several addresses share ("[unknown]", simpleperf's symbols): those intern.
int32_t PerfStacks::NewFrame(size_t i, SimpleperfInfo& spi) {
  StackBuilder& sb = *stacks_;
  const uint64_t addr = addrs_[i];
  const int32_t m = maps_[i];
  int32_t func;
  if (m == kNone) {
    if (unknown_func_ == kNone) unknown_func_ = sb.Func(p_.strings.Intern("[unknown]"), kNone);
    func = unknown_func_;
  } else {
    const MappingTable& mt = p_.mappings;
    const size_t mi = static_cast<size_t>(m);
    uint64_t rel = addr - mt.start[mi] + mt.pgoff[mi];
    if (!spi.present) {
      // `path+0xoffset`, formed in a reused buffer (once per distinct (address, mapping))
      std::string& name = name_buf_;
      name.assign(p_.strings.Get(mt.path[mi]));
      name += "+0x";
      char hex[16];
      size_t k = sizeof hex;
      uint64_t v = rel;
      do {
        hex[--k] = "0123456789abcdef"[v & 15];
        v >>= 4;
      } while (v);
      name.append(hex + k, sizeof hex - k);
      func = sb.NewFunc(p_.strings.Intern(name), m);
      if (address_named_.size() <= static_cast<size_t>(func)) address_named_.resize(static_cast<size_t>(func) + 1, 0);
      address_named_[static_cast<size_t>(func)] = 1;
    } else {
      const std::string& mpath = p_.strings.Get(mt.path[mi]);
      std::string name;
      uint64_t vaddr = 0;
      bool known = false;
      if (!SimpleperfSymbolize(spi, mpath, mt.start[mi], mt.pgoff[mi], addr, kernel_[i], &name, &vaddr, &known)) {
        // simpleperf report's name for an address without a symbol: dso[+vaddr_in_file]
        std::string hex = Hex(vaddr).substr(2);
        name = SimpleperfDsoDisplayName(mpath) + "[+" + hex + "]";
      }
      func = sb.Func(p_.strings.Intern(name), m);
    }
  }
  return sb.NewFrame(addr, func, m);
}

int32_t PerfStacks::Stack(const SampleData& s, const PerfEventAttr& attr, uint16_t misc, int32_t pid, int32_t tid,
                          uint64_t time, int32_t thread, const AddressSpaces& spaces, SimpleperfInfo& spi,
                          const std::vector<uint64_t>* user) {
  // A plain callchain (no unwound user frames, LBR stack or simpleperf rewriting): its stack depends
  // only on its entries, the cpumode and what the process and the kernel have mapped.
  const bool kernel_mode = (misc & kMiscCpumodeMask) == 1 || (misc & kMiscCpumodeMask) == 4;
  if (!user && !spi.present && (attr.sample_type & kSampleCallchain) && !s.callchain.empty() && s.lbr_from.empty()) {
    ChainHead(kernel_mode, pid, spaces);
    const uint64_t* v = s.callchain.data();
    const size_t n = s.callchain.size();
    const uint64_t h = CallchainTable::Hash(chain_head_, v, n);
    const CallchainTable::Found f = chains_.Find(h, chain_head_, v, n);
    if (f.hit && f.stack != kNone) {
      chain_empty_ = false;
      return f.stack;
    }
    const int32_t stack = WalkFrames(s, attr, misc, pid, tid, time, thread, spaces, spi, nullptr);
    // (a callchain perf shows empty stands for the sample's ip, which is not in the key)
    chains_.Add(f, h, chain_head_, v, n, chain_empty_ ? kNone : stack);
    return stack;
  }
  return WalkFrames(s, attr, misc, pid, tid, time, thread, spaces, spi, user);
}

int32_t PerfStacks::WalkFrames(const SampleData& s, const PerfEventAttr& attr, uint16_t misc, int32_t pid, int32_t tid,
                               uint64_t time, int32_t thread, const AddressSpaces& spaces, SimpleperfInfo& spi,
                               const std::vector<uint64_t>* user) {
  if (user) CollectUnwound(s, misc, *user);
  else CollectFrames(s, attr, misc);
  chain_empty_ = false;
  if (addrs_.empty() && (attr.sample_type & kSampleCallchain) && (attr.sample_type & kSampleIp)) {
    // perf's callchain is empty: the sample's own ip stands for it (perf report, perf's Python callchain).
    chain_empty_ = true;
    addrs_.push_back(s.ip);
    kernel_.push_back((misc & kMiscCpumodeMask) == 1 || (misc & kMiscCpumodeMask) == 4);
  }
  if (spi.present) SimpleperfFrames(pid, tid, time, spaces, spi);
  StackBuilder& sb = *stacks_;
  int32_t stack = kNone;
  SampleMaps maps(spaces, pid);  // this process's and the kernel's address spaces, looked up once per sample
  const size_t nf = addrs_.size();
  maps_.resize(nf);
  for (size_t i = 0; i < nf; ++i) maps_[i] = maps.Find(addrs_[i], kernel_[i]);
  // The thread's previous sample, root first: the outer frames it shares with
  // this one (same address in the same mapping, so the same frame and the same
  // prefix) give their stack nodes without any lookup.
  if (thread_chains_.size() <= static_cast<size_t>(thread)) thread_chains_.resize(static_cast<size_t>(thread) + 1);
  std::vector<ChainEntry>& chain = thread_chains_[static_cast<size_t>(thread)];
  size_t same = 0;
  while (same < nf && same < chain.size() && chain[same].address == addrs_[nf - 1 - same] &&
         chain[same].mapping == maps_[nf - 1 - same])
    ++same;
  if (same) stack = chain[same - 1].stack;
  chain.resize(same);
  // Start loading the cache slot of every other frame: the lookups below then
  // overlap their cache misses instead of taking them one by one.
  for (size_t i = 0; i + same < nf; ++i)
    frame_cache_.Prefetch(FlatIndex::Mix(addrs_[i], static_cast<uint32_t>(maps_[i])));
  const FrameTable& ft = p_.frames;
  const size_t first_user = user && !user->empty() ? nf - user->size() : nf;
  for (size_t i = nf - same; i-- > 0;) {
    const uint64_t addr = addrs_[i];
    const int32_t m = maps_[i];
    bool added = false;
    const int32_t next = static_cast<int32_t>(ft.address.size());
    int32_t frame = frame_cache_.FindOrInsert(
        FlatIndex::Mix(addr, static_cast<uint32_t>(m)),
        [&](int32_t r) { return ft.address[static_cast<size_t>(r)] == addr && ft.mapping[static_cast<size_t>(r)] == m; },
        next, &added);
    if (added) NewFrame(i, spi);  // becomes row `next`
    if (i >= first_user) {
      if (unwound_.size() <= static_cast<size_t>(frame)) unwound_.resize(static_cast<size_t>(frame) + 1, 0);
      unwound_[static_cast<size_t>(frame)] = 1;
    }
    stack = sb.Stack(stack, frame);
    chain.push_back(ChainEntry{addr, m, stack});
  }
  return stack;
}

}  // namespace profscope::perf
