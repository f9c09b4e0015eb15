#include "core/api/decoder_options.h"

namespace profscope {

const DecoderOptionSet* FindDecoderOptions(const std::string& format) {
  // gperftools: the adjustments pprof applies silently (core/format/gperf/gperf_decoder.h).
  static const DecoderOptionSet kSets[] = {
      {"gperftools",
       "pprof adjustments (off = the PCs as stored):",
       {
           {"pc_minus_one", "PC − 1 for callers",
            "pprof subtracts 1 from every non-leaf PC so it points into the call instruction, not after it"},
           {"drop_duplicate_leaf", "Drop duplicate leaf",
            "drop the second PC of a sample when it equals the first (the leaf recorded twice)"},
           {"strip_signal_frames", "Strip signal frames",
            "pprof drops a second frame shared by nearly all samples: the one the signal handler pushed (at most twice)"},
       }},
  };
  for (const DecoderOptionSet& s : kSets)
    if (s.format == format) return &s;
  return nullptr;
}

}  // namespace profscope
