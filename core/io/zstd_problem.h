// What zstd's error for a frame means, in words that do not depend on the library's version.
#pragma once

#include <zstd.h>
#include <zstd_errors.h>

#include <cstddef>
#include <string>

namespace profscope {

// `zstd says "NAME"` for an error `ret` of the zstd library, except for a frame whose data does not match
// the content size declared for it (by its header, or by the buffer its container sized for it), which
// zstd's versions name differently: 1.5.4 "Destination buffer is too small", Debian's 1.5.4+dfsg2-5+deb12u1
// "Src size is incorrect". The native build links the system's libzstd and the WASM build compiles the
// source package the apt mirror has, which may be another version: one wording keeps their outputs the same.
inline std::string ZstdProblem(size_t ret) {
  switch (ZSTD_getErrorCode(ret)) {
    case ZSTD_error_srcSize_wrong:
    case ZSTD_error_dstSize_tooSmall:
      return "its zstd frame's data does not match the content size declared for it";
    default:
      return std::string("zstd says \"") + ZSTD_getErrorName(ret) + "\"";
  }
}

}  // namespace profscope
