#include "core/api/text_writers.h"

namespace profscope {

namespace {

// The third column: the type number, or its name with '_' for blanks.
std::string TypeColumn(const DecodeResult& res, const Decoder& decoder, int32_t row) {
  if (res.record_types_are_numbers) return std::to_string(res.records.type[static_cast<size_t>(row)]);
  std::string name = decoder.TypeName(res, row);
  for (auto& c : name)
    if (c == ' ') c = '_';
  return name;
}

}  // namespace

void WriteRecordsText(const DecodeResult& res, const Decoder& decoder, OutputSink& out) {
  const RecordTable& t = res.records;
  std::string line;
  for (size_t i = 0; i < t.rows(); ++i) {
    if (!decoder.IsListedRecord(res, static_cast<int32_t>(i))) continue;
    line = Dec(t.offset[i]) + "\t" + Dec(t.size[i]) + "\t" + TypeColumn(res, decoder, static_cast<int32_t>(i));
    if (static_cast<RecordKind>(t.kind[i]) == RecordKind::kNested) {
      line += "\tin:" + Dec(t.offset[static_cast<size_t>(t.parent[i])]);
    }
    if (t.file[i] != 0 && t.file[i] < res.files.size()) {
      line += "\tfile:" + res.files[t.file[i]];
    }
    line += '\n';
    out.Write(line);
  }
}

void WriteEventsText(const CallLog& calls, OutputSink& out) {
  std::string line;
  size_t arg = 0;
  CallLog::Reader rd(calls);  // (the runs one after another: every record in file order)
  for (size_t r = 0; r < calls.runs.size(); ++r) {
    const std::string tid = Dec(calls.runs[r].tid) + "\t";
    for (size_t i = calls.runs[r].first, end = calls.RunEnd(r); i < end; ++i) {
      const CallLog::Call c = rd.Next();
      line = tid + Dec(c.tsc) + "\t" + CallActionName(c.action) + "\t" + std::to_string(calls.Func(i));
      while (arg < calls.args.size() && calls.args[arg].first < i) ++arg;
      for (size_t a = arg; a < calls.args.size() && calls.args[a].first == i; ++a) {
        line += a == arg ? '\t' : ',';
        line += Dec(calls.args[a].second);
      }
      line += '\n';
      out.Write(line);
    }
  }
}

}  // namespace profscope
