#include "core/format/perf/perf_symbols.h"

#include <map>
#include <string>
#include <unordered_map>

#include "core/io/path_name.h"
#include "core/symbols/symbol_store.h"

namespace profscope::perf {

std::vector<int32_t> BindMappings(const Profile& p, symbols::SymbolStore& store, const std::vector<int32_t>* dso_paths) {
  const MappingTable& m = p.mappings;
  // One DSO per mapping (the store merges mappings of one file).
  std::vector<int32_t> dso(m.size(), kNone);
  for (size_t k = 0; k < m.size(); ++k) {
    const bool other = dso_paths && k < dso_paths->size() && (*dso_paths)[k] != kNone;
    const std::string& path = p.strings.Get(other ? (*dso_paths)[k] : m.path[k]);
    std::string bid = m.build_id[k] == kNone ? std::string() : p.strings.Get(m.build_id[k]);
    bool kernel = m.pid[k] == -1;
    dso[k] = store.Dso(path, bid, kernel);
    symbols::DsoKind kind = store.Kind(dso[k]);
    if (kind == symbols::DsoKind::kKernel) store.SetKernelMap(path, m.start[k], m.end[k], m.pgoff[k]);
    else if (kind == symbols::DsoKind::kModule) store.SetModuleMap(dso[k], m.start[k]);
  }
  return dso;
}

uint64_t MapIp(symbols::SymbolStore& store, int32_t dso, const MappingTable& m, size_t mk, uint64_t a) {
  // map_ip: the kernel map is the identity, every other map relative to its file (or module) start.
  switch (store.Kind(dso)) {
    case symbols::DsoKind::kKernel: return a;
    case symbols::DsoKind::kPerfMap: return a;  // identity_map_ip: a perf map holds absolute addresses
    case symbols::DsoKind::kModule: return a - m.start[mk];
    default: return a - m.start[mk] + m.pgoff[mk];
  }
}

bool IsSymbolInput(const SideFile& f) {
  if (!f.window) return false;
  // A folder's files keep their paths (build-id cache layouts); jit dumps in it stay jit dumps.
  if (!f.folder.empty()) return f.kind != "jitdump" && f.kind != "yaml";
  return f.kind == "elf" || f.kind == "archive" || f.kind == "kallsyms" || f.kind == "perfmap";
}

bool AddSymbolInputs(const std::vector<SideFile>& files, symbols::SymbolStore& store) {
  bool any = false;
  for (const SideFile& f : files) {
    if (!IsSymbolInput(f)) continue;
    any = true;
    // A folder is the input reported for its files; a file alone, itself.
    if (!f.folder.empty()) store.AddFileLazily(f.RelativePath(), f.window->source(), f.folder);
    else store.AddFileLazily(BaseName(f.name), f.window->source(), f.name, f.implicit);
  }
  return any;
}

void NameFramesFromElf(const std::vector<SideFile>& files, std::vector<bool>& used, StackBuilder& sb, DecodeResult& out,
                       symbols::SymbolStore& store, std::vector<int32_t>& dso, const std::vector<int32_t>* dso_paths) {
  Profile& p = out.profile;
  const MappingTable& m = p.mappings;
  bool any = false;
  for (size_t i = 0; i < files.size(); ++i)
    if (IsSymbolInput(files[i])) used[i] = any = true;
  if (!any) return;
  dso = BindMappings(p, store, dso_paths);
  // perf's kernel map ends where its symbols do (map__fixup_end once kallsyms is loaded): a
  // kernel frame past the recorded [kernel.kallsyms] mapping (the init text the boot CPU's
  // idle task still runs from: x86_64_start_kernel, start_kernel) belongs to it.
  uint64_t kstart = 0, kend = 0;
  int32_t kmap = kNone;
  for (size_t k = 0; k < m.size() && kmap == kNone; ++k)
    if (dso[k] != kNone && store.Kind(dso[k]) == symbols::DsoKind::kKernel) kmap = static_cast<int32_t>(k);
  if (kmap != kNone && store.KernelMapRange(&kstart, &kend)) {
    for (size_t fr = 0; fr < p.frames.address.size(); ++fr)
      if (p.frames.mapping[fr] == kNone && p.frames.address[fr] >= kstart && p.frames.address[fr] < kend)
        p.frames.mapping[fr] = kmap;
  }
  std::unordered_map<const symbols::Symbol*, int32_t> name_ids;
  std::map<std::string, uint64_t> named_by_source;  // (its facts in the order of their names)
  for (size_t fr = 0; fr < p.frames.address.size(); ++fr) {
    int32_t mp = p.frames.mapping[fr];
    if (mp == kNone) continue;
    size_t mk = static_cast<size_t>(mp);
    int32_t d = dso[mk];
    if (d == kNone) continue;
    const symbols::Symbol* s = store.Find(d, MapIp(store, d, m, mk, p.frames.address[fr]));
    if (!s) continue;
    auto it = name_ids.find(s);
    if (it == name_ids.end()) it = name_ids.emplace(s, p.strings.Intern(s->name)).first;
    // The frame keeps its identity (stacks stay valid); its func becomes the symbol's.
    p.frames.func[fr] = sb.Func(it->second, mp);
    ++named_by_source[store.SourceOf(d)];
  }
  store.Finish();
  for (const auto& pr : store.problems()) {
    if (pr.unused) {
      // "side file NAME ...": how side_file_roles.h finds the files reported unused.
      out.diags.Add(DiagCode::kSideFileUnused, Severity::kWarning, 0, 0, "side file " + pr.message);
      continue;
    }
    if (pr.ended) {  // as the session says it of a side file read through a window (offset 0: not the main file's)
      out.diags.Add(DiagCode::kFileChanged, Severity::kError, 0, 0, pr.message);
      continue;
    }
    out.diags.Add(DiagCode::kSideFileMismatch, pr.warning ? Severity::kWarning : Severity::kInfo, pr.offset, 0,
                  pr.message.rfind(pr.input, 0) == 0 ? pr.message : pr.input + ": " + pr.message);
  }
  for (const auto& [src, n] : named_by_source)
    out.facts.push_back({"symbols from " + BaseName(src), std::to_string(n) + " frames named"});
}

}  // namespace profscope::perf
