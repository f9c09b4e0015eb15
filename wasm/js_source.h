// A ByteSource that pulls byte ranges from JS: read(offset, length) ->
// Uint8Array (in the worker: FileReaderSync over Blob.slice; in node:
// fs.readSync). Shared by the session bindings and the CLI entry point.
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
    emscripten::val chunk = read_(static_cast<double>(offset), static_cast<double>(len));
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
