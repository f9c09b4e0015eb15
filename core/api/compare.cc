#include "core/api/compare.h"

#include "core/api/export/export_common.h"

namespace profscope {

DiffModel CompareProfiles(const DecodeResult& a, const DecodeResult& b, const std::string& event, bool normalize) {
  DiffModel out;
  DiffOptions o;
  o.normalize = normalize;
  o.drop_thread_root_a = a.format == "xray";
  o.drop_thread_root_b = b.format == "xray";
  if (!exporter::FindEvent(a.profile, event, &o.event_a)) out.error = "the first profile has no event named " + event;
  else if (!exporter::FindEvent(b.profile, event, &o.event_b)) out.error = "the second profile has no event named " + event;
  else out.diff = DiffProfiles(a.profile, b.profile, o);
  return out;
}

DiffText DiffCommand(const DecodeResult& a, const DecodeResult& b, const std::string& event, bool normalize) {
  DiffModel m = CompareProfiles(a, b, event, normalize);
  DiffText out;
  out.error = std::move(m.error);
  if (out.error.empty()) out.text = m.diff.FoldedText();
  return out;
}

}  // namespace profscope
