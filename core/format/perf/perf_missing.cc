#include "core/format/perf/perf_missing.h"

#include <algorithm>
#include <map>

#include "core/format/perf/perf_jit_unwind.h"
#include "core/io/path_name.h"
#include "core/symbols/build_id.h"
#include "core/symbols/symbol_store.h"

namespace profscope::perf {

namespace {



std::string Short(const std::string& build_id) { return build_id.size() > 12 ? build_id.substr(0, 12) + "\xe2\x80\xa6" : build_id; }

// The given ELF that is this mapping's file (by build-id, else by file name).
const GivenElf* GivenFor(const MissingInputs& in, const std::string& path, const std::string& build_id) {
  // One with symbols first (a binary and its debug file share the build-id).
  const GivenElf* pick = nullptr;
  for (const GivenElf& g : in.elves)
    if (!build_id.empty() && symbols::SameBuildId(g.refs.build_id, build_id) && (!pick || (!pick->refs.has_symtab && g.refs.has_symtab))) pick = &g;
  if (pick) return pick;
  for (const GivenElf& g : in.elves)
    if (BaseName(g.name) == BaseName(path) && (build_id.empty() || g.refs.build_id.empty())) return &g;
  return nullptr;
}

// Debian's debug package of the C library's files; others: the package's -dbgsym.
std::string DebugPackage(const std::string& path) {
  const std::string b = BaseName(path);
  for (const char* p : {"libc.so", "ld-linux", "libm.so", "libpthread.so", "libdl.so", "librt.so", "libresolv.so"})
    if (b.rfind(p, 0) == 0) return "libc6-dbg";
  return {};
}

std::string Advice(const MissingInputs& in, symbols::DsoKind kind, const std::string& path, const std::string& build_id) {
  const std::string archive = "run `perf archive` on the recording machine and drop perf.data.tar.bz2";
  const std::string vmlinux = build_id.empty() ? std::string("its vmlinux") : "its vmlinux (build-id " + Short(build_id) + ")";
  if (kind == symbols::DsoKind::kKernel) {
    if (!in.archive_given && !in.kallsyms_given)
      return archive + " (it holds the kernel's kallsyms), or drop the recording machine's /proc/kallsyms or " + vmlinux;
    return "drop the recording machine's /proc/kallsyms or " + vmlinux;
  }
  if (kind == symbols::DsoKind::kPerfMap)
    return "drop " + BaseName(path) + ", the map the JIT runtime wrote in /tmp (node --perf-basic-prof, Java perf-map-agent, "
           ".NET DOTNET_PerfMapEnabled=1, python -X perf), or its jit-" + BaseName(path).substr(5, BaseName(path).size() - 9) +
           ".dump";
  if (kind == symbols::DsoKind::kModule) {
    // perf names module frames from the module's file or from kallsyms (vmlinux has no module symbols).
    const std::string name = symbols::ModuleName(path);
    std::string file = path.empty() || path[0] == '[' ? name.substr(1, name.size() - 2) + ".ko" : BaseName(path);
    std::string advice = "drop " + file;
    if (!build_id.empty()) advice += " (build-id " + Short(build_id) + ")";
    advice += " from the recording machine's /lib/modules/$(uname -r), or its /proc/kallsyms";
    if (!in.archive_given && !in.kallsyms_given) advice += " (or " + archive + ": it holds kallsyms)";
    return advice;
  }
  if (const GivenElf* g = GivenFor(in, path, build_id)) {
    if (g->refs.has_symtab) return {};  // its symbols cover no such address: nothing to drop
    std::string file;
    if (!g->refs.build_id.empty()) file = symbols::BuildIdDebugPath(g->refs.build_id);
    else if (!g->refs.debuglink.empty()) file = g->refs.debuglink;
    if (file.empty()) return BaseName(g->name) + " is stripped (no .symtab, no build-id, no .gnu_debuglink): drop an unstripped copy";
    std::string pkg = DebugPackage(path);
    return "drop its debug file " + file + " (" + (pkg.empty() ? std::string("its package's -dbg or -dbgsym package") : "package " + pkg) + ")";
  }
  if (!in.archive_given && !build_id.empty()) return archive;
  return "drop " + BaseName(path) +
         (build_id.empty() ? " (the recording machine's " + path + ")" : " (build-id " + Short(build_id) + ")");
}

// Per entry (frame_entry's values): the samples with one of its frames, and its frames in every
// sample's stack. Counted per stack node rather than by walking each sample's stack: the samples
// under each node (parents come before children), a node's frames count once per sample under it,
// and a sample counts for an entry at the topmost node of that entry on its path (those nodes'
// subtrees are disjoint), found with a mask of the entries on each node's path.
template <typename Mask>
void CountPerNode(const Profile& p, const std::vector<int32_t>& frame_entry, std::vector<MissingMapping>& out) {
  const StackTable& t = p.stacks;
  const size_t ns = t.frame.size();
  std::vector<uint32_t> sub(ns, 0);  // (fewer samples than 2^31: rows are int32)
  p.samples.stack.ForEach([&](int32_t st) {
    if (st != kNone) ++sub[static_cast<size_t>(st)];
  });
  for (size_t n = ns; n-- > 0;)
    if (t.prefix[n] != kNone) sub[static_cast<size_t>(t.prefix[n])] += sub[n];
  std::vector<Mask> on_path(ns, 0);
  for (size_t n = 0; n < ns; ++n) {
    const Mask above = t.prefix[n] == kNone ? Mask(0) : on_path[static_cast<size_t>(t.prefix[n])];
    const int32_t e = frame_entry[static_cast<size_t>(t.frame[n])];
    if (e == kNone) {
      on_path[n] = above;
      continue;
    }
    const Mask bit = static_cast<Mask>(Mask(1) << e);
    on_path[n] = static_cast<Mask>(above | bit);
    MissingMapping& mm = out[static_cast<size_t>(e)];
    mm.frames += sub[n];
    if (!(above & bit)) mm.samples += sub[n];
  }
}

void CountSamples(const Profile& p, const std::vector<int32_t>& frame_entry, std::vector<MissingMapping>& out,
                  std::vector<uint64_t>& last_sample) {
  const StackTable& t = p.stacks;
  bool ordered = true;  // every prefix before its node (as StackBuilder makes them)
  for (size_t n = 0; n < t.frame.size() && ordered; ++n) ordered = t.prefix[n] < static_cast<int32_t>(n);
  if (ordered && out.size() <= 8) return CountPerNode<uint8_t>(p, frame_entry, out);
  if (ordered && out.size() <= 32) return CountPerNode<uint32_t>(p, frame_entry, out);
  if (ordered && out.size() <= 64) return CountPerNode<uint64_t>(p, frame_entry, out);
  const SampleTable& s = p.samples;
  for (size_t i = 0; i < s.size(); ++i) {
    for (int32_t st = s.stack[i]; st != kNone; st = t.prefix[static_cast<size_t>(st)]) {
      int32_t e = frame_entry[static_cast<size_t>(t.frame[static_cast<size_t>(st)])];
      if (e == kNone) continue;
      MissingMapping& mm = out[static_cast<size_t>(e)];
      ++mm.frames;
      if (last_sample[static_cast<size_t>(e)] != i) {
        last_sample[static_cast<size_t>(e)] = i;
        ++mm.samples;
      }
    }
  }
}

}  // namespace

MissingReport FindMissing(const Profile& p, const MissingInputs& in) {
  MissingReport r;
  r.computed = true;
  const MappingTable& m = p.mappings;
  // One entry per DSO: (perf's DSO name, build-id).
  std::map<std::pair<std::string, std::string>, size_t> index;
  std::vector<symbols::DsoKind> kinds;
  std::vector<uint64_t> last_sample;
  std::vector<int64_t> jit_pid;  // perf inject --jit's jitted-PID-*.so: the pid of their jit dump
  auto entry = [&](int32_t path_id, int32_t bid_id, bool kernel_space) -> size_t {
    std::string path = p.strings.Get(path_id);
    std::string bid = bid_id == kNone ? std::string() : p.strings.Get(bid_id);
    symbols::DsoKind kind = symbols::KindOfPath(path, kernel_space);
    const int64_t jp = JitUnwind::InjectedPid(path, nullptr);
    if (jp >= 0) {  // one entry for all the code of one jit dump
      path = JitUnwind::InjectedGroup(path);
      bid.clear();
    }
    std::string dso = kind == symbols::DsoKind::kKernel ? "[kernel.kallsyms]"
                      : kind == symbols::DsoKind::kModule ? symbols::ModuleName(path) : path;
    auto [it, fresh] = index.emplace(std::make_pair(dso, kind == symbols::DsoKind::kKernel ? std::string() : bid), r.mappings.size());
    if (fresh) {
      MissingMapping mm;
      mm.path = path;
      mm.build_id = bid;
      mm.dso = dso;
      r.mappings.push_back(std::move(mm));
      kinds.push_back(kind);
      jit_pid.push_back(jp);
      last_sample.push_back(UINT64_MAX);
    } else if (r.mappings[it->second].build_id.empty()) {
      r.mappings[it->second].build_id = bid;
    }
    return it->second;
  };
  // Which frames are unnamed, and their entry.
  std::vector<int32_t> frame_entry(p.frames.address.size(), kNone);
  for (size_t f = 0; f < p.frames.address.size(); ++f) {
    int32_t mp = p.frames.mapping[f];
    if (mp == kNone) continue;
    const size_t mk = static_cast<size_t>(mp);
    const std::string& path = p.strings.Get(m.path[mk]);
    symbols::DsoKind kind = symbols::KindOfPath(path, m.pid[mk] == -1);
    // JIT code in anonymous memory: perf's DSO /tmp/perf-PID.map, named by that file.
    const int32_t dso_path = mk < in.dso_paths.size() ? in.dso_paths[mk] : kNone;
    if (kind == symbols::DsoKind::kAnon && dso_path == kNone) continue;
    const std::string& name = p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[f])]);
    if (name.size() <= path.size() + 3 || name.compare(0, path.size(), path) != 0 || name.compare(path.size(), 3, "+0x") != 0)
      continue;
    frame_entry[f] = static_cast<int32_t>(entry(dso_path != kNone ? dso_path : m.path[mk], dso_path != kNone ? kNone : m.build_id[mk],
                                                m.pid[mk] == -1));
  }
  CountSamples(p, frame_entry, r.mappings, last_sample);
  for (const auto& u : in.unwind) r.mappings[entry(u.path, u.build_id, false)].unwind_cut += u.samples;
  for (size_t k = 0; k < r.mappings.size(); ++k)
    r.mappings[k].drop = jit_pid[k] >= 0 ? "drop jit-" + Dec(static_cast<uint64_t>(jit_pid[k])) +
                                               ".dump, the jit dump perf inject --jit made these files from"
                                         : Advice(in, kinds[k], r.mappings[k].path, r.mappings[k].build_id);
  // Nothing to drop (a binary with symbols that cover none of these addresses): not listed.
  r.mappings.erase(std::remove_if(r.mappings.begin(), r.mappings.end(),
                                  [](const MissingMapping& x) { return x.drop.empty() || (x.samples == 0 && x.unwind_cut == 0); }),
                   r.mappings.end());
  std::stable_sort(r.mappings.begin(), r.mappings.end(), [](const MissingMapping& a, const MissingMapping& b) {
    uint64_t x = a.samples + a.unwind_cut, y = b.samples + b.unwind_cut;
    return x != y ? x > y : a.dso < b.dso;
  });
  r.stack_short_samples = in.stack_short_samples;
  r.stack_copy_bytes = in.stack_copy_bytes;
  r.stack_needed_bytes = in.stack_needed_bytes;
  if (in.stack_short_samples) {
    uint64_t size = PerfUnwind::DwarfSizeFor(in.stack_needed_bytes);
    if (size) r.stack_fix = "perf record --call-graph dwarf," + std::to_string(size);
  }
  return r;
}

}  // namespace profscope::perf
