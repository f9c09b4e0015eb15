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

#include "core/api/compare.h"
#include "core/api/export/exporter.h"
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
               "       profscope export FILE --format folded|speedscope|gecko|pprof|chrome [-o OUT]\n"
               "                        [--weight samples|period|time] [--event NAME]\n"
               "       profscope diff A B [--normalize] [--event NAME]\n"
               "side files (any command, repeatable; for diff they are offered to both profiles):\n"
               "  --symbols ELF (or --binary ELF), --jitdump jit-PID.dump, --instr-map BINARY_OR_YAML\n"
               "decoder options (any command, repeatable): --option KEY=VALUE; gperftools:\n"
               "  pc_minus_one, drop_duplicate_leaf, strip_signal_frames (=1 turns on pprof's\n"
               "  adjustment); a key the decoder does not know gives a diagnostic (see info)\n"
               "FILE may be a perf record --threads directory (its data and data.N files),\n"
               "or several files of one recording given in order (data data.0 data.1 ...).\n"
               "export writes OUT (default: standard output); diff prints \"STACK COUNT_A COUNT_B\"\n"
               "per folded stack (difffolded.pl's form), --normalize scales A to B's total.\n");
  return 2;
}

// The files of one recording: a perf --threads directory becomes DIR/data then
// DIR/data.N in numeric order; otherwise the paths as given.
std::vector<std::string> ExpandInputs(std::vector<std::string> paths) {
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
  return paths;
}

// One opened, decoded recording (its files stay open: a session reads lazily).
struct Opened {
  std::vector<FILE*> files;
  std::vector<std::unique_ptr<FileSource>> sources;
  std::unique_ptr<profscope::Session> session;
  bool ok = false;
  ~Opened() {
    session.reset();
    for (FILE* f : files) std::fclose(f);
  }
};

// Opens and decodes; false (after a message) when a file cannot be opened.
bool Open(const std::vector<std::string>& given, const std::vector<std::string>& side_paths,
          const std::vector<std::pair<std::string, std::string>>& options, Opened& o) {
  std::vector<std::string> paths = ExpandInputs(given);
  auto open = [&](const std::string& path) -> FileSource* {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
      std::fprintf(stderr, "profscope: cannot open %s: %s\n", path.c_str(), std::strerror(errno));
      return nullptr;
    }
    o.files.push_back(f);
    o.sources.push_back(std::make_unique<FileSource>(f));
    return o.sources.back().get();
  };
  for (const auto& path : paths)
    if (!open(path)) return false;
  o.session = std::make_unique<profscope::Session>(*o.sources[0], paths[0]);
  for (size_t i = 1; i < paths.size(); ++i) {
    std::string base = paths[i].substr(paths[i].find_last_of('/') + 1);
    o.session->AddDataFile(*o.sources[i], base);
  }
  for (const auto& sp : side_paths) {
    FileSource* src = open(sp);
    if (!src) return false;
    o.session->AddSideFile(*src, sp);
  }
  for (const auto& [k, v] : options) o.session->SetOption(k, v);
  o.ok = o.session->Decode();
  return true;
}

void PrintFatal(const profscope::Session& s) {
  for (const auto& d : s.result().diags.items())
    if (d.severity == profscope::Severity::kFatal) std::fprintf(stderr, "profscope: %s\n", d.message.c_str());
}

bool WriteAll(const std::string& out, const std::string& path) {
  FILE* f = path.empty() || path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "profscope: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
  if (f != stdout) ok = std::fclose(f) == 0 && ok;
  if (!ok) std::fprintf(stderr, "profscope: cannot write %s\n", path.empty() ? "standard output" : path.c_str());
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return Usage();
  std::string cmd = argv[1];
  if (cmd != "info" && cmd != "records" && cmd != "stacks" && cmd != "events" && cmd != "export" && cmd != "diff")
    return Usage();
  std::vector<std::string> side_paths;
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<std::string> paths;
  bool addresses = false, normalize = false;
  std::string event, format, weight, output;
  const bool has_event = cmd == "stacks" || cmd == "export" || cmd == "diff";
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (cmd == "stacks" && a == "--addresses") addresses = true;
    else if (has_event && a == "--event" && i + 1 < argc) event = argv[++i];
    else if (has_event && a.rfind("--event=", 0) == 0) event = a.substr(8);
    else if (cmd == "export" && a == "--format" && i + 1 < argc) format = argv[++i];
    else if (cmd == "export" && a.rfind("--format=", 0) == 0) format = a.substr(9);
    else if (cmd == "export" && a == "--weight" && i + 1 < argc) weight = argv[++i];
    else if (cmd == "export" && a.rfind("--weight=", 0) == 0) weight = a.substr(9);
    else if (cmd == "export" && a == "-o" && i + 1 < argc) output = argv[++i];
    else if (cmd == "diff" && a == "--normalize") normalize = true;
    else if ((a == "--symbols" || a == "--binary" || a == "--jitdump" || a == "--instr-map") && i + 1 < argc) side_paths.push_back(argv[++i]);
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
  if (cmd == "export" && format.empty()) return Usage();
  if (cmd == "diff") {
    // two recordings, one file each
    if (paths.size() != 2) return Usage();
    Opened a, b;
    if (!Open({paths[0]}, side_paths, options, a) || !Open({paths[1]}, side_paths, options, b)) return 1;
    if (!a.ok || !b.ok) {
      PrintFatal(*(a.ok ? b : a).session);
      return 1;
    }
    profscope::DiffText d = profscope::DiffCommand(a.session->result(), b.session->result(), event, normalize);
    if (!d.error.empty()) {
      std::fprintf(stderr, "profscope: %s\n", d.error.c_str());
      return 1;
    }
    return WriteAll(d.text, "") ? 0 : 1;
  }
  Opened o;
  if (!Open(paths, side_paths, options, o)) return 1;
  const profscope::Session& session = *o.session;
  const bool ok = o.ok;
  std::string out;
  if (cmd == "info") out = session.InfoJson();
  else if (ok && cmd == "records") out = session.RecordsText();
  else if (ok && cmd == "events") out = session.EventsText();
  else if (ok && cmd == "stacks") out = session.StacksText(addresses, event);
  else if (ok && cmd == "export") {
    profscope::exporter::Output r = profscope::exporter::ExportByName(session.result(), format, weight, event);
    if (!r.error.empty()) {
      std::fprintf(stderr, "profscope: export: %s\n", r.error.c_str());
      return 1;
    }
    return WriteAll(r.bytes, output) ? 0 : 1;
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!ok) {
    if (cmd != "info") PrintFatal(session);
    return 1;
  }
  return 0;
}
