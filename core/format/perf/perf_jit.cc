#include "core/format/perf/perf_jit.h"

#include "core/io/keyed_hash.h"
#include "core/io/path_name.h"
#include "core/model/thread_tracker.h"

#include <algorithm>
#include <map>

namespace profscope::perf {

namespace {



constexpr int32_t kClockMonotonic = 1;

// The dump's code loads and moves as markers on the perf timeline (times
// already in perf's clock), on the thread of each record's tid when
// perf.data has that thread. They have no record row in perf.data.
void AddJitMarkers(const jitdump::Dump& d, Profile& p) {
  const ThreadTracker threads(p);
  auto thread = [&](uint32_t, uint32_t tid, uint64_t) { return threads.Find(static_cast<int32_t>(tid)); };
  jitdump::AddCodeMarkers(d, p, thread, false);
}

}  // namespace

int64_t JitDumpFilePid(const std::string& base) {
  if (base.size() < 10 || base.compare(0, 4, "jit-") != 0 || base.compare(base.size() - 5, 5, ".dump") != 0) return -1;
  std::string digits = base.substr(4, base.size() - 9);
  if (digits.empty() || digits.size() > 10) return -1;
  int64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

uint64_t TscToPerfTime(uint64_t cyc, const TimeConv& tc) {
  const uint64_t mult = static_cast<uint32_t>(tc.time_mult);
  const uint32_t shift = static_cast<uint16_t>(tc.time_shift);
  if (tc.extended && tc.cap_user_time_short) cyc = tc.time_cycles + ((cyc - tc.time_cycles) & tc.time_mask);
  if (shift >= 64) return tc.time_zero;  // quot 0; (rem * mult) >> shift is 0 (C leaves it undefined)
  uint64_t quot = cyc >> shift;
  uint64_t rem = cyc & ((uint64_t{1} << shift) - 1);
  return tc.time_zero + quot * mult + ((rem * mult) >> shift);
}

void JitIndex::Build(const jitdump::Dump& d) {
  funcs_.clear();
  debug_.clear();
  // Records in file order: DEBUG_INFO goes to the next CODE_LOAD; CODE_MOVE
  // ends the current placement of its code_index and starts a new one.
  struct Ev { uint64_t offset; int kind; size_t i; };
  std::vector<Ev> evs;
  for (size_t i = 0; i < d.loads.size(); ++i) evs.push_back({d.loads[i].offset, 0, i});
  for (size_t i = 0; i < d.moves.size(); ++i) evs.push_back({d.moves[i].offset, 1, i});
  for (size_t i = 0; i < d.debug.size(); ++i) evs.push_back({d.debug[i].offset, 2, i});
  for (size_t i = 0; i < d.unwinding.size(); ++i) evs.push_back({d.unwinding[i].offset, 3, i});
  loads_.clear();
  std::sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) { return a.offset < b.offset; });
  std::unordered_map<uint64_t, size_t, KeyedIntHash> current;  // code_index -> funcs_ entry in effect
  int32_t pending_debug = -1, pending_unwind = -1;
  for (const Ev& e : evs) {
    if (e.kind == 3) {
      // perf's jit_repipe_code_load uses unwinding data only with an eh_frame_hdr.
      pending_unwind = d.unwinding[e.i].hdr_size ? static_cast<int32_t>(e.i) : -1;
    } else if (e.kind == 2) {
      debug_.push_back(d.debug[e.i].entries);
      std::sort(debug_.back().begin(), debug_.back().end(),
                [](const jitdump::DebugEntry& a, const jitdump::DebugEntry& b) { return a.addr < b.addr; });
      pending_debug = static_cast<int32_t>(debug_.size() - 1);
    } else if (e.kind == 0) {
      const jitdump::CodeLoad& l = d.loads[e.i];
      JitFunc f;
      f.name = l.name;
      f.start = l.code_addr;
      f.end = l.code_addr + l.code_size < l.code_addr ? UINT64_MAX : l.code_addr + l.code_size;
      f.time = l.time;
      f.code_index = l.code_index;
      f.debug = pending_debug;
      pending_debug = -1;
      f.unwind = pending_unwind;
      pending_unwind = -1;
      loads_[l.code_index] = f;
      current[l.code_index] = funcs_.size();
      funcs_.push_back(std::move(f));
    } else {
      const jitdump::CodeMove& m = d.moves[e.i];
      auto it = current.find(m.code_index);
      if (it == current.end()) continue;  // a move of code never loaded: nothing to name
      JitFunc f = funcs_[it->second];
      funcs_[it->second].until = m.time;
      f.start = m.new_code_addr;
      f.end = m.new_code_addr + m.code_size < m.new_code_addr ? UINT64_MAX : m.new_code_addr + m.code_size;
      f.time = m.time;
      f.until = UINT64_MAX;
      it->second = funcs_.size();
      funcs_.push_back(std::move(f));
    }
  }
  max_len_ = 0;
  first_time_ = UINT64_MAX;
  for (const auto& f : funcs_) {
    max_len_ = std::max(max_len_, f.end - f.start);
    first_time_ = std::min(first_time_, f.time);
  }
  std::stable_sort(funcs_.begin(), funcs_.end(), [](const JitFunc& a, const JitFunc& b) { return a.start < b.start; });
}

const JitFunc* JitIndex::Find(uint64_t addr, uint64_t time) const {
  auto it = std::upper_bound(funcs_.begin(), funcs_.end(), addr,
                             [](uint64_t a, const JitFunc& f) { return a < f.start; });
  const JitFunc* best = nullptr;
  while (it != funcs_.begin()) {
    --it;
    if (addr - it->start >= max_len_) break;  // no earlier-starting code reaches addr
    if (addr >= it->end || time < it->time || time >= it->until) continue;
    // The newest mapping wins (perf: a later mmap overlays older ones).
    if (!best || it->time > best->time) best = &*it;
  }
  return best;
}

const JitFunc* JitIndex::Load(uint64_t code_index) const {
  auto it = loads_.find(code_index);
  return it == loads_.end() ? nullptr : &it->second;
}

std::string JitIndex::SourceLine(const JitFunc& f, uint64_t addr) const {
  if (f.debug < 0) return {};
  const auto& es = debug_[static_cast<size_t>(f.debug)];
  auto it = std::upper_bound(es.begin(), es.end(), addr,
                             [](uint64_t a, const jitdump::DebugEntry& e) { return a < e.addr; });
  if (it == es.begin()) return {};
  --it;
  return it->file + ":" + Dec(it->line);
}

void UseJitDumps(std::vector<SideFile>& files, const JitJoinInput& in, StackBuilder& sb, DecodeResult& out) {
  Profile& p = out.profile;
  bool clock_ok = !in.clocks.empty();
  for (const auto& c : in.clocks)
    if (!c.first || c.second != kClockMonotonic) clock_ok = false;

  struct Use { JitIndex index; std::string name; };
  std::vector<Use> uses;
  std::unordered_map<int32_t, std::vector<size_t>, KeyedIntHash> by_pid;
  for (auto& f : files) {
    if (f.kind != "jitdump" || !f.window) {
      out.diags.Warning(DiagCode::kSideFileUnused, 0, 0,
                        "side file " + f.name + " (" + f.kind + ") is not used by the " + out.format + " decoder");
      continue;
    }
    jitdump::Dump d;
    Diagnostics dd;
    if (!jitdump::ReadDump(*f.window, &d, nullptr, &dd, &out.budget) || !d.header_ok) {
      out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0, "jit dump " + f.name + " could not be read; its frames stay unnamed");
      continue;
    }
    size_t problems = 0;
    for (const auto& x : dd.items()) if (x.severity >= Severity::kError) ++problems;
    if (problems)
      out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                        "jit dump " + f.name + " is damaged (" + Dec(problems) + " problems; open it alone to see them); " +
                            Dec(d.loads.size()) + " CODE_LOAD records before the damage are used");
    // Tie the dump to a process: the MMAP of this very file (perf inject keys
    // on it), else an MMAP of jit-<header pid>.dump, else the header's pid.
    std::string base = BaseName(f.name);
    int32_t pid = kNone;
    std::string how;
    for (size_t m = 0; m < p.mappings.size() && pid == kNone; ++m) {
      std::string mb = BaseName(p.strings.Get(p.mappings.path[m]));
      if (mb == base && JitDumpFilePid(mb) >= 0) { pid = p.mappings.pid[m]; how = "its MMAP in perf.data"; }
    }
    for (size_t m = 0; m < p.mappings.size() && pid == kNone; ++m) {
      std::string mb = BaseName(p.strings.Get(p.mappings.path[m]));
      if (JitDumpFilePid(mb) == static_cast<int64_t>(d.header.pid)) { pid = p.mappings.pid[m]; how = "the MMAP of " + mb; }
    }
    if (pid == kNone) {
      for (size_t t = 0; t < p.threads.size(); ++t)
        if (p.threads.pid[t] == static_cast<int32_t>(d.header.pid)) { pid = p.threads.pid[t]; how = "its header pid"; break; }
      if (pid != kNone)
        out.diags.Add(DiagCode::kSideFileMismatch, Severity::kInfo, 0, 0,
                      "jit dump " + f.name + ": perf.data has no MMAP of a jit-" + Dec(d.header.pid) +
                          ".dump; tied to process " + Dec(static_cast<uint64_t>(pid)) + " by the dump's header pid");
    }
    if (pid == kNone) {
      out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                        "jit dump " + f.name + " (pid " + Dec(d.header.pid) +
                            ") matches no process of this recording (no MMAP of the dump, no thread of that pid); not used");
      continue;
    }
    (void)how;
    const TimeConv& tc = in.time_conv;
    if (d.header.flags & jitdump::kFlagArchTimestamp) {
      // perf inject --jit converts TSC stamps with the recording's TIME_CONV
      // (jitdump.c convert_timestamp); the samples' clockid is not checked then.
      if (!tc.present) {
        out.diags.Warning(DiagCode::kClockMismatch, 0, 0,
                          "jit dump " + f.name + " uses architecture timestamps (JITDUMP_FLAGS_ARCH_TIMESTAMP, e.g. TSC) "
                          "but the perf.data has no TIME_CONV record to convert them to perf's clock (TIME_CONV is "
                          "missing), so its JIT frames are not named");
        continue;
      }
      if (tc.time_mult == 0 || (tc.extended && !tc.cap_user_time_zero)) {
        out.diags.Warning(DiagCode::kClockMismatch, 0, 0,
                          "jit dump " + f.name + " uses architecture timestamps, but the TIME_CONV record " +
                              (tc.time_mult == 0 ? std::string("has time_mult 0") : std::string("says cap_user_time_zero is 0")) +
                              ", so they cannot be converted to perf's clock (perf turns every such time into 0); "
                              "its JIT frames are not named");
        continue;
      }
      for (auto& l : d.loads) l.time = TscToPerfTime(l.time, tc);
      for (auto& m : d.moves) m.time = TscToPerfTime(m.time, tc);
      for (auto& g : d.debug) g.time = TscToPerfTime(g.time, tc);
      out.facts.push_back({"jit timestamps", f.name + ": TSC converted to perf time with TIME_CONV"});
    } else if (!clock_ok) {
      out.diags.Warning(DiagCode::kClockMismatch, 0, 0,
                        "jit dump " + f.name + " has CLOCK_MONOTONIC timestamps but the samples were not recorded with "
                        "clockid CLOCK_MONOTONIC (perf record -k mono / -k 1), so the times cannot be compared; "
                        "its JIT frames are not named (perf inject --jit refuses such files too)");
      continue;
    }
    Use u;
    u.index.Build(d);
    u.name = f.name;
    if (u.index.size() == 0) {
      out.diags.Warning(DiagCode::kSideFileUnused, 0, 0, "jit dump " + f.name + " holds no CODE_LOAD; nothing to name");
      continue;
    }
    // Sanity: some sample of the process must come after the first load.
    bool any_after = false, any_sample = false;
    SampleCursor at(p.samples);
    for (size_t i = 0; i < p.samples.size() && !any_after; ++i) {
      int32_t th = at.thread(i);
      if (th < 0 || p.threads.pid[static_cast<size_t>(th)] != pid) continue;
      any_sample = true;
      if (p.samples.time[i] >= u.index.first_time()) any_after = true;
    }
    if (any_sample && !any_after) {
      out.diags.Warning(DiagCode::kClockMismatch, 0, 0,
                        "jit dump " + f.name + ": every sample of process " + Dec(static_cast<uint64_t>(pid)) +
                            " is earlier than the dump's first CODE_LOAD (" + Dec(u.index.first_time()) +
                            "); the clocks do not seem to match, its JIT frames are not named");
      continue;
    }
    by_pid[pid].push_back(uses.size());
    uses.push_back(std::move(u));
    AddJitMarkers(d, p);
  }
  if (uses.empty()) return;

  // Rename pass: per sample, re-derive the stack with JIT frames renamed.
  struct Key {
    int32_t frame; const JitFunc* f;
    bool operator==(const Key& o) const { return frame == o.frame && f == o.f; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<const void*>()(k.f) ^ (static_cast<size_t>(k.frame) * 0x9e3779b97f4a7c15ULL); }
  };
  std::unordered_map<Key, int32_t, KeyHash> renamed;  // (old frame, function) -> new frame
  std::vector<int32_t> chain;
  uint64_t frames_named = 0, samples_touched = 0;
  SampleCursor at(p.samples);
  p.samples.stack.Transform([&](size_t i, int32_t s) {
    int32_t th = at.thread(i);
    if (s < 0 || th < 0) return s;
    auto dp = by_pid.find(p.threads.pid[static_cast<size_t>(th)]);
    if (dp == by_pid.end()) return s;
    uint64_t time = p.samples.time[i];
    chain.clear();
    for (int32_t k = s; k != kNone; k = p.stacks.prefix[static_cast<size_t>(k)]) chain.push_back(k);
    bool changed = false;
    int32_t stack = kNone;
    for (size_t j = chain.size(); j-- > 0;) {
      int32_t frame = p.stacks.frame[static_cast<size_t>(chain[j])];
      uint64_t addr = p.frames.address[static_cast<size_t>(frame)];
      const JitFunc* jf = nullptr;
      const JitIndex* ji = nullptr;
      for (size_t ui : dp->second) {
        const JitFunc* c = uses[ui].index.Find(addr, time);
        if (c && (!jf || c->time > jf->time)) { jf = c; ji = &uses[ui].index; }
      }
      if (jf) {
        auto [it, added] = renamed.try_emplace(Key{frame, jf}, kNone);
        if (added) {
          int32_t mapping = p.frames.mapping[static_cast<size_t>(frame)];
          int32_t func = sb.Func(p.strings.Intern(jf->name), mapping);
          it->second = sb.Frame(addr, func, mapping);
          std::string src = ji->SourceLine(*jf, addr);
          if (!src.empty()) {
            p.frame_sources.frame.push_back(it->second);
            p.frame_sources.source.push_back(p.strings.Intern(src));
          }
        }
        if (it->second != frame) changed = true;
        frame = it->second;
        ++frames_named;
      }
      stack = changed ? sb.Stack(stack, frame) : chain[j];
    }
    if (!changed) return s;
    ++samples_touched;
    return stack;
  });
  std::string names;
  for (const auto& u : uses) names += (names.empty() ? "" : ", ") + u.name;
  out.facts.push_back({"jit dumps", names});
  out.facts.push_back({"jit frames named", Dec(frames_named) + " frames in " + Dec(samples_touched) + " samples"});
}

}  // namespace profscope::perf
