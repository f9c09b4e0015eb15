#include <memory>

#include "core/archive/byte_stream.h"
#include "core/archive/tar_reader.h"
#include "core/format/decoder.h"
#include "core/format/jitdump/jitdump_decoder.h"
#include "core/format/perf/perf_decoder.h"
#include "core/format/gperf/gperf_decoder.h"
#include "core/format/xray/xray_decoder.h"
#include "core/symbols/kallsyms.h"
#include "core/symbols/perf_map.h"

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
  // perf archive tarballs (any compression) and kallsyms text: symbol sources.
  if (archive::DetectCompression(h, static_cast<size_t>(n)) != archive::Compression::kNone) return "archive";
  if (w.Available(0) >= 512) {
    const uint8_t* b = w.Get(0, 512);
    if (b && archive::IsTarHeader(b)) return "archive";
  }
  uint64_t t = w.Available(0) < 4096 ? w.Available(0) : 4096;
  const uint8_t* text = w.Get(0, static_cast<size_t>(t));
  if (text && symbols::LooksLikeKallsyms(text, static_cast<size_t>(t))) return "kallsyms";
  if (text && symbols::LooksLikePerfMap(text, static_cast<size_t>(t))) return "perfmap";
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
