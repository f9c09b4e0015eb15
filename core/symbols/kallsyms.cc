#include "core/symbols/kallsyms.h"

#include <cctype>

namespace profscope::symbols {

namespace {

constexpr size_t kKsymNameLen = 512;  // perf 6.1 KSYM_NAME_LEN

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool Keep(char type) {
  char t = static_cast<char>(std::toupper(static_cast<unsigned char>(type)));
  return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

// One line: "HEX TYPE NAME..." (perf's io__get_hex stops at the first non-hex
// character, which must be a space).
bool ParseLine(std::string_view l, KernelSymbol* out) {
  size_t i = 0;
  uint64_t v = 0;
  size_t digits = 0;
  while (i < l.size() && HexDigit(l[i]) >= 0) {
    v = (v << 4) | static_cast<uint64_t>(HexDigit(l[i]));
    ++i;
    ++digits;
  }
  if (!digits || i >= l.size() || l[i] != ' ') return false;
  ++i;
  if (i >= l.size()) return false;
  char type = l[i++];
  if (i >= l.size() || l[i] != ' ') return false;
  ++i;
  std::string_view name = l.substr(i);
  if (name.size() > kKsymNameLen) name = name.substr(0, kKsymNameLen);
  out->addr = v;
  out->type = type;
  size_t tab = name.find('\t');
  if (tab != std::string_view::npos) {
    out->name.assign(name.substr(0, tab));
    out->module.assign(name.substr(tab + 1));
  } else {
    out->name.assign(name);
    out->module.clear();
  }
  return true;
}

}  // namespace

bool Kallsyms::Lookup(std::string_view name, uint64_t* addr) const {
  for (const auto& s : symbols)
    if (s.module.empty() && s.name == name) { *addr = s.addr; return true; }
  return false;
}

bool LooksLikeKallsyms(const uint8_t* data, size_t size) {
  std::string_view t(reinterpret_cast<const char*>(data), size < 4096 ? size : 4096);
  size_t good = 0, p = 0;
  while (p < t.size() && good < 3) {
    size_t e = t.find('\n', p);
    if (e == std::string_view::npos) break;  // an incomplete last line proves nothing
    KernelSymbol s;
    if (!ParseLine(t.substr(p, e - p), &s) || !std::isalpha(static_cast<unsigned char>(s.type)) || s.name.empty()) return false;
    ++good;
    p = e + 1;
  }
  return good >= 1 && (good >= 3 || p >= size);
}

Kallsyms ParseKallsyms(std::string_view text) {
  Kallsyms k;
  size_t p = 0;
  KernelSymbol s;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    std::string_view line = text.substr(p, e == std::string_view::npos ? std::string_view::npos : e - p);
    p = e == std::string_view::npos ? text.size() : e + 1;
    ++k.lines;
    if (!ParseLine(line, &s)) { ++k.skipped; continue; }
    if (!Keep(s.type) || (!s.name.empty() && s.name[0] == '$')) continue;
    k.symbols.push_back(s);
  }
  return k;
}

}  // namespace profscope::symbols
