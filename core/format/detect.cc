#include <memory>

#include "core/format/decoder.h"
#include "core/format/perf/perf_decoder.h"

namespace profscope {

std::unique_ptr<Decoder> DetectFormat(Window& w) {
  uint64_t n = w.Available(0) < 64 ? w.Available(0) : 64;
  const uint8_t* head = w.Get(0, static_cast<size_t>(n));
  if (!head) return nullptr;
  if (perf::Sniff(head, static_cast<size_t>(n))) return std::make_unique<perf::PerfDecoder>();
  return nullptr;
}

}  // namespace profscope
