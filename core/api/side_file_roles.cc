#include "core/api/side_file_roles.h"

#include "core/api/json_writer.h"

namespace profscope {

namespace {

// A kSideFileUnused diagnostic names the file as "... NAME (kind) ..." or "... NAME holds ...".
bool ReportedUnused(const std::string& name, const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags) {
    if (d.code != DiagCode::kSideFileUnused) continue;
    const std::string& m = d.message;
    if (m.find("not used") == std::string::npos) continue;  // a note (a folder's walk stopped at a limit)
    for (size_t at = m.find(name); at != std::string::npos; at = m.find(name, at + 1)) {
      const bool starts = at > 0 && m[at - 1] == ' ';
      const size_t end = at + name.size();
      if (starts && end < m.size() && m[end] == ' ') return true;
    }
  }
  return false;
}

}  // namespace

std::string SideFileRoleOf(const std::string& name, const std::string& kind, const std::string& format,
                           const std::vector<Diagnostic>& diags) {
  std::string role = "unused";
  if (kind == "jitdump") role = "jitdump";
  else if (kind == "yaml") role = "instr-map";
  else if (kind == "elf") role = format == "xray" ? "instr-map" : "symbols";
  else if (kind == "archive" || kind == "kallsyms" || kind == "perfmap" || kind == "folder") role = "symbols";
  if (role != "unused" && ReportedUnused(name, diags)) role = "unused";
  return role;
}

std::string SideFileRolesJson(const std::vector<SideFileRole>& roles) {
  std::string out = "[";
  for (size_t i = 0; i < roles.size(); ++i) {
    if (i) out += ",";
    out += "{\"name\":" + JsonQuote(roles[i].name) + ",\"kind\":" + JsonQuote(roles[i].kind) + ",\"role\":" + JsonQuote(roles[i].role) + "}";
  }
  return out + "]";
}

}  // namespace profscope
