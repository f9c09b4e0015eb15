// A ByteSource that pulls byte ranges from JS: read(offset, length, into) ->
// Uint8Array (in the worker: FileReaderSync over Blob.slice), or the number
// of bytes it wrote itself into `into`, a view of the destination in the
// module's heap (in node: fs.readSync straight into the heap, no copy in
// between). Shared by the session bindings and the CLI entry point.
#pragma once

#include <emscripten/val.h>

#include <cstdint>

#include "core/io/byte_source.h"

namespace profscope::wasm {

class JsSource : public ByteSource {
 public:
  JsSource(emscripten::val read, double size) : read_(std::move(read)), size_(static_cast<uint64_t>(size)) {}
  uint64_t size() const override { return size_; }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    // (the view stays valid through the call: the callback allocates nothing in the heap)
    emscripten::val into(emscripten::typed_memory_view(len, dst));
    emscripten::val chunk = read_(static_cast<double>(offset), static_cast<double>(len), into);
    if (chunk.isNumber()) {
      const double wrote = chunk.as<double>();
      return wrote <= 0 ? 0 : wrote >= static_cast<double>(len) ? len : static_cast<size_t>(wrote);
    }
    size_t n = chunk["length"].as<size_t>();
    if (n > len) n = len;
    emscripten::val view(emscripten::typed_memory_view(n, dst));
    view.call<void>("set", chunk.call<emscripten::val>("subarray", 0, static_cast<double>(n)));
    return n;
  }

 private:
  emscripten::val read_;
  uint64_t size_;
};

}  // namespace profscope::wasm
