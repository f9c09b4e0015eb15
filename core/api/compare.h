// `profscope diff A B`: the folded diff text of two decoded profiles
// (core/analysis/diff.h does the matching; this resolves the CLI's options).
#pragma once

#include <string>

#include "core/analysis/diff.h"
#include "core/format/decoder.h"

namespace profscope {

struct DiffText {
  std::string text;   // "STACK COUNT_A COUNT_B\n" lines
  std::string error;  // non-empty: nothing compared (e.g. an event neither profile has)
};

// `event` ("" = every event) is looked up by name in each profile; a name
// that one of them lacks is an error. XRay profiles lose their per-thread root
// frames (thread_TID): thread ids differ between runs.
// The page's Compare tab: the whole diff model (merged tree, functions table)
// of the same pairing DiffCommand prints; `error` non-empty when nothing was compared.
struct DiffModel {
  ProfileDiff diff;
  std::string error;
};
DiffModel CompareProfiles(const DecodeResult& a, const DecodeResult& b, const std::string& event, bool normalize);

DiffText DiffCommand(const DecodeResult& a, const DecodeResult& b, const std::string& event, bool normalize);

}  // namespace profscope
