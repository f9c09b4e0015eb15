// The options a format's decoder takes (Decoder::SetOption), described for a
// shell to offer as switches: the page shows them above the views, so it
// needs no knowledge of any format. Keep in step with the decoders' SetOption.
#pragma once

#include <string>
#include <vector>

namespace profscope {

struct DecoderOptionSpec {
  std::string key;    // what SetOption takes; values "1" (on) / "0" (off)
  std::string label;  // short switch label
  std::string help;   // one sentence: what turning it on does
};

struct DecoderOptionSet {
  std::string format;  // DecodeResult::format
  std::string title;   // what the switches are, as a group
  std::vector<DecoderOptionSpec> options;
};

// The option set of a format, or nullptr when its decoder takes none.
const DecoderOptionSet* FindDecoderOptions(const std::string& format);

}  // namespace profscope
