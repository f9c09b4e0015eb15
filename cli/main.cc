// profscope command-line tool (native build): a shell around the command
// line of core/api/cli.h, which parses, dispatches and writes. This file only
// gives it the files (stdio, std::filesystem) and stdout/stderr. The WASM
// shell is wasm/cli.mjs; both print the same bytes.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/api/cli.h"
#include "core/io/running_vdso.h"

namespace {

class FileSource : public profscope::ByteSource {
 public:
  explicit FileSource(FILE* f) : f_(f) {
    std::fseek(f_, 0, SEEK_END);
    long long n = ftello(f_);
    size_ = n < 0 ? 0 : static_cast<uint64_t>(n);
  }
  ~FileSource() override { std::fclose(f_); }
  uint64_t size() const override { return size_; }
  // Straight into the window's buffer, which is reused: the kernel copies from the page cache through its
  // own mapping. (Mapping the chunks in instead cost more here: each mapped page's first touch.)
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    size_t got = 0;
    while (got < len) {
      const ssize_t n = pread(fileno(f_), dst + got, len - got, static_cast<off_t>(offset + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    return got;
  }

 private:
  FILE* f_;
  uint64_t size_ = 0;
};

// A file that does not say its size (/proc/kallsyms, a pipe): read whole, once.
class BufferedSource : public profscope::ByteSource {
 public:
  explicit BufferedSource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  explicit BufferedSource(FILE* f) {
    uint8_t buf[1 << 16];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes_.insert(bytes_.end(), buf, buf + n);
    std::fclose(f);
  }
  uint64_t size() const override { return bytes_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    if (offset >= bytes_.size()) return 0;
    const size_t n = std::min<uint64_t>(len, bytes_.size() - offset);
    std::memcpy(dst, bytes_.data() + offset, n);
    return n;
  }

 private:
  std::vector<uint8_t> bytes_;
};

class FileHost : public profscope::cli::Host {
 public:
  std::unique_ptr<profscope::ByteSource> Open(const std::string& path, std::string* error) override {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
      *error = std::strerror(errno);
      return nullptr;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && !S_ISDIR(st.st_mode) && (!S_ISREG(st.st_mode) || st.st_size == 0))
      return std::make_unique<BufferedSource>(f);
    return std::make_unique<FileSource>(f);
  }
  bool IsDirectory(const std::string& path) override {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec);
  }
  std::unique_ptr<profscope::ByteSource> RunningVdso() override {
    std::vector<uint8_t> bytes = profscope::RunningVdsoBytes();
    if (bytes.empty()) return nullptr;
    return std::make_unique<BufferedSource>(std::move(bytes));
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
