#include "core/io/file_source.h"

#if !defined(__EMSCRIPTEN__)
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>
#endif

namespace profscope {

#if !defined(__EMSCRIPTEN__)
namespace {

// A regular file: its size as opened; a read past what is there now (the file was cut meanwhile) is short.
class PreadSource : public ByteSource {
 public:
  PreadSource(FILE* f, uint64_t size) : f_(f), size_(size) {}
  ~PreadSource() override { std::fclose(f_); }
  PreadSource(const PreadSource&) = delete;
  PreadSource& operator=(const PreadSource&) = delete;
  uint64_t size() const override { return size_; }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    size_t got = 0;
    while (got < len) {
      const ssize_t n = pread(fileno(f_), dst + got, len - got, static_cast<off_t>(offset + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the end (a file cut since it was opened) or an I/O error
      got += static_cast<size_t>(n);
    }
    return got;
  }

 private:
  FILE* f_;
  uint64_t size_;
};

// A file that does not say its size: its bytes, read whole.
std::unique_ptr<ByteSource> ReadWhole(FILE* f) {
  std::vector<uint8_t> bytes;
  uint8_t buf[1 << 16];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.insert(bytes.end(), buf, buf + n);
  std::fclose(f);
  return std::make_unique<OwnedSource>(std::move(bytes));
}

}  // namespace

std::unique_ptr<ByteSource> OpenFileSource(const std::string& path, std::string* error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = std::strerror(errno);
    return nullptr;
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0) {
    *error = std::strerror(errno);
    std::fclose(f);
    return nullptr;
  }
  if (!S_ISDIR(st.st_mode) && (!S_ISREG(st.st_mode) || st.st_size == 0)) return ReadWhole(f);
  return std::make_unique<PreadSource>(f, S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : 0);
}
#else
std::unique_ptr<ByteSource> OpenFileSource(const std::string& path, std::string* error) {
  (void)path;
  *error = "no files in this build";
  return nullptr;
}
#endif

}  // namespace profscope
