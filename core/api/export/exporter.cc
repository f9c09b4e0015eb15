#include "core/api/export/exporter.h"

#include "core/api/export/chrome_writer.h"
#include "core/api/export/folded_writer.h"
#include "core/api/export/gecko_writer.h"
#include "core/api/export/pprof_writer.h"
#include "core/api/export/speedscope_writer.h"

namespace profscope::exporter {

Output Export(const DecodeResult& res, const Options& opts) {
  switch (opts.format) {
    case Format::kFolded: {
      Output o;
      int32_t want = kNone;
      if (!FindEvent(res.profile, opts.event, &want)) o.error = "no event named " + opts.event;
      else if (opts.weight != Weight::kSamples) o.error = "folded is the text of `profscope stacks`: use --weight samples";
      else o.bytes = FoldedStacks(res, false, opts.event);
      return o;
    }
    case Format::kSpeedscope: return WriteSpeedscope(res, opts);
    case Format::kGecko: return WriteGecko(res, opts);
    case Format::kPprof: return WritePprof(res, opts);
    case Format::kChrome: return WriteChrome(res, opts);
  }
  return Output{"", "unknown format"};
}

const char* FileSuffix(Format f) {
  switch (f) {
    case Format::kFolded: return ".folded";
    case Format::kSpeedscope: return ".speedscope.json";
    case Format::kGecko: return ".gecko.json";
    case Format::kPprof: return ".pb.gz";
    case Format::kChrome: return ".trace.json";
  }
  return "";
}

}  // namespace profscope::exporter

namespace profscope::exporter {

Output ExportByName(const DecodeResult& res, const std::string& format, const std::string& weight, const std::string& event) {
  Options o;
  o.event = event;
  if (!ParseFormat(format, &o.format))
    return Output{"", "unknown export format " + format + " (folded, speedscope, gecko, pprof, chrome)"};
  if (!weight.empty() && !ParseWeight(weight, &o.weight))
    return Output{"", "unknown weight " + weight + " (samples, period, time)"};
  return Export(res, o);
}

}  // namespace profscope::exporter
