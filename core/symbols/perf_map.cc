#include "core/symbols/perf_map.h"

#include "core/symbols/kallsyms.h"

namespace profscope::symbols {

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// perf's hex2u64: hex digits from the start; how many were read.
size_t Hex(std::string_view s, size_t at, uint64_t* out) {
  *out = 0;
  size_t p = at;
  for (int d; p < s.size() && (d = HexDigit(s[p])) >= 0; ++p) *out = (*out << 4) | static_cast<uint64_t>(d);
  return p - at;
}

// One line (without its '\n') as dso__load_perf_map reads it; false when skipped.
bool ParseLine(std::string_view line, PerfMapSymbol* out) {
  const size_t n = line.size();
  uint64_t start = 0, size = 0;
  size_t len = Hex(line, 0, &start);
  ++len;  // the separator
  if (len + 2 >= n) return false;
  len += Hex(line, len, &size);
  ++len;
  if (len + 2 >= n) return false;
  out->start = start;
  out->size = size;
  out->name.assign(line.substr(len));
  return true;
}

}  // namespace

bool LooksLikePerfMap(const uint8_t* data, size_t size) {
  if (LooksLikeKallsyms(data, size)) return false;
  std::string_view t(reinterpret_cast<const char*>(data), size < 4096 ? size : 4096);
  size_t good = 0, p = 0;
  while (p < t.size() && good < 3) {
    size_t e = t.find('\n', p);
    if (e == std::string_view::npos) break;  // an incomplete last line proves nothing
    std::string_view line = t.substr(p, e - p);
    // Strictly: HEX ' ' HEX ' ' NAME (what the runtimes write).
    uint64_t v;
    size_t a = Hex(line, 0, &v);
    if (a == 0 || a > 16 || a >= line.size() || line[a] != ' ') return false;
    size_t b = Hex(line, a + 1, &v);
    if (b == 0 || b > 16 || a + 1 + b >= line.size() || line[a + 1 + b] != ' ' || a + 2 + b >= line.size()) return false;
    for (size_t i = 0; i < line.size(); ++i)
      if (static_cast<unsigned char>(line[i]) < 0x20 && line[i] != '\t') return false;
    ++good;
    p = e + 1;
  }
  return good >= 1 && (good >= 3 || p >= size);
}

std::vector<PerfMapSymbol> ParsePerfMap(std::string_view text) {
  std::vector<PerfMapSymbol> out;
  size_t p = 0;
  PerfMapSymbol s;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    // getline keeps the '\n', which perf then overwrites: a last line without one loses its last character.
    std::string_view line = e == std::string_view::npos ? text.substr(p, text.size() - p - 1) : text.substr(p, e - p);
    p = e == std::string_view::npos ? text.size() : e + 1;
    if (ParseLine(line, &s)) out.push_back(s);
  }
  return out;
}

int64_t PerfMapPid(std::string_view file_name) {
  size_t slash = file_name.find_last_of('/');
  std::string_view b = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  if (b.size() < 10 || b.compare(0, 5, "perf-") != 0 || b.compare(b.size() - 4, 4, ".map") != 0) return -1;
  int64_t pid = 0;
  for (size_t i = 5; i + 4 < b.size(); ++i) {
    if (b[i] < '0' || b[i] > '9' || pid > (int64_t{1} << 40)) return -1;
    pid = pid * 10 + (b[i] - '0');
  }
  return pid;
}

}  // namespace profscope::symbols
