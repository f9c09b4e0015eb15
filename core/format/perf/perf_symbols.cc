#include "core/format/perf/perf_symbols.h"

#include <string>
#include <unordered_map>

#include "core/format/elf/elf_reader.h"
#include "core/format/elf/symbolizer.h"

namespace profscope::perf {

namespace {

std::string BaseName(const std::string& p) {
  size_t s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

}  // namespace

void NameFramesFromElf(std::vector<SideFile>& files, std::vector<bool>& used, StackBuilder& sb, DecodeResult& out) {
  Profile& p = out.profile;
  const MappingTable& m = p.mappings;
  for (size_t i = 0; i < files.size(); ++i) {
    SideFile& f = files[i];
    if (f.kind != "elf" || !f.window) continue;
    used[i] = true;
    elf::ElfFile e = elf::ReadElf(*f.window);
    if (!e.ok) {
      out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0, "side file " + f.name + " is not a readable ELF file; not used");
      continue;
    }
    // Mappings this binary belongs to: same build id, else (no build id on either side) same file name.
    std::vector<bool> match(m.size(), false);
    size_t by_id = 0, by_name = 0;
    const std::string base = BaseName(f.name);
    for (size_t k = 0; k < m.size(); ++k) {
      std::string mid = m.build_id[k] == kNone ? std::string() : p.strings.Get(m.build_id[k]);
      if (!e.build_id.empty() && !mid.empty()) {
        // perf pads 20-byte ids to the recorded size; compare the binary's whole id as a prefix.
        if (mid.compare(0, e.build_id.size(), e.build_id) == 0) { match[k] = true; ++by_id; }
      } else if (BaseName(p.strings.Get(m.path[k])) == base) {
        match[k] = true;
        ++by_name;
      }
    }
    if (!by_id && !by_name) {
      out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                        "binary " + f.name + (e.build_id.empty() ? "" : " (build id " + e.build_id + ")") +
                            " matches no mapping of this recording by build id or file name; not used");
      continue;
    }
    if (e.funcs.empty()) {
      out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                        "binary " + f.name + " has no function symbols (stripped?); frames keep their offsets");
      continue;
    }
    elf::Symbolizer sym(std::move(e));
    std::unordered_map<uint64_t, int32_t> name_ids;  // symbol address -> string id
    uint64_t named = 0;
    for (size_t fr = 0; fr < p.frames.address.size(); ++fr) {
      int32_t mp = p.frames.mapping[fr];
      if (mp == kNone || !match[static_cast<size_t>(mp)]) continue;
      size_t mk = static_cast<size_t>(mp);
      uint64_t file_off = p.frames.address[fr] - m.start[mk] + m.pgoff[mk];
      const elf::Symbol* s = sym.Find(sym.FileOffsetToAddress(file_off));
      if (!s) continue;
      auto it = name_ids.find(s->addr);
      if (it == name_ids.end()) it = name_ids.emplace(s->addr, p.strings.Intern(elf::Demangle(s->name))).first;
      // The frame keeps its identity (stacks stay valid); its func becomes the symbol's.
      p.frames.func[fr] = sb.Func(it->second, mp);
      ++named;
    }
    out.facts.push_back({"symbols from " + base, std::to_string(named) + " frames named (" +
                                                    (by_id ? "matched by build id" : "matched by file name") + ")"});
  }
}

}  // namespace profscope::perf
