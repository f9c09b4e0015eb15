// A file on this machine as a ByteSource (the native hosts: cli/main.cc, the corpus tests). Its chunks are
// read with pread straight into the window's reused buffer: the kernel copies out of the page cache through
// its own mapping, which on a paravirtual VM costs less than the first touch of mapped pages
// (docs/PERFORMANCE.md, seventeenth stop). A file that does not say its size (a pipe, /proc/kallsyms) is
// read whole, once. Not in the WebAssembly build (its hosts read files in JavaScript).
#pragma once

#include <memory>
#include <string>

#include "core/io/byte_source.h"

namespace profscope {

// nullptr with *error set (strerror's text) when the file cannot be opened.
std::unique_ptr<ByteSource> OpenFileSource(const std::string& path, std::string* error);

}  // namespace profscope
