// Where text output goes: writers append to a sink, which hands it on in
// chunks (64 KiB) as it is made, so the CLI can print while it writes and a
// caller that wants one string gets one (StringSink).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace profscope {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  void Write(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kChunk) Flush();
  }
  // Hands on what is buffered; call once the output is complete.
  void Flush() {
    if (buf_.empty()) return;
    Emit(buf_);
    buf_.clear();
  }

 protected:
  virtual void Emit(std::string_view chunk) = 0;

 private:
  static constexpr size_t kChunk = size_t{64} << 10;
  std::string buf_;
};

// Collects the output into one string.
class StringSink : public OutputSink {
 public:
  explicit StringSink(std::string& out) : out_(out) {}
  ~StringSink() override { Flush(); }

 protected:
  void Emit(std::string_view chunk) override { out_.append(chunk); }

 private:
  std::string& out_;
};

// What `write` writes to a sink, as one string.
template <typename Fn>
std::string Collect(Fn write) {
  std::string out;
  StringSink sink(out);
  write(sink);
  sink.Flush();
  return out;
}

}  // namespace profscope
