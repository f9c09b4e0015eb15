#include "core/format/xray/xray_map.h"

#include <cstdio>
#include <cstdlib>

#include "core/format/elf/symbolizer.h"

namespace profscope::xray {

namespace {

// Reads a whole window into memory (XRay logs are read record by record from the start).
const uint8_t* WholeFile(Window& w, std::vector<uint8_t>& keep) {
  uint64_t n = w.size();
  if (n == 0) return nullptr;
  const uint8_t* p = w.Get(0, static_cast<size_t>(n));
  if (!p) return nullptr;
  keep.assign(p, p + n);
  return keep.data();
}

}  // namespace

void XRayFunctionMap::LoadYaml(Window& w, const std::string& name, DecodeResult& out) {
  std::vector<uint8_t> keep;
  const uint8_t* d = WholeFile(w, keep);
  if (!d) return;
  std::string text(reinterpret_cast<const char*>(d), keep.size());
  auto field = [](const std::string& line, const std::string& key) -> std::string {
    size_t p = line.find(" " + key + ":");
    if (p == std::string::npos) p = line.find("{" + key + ":");
    if (p == std::string::npos) return {};
    p += key.size() + 2;
    while (p < line.size() && line[p] == ' ') ++p;
    if (p < line.size() && line[p] == '\'') {
      std::string v;
      for (++p; p < line.size(); ++p) {
        if (line[p] == '\'') {
          if (p + 1 < line.size() && line[p + 1] == '\'') { v += '\''; ++p; continue; }
          break;
        }
        v += line[p];
      }
      return v;
    }
    size_t e = line.find_first_of(",}", p);
    std::string v = line.substr(p, e == std::string::npos ? std::string::npos : e - p);
    while (!v.empty() && v.back() == ' ') v.pop_back();
    return v;
  };
  size_t pos = 0, used = 0;
  while (pos < text.size()) {
    size_t e = text.find('\n', pos);
    std::string line = text.substr(pos, e == std::string::npos ? std::string::npos : e - pos);
    pos = e == std::string::npos ? text.size() : e + 1;
    std::string id = field(line, "id");
    if (id.empty()) continue;
    int32_t fid = static_cast<int32_t>(std::strtol(id.c_str(), nullptr, 10));
    std::string fn = field(line, "function");
    std::string fname = field(line, "function-name");
    if (!fn.empty() && !addresses_.count(fid)) addresses_[fid] = std::strtoull(fn.c_str(), nullptr, 0);
    if (!fname.empty()) names_[fid] = fname;
    ++used;
  }
  if (!used)
    out.diags.Warning(DiagCode::kSideFileUnused, 0, 0, "side file " + name + " holds no `llvm-xray extract` entries");
}

void XRayFunctionMap::UseSideFiles(std::vector<SideFile>& files, int32_t max_id, DecodeResult& out) {
  for (auto& f : files) {
    if (f.kind == "yaml") {
      LoadYaml(*f.window, f.name, out);
    } else if (f.kind == "elf") {
      elf::ElfFile ef = elf::ReadElf(*f.window);
      if (ef.sleds.empty()) {
        out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                          "side file " + f.name + " has no xray_instr_map section: not the instrumented program; not used");
        continue;
      }
      auto ids = elf::XRayFunctionIds(ef.sleds);
      if (max_id > static_cast<int32_t>(ids.size())) {
        out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                          "side file " + f.name + " instruments " + Dec(ids.size()) + " functions but the log names id " +
                              std::to_string(max_id) + ": a different build; not used");
        continue;
      }
      elf::Symbolizer sym(std::move(ef));
      for (const auto& [id, addr] : ids) {
        addresses_[id] = addr;
        std::string nm = sym.Name(addr);
        if (!nm.empty()) names_[id] = nm;
      }
      out.facts.emplace_back("instrumentation map", f.name + " (" + Dec(ids.size()) + " functions)");
    } else {
      out.diags.Warning(DiagCode::kSideFileUnused, 0, 0,
                        "side file " + f.name + " (" + f.kind + ") is not used by the XRay decoder (it takes the program's ELF file or `llvm-xray extract` YAML)");
    }
  }
}

std::string XRayFunctionMap::Name(int32_t id) const {
  auto n = names_.find(id);
  if (n != names_.end()) return n->second;
  auto a = addresses_.find(id);
  if (a != addresses_.end()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "@(%llx)", static_cast<unsigned long long>(a->second));
    return buf;
  }
  return "#" + std::to_string(id);
}

uint64_t XRayFunctionMap::Address(int32_t id) const {
  auto a = addresses_.find(id);
  return a != addresses_.end() ? a->second : static_cast<uint64_t>(static_cast<uint32_t>(id));
}

}  // namespace profscope::xray
