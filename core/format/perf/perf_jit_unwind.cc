#include "core/format/perf/perf_jit_unwind.h"

#include <algorithm>

#include "core/io/path_name.h"

namespace profscope::perf {

namespace {

bool Digits(const std::string& s, size_t from, size_t to, uint64_t* out) {
  if (to <= from || to - from > 19) return false;
  uint64_t v = 0;
  for (size_t i = from; i < to; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  }
  *out = v;
  return true;
}

// ELF e_machine values of 32-bit targets (EM_386, EM_ARM).
uint8_t AddressSize(uint32_t elf_mach) { return elf_mach == 3 || elf_mach == 40 ? 4 : 8; }

}  // namespace

int64_t JitUnwind::InjectedPid(const std::string& path, uint64_t* code_index) {
  const std::string base = BaseName(path);
  // jitted-<pid>-<code index>.so (perf's jitdump.c jit_repipe_code_load)
  if (base.size() < 13 || base.compare(0, 7, "jitted-") != 0 || base.compare(base.size() - 3, 3, ".so") != 0) return -1;
  const size_t dash = base.find('-', 7);
  uint64_t pid = 0, index = 0;
  if (dash == std::string::npos || !Digits(base, 7, dash, &pid) || pid > INT32_MAX) return -1;
  const bool group = base.compare(dash, std::string::npos, "-*.so") == 0;  // InjectedGroup's form
  if (!group && !Digits(base, dash + 1, base.size() - 3, &index)) return -1;
  if (code_index) *code_index = index;
  return static_cast<int64_t>(pid);
}

std::string JitUnwind::InjectedGroup(const std::string& path) {
  const int64_t pid = InjectedPid(path, nullptr);
  if (pid < 0) return {};
  return path.substr(0, path.size() - BaseName(path).size()) + "jitted-" + Dec(static_cast<uint64_t>(pid)) + "-*.so";
}

void JitUnwind::Add(const std::vector<SideFile>& files) {
  for (const SideFile& f : files) {
    if (f.kind != "jitdump" || !f.window) continue;
    auto d = std::make_unique<Dump>();
    Diagnostics ignored;  // damage is reported once, by UseJitDumps
    if (!jitdump::ReadDump(*f.window, &d->dump, nullptr, &ignored) || !d->dump.header_ok) continue;
    if (d->dump.unwinding.empty()) continue;  // nothing to unwind with: names only (UseJitDumps)
    d->name = f.name;
    d->base = BaseName(f.name);
    d->window = f.window;
    d->arch_timestamp = (d->dump.header.flags & jitdump::kFlagArchTimestamp) != 0;
    d->pids.push_back(static_cast<int32_t>(d->dump.header.pid));
    // Only the code placements and unwinding records are needed here.
    d->dump.debug.clear();
    d->dump.debug.shrink_to_fit();
    dumps_.push_back(std::move(d));
  }
}

void JitUnwind::Mapped(int32_t pid, const std::string& path) {
  if (dumps_.empty()) return;
  const std::string base = BaseName(path);
  const int64_t file_pid = JitDumpFilePid(base);
  if (file_pid < 0) return;
  for (auto& d : dumps_) {
    if (base != d->base && file_pid != static_cast<int64_t>(d->dump.header.pid)) continue;
    if (std::find(d->pids.begin(), d->pids.end(), pid) == d->pids.end()) d->pids.push_back(pid);
  }
}

bool JitUnwind::Unwinds(int32_t pid) const {
  for (const auto& d : dumps_)
    if (std::find(d->pids.begin(), d->pids.end(), pid) != d->pids.end()) return true;
  return false;
}

bool JitUnwind::Ready(Dump& d) {
  if (d.built) return d.usable;
  if (d.arch_timestamp) {
    // TSC stamps: perf inject --jit converts them with TIME_CONV (jitdump.c
    // convert_timestamp). TIME_CONV comes before the samples; without it (or
    // with one that cannot convert) the dump's times mean nothing here.
    const TimeConv* tc = time_conv_;
    if (!tc || !tc->present) return false;  // not yet: maybe a later sample has it
    d.built = true;
    if (tc->time_mult == 0 || (tc->extended && !tc->cap_user_time_zero)) return d.usable = false;
    for (auto& l : d.dump.loads) l.time = TscToPerfTime(l.time, *tc);
    for (auto& m : d.dump.moves) m.time = TscToPerfTime(m.time, *tc);
  }
  d.built = true;
  d.index.Build(d.dump);
  d.indexed = true;
  d.usable = d.index.size() > 0;
  return d.usable;
}

JitUnwind::Dump* JitUnwind::ForPid(int32_t pid, bool monotonic) {
  for (auto& d : dumps_) {
    if (std::find(d->pids.begin(), d->pids.end(), pid) == d->pids.end()) continue;
    // perf inject --jit refuses CLOCK_MONOTONIC dumps when the samples use another clock.
    if (!d->arch_timestamp && !monotonic) continue;
    if (Ready(*d)) return d.get();
  }
  return nullptr;
}

unwind::UnwindModule* JitUnwind::Module(Dump& d, const JitFunc& f) {
  if (f.unwind < 0 || static_cast<size_t>(f.unwind) >= d.dump.unwinding.size()) return nullptr;
  auto it = d.modules.find(f.unwind);
  if (it != d.modules.end()) return it->second.get();
  std::unique_ptr<unwind::UnwindModule>& m = d.modules[f.unwind];
  const jitdump::UnwindingInfo& u = d.dump.unwinding[static_cast<size_t>(f.unwind)];
  const uint64_t total = u.eh_frame_size + u.hdr_size;
  // (the decoder checked both sizes against the record; cap what one code may cost)
  if (total > unwind::kMaxCfiSectionBytes || u.eh_frame_offset > d.window->size() ||
      total > d.window->size() - u.eh_frame_offset)
    return nullptr;
  std::vector<uint8_t> bytes(static_cast<size_t>(total));
  // (read as they are, not through the window: its read-ahead would read 4 MiB for each code's tables, found
  // in any order)
  const size_t got = total ? d.window->source().Read(u.eh_frame_offset, bytes.data(), bytes.size()) : 0;
  if (got != bytes.size()) {
    // a dump cut or changed since it was read: the window reads where it ended, so the session reports it
    // (file_changed), rather than fewer frames unwound without a word
    d.window->Get(u.eh_frame_offset + got, 1);
    return nullptr;
  }
  std::vector<uint8_t> hdr(bytes.begin() + static_cast<std::ptrdiff_t>(u.eh_frame_size), bytes.end());
  bytes.resize(static_cast<size_t>(u.eh_frame_size));
  const uint64_t eh = JitEhFrameAddress(f.end - f.start);
  m = unwind::UnwindModule::FromEhFrame(d.base + ":" + f.name, d.dump.header.order, AddressSize(d.dump.header.elf_mach),
                                        std::move(bytes), eh, std::move(hdr), eh + u.eh_frame_size);
  return m.get();
}

bool JitUnwind::Find(int32_t pid, uint64_t address, uint64_t time, bool monotonic, Hit* out) {
  Dump* d = ForPid(pid, monotonic);
  if (!d) return false;
  const JitFunc* f = d->index.Find(address, time);
  if (!f) return false;
  out->module = Module(*d, *f);
  out->bias = f->start - kJitTextOffset;  // the .so's code address is kJitTextOffset
  out->dump = d->name;
  return true;
}

bool JitUnwind::FindInjected(const std::string& path, uint64_t map_start, uint64_t pgoff, Hit* out) {
  uint64_t index = 0;
  const int64_t pid = InjectedPid(path, &index);
  if (pid < 0) return false;
  for (auto& d : dumps_) {
    if (std::find(d->pids.begin(), d->pids.end(), static_cast<int32_t>(pid)) == d->pids.end()) continue;
    if (!d->indexed) {
      // The .so names the code; times do not matter here (the mapping is the
      // placement). Ready() builds the index again once times are converted.
      d->index.Build(d->dump);
      d->indexed = true;
    }
    const JitFunc* f = d->index.Load(index);
    if (!f) continue;
    out->module = Module(*d, *f);
    out->bias = map_start - pgoff;  // the .so is mapped from its code's file offset (= link address)
    out->dump = d->name;
    return true;
  }
  return false;
}

}  // namespace profscope::perf
