// profscope command-line tool (native build). The WASM twin is wasm/cli.mjs;
// both print the texts made by core/api/session.cc, byte for byte.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/api/session.h"

namespace {

class FileSource : public profscope::ByteSource {
 public:
  explicit FileSource(FILE* f) : f_(f) {
    std::fseek(f_, 0, SEEK_END);
    long long n = ftello(f_);
    size_ = n < 0 ? 0 : static_cast<uint64_t>(n);
  }
  uint64_t size() const override { return size_; }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    if (fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0) return 0;
    return std::fread(dst, 1, len, f_);
  }

 private:
  FILE* f_;
  uint64_t size_ = 0;
};

int Usage() {
  std::fprintf(stderr,
               "usage: profscope info FILE\n"
               "       profscope records FILE\n"
               "       profscope stacks FILE [--addresses] [--event NAME]\n"
               "       profscope events FILE\n"
               "side files (any command, repeatable): --binary ELF, --jitdump jit-PID.dump,\n"
               "  --instr-map BINARY_OR_YAML\n"
               "decoder options (any command, repeatable): --option KEY=VALUE; gperftools:\n"
               "  pc_minus_one, drop_duplicate_leaf, strip_signal_frames (=1 turns on pprof's\n"
               "  adjustment); a key the decoder does not know gives a diagnostic (see info)\n"
               "FILE may be a perf record --threads directory (its data and data.N files),\n"
               "or several files of one recording given in order (data data.0 data.1 ...).\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return Usage();
  std::string cmd = argv[1];
  if (cmd != "info" && cmd != "records" && cmd != "stacks" && cmd != "events") return Usage();
  std::vector<std::string> side_paths;
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<std::string> paths;
  bool addresses = false;
  std::string event;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (cmd == "stacks" && a == "--addresses") addresses = true;
    else if (cmd == "stacks" && a == "--event" && i + 1 < argc) event = argv[++i];
    else if (cmd == "stacks" && a.rfind("--event=", 0) == 0) event = a.substr(8);
    else if ((a == "--binary" || a == "--jitdump" || a == "--instr-map") && i + 1 < argc) side_paths.push_back(argv[++i]);
    else if ((a == "--option" && i + 1 < argc) || a.rfind("--option=", 0) == 0) {
      std::string kv = a == "--option" ? argv[++i] : a.substr(9);
      size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) return Usage();
      options.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    else if (!a.empty() && a[0] == '-' && a != "-") return Usage();
    else paths.push_back(a);
  }
  if (paths.empty()) return Usage();
  std::vector<std::string> names;  // display names: as given, or dir/data, dir/data.N
  if (paths.size() == 1 && std::filesystem::is_directory(paths[0])) {
    std::string dir = paths[0];
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    paths = {dir + "/data"};
    std::vector<std::pair<long, std::string>> parts;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      std::string n = e.path().filename().string();
      if (n.rfind("data.", 0) != 0 || n.size() == 5) continue;
      char* end = nullptr;
      long k = std::strtol(n.c_str() + 5, &end, 10);
      if (*end == 0) parts.emplace_back(k, dir + "/" + n);
    }
    std::sort(parts.begin(), parts.end());
    for (auto& [k, n] : parts) paths.push_back(n);
  }
  std::vector<FILE*> files;
  std::vector<std::unique_ptr<FileSource>> sources;
  for (const auto& path : paths) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
      std::fprintf(stderr, "profscope: cannot open %s: %s\n", path.c_str(), std::strerror(errno));
      return 1;
    }
    files.push_back(f);
    sources.push_back(std::make_unique<FileSource>(f));
  }
  profscope::Session session(*sources[0], paths[0]);
  for (size_t i = 1; i < sources.size(); ++i) {
    std::string base = paths[i].substr(paths[i].find_last_of('/') + 1);
    session.AddDataFile(*sources[i], base);
  }
  std::vector<std::unique_ptr<FileSource>> side_sources;
  for (const auto& sp : side_paths) {
    FILE* f = std::fopen(sp.c_str(), "rb");
    if (!f) {
      std::fprintf(stderr, "profscope: cannot open %s: %s\n", sp.c_str(), std::strerror(errno));
      return 1;
    }
    files.push_back(f);
    side_sources.push_back(std::make_unique<FileSource>(f));
    session.AddSideFile(*side_sources.back(), sp);
  }
  for (const auto& [k, v] : options) session.SetOption(k, v);
  bool ok = session.Decode();
  std::string out;
  if (cmd == "info") out = session.InfoJson();
  else if (ok && cmd == "records") out = session.RecordsText();
  else if (ok && cmd == "events") out = session.EventsText();
  else if (ok) out = session.StacksText(addresses, event);
  std::fwrite(out.data(), 1, out.size(), stdout);
  for (FILE* f : files) std::fclose(f);
  if (!ok) {
    if (cmd != "info") {
      for (const auto& d : session.result().diags.items())
        if (d.severity == profscope::Severity::kFatal) std::fprintf(stderr, "profscope: %s\n", d.message.c_str());
    }
    return 1;
  }
  return 0;
}
