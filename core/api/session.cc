#include "core/api/session.h"

#include "core/api/export/folded_writer.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace profscope {

namespace {

std::string Num(uint64_t v) { return std::to_string(v); }
std::string INum(int64_t v) { return std::to_string(v); }
std::string Q(const std::string& s) { return QuoteString(s); }

}  // namespace

Session::Session(ByteSource& src, std::string name)
    : src_(src), name_(std::move(name)), window_(src) {}
Session::~Session() = default;

void Session::AddDataFile(ByteSource& src, std::string name) {
  extra_.push_back(std::make_unique<Window>(src));
  extra_names_.push_back(std::move(name));
}

void Session::AddSideFile(ByteSource& src, std::string name) {
  side_windows_.push_back(std::make_unique<Window>(src));
  SideFile f;
  f.name = std::move(name);
  f.window = side_windows_.back().get();
  f.kind = SniffSideFile(*f.window);
  side_.push_back(std::move(f));
}

std::string Session::EventsText() const {
  return decoder_ ? decoder_->EventsText(res_) : std::string();
}

std::string Session::TimelineJson() const {
  return decoder_ ? decoder_->TimelineJson(res_) : std::string("[]");
}

Window& Session::WindowFor(int32_t row) {
  uint8_t f = res_.records.file[static_cast<size_t>(row)];
  if (f == 0 || f > extra_.size()) return window_;
  return *extra_[f - 1];
}

bool Session::Decode(const ProgressFn& progress) {
  res_ = DecodeResult();
  res_.file_size = src_.size();
  res_.files.push_back(name_);
  for (const auto& n : extra_names_) res_.files.push_back(n);
  decoder_ = DetectFormat(window_);
  decoded_ = true;
  if (!decoder_) {
    res_.format = "unknown";
    res_.diags.Fatal(DiagCode::kUnknownFormat, 0, std::min<uint64_t>(src_.size(), 8),
                     src_.size() == 0 ? "the file is empty"
                                      : "not a file profscope can read: no known magic or structure at offset 0 "
                                        "(perf.data starts with \"PERFILE2\")");
    return false;
  }
  for (const auto& [k, v] : options_)
    if (!decoder_->SetOption(k, v))
      res_.diags.Warning(DiagCode::kBadHeader, 0, 0, "option " + k + " is not known to the " + std::string("decoder of this format") + "; ignored");
  bool ok = decoder_->Decode(window_, res_, progress);
  for (size_t i = 0; ok && i < extra_.size() && i < 254; ++i) {
    if (!decoder_->DecodeDataFile(*extra_[i], static_cast<uint8_t>(i + 1), res_, progress)) {
      res_.diags.Warning(DiagCode::kBadHeader, 0, 0,
                         "extra file " + extra_names_[i] + " was given, but this format has no separate data files; ignored");
    }
  }
  if (ok && !side_.empty()) decoder_->UseSideFiles(side_, res_);
  decoder_->Finish(res_);
  return ok && !res_.diags.has_fatal();
}

std::string Session::DiagnosticsJson() const {
  std::string out = "[";
  bool first = true;
  for (const auto& d : res_.diags.items()) {
    if (!first) out += ',';
    first = false;
    out += "{\"code\":" + Q(DiagCodeName(d.code)) + ",\"severity\":" + Q(SeverityName(d.severity)) +
           ",\"offset\":" + Num(d.offset) + ",\"length\":" + Num(d.length) + ",\"message\":" + Q(d.message) + "}";
  }
  out += "]";
  return out;
}

std::string Session::EventsJson() const {
  const Profile& p = res_.profile;
  std::string out = "[";
  for (size_t i = 0; i < p.events.size(); ++i) {
    if (i) out += ',';
    out += "{\"name\":" + Q(p.strings.Get(p.events.name[i])) + ",\"samples\":" + Num(p.events.samples[i]) + "}";
  }
  return out + "]";
}

std::string Session::ThreadsJson() const {
  const Profile& p = res_.profile;
  const ThreadTable& t = p.threads;
  std::string out = "[";
  for (size_t i = 0; i < t.size(); ++i) {
    if (i) out += ',';
    out += "{\"tid\":" + INum(t.tid[i]) + ",\"pid\":" + INum(t.pid[i]) + ",\"name\":" +
           Q(t.name[i] == kNone ? std::string() : p.strings.Get(t.name[i])) + ",\"samples\":" + Num(t.samples[i]);
    out += ",\"start\":" + Num(t.start[i]) + ",\"end\":" + Num(t.end[i]) + ",\"names\":[";
    bool first = true;
    for (size_t k = 0; k < p.thread_names.thread.size(); ++k) {
      if (p.thread_names.thread[k] != static_cast<int32_t>(i)) continue;
      if (!first) out += ',';
      first = false;
      out += "{\"time\":" + Num(p.thread_names.time[k]) + ",\"name\":" + Q(p.strings.Get(p.thread_names.name[k])) + "}";
    }
    out += "]}";
  }
  return out + "]";
}

std::string Session::MappingsJson() const {
  const Profile& p = res_.profile;
  const MappingTable& m = p.mappings;
  std::string out = "[";
  for (size_t i = 0; i < m.size(); ++i) {
    if (i) out += ',';
    out += "{\"pid\":" + INum(m.pid[i]) + ",\"start\":" + Q(Hex(m.start[i])) + ",\"end\":" + Q(Hex(m.end[i])) +
           ",\"pgoff\":" + Q(Hex(m.pgoff[i])) + ",\"path\":" + Q(p.strings.Get(m.path[i])) +
           ",\"build_id\":" + Q(m.build_id[i] == kNone ? std::string() : p.strings.Get(m.build_id[i])) +
           ",\"time\":" + Num(m.time[i]) + ",\"record\":" + INum(m.record[i]) + "}";
  }
  return out + "]";
}

std::string Session::StringsJson() const {
  std::string out = "[";
  const auto& s = res_.profile.strings.all();
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ',';
    out += Q(s[i]);
  }
  return out + "]";
}

std::string Session::InfoJson() const {
  uint64_t records = 0;
  if (decoder_)
    for (size_t i = 0; i < res_.records.rows(); ++i)
      if (decoder_->IsListedRecord(res_, static_cast<int32_t>(i))) ++records;
  std::string out = "{\"format\":" + Q(res_.format);
  out += ",\"mode\":" + Q(res_.mode) + ",\"byte_order\":" + Q(res_.byte_order);
  out += ",\"size\":" + Num(res_.file_size);
  out += ",\"records\":" + Num(records) + ",\"samples\":" + Num(res_.profile.samples.Total());
  out += ",\"events\":" + EventsJson();
  out += ",\"threads\":[";
  const Profile& p = res_.profile;
  for (size_t i = 0; i < p.threads.size(); ++i) {
    if (i) out += ',';
    out += "{\"pid\":" + INum(p.threads.pid[i]) + ",\"tid\":" + INum(p.threads.tid[i]) + ",\"name\":" +
           Q(p.threads.name[i] == kNone ? std::string() : p.strings.Get(p.threads.name[i])) +
           ",\"samples\":" + Num(p.threads.samples[i]) + "}";
  }
  out += "]";
  out += ",\"time_start\":" + Num(res_.time_start) + ",\"time_end\":" + Num(res_.time_end);
  out += ",\"markers\":" + Num(res_.profile.markers.size());
  out += ",\"diagnostics\":" + DiagnosticsJson() + res_.info_extra + "}\n";
  return out;
}

std::string Session::SummaryJson() const {
  std::string out = InfoJson();
  out.pop_back();  // newline
  out.pop_back();  // }
  out += ",\"name\":" + Q(name_) + ",\"rows\":" + Num(res_.records.rows());
  out += ",\"diagnostics_suppressed\":" + Num(res_.diags.suppressed());
  out += ",\"facts\":{";
  for (size_t i = 0; i < res_.facts.size(); ++i) {
    if (i) out += ',';
    out += Q(res_.facts[i].first) + ":" + Q(res_.facts[i].second);
  }
  out += "}}";
  return out;
}

std::string Session::RecordsText() const {
  std::string out;
  if (!decoder_) return out;
  const RecordTable& t = res_.records;
  for (size_t i = 0; i < t.rows(); ++i) {
    if (!decoder_->IsListedRecord(res_, static_cast<int32_t>(i))) continue;
    out += Num(t.offset[i]) + "\t" + Num(t.size[i]) + "\t" + decoder_->RecordTypeText(res_, static_cast<int32_t>(i));
    if (static_cast<RecordKind>(t.kind[i]) == RecordKind::kNested) {
      out += "\tin:" + Num(t.offset[static_cast<size_t>(t.parent[i])]);
    }
    if (t.file[i] != 0 && t.file[i] < res_.files.size()) {
      out += "\tfile:" + res_.files[t.file[i]];
    }
    out += '\n';
  }
  return out;
}

std::string Session::StacksText(bool addresses, const std::string& event) const {
  return exporter::FoldedStacks(res_, addresses, event);
}

void Session::SetOption(std::string key, std::string value) {
  options_.emplace_back(std::move(key), std::move(value));
}

std::string Session::AccountJson() const {
  return decoder_ ? decoder_->AccountJson(res_) : std::string("[]");
}

std::string Session::IntervalsJson() const {
  const IntervalTable& t = res_.profile.intervals;
  std::string out = "[";
  for (size_t i = 0; i < t.size(); ++i) {
    if (i) out += ',';
    out += "{\"thread\":" + INum(t.thread[i]) + ",\"func\":" + INum(t.func[i]) + ",\"start\":" + Num(t.start[i]) +
           ",\"end\":" + Num(t.end[i]) + ",\"depth\":" + INum(t.depth[i]) + ",\"record\":" + INum(t.record[i]) + "}";
  }
  return out + "]";
}

std::string Session::RecordLabel(int32_t row) const {
  if (!decoder_ || row < 0 || static_cast<size_t>(row) >= res_.records.rows()) return "";
  return decoder_->RecordLabel(res_, row);
}

std::string Session::RecordFieldsJson(int32_t row) {
  if (!decoder_ || row < 0 || static_cast<size_t>(row) >= res_.records.rows()) return "[]";
  FieldList fields;
  decoder_->RecordFields(WindowFor(row), res_, row, fields);
  return FieldsToJson(fields.items());
}

int32_t Session::RecordAt(uint64_t offset) const {
  // Rows are in file order with containers before their children; the last
  // row starting at or before `offset` that covers it is the innermost.
  const RecordTable& t = res_.records;
  int32_t best = -1;
  for (size_t i = 0; i < t.rows(); ++i) {
    if (static_cast<RecordKind>(t.kind[i]) == RecordKind::kNested || t.file[i] != 0) continue;
    if (t.offset[i] <= offset && offset - t.offset[i] < t.size[i]) best = static_cast<int32_t>(i);
  }
  return best;
}

}  // namespace profscope
