// File helpers shared by the corpus tests: read an input's bytes, read a
// reference text (transparently from its .gz when the corpus stores it
// compressed), split text into lines.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/format/elf/elf_reader.h"
#include "core/io/byte_source.h"
#include "core/io/running_vdso.h"
#include "core/symbols/debug_file_search.h"

namespace profscope::corpus {

inline std::vector<uint8_t> ReadFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

inline std::string ReadText(const std::filesystem::path& p) {
  if (std::filesystem::exists(p)) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  std::filesystem::path gz = p.string() + ".gz";
  if (!std::filesystem::exists(gz)) return {};
  std::string cmd = "gzip -dc '" + gz.string() + "'";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return {};
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  pclose(pipe);
  return out;
}

inline std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The perf corpus (tests/data/perf): a case's input (file-mode perf.data, else pipe.data), and
// the cases that have one and every file in `needs` (e.g. "report_D.txt"), sorted.
inline const std::filesystem::path& PerfData() {
  static const std::filesystem::path d = std::filesystem::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "perf";
  return d;
}
inline std::filesystem::path PerfInput(const std::filesystem::path& dir) {
  if (std::filesystem::exists(dir / "perf.data")) return dir / "perf.data";
  return dir / "pipe.data";
}
inline std::vector<std::string> PerfCases(const std::vector<std::string>& needs = {}) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(PerfData())) {
    if (!e.is_directory() || !std::filesystem::exists(PerfInput(e.path()))) continue;
    bool ok = true;
    for (const auto& n : needs) ok = ok && std::filesystem::exists(e.path() / n);
    if (ok) out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The separate debug files of `binaries` that this machine has, at
// /usr/lib/debug/.build-id/xx/rest.debug by their build-ids (libc6-dbg's for
// Debian 12's libc.so.6 and ld.so, where perf found their symbols).
inline std::vector<std::filesystem::path> DebugFilesOf(const std::vector<std::filesystem::path>& binaries) {
  std::vector<std::filesystem::path> out;
  for (const auto& p : binaries) {
    if (!std::filesystem::exists(p)) continue;
    auto bytes = ReadFile(p);
    auto e = profscope::elf::ReadElfBytes(bytes.data(), bytes.size());
    if (e.build_id.size() <= 2) continue;
    std::filesystem::path dbg =
        std::filesystem::path("/usr/lib/debug/.build-id") / e.build_id.substr(0, 2) / (e.build_id.substr(2) + ".debug");
    if (std::filesystem::exists(dbg)) out.push_back(dbg);
  }
  return out;
}

// This machine's files as the command line's hosts give them (symbols::FileAccess):
// regular files read whole, and the running kernel's vdso (core/io/running_vdso.h).
class HostFiles : public profscope::symbols::FileAccess {
 public:
  std::vector<std::vector<uint8_t>> keep;
  std::unique_ptr<profscope::ByteSource> Open(const std::string& path, std::string* error) override {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      *error = "No such file or directory";
      return nullptr;
    }
    keep.push_back(ReadFile(path));
    return std::make_unique<profscope::MemorySource>(keep.back());
  }
  bool IsDirectory(const std::string& path) override {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec);
  }
  std::unique_ptr<profscope::ByteSource> RunningVdso() override {
    keep.push_back(profscope::RunningVdsoBytes());
    if (keep.back().empty()) return nullptr;
    return std::make_unique<profscope::MemorySource>(keep.back());
  }
};

}  // namespace profscope::corpus
