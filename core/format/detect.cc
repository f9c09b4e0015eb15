#include <memory>

#include "core/format/decoder.h"
#include "core/format/jitdump/jitdump_decoder.h"
#include "core/format/perf/perf_decoder.h"
#include "core/format/gperf/gperf_decoder.h"
#include "core/format/xray/xray_decoder.h"

namespace profscope {

std::string SniffSideFile(Window& w) {
  uint64_t n = w.Available(0) < 16 ? w.Available(0) : 16;
  const uint8_t* h = w.Get(0, static_cast<size_t>(n));
  if (!h || n < 4) return "unknown";
  if (h[0] == 0x7f && h[1] == 'E' && h[2] == 'L' && h[3] == 'F') return "elf";
  // jitdump magic 'JiTD' written as a u32 in the producer's byte order.
  if ((h[0] == 'D' && h[1] == 'T' && h[2] == 'i' && h[3] == 'J') ||
      (h[0] == 'J' && h[1] == 'i' && h[2] == 'T' && h[3] == 'D'))
    return "jitdump";
  if (h[0] == '-' && n >= 3 && h[1] == '-' && h[2] == '-') return "yaml";
  return "unknown";
}

std::unique_ptr<Decoder> DetectFormat(Window& w) {
  uint64_t n = w.Available(0) < 64 ? w.Available(0) : 64;
  const uint8_t* head = w.Get(0, static_cast<size_t>(n));
  if (!head) return nullptr;
  if (perf::Sniff(head, static_cast<size_t>(n))) return std::make_unique<perf::PerfDecoder>();
  if (xray::Sniff(head, static_cast<size_t>(n))) return std::make_unique<xray::XRayDecoder>();
  if (gperf::Sniff(head, static_cast<size_t>(n))) return std::make_unique<gperf::GperfDecoder>();
  if (jitdump::Sniff(head, static_cast<size_t>(n))) return std::make_unique<jitdump::JitdumpDecoder>();
  return nullptr;
}

}  // namespace profscope
