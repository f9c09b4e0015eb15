#include "core/format/perf/perf_unwind.h"

#include <algorithm>

#include "core/format/perf/perf_format.h"
#include "core/io/path_name.h"
#include "core/symbols/build_id.h"
#include "core/unwind/perf_registers.h"

namespace profscope::perf {

namespace uw = profscope::unwind;

namespace {

// 1204 -> "1,204"
std::string Thousands(uint64_t v) {
  std::string d = std::to_string(v), out;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}



bool Anonymous(const std::string& path) {
  return path.empty() || path[0] == '[' || path.rfind("//", 0) == 0 || path.rfind("/memfd:", 0) == 0;
}

const char* kPs = "perf record --call-graph dwarf";

// The sample's stack copy, within the record's own bytes (empty when it lies outside them).
uw::StackCopy StackCopyOf(const SampleData& s, ByteReader rec) {
  uw::StackCopy stack;
  const uint64_t base = rec.base();
  if (s.stack_user_size && s.stack_user_offset >= base && s.stack_user_offset - base <= rec.size() &&
      s.stack_user_size <= rec.size() - (s.stack_user_offset - base)) {
    stack.data = rec.data() + (s.stack_user_offset - base);
    stack.size = s.stack_user_size;
    stack.dyn_size = std::min(s.stack_user_dyn_size, s.stack_user_size);
    stack.file_offset = s.stack_user_offset;
    stack.order = rec.order();
  }
  return stack;
}

}  // namespace

// The process's mappings at the sample's moment, with their binaries.
// JIT code is found through the given jit dumps: where no file is mapped (the
// perf.data as recorded) or as perf inject --jit's jitted-PID-N.so mappings.
class PerfUnwind::Lookup : public uw::ModuleLookup {
 public:
  Lookup(PerfUnwind& u, const AddressSpaces& spaces, int32_t pid, uint64_t time, bool monotonic)
      : u_(u), spaces_(spaces), pid_(pid), time_(time), monotonic_(monotonic) {}
  bool Find(uint64_t address, uw::ModuleHit* out) override {
    const int32_t row = spaces_.Lookup(pid_, address, false);
    out->mapping = row == kNone ? -1 : row;
    out->module = nullptr;
    out->bias = 0;
    jit_ = false;
    if (row != kNone && u_.p_.mappings.pid[static_cast<size_t>(row)] == kKernelPid) return true;
    MapInfo* mi = row == kNone ? nullptr : &u_.Resolve(row);
    if (!mi || mi->anonymous) {
      JitUnwind::Hit h;
      if (!u_.jit_.empty() && u_.jit_.Find(pid_, address, time_, monotonic_, &h)) {
        out->module = h.module;
        out->bias = h.bias;
        jit_ = true;
        jit_dump_ = h.dump;
        if (h.module) ++jit_steps_;
        return true;
      }
      return row != kNone;
    }
    if (mi->binary >= 0 && mi->bias_ok) {
      uw::UnwindModule* m = u_.binaries_[static_cast<size_t>(mi->binary)].module.get();
      out->module = m;
      out->bias = mi->bias;
      // perf 6.1 (unwind-libunwind-local.c read_unwind_spec_eh_frame) places the .eh_frame_hdr
      // table at the lowest start of any mapping of the DSO in the process minus the ELF's base
      // (first PT_LOAD's vaddr - offset): the load base only when that mapping is the file's
      // first segment of this very load.
      auto p = u_.lowest_.find(pid_);
      if (p != u_.lowest_.end() && m->has_eh_frame_hdr()) {
        auto b = p->second.find(mi->binary);
        if (b != p->second.end()) {
          out->has_fde_bias = true;
          out->fde_bias = b->second - m->ElfBase();
        }
      }
    } else if (mi->jit) {
      out->module = mi->jit_module;
      out->bias = mi->bias;
      jit_ = true;
      jit_dump_.clear();
      if (mi->jit_module) ++jit_steps_;
    }
    return true;
  }
  // The last Find was JIT code (its dump's name, "" for a jitted .so mapping).
  bool jit() const { return jit_; }
  const std::string& jit_dump() const { return jit_dump_; }
  uint64_t jit_steps() const { return jit_steps_; }

 private:
  PerfUnwind& u_;
  const AddressSpaces& spaces_;
  int32_t pid_;
  uint64_t time_;
  bool monotonic_;
  bool jit_ = false;
  std::string jit_dump_;
  uint64_t jit_steps_ = 0;
};

PerfUnwind::PerfUnwind(Profile& p, Diagnostics& diags)
    : p_(p), diags_(diags), unwinder_(std::make_unique<uw::Unwinder>()) {}
PerfUnwind::~PerfUnwind() = default;

void PerfUnwind::AddBinaries(const std::vector<SideFile>& files, symbols::SymbolStore* store) {
  jit_.Add(files);
  store_ = store;
  have_binaries_ = store_ && store_->HasElfInputs();
}

void PerfUnwind::SetArch(const std::string& arch) {
  uw::Arch a;
  if (uw::ArchFromName(arch, &a)) machine_ = a;
}

PerfUnwind::MapInfo& PerfUnwind::Resolve(int32_t row) {
  const size_t r = static_cast<size_t>(row);
  if (maps_.size() <= r) maps_.resize(r + 1);
  MapInfo& mi = maps_[r];
  if (mi.resolved) return mi;
  mi.resolved = true;
  const MappingTable& mt = p_.mappings;
  const std::string& path = p_.strings.Get(mt.path[r]);
  const std::string build_id = mt.build_id[r] == kNone ? std::string() : p_.strings.Get(mt.build_id[r]);
  // The [vdso] has a file where perf archive or a build-id cache keeps one.
  mi.anonymous = Anonymous(path) && path != "[vdso]";
  if (mi.anonymous) return mi;
  if (store_) {
    // The binary perf would read (its build-id cache entry, the file given...):
    // matched by build-id, by file name when none was recorded (pipe mode
    // writes them last); one of another build-id is never used.
    const std::vector<uint8_t>* bytes = store_->RuntimeBytes(store_->Dso(path, build_id, false));
    if (bytes) {
      auto it = binary_of_.find(bytes);
      if (it == binary_of_.end()) {
        Binary b;
        b.src = std::make_unique<MemorySource>(*bytes);
        b.module = uw::UnwindModule::FromElf(*b.src, path);
        int32_t index = -1;
        if (b.module && b.module->elf().ok) {
          index = static_cast<int32_t>(binaries_.size());
          binaries_.push_back(std::move(b));
        }
        it = binary_of_.emplace(bytes, index).first;
      }
      mi.binary = it->second;
    }
  }
  if (mi.binary >= 0)
    mi.bias_ok = binaries_[static_cast<size_t>(mi.binary)].module->Bias(mt.start[r], mt.pgoff[r], &mi.bias);
  JitUnwind::Hit h;
  if (mi.binary < 0 && !jit_.empty() && jit_.FindInjected(path, mt.start[r], mt.pgoff[r], &h)) {
    mi.jit = true;
    mi.jit_module = h.module;
    mi.bias = h.bias;
  }
  return mi;
}

void PerfUnwind::Mapped(int32_t pid, int32_t row) {
  if (pid == kKernelPid || (!have_binaries_ && jit_.empty())) return;
  jit_.Mapped(pid, p_.strings.Get(p_.mappings.path[static_cast<size_t>(row)]));
  // A process whose JIT code has unwind tables unwinds (after perf inject
  // --jit, perf reads them from the jitted .so files).
  if (jit_.Unwinds(pid)) unwinds_[pid] = true;
  if (!have_binaries_) return;
  // perf's unwind__prepare_access: a process unwinds from the first mapping
  // whose file perf can read. A [vdso] without a recorded build-id (pipe
  // mode) perf reads from a copy of its own vdso (vdso.c); profscope has
  // none, so once any binary is given such a [vdso] counts as readable (its
  // frames then stop unwinding, as a missing binary's do).
  const size_t r = static_cast<size_t>(row);
  if (const int32_t b = Resolve(row).binary; b >= 0) {
    auto [at, fresh] = lowest_[pid].emplace(b, p_.mappings.start[r]);
    if (!fresh && p_.mappings.start[r] < at->second) at->second = p_.mappings.start[r];
  }
  if (Resolve(row).binary >= 0 ||
      (p_.mappings.build_id[r] == kNone && p_.strings.Get(p_.mappings.path[r]) == "[vdso]"))
    unwinds_[pid] = true;
}

void PerfUnwind::Forked(int32_t parent, int32_t child) {
  auto it = unwinds_.find(parent);
  if (it != unwinds_.end() && it->second) unwinds_[child] = true;
  auto low = lowest_.find(parent);
  if (low != lowest_.end()) {
    const auto copy = low->second;
    for (const auto& [binary, start] : copy) {
      auto [at, fresh] = lowest_[child].emplace(binary, start);
      if (!fresh && start < at->second) at->second = start;
    }
  }
}

uint64_t PerfUnwind::DwarfSizeFor(uint64_t needed) {
  // perf copies at most 65528 bytes (a u16, 8-aligned: perf's parse_callchain_record).
  const uint64_t kMax = 65528;
  if (needed > kMax) return 0;
  uint64_t want = 1024;
  while (want < needed && want < kMax) want *= 2;
  return want > kMax ? kMax : want;
}

std::vector<PerfUnwind::MissingBinary> PerfUnwind::MissingBinaries() const {
  std::vector<MissingBinary> out;
  for (const auto& [key, m] : missing_) out.push_back({key.first, key.second, m.samples});
  return out;
}

void PerfUnwind::CountMissing(int32_t row, uint64_t offset) {
  const size_t r = static_cast<size_t>(row);
  const std::string group = JitUnwind::InjectedGroup(p_.strings.Get(p_.mappings.path[r]));
  // perf inject --jit's jitted-PID-N.so files come from one jit dump: one entry for them all.
  Missing& m = group.empty() ? missing_[{p_.mappings.path[r], p_.mappings.build_id[r]}]
                             : missing_[{p_.strings.Intern(group), kNone}];
  if (m.samples++ == 0) m.offset = offset;
}

void PerfUnwind::CountJitNoInfo(const std::string& dump, uint64_t offset) {
  ++counts_.jit_no_info;
  Missing& m = jit_no_info_[dump];
  if (m.samples++ == 0) m.offset = offset;
}

const std::vector<uint64_t>* PerfUnwind::UserFrames(const SampleData& s, const PerfEventAttr& attr, ByteReader rec,
                                                    int32_t pid, const AddressSpaces& spaces) {
  const uint64_t st = attr.sample_type;
  if (!(st & kSampleRegsUser) || !(st & kSampleStackUser)) return nullptr;
  frames_.clear();
  if (s.regs_user_abi == uw::kRegsAbiNone || s.regs_user.empty()) return &frames_;  // a kernel thread
  ++counts_.samples;
  const uw::StackCopy stack = StackCopyOf(s, rec);
  const uint64_t base = rec.base();
  const bool monotonic = ((attr.flags >> 25) & 1) && attr.clockid == 1;  // use_clockid, CLOCK_MONOTONIC
  Lookup lookup(*this, spaces, pid, (st & kSampleTime) ? s.time : 0, monotonic);
  auto u = unwinds_.find(pid);
  if (u == unwinds_.end() || !u->second) {
    // No binary of this process at all: perf takes no user frame. The
    // mapping of the user pc is the binary that would start it.
    ++counts_.no_unwinder;
    uw::Arch task;
    if (uw::TaskArch(machine_, s.regs_user_abi, &task)) {
      const int k = uw::PerfIpIndex(machine_, task);
      if (k >= 0 && k < 64 && ((s.regs_user_mask >> k) & 1)) {
        const uint64_t below = s.regs_user_mask & ((uint64_t{1} << k) - 1);
        const size_t at = static_cast<size_t>(__builtin_popcountll(below));
        uw::ModuleHit hit;
        if (at < s.regs_user.size() && lookup.Find(s.regs_user[at], &hit) && hit.mapping >= 0 &&
            p_.mappings.pid[static_cast<size_t>(hit.mapping)] != kKernelPid &&
            !Anonymous(p_.strings.Get(p_.mappings.path[static_cast<size_t>(hit.mapping)])))
          CountMissing(hit.mapping, base);
      }
    }
    return &frames_;
  }
  unwinder_->Unwind(machine_, regs_abi_, s.regs_user_abi, s.regs_user_mask, s.regs_user.data(),
                    s.regs_user.size(), stack, lookup, &result_);
  for (const auto& f : result_.frames) frames_.push_back(f.address);
  counts_.frames += frames_.size();
  counts_.jit_frames += lookup.jit_steps();
  switch (result_.stop) {
    case uw::StopReason::kOutermost: ++counts_.unwound; break;
    case uw::StopReason::kMissingBinary:
      ++counts_.missing_binary;
      if (lookup.jit()) {  // JIT code whose dump has no unwinding info for it
        CountJitNoInfo(lookup.jit_dump(), base);
        break;
      }
      if (result_.stop_mapping >= 0 &&
          !Anonymous(p_.strings.Get(p_.mappings.path[static_cast<size_t>(result_.stop_mapping)])))
        CountMissing(result_.stop_mapping, base);
      break;
    case uw::StopReason::kStackCopyEnd:
      if (counts_.stack_too_small++ == 0) short_first_offset_ = base;
      short_copy_size_ = std::max(short_copy_size_, s.stack_user_size);
      short_needed_ = std::max(short_needed_, result_.stack_needed);
      break;
    default:
      if (other_stops_.empty()) other_first_offset_ = base;
      ++other_stops_[uw::StopReasonName(result_.stop)];
      break;
  }
  return &frames_;
}

bool PerfUnwind::Reunwind(const SampleData& s, const PerfEventAttr& attr, ByteReader rec, int32_t pid,
                          uw::UnwindResult* out) {
  const uint64_t st = attr.sample_type;
  if (!(st & kSampleRegsUser) || !(st & kSampleStackUser) || s.regs_user_abi == uw::kRegsAbiNone ||
      s.regs_user.empty() || (!have_binaries_ && jit_.empty()))
    return false;
  const uw::StackCopy stack = StackCopyOf(s, rec);
  const uint64_t time = (st & kSampleTime) ? s.time : 0;
  AddressSpaces at_time;
  const MappingTable& mt = p_.mappings;
  for (size_t r = 0; r < mt.size(); ++r)
    if (mt.pid[r] == pid && mt.time[r] <= time) at_time.Map(pid, mt.start[r], mt.end[r], static_cast<int32_t>(r));
  const bool monotonic = ((attr.flags >> 25) & 1) && attr.clockid == 1;
  Lookup lookup(*this, at_time, pid, time, monotonic);
  unwinder_->Unwind(machine_, regs_abi_, s.regs_user_abi, s.regs_user_mask, s.regs_user.data(),
                    s.regs_user.size(), stack, lookup, out);
  // The sampled frame has no return address: its bytes are the ip register in regs_user.
  uw::Arch task;
  if (!out->frames.empty() && uw::TaskArch(machine_, s.regs_user_abi, &task)) {
    const int k = uw::PerfIpIndex(machine_, task);
    if (k >= 0 && k < 64 && ((s.regs_user_mask >> k) & 1)) {
      const uint64_t below = s.regs_user_mask & ((uint64_t{1} << k) - 1);
      out->frames[0].ra_slot = s.regs_user_offset + 8 + 8 * static_cast<uint64_t>(__builtin_popcountll(below));
    }
  }
  return true;
}

void PerfUnwind::Finish() {
  // Each mapping whose missing binary cut samples short, most samples first.
  std::vector<std::pair<std::pair<int32_t, int32_t>, Missing>> ranked(missing_.begin(), missing_.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second.samples > b.second.samples; });
  for (const auto& [key, m] : ranked) {
    const std::string& path = p_.strings.Get(key.first);
    const std::string build_id = key.second == kNone ? std::string() : p_.strings.Get(key.second);
    const int64_t jit_pid = JitUnwind::InjectedPid(path, nullptr);
    if (jit_pid >= 0) {
      // perf inject --jit's output without the jit dump it was made from.
      const uint64_t pid = static_cast<uint64_t>(jit_pid);
      diags_.Warning(DiagCode::kUnwindMissingBinary, m.offset, 0,
                     "drop jit-" + Dec(pid) + ".dump to unwind " + Thousands(m.samples) +
                         (m.samples == 1 ? " sample: its user stack stops" : " samples: their user stacks stop") +
                         " in JIT code of process " + Dec(pid) + " (" + path +
                         ", the files perf inject --jit made from that jit dump, which are not kept)");
      continue;
    }
    std::string msg = "drop " + BaseName(path);
    if (!build_id.empty()) msg += " (build-id " + build_id.substr(0, 12) + "\xe2\x80\xa6)";
    msg += " to unwind " + Thousands(m.samples) + (m.samples == 1 ? " sample" : " samples") + ": ";
    msg += (m.samples == 1 ? "its user stack stops at " : "their user stacks stop at ") + path;
    if (!build_id.empty()) msg += " (build-id " + build_id + ")";
    msg += !have_binaries_ && jit_.empty() ? "; no binary was given, so no user stack was unwound (perf does the same)"
                             : ", whose binary was not given";
    diags_.Warning(DiagCode::kUnwindMissingBinary, m.offset, 0, msg);
  }
  for (const auto& [dump, m] : jit_no_info_)
    diags_.Add(DiagCode::kUnwindStopped, Severity::kInfo, m.offset, 0,
               Thousands(m.samples) + (m.samples == 1 ? " sample's user stack stops" : " samples' user stacks stop") +
                   " in JIT code that " + (dump.empty() ? std::string("its jit dump") : dump) +
                   " gives no unwinding info for (no JIT_CODE_UNWINDING_INFO before its CODE_LOAD; node writes them "
                   "with --perf-prof-unwinding-info), as perf stops there after perf inject --jit");
  if (counts_.stack_too_small) {
    const uint64_t want = DwarfSizeFor(short_needed_);
    std::string fix = want == 0 ? "even " + std::string(kPs) + ",65528 (perf's largest copy) would not hold them"
                                : "record with " + std::string(kPs) + "," + Dec(want) + " for them";
    diags_.Warning(DiagCode::kUnwindStackTooSmall, short_first_offset_, 0,
                   Thousands(counts_.stack_too_small) +
                       (counts_.stack_too_small == 1 ? " sample's stack copy" : " samples' stack copies") + " (" +
                       Thousands(short_copy_size_) + " bytes) ended before the root of the stack; the reads past the end needed up to " +
                       Thousands(short_needed_) + " bytes: " + fix);
  }
  if (!other_stops_.empty()) {
    std::string why;
    uint64_t n = 0;
    for (const auto& [k, v] : other_stops_) {
      why += (why.empty() ? "" : ", ") + k + " " + Thousands(v);
      n += v;
    }
    diags_.Add(DiagCode::kUnwindStopped, Severity::kInfo, other_first_offset_, 0,
               Thousands(n) + (n == 1 ? " sample" : " samples") + " stopped unwinding before the root for other reasons (" +
                   why + "), as perf would");
  }
  unwinder_->ClearCache();
}

}  // namespace profscope::perf
