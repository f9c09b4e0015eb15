// profscope command-line tool (native build): a shell around the command
// line of core/api/cli.h, which parses, dispatches and writes. This file only
// gives it the files (stdio, std::filesystem) and stdout/stderr. The WASM
// shell is wasm/cli.mjs; both print the same bytes.
#include <sys/mman.h>
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
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    if (fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0) return 0;
    return std::fread(dst, 1, len, f_);
  }
  // A chunk of 1 MiB or more is mapped in, not copied (the page cache's pages; a read's copy of them took
  // a tenth of a 1 GB perf.data's decode), when the file still holds it: a file cut while mapped would
  // fault on the pages past its new end (then Read says what is left).
  std::shared_ptr<const uint8_t> Lend(uint64_t offset, size_t len) override {
    if (len < (1u << 20)) return nullptr;
    struct stat st;
    if (fstat(fileno(f_), &st) != 0 || st.st_size < 0 || static_cast<uint64_t>(st.st_size) < offset + len) return nullptr;
    static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    const uint64_t from = offset / page * page;
    const size_t span = static_cast<size_t>(offset - from) + len;
    void* p = mmap(nullptr, span, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(f_), static_cast<off_t>(from));
    if (p == MAP_FAILED) return nullptr;
    std::shared_ptr<const uint8_t> pages(static_cast<const uint8_t*>(p), [span](const uint8_t* q) { munmap(const_cast<uint8_t*>(q), span); });
    return std::shared_ptr<const uint8_t>(pages, pages.get() + (offset - from));
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
