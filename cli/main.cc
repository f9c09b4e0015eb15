// profscope command-line tool (native build): a shell around the command
// line of core/api/cli.h, which parses, dispatches and writes. This file only
// gives it the files (stdio, std::filesystem) and stdout/stderr. The WASM
// shell is wasm/cli.mjs; both print the same bytes.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/api/cli.h"
#include "core/io/file_source.h"
#include "core/io/running_vdso.h"

namespace {

class FileHost : public profscope::cli::Host {
 public:
  std::unique_ptr<profscope::ByteSource> Open(const std::string& path, std::string* error) override {
    return profscope::OpenFileSource(path, error);
  }
  bool IsDirectory(const std::string& path) override {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec);
  }
  std::unique_ptr<profscope::ByteSource> RunningVdso() override {
    std::vector<uint8_t> bytes = profscope::RunningVdsoBytes();
    if (bytes.empty()) return nullptr;
    return std::make_unique<profscope::OwnedSource>(std::move(bytes));
  }
  std::vector<std::string> List(const std::string& dir) override {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
    return names;
  }
  bool WriteFile(const std::string& path, std::string_view bytes, std::string* error) override {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
      *error = std::strerror(errno);
      return false;
    }
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    return std::fclose(f) == 0 && ok;
  }
};

class StdioSink : public profscope::OutputSink {
 public:
  explicit StdioSink(FILE* f) : f_(f) {}

 protected:
  void Emit(std::string_view chunk) override { std::fwrite(chunk.data(), 1, chunk.size(), f_); }

 private:
  FILE* f_;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  FileHost host;
  StdioSink out(stdout), err(stderr);
  return profscope::cli::Run(args, host, out, err);
}
