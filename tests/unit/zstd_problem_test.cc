// zstd's errors in words that do not depend on the library's version: the native build and the WASM build
// may link different versions (the system's libzstd, the source package the apt mirror has).
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "core/io/zstd_problem.h"

namespace profscope {
namespace {

size_t ZstdError(ZSTD_ErrorCode code) { return static_cast<size_t>(-static_cast<std::ptrdiff_t>(code)); }

TEST(ZstdProblem, AContentSizeMismatchReadsTheSameInEveryVersion) {
  // 1.5.4 and Debian's 1.5.4+dfsg2-5+deb12u1 report a frame holding more than its declared content size
  // with these two errors
  ASSERT_TRUE(ZSTD_isError(ZstdError(ZSTD_error_srcSize_wrong)));
  EXPECT_EQ(ZstdProblem(ZstdError(ZSTD_error_srcSize_wrong)), ZstdProblem(ZstdError(ZSTD_error_dstSize_tooSmall)));
  EXPECT_EQ(ZstdProblem(ZstdError(ZSTD_error_srcSize_wrong)),
            "its zstd frame's data does not match the content size declared for it");
  // the others say what zstd says
  EXPECT_EQ(ZstdProblem(ZstdError(ZSTD_error_corruption_detected)), "zstd says \"Data corruption detected\"");
}
// (tests/node/hostile.test.mjs decodes such a frame, z_content_size_small.data, natively and in WASM: the same)

}  // namespace
}  // namespace profscope
