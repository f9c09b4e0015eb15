#include "core/api/session.h"

#include <new>
#include <string>

#include <algorithm>
#include <cstdio>
#include <limits>

#include "core/analysis/group_rows.h"
#include "core/analysis/xray_account.h"
#include "core/api/export/folded_writer.h"
#include "core/api/script_writer.h"
#include "core/format/perf/perf_decoder.h"
#include "core/api/json_writer.h"
#include "core/api/side_file_roles.h"
#include "core/api/side_folder.h"
#include "core/api/text_writers.h"

#include "core/api/analysis_options_json.h"
#include "core/api/decoder_options.h"
#include "core/model/interval_view.h"

namespace profscope {

namespace {

std::string Q(const std::string& s) { return JsonQuote(s); }

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

void Session::AddSideFolderFile(ByteSource& src, std::string name, std::string folder) {
  // A small window: a folder may hold many files, each is only sniffed here.
  side_windows_.push_back(std::make_unique<Window>(src, 4096));
  SideFile f;
  f.name = std::move(name);
  f.folder = std::move(folder);
  f.window = side_windows_.back().get();
  f.kind = SniffSideFile(*f.window);
  side_.push_back(std::move(f));
}

void Session::NoteSideFolder(const std::string& folder, bool capped, size_t offered) {
  if (capped) found_notes_.push_back({DiagCode::kSideFileUnused, Severity::kWarning, 0, 0, SideFolderLimitNote(folder)});
  if (offered == 0)
    found_notes_.push_back({DiagCode::kSideFileUnused, Severity::kWarning, 0, 0,
                            "side folder " + folder + " holds no ELF file, kallsyms or tarball; not used"});
}

bool Session::WriteScript(OutputSink& out) {
  auto* perf = dynamic_cast<perf::PerfDecoder*>(decoder_.get());
  if (!perf) return false;
  perf::ScriptHeader header;
  std::string buf;
  bool ok = perf->ScriptSamples(
      res_, [&](int32_t row) -> Window& { return WindowFor(row); }, header, [&](const perf::ScriptSampleInfo& si) {
        const script::Fields f = script::DefaultFields(si.attr_type, si.sample_type, header.any_callchain);
        script::AppendSample(f, si, header.name_width, buf);
        if (buf.size() >= (1u << 16)) {
          out.Write(buf);
          buf.clear();
        }
      });
  if (!buf.empty()) out.Write(buf);
  out.Flush();
  return ok;
}

std::string Session::EventsText() const {
  return Collect([&](OutputSink& sink) { WriteEvents(sink); });
}

void Session::WriteEvents(OutputSink& out) const {
  const CallLog* calls = decoder_ ? decoder_->Calls() : nullptr;
  if (calls) WriteEventsText(*calls, out);
}

std::string Session::TimelineJson() const {
  return CodeEventsJson(decoder_ ? decoder_->CodeEvents(res_) : std::vector<CodeEvent>());
}

Window& Session::WindowFor(int32_t row) {
  uint8_t f = res_.records.file[static_cast<size_t>(row)];
  if (f == 0 || f > extra_.size()) return window_;
  return *extra_[f - 1];
}

namespace {

// See Session::TimeOrigin; *zero = the smallest non-zero time (UINT64_MAX when none).
uint64_t TimeOriginOf(const Profile& p, uint64_t* zero) {
  uint64_t lo = UINT64_MAX, hi = 0;
  auto scan = [&](const std::vector<uint64_t>& v) {
    for (uint64_t t : v)
      if (t != 0) { lo = std::min(lo, t); hi = std::max(hi, t); }
  };
  scan(p.samples.time);
  scan(p.intervals.start);  // the intervals kept; those read from the samples start at their times
  scan(p.intervals.end);
  const IntervalView iv(p);
  const size_t from = std::min(p.intervals.from_samples, p.samples.size());
  size_t i = 0;
  iv.ForEachSpan([&](uint64_t, uint64_t t) {  // (the ends of those read from the samples)
    if (i++ < from && t != 0) { lo = std::min(lo, t); hi = std::max(hi, t); }
  });
  scan(p.markers.time);
  *zero = lo;
  return hi >= (uint64_t{1} << 53) ? lo - 1 : 0;
}

}  // namespace

bool Session::Decode(const ProgressFn& progress) {
  DecodeStart(progress, nullptr);
  return decode_ok_;
}

void Session::FindDebugFiles() {
  if (debug_searched_ || !files_) return;
  debug_searched_ = true;
  const size_t given = side_.size();
  for (size_t i = 0; i < given; ++i) {
    // A folder's files: the folder is where their debug files are (a build-id cache, /usr/lib/debug).
    if (side_[i].kind != "elf" || !side_[i].folder.empty()) continue;
    symbols::DebugFileFound f = symbols::FindDebugFile(side_[i].name, side_[i].window->source(), *files_);
    for (const std::string& r : f.rejected)
      found_notes_.push_back({DiagCode::kSideFileMismatch, Severity::kWarning, 0, 0, r});
    if (f.path.empty()) continue;
    bool given_already = false;
    for (const SideFile& s : side_) given_already = given_already || s.name == f.path;
    if (given_already) continue;
    found_notes_.push_back({DiagCode::kDebugFileFound, Severity::kInfo, 0, 0,
                            "debug file of " + side_[i].name + " found at " + f.path + " (perf's " + f.kind + " place)"});
    found_sources_.push_back(std::move(f.source));
    AddSideFile(*found_sources_.back(), f.path);
  }
  // perf reads [vdso] frames from its own process's vdso copy: where the host
  // has one and the person gave binaries, it serves a [vdso] of the same
  // build-id (the same kernel), silently.
  if (given > 0) {
    if (std::unique_ptr<ByteSource> vdso = files_->RunningVdso()) {
      found_sources_.push_back(std::move(vdso));
      AddSideFile(*found_sources_.back(), "[vdso]");
      side_.back().implicit = true;
    }
  }
}

bool Session::BeginDecode(PauseFn pause, uint64_t pause_every) {
  FindDebugFiles();
  res_ = DecodeResult();
  for (const Diagnostic& d : found_notes_) res_.diags.Add(d.code, d.severity, d.offset, d.length, d.message);
  res_.budget.set_limit_mib(max_memory_mib_);
  res_.file_size = src_.size();
  res_.files.push_back(name_);
  for (const auto& n : extra_names_) res_.files.push_back(n);
  res_.file_sizes.push_back(src_.size());
  for (const auto& w : extra_) res_.file_sizes.push_back(w->size());
  decoder_ = DetectFormat(window_);
  decoded_ = true;
  if (!decoder_) {
    res_.format = "unknown";
    res_.diags.Fatal(DiagCode::kUnknownFormat, 0, std::min<uint64_t>(src_.size(), 8),
                     src_.size() == 0 ? "the file is empty"
                                      : "not a file profscope can read: the formats tried (core/format/detect.cc) "
                                        "all refuse its first bytes: Linux perf.data and Android simpleperf "
                                        "(\"PERFILE2\" or a pipe header), LLVM XRay FDR/basic log (its "
                                        "file header), gperftools CPU profile (header words 0, 3, 0), "
                                        "jit dump (\"JiTD\")");
    return false;
  }
  for (const auto& [k, v] : options_)
    if (!decoder_->SetOption(k, v))
      res_.diags.Warning(DiagCode::kBadHeader, 0, 0, "option " + k + " is not known to the " + std::string("decoder of this format") + "; ignored");
  decoder_->PrepareSideFiles(side_);
  decoder_->SetPause(std::move(pause), pause_every);
  return true;
}

Session::DecodeState Session::DecodeStart(const ProgressFn& progress, PauseFn pause, uint64_t pause_every) {
  progress_ = progress;
  decode_ok_ = true;
  data_read_ = false;
  try {
    spare_.reset(new char[kSpareBytes]);
  } catch (const std::bad_alloc&) {
  }
  if (!BeginDecode(std::move(pause), pause_every)) {
    decode_ok_ = false;
    Conclude();
    return DecodeState::kDone;
  }
  return Step([this] { return decoder_->Decode(window_, res_, progress_); });
}

Session::DecodeState Session::DecodeResume() {
  if (!decoder_ || !decoder_->Paused()) return DecodeState::kDone;
  return Step([this] { return decoder_->Resume(window_, res_, progress_); });
}

void Session::DecodeStop() {
  if (!decoder_ || !decoder_->Paused()) return;
  try {
    decoder_->Stop(window_, res_);  // the rest is not read (nor the data files after the main file)
    UseSideFiles();
  } catch (const std::bad_alloc&) {
    NoteOutOfMemory();
  }
  Conclude();
}

Session::DecodeState Session::Step(const std::function<bool()>& step) {
  // An allocation that fails anyway (a budget counts rows, not every byte)
  // ends the decode with a diagnostic; what was decoded stays.
  try {
    decode_ok_ = step() && decode_ok_;
    if (decoder_->Paused() || ReadDataFiles()) return DecodeState::kPaused;
    UseSideFiles();
  } catch (const std::bad_alloc&) {
    NoteOutOfMemory();
  }
  Conclude();
  return DecodeState::kDone;
}

bool Session::ReadDataFiles() {
  if (!decode_ok_ || data_read_ || extra_.empty()) return false;
  data_read_ = true;
  std::vector<Window*> files;
  for (size_t i = 0; i < extra_.size() && i < 254; ++i) files.push_back(extra_[i].get());
  if (extra_.size() > 254)
    res_.diags.Warning(DiagCode::kLimitExceeded, 0, 0,
                       Dec(extra_.size() - 254) + " data files after the first 254 (from " + extra_names_[254] +
                           ") are not read: a recording's rows name their file in one byte");
  if (!decoder_->DecodeDataFiles(files, res_, progress_)) {
    for (const std::string& name : extra_names_)
      res_.diags.Warning(DiagCode::kBadHeader, 0, 0, "extra file " + name + " was given, but this format has no separate data files; ignored");
    return false;
  }
  return decoder_->Paused();
}

void Session::UseSideFiles() {
  if (decode_ok_ && !side_.empty()) decoder_->UseSideFiles(side_, res_);
}

void Session::NoteOutOfMemory() {
  spare_.reset();
  res_.profile.samples.TrimToShortest();  // (a sample whose columns were being added when it failed)
  // Where it stopped: the last record read, or the file record holding it
  // (a nested record's offset is within a decompressed stream).
  const RecordTable& rt = res_.records;
  int32_t row = static_cast<int32_t>(rt.rows()) - 1;
  for (int guard = 0; row >= 0 && rt.parent[static_cast<size_t>(row)] >= 0 && guard < 64; ++guard)
    row = rt.parent[static_cast<size_t>(row)];
  const uint64_t at = row >= 0 ? rt.offset[static_cast<size_t>(row)] : 0;
  const uint64_t len = row >= 0 ? rt.size[static_cast<size_t>(row)] : 0;
  res_.diags.Error(DiagCode::kOutOfMemory, at, len,
                   "out of memory while decoding the record at byte offset " + std::to_string(at) + " (" +
                       std::to_string(rt.rows()) + " records read); decoding stopped, everything before it is shown");
}

// A record's fields read after the file was cut or changed (opened in the record tree after the decode, or
// past where the decode found the file ended): when the record's bytes (a nested record: its container's)
// reach past the lowest offset where a read of the file came back short (in the decode or since), they read
// as zeros from there, and the first field says so. (A file rewritten at the same size reads short nowhere.)
void Session::NoteRecordCut(const Window& w, int32_t row, FieldList& fields) const {
  const uint64_t at = w.ended_at();
  if (at == Window::kNotEnded) return;
  const RecordTable& rt = res_.records;
  size_t r = static_cast<size_t>(row);
  for (int guard = 0; guard < 64 && rt.kind[r] == static_cast<uint8_t>(RecordKind::kNested) && rt.parent[r] >= 0; ++guard)
    r = static_cast<size_t>(rt.parent[r]);
  if (rt.kind[r] == static_cast<uint8_t>(RecordKind::kNested) || rt.offset[r] + rt.size[r] <= at) return;
  Field note{"file changed", at, 0,
             Q("reading the file found it ending at byte offset " + Dec(at) + ", though it had " + Dec(w.size()) +
               " bytes when it was opened (cut or changed since, or a read failed): these fields read zeros from there"),
             {}};
  fields.items().insert(fields.items().begin(), std::move(note));
}

void Session::NoteFileChanged(const Window& w, const std::string& name, bool main_file) {
  const uint64_t at = w.ended_at();
  if (at == Window::kNotEnded) return;
  // (a diagnostic's offset is in the main file's bytes: another file's is only said)
  res_.diags.Error(DiagCode::kFileChanged, main_file ? at : 0, main_file && w.size() > at ? w.size() - at : 0,
                   EndedWhileRead(name.empty() ? std::string("the file") : name, at, w.size()) +
                       ": what follows was read as zeros; what was decoded before it is shown");
}

void Session::Conclude() {
  if (decoder_) {
    try {
      decoder_->Finish(res_);
    } catch (const std::bad_alloc&) {
      res_.diags.Error(DiagCode::kOutOfMemory, 0, 0, "out of memory while finishing the decode; some names or stacks may be missing");
    }
  }
  spare_.reset();
  NoteFileChanged(window_, name_, true);
  for (size_t i = 0; i < extra_.size() && i < extra_names_.size(); ++i) NoteFileChanged(*extra_[i], extra_names_[i], false);
  for (const SideFile& f : side_)
    if (f.window) NoteFileChanged(*f.window, f.name, false);
  // (the bytes read ahead go back: what is read from now on, a record opened later, reads the file as it is)
  window_.Forget();
  for (auto& w : extra_) w->Forget();
  decode_ok_ = decode_ok_ && !res_.diags.has_fatal();
  analyzer_.reset();  // the tables are new
  kept_nodes_ = {};
  flame_rows_.reset();
  calls_.reset();
  calls_nest_ = false;
  uint64_t zero = UINT64_MAX;
  time_origin_ = TimeOriginOf(res_.profile, &zero);
  time_zero_ = zero == UINT64_MAX ? 0 : zero;
}

std::string Session::DiagnosticsJson() const {
  std::string out = "[";
  bool first = true;
  for (const auto& d : res_.diags.items()) {
    if (!first) out += ',';
    first = false;
    out += "{\"code\":" + Q(DiagCodeName(d.code)) + ",\"severity\":" + Q(SeverityName(d.severity)) +
           ",\"offset\":" + Dec(d.offset) + ",\"length\":" + Dec(d.length) + ",\"message\":" + Q(d.message);
    // A repeated diagnostic: how often, and where it last occurred.
    if (d.count > 1) out += ",\"count\":" + Dec(d.count) + ",\"last_offset\":" + Dec(d.last_offset);
    out += "}";
  }
  out += "]";
  return out;
}

namespace {
// An interval in ns with 3 decimals (byte-identical natively and in WASM).
std::string IntervalText(double ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", ns);
  return buf;
}
}  // namespace

std::string Session::EventsJson() const {
  const Profile& p = res_.profile;
  std::string out = "[";
  for (size_t i = 0; i < p.events.size(); ++i) {
    if (i) out += ',';
    out += "{\"name\":" + Q(p.strings.Get(p.events.name[i])) + ",\"samples\":" + Dec(p.events.samples[i]);
    const IntervalSource from = i < p.events.interval_from.size() ? p.events.interval_from[i] : IntervalSource::kUnknown;
    if (from != IntervalSource::kUnknown && i < p.events.interval_ns.size() && p.events.interval_ns[i] > 0)
      out += ",\"interval_ns\":" + IntervalText(p.events.interval_ns[i]) + ",\"interval_from\":" +
             (from == IntervalSource::kPeriod ? "\"period\"" : "\"frequency\"");
    out += "}";
  }
  return out + "]";
}

SampleLanes Session::Lanes(bool by_cpu) const {
  const SampleTable& t = res_.profile.samples;
  const auto n_threads = static_cast<int32_t>(res_.profile.threads.size());
  if (!by_cpu) {
    // (samples that are the calls, an XRay log's: their lanes from their nesting, without a sort, else
    // merged from the flame chart's rows, which are in start order already)
    if (t.size() > 0 && Calls().from_samples() == t.size()) {
      bool nested = false;
      SampleLanes lanes = LanesOfNestedCalls(Calls(), t.size(), n_threads, time_origin_, &nested);
      calls_nest_ = nested;
      if (nested) return lanes;
      return LanesOfCalls(Calls(), FlameRows(), t.size(), n_threads, time_origin_);
    }
    return OrderLanes(t.thread, n_threads, t.time, time_origin_);
  }
  int32_t most = -1;
  t.cpu.ForEach([&](int32_t c) { most = std::max(most, c); });
  if (most < 0 || most >= 65536) return {};
  return OrderLanes(t.cpu, most + 1, t.time, time_origin_);
}

int32_t Session::SampleLane(int64_t sample) const {
  const SampleTable& t = res_.profile.samples;
  if (sample < 0 || static_cast<uint64_t>(sample) >= t.size()) return -1;
  const size_t n = res_.profile.threads.size();
  const size_t lane = LaneOfKey(t.thread[static_cast<size_t>(sample)], n);
  return lane == n ? -1 : static_cast<int32_t>(lane);
}

const IntervalView& Session::Calls() const {
  if (!calls_) calls_ = std::make_unique<IntervalView>(res_.profile);
  return *calls_;
}

const IntervalRows& Session::FlameRows() const {
  if (!flame_rows_) {
    // (calls that are the samples, an XRay log's, whose lanes were not made (the page's: CallLanes): whether
    // they nest is one pass over them in order, and spares OrderIntervalRows reading every row's starts again)
    const size_t n = res_.profile.samples.size();
    if (!calls_nest_ && n > 0 && Calls().from_samples() == n)
      calls_nest_ = CallsNest(Calls(), n, static_cast<int32_t>(res_.profile.threads.size()), time_origin_);
    flame_rows_ = std::make_unique<IntervalRows>(OrderIntervalRows(Calls(), time_origin_, calls_nest_ ? Calls().from_samples() : 0));
  }
  return *flame_rows_;
}

IntervalBoxes Session::FlameBoxes(const std::vector<int32_t>& which, double scale, double t0, double t1, int32_t cols) const {
  return BoxIntervals(Calls(), FlameRows(), which, time_origin_, scale, t0, t1, cols);
}

bool Session::CallsAreSamples() const {
  const size_t n = res_.profile.samples.size();
  return n > 0 && Calls().from_samples() == n;
}

CallLaneSummary Session::CallLanes(double scale) const {
  if (!CallsAreSamples()) return {};
  return SummarizeCallLanes(Calls(), FlameRows(), res_.profile.samples, res_.profile.threads.size(), time_origin_, scale);
}

std::vector<float> Session::LaneCallActivity(const std::vector<int32_t>& lanes, double scale, double t0, double t1,
                                             int32_t cols) const {
  const auto n_cols = static_cast<size_t>(std::max(cols, 1));
  if (!CallsAreSamples()) return std::vector<float>(CallActivitySize(lanes.size(), n_cols), 0);
  return CallActivity(Calls(), FlameRows(), res_.profile.samples, res_.profile.threads.size(), time_origin_, lanes, scale,
                      t0, t1, n_cols);
}

std::pair<double, double> Session::IntervalSpan() const {
  const IntervalView& v = Calls();
  if (!v.size()) return {0, 0};
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  v.ForEachSpan([&](uint64_t start, uint64_t end) {
    lo = std::min(lo, RelativeTime(start));
    hi = std::max(hi, RelativeTime(end));
  });
  return {lo, hi};
}

std::vector<double> Session::EventTotals() const { return profscope::EventTotals(res_.profile.samples, res_.profile.events.size()); }

std::vector<std::pair<int32_t, uint32_t>> Session::CpuRows() const { return profscope::CpuRows(res_.profile.samples.cpu); }

std::string Session::ThreadsJson() const {
  const Profile& p = res_.profile;
  const ThreadTable& t = p.threads;
  // Each thread's names in the order they came, grouped once (not a scan of all names per thread: a file
  // of a million COMM records, each naming a new thread, would make that quadratic). A name of no thread
  // row goes to the last group, which is not shown.
  const std::vector<int32_t>& named = p.thread_names.thread;
  std::vector<int32_t> by_thread, from;
  GroupRows(named.size(), t.size(), [&](size_t k) {
    const int32_t th = named[k];
    return th >= 0 && static_cast<size_t>(th) < t.size() ? static_cast<size_t>(th) : t.size();
  }, by_thread, from);
  std::string out = "[";
  for (size_t i = 0; i < t.size(); ++i) {
    if (i) out += ',';
    out += "{\"tid\":" + DecI(t.tid[i]) + ",\"pid\":" + DecI(t.pid[i]) + ",\"name\":" +
           Q(t.name[i] == kNone ? std::string() : p.strings.Get(t.name[i])) + ",\"samples\":" + Dec(t.samples[i]);
    out += ",\"start\":" + Dec(t.start[i]) + ",\"end\":" + Dec(t.end[i]) + ",\"names\":[";
    for (int32_t j = from[i]; j < from[i + 1]; ++j) {
      const auto k = static_cast<size_t>(by_thread[static_cast<size_t>(j)]);
      if (j != from[i]) out += ',';
      out += "{\"time\":" + Dec(p.thread_names.time[k]) + ",\"name\":" + Q(p.strings.Get(p.thread_names.name[k])) + "}";
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
    out += "{\"pid\":" + DecI(m.pid[i]) + ",\"start\":" + Q(Hex(m.start[i])) + ",\"end\":" + Q(Hex(m.end[i])) +
           ",\"pgoff\":" + Q(Hex(m.pgoff[i])) + ",\"path\":" + Q(p.strings.Get(m.path[i])) +
           ",\"build_id\":" + Q(m.build_id[i] == kNone ? std::string() : p.strings.Get(m.build_id[i])) +
           ",\"time\":" + Dec(m.time[i]) + ",\"record\":" + DecI(m.record[i]) + "}";
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
  out += ",\"size\":" + Dec(res_.file_size);
  out += ",\"records\":" + Dec(records) + ",\"samples\":" + Dec(res_.profile.samples.Total());
  out += ",\"events\":" + EventsJson();
  out += ",\"threads\":[";
  const Profile& p = res_.profile;
  for (size_t i = 0; i < p.threads.size(); ++i) {
    if (i) out += ',';
    out += "{\"pid\":" + DecI(p.threads.pid[i]) + ",\"tid\":" + DecI(p.threads.tid[i]) + ",\"name\":" +
           Q(p.threads.name[i] == kNone ? std::string() : p.strings.Get(p.threads.name[i])) +
           ",\"samples\":" + Dec(p.threads.samples[i]) + "}";
  }
  out += "]";
  out += ",\"time_start\":" + Dec(res_.time_start) + ",\"time_end\":" + Dec(res_.time_end);
  out += ",\"markers\":" + Dec(res_.profile.markers.size());
  out += ",\"diagnostics\":" + DiagnosticsJson();
  if (res_.missing.computed) out += ",\"missing\":" + MissingJson();
  AppendInfoMembers(out, res_.info);
  out += "}\n";
  return out;
}

std::string Session::MissingJson() const {
  const MissingReport& r = res_.missing;
  if (!r.computed) return "null";
  std::string out = "{\"mappings\":[";
  for (size_t i = 0; i < r.mappings.size(); ++i) {
    const MissingMapping& m = r.mappings[i];
    if (i) out += ',';
    out += "{\"path\":" + Q(m.path) + ",\"build_id\":" + Q(m.build_id) + ",\"dso\":" + Q(m.dso) +
           ",\"samples\":" + Dec(m.samples) + ",\"frames\":" + Dec(m.frames) + ",\"unwind_cut\":" + Dec(m.unwind_cut) +
           ",\"drop\":" + Q(m.drop) + "}";
  }
  out += "],\"stack_copy\":";
  if (r.stack_short_samples == 0) return out + "null}";
  return out + "{\"samples\":" + Dec(r.stack_short_samples) + ",\"copy_bytes\":" + Dec(r.stack_copy_bytes) +
         ",\"needed_bytes\":" + Dec(r.stack_needed_bytes) + ",\"fix\":" + Q(r.stack_fix) + "}}";
}

std::string Session::SummaryJson() const {
  std::string out = InfoJson();
  out.pop_back();  // newline
  out.pop_back();  // }
  out += ",\"name\":" + Q(name_) + ",\"rows\":" + Dec(res_.records.rows());
  out += ",\"diagnostics_suppressed\":" + Dec(res_.diags.suppressed());
  out += std::string(",\"samples_are_calls\":") + (res_.samples_are_calls ? "true" : "false");
  out += ",\"facts\":{";
  for (size_t i = 0; i < res_.facts.size(); ++i) {
    if (i) out += ',';
    out += Q(res_.facts[i].first) + ":" + Q(res_.facts[i].second);
  }
  out += "}}";
  return out;
}

std::string Session::RecordsText() const {
  return Collect([&](OutputSink& sink) { WriteRecords(sink); });
}

void Session::WriteRecords(OutputSink& out) const {
  if (decoder_) WriteRecordsText(res_, *decoder_, out);
}

std::string Session::StacksText(bool addresses, const std::string& event, bool weighted) const {
  return exporter::FoldedStacks(res_, addresses, event, weighted);
}

void Session::WriteStacks(bool addresses, const std::string& event, OutputSink& out, bool weighted) const {
  exporter::WriteFoldedStacks(res_, addresses, event, out, weighted);
}

void Session::SetOption(std::string key, std::string value) {
  options_.emplace_back(std::move(key), std::move(value));
}

std::string Session::SideFilesJson() const {
  std::vector<SideFileRole> roles;
  for (const SideFile& f : side_) {
    if (f.implicit) continue;
    if (!f.folder.empty()) {
      // One entry per folder: "symbols" unless it was reported as unused.
      bool listed = false;
      for (const SideFileRole& r : roles) listed = listed || (r.kind == "folder" && r.name == f.folder);
      if (!listed) roles.push_back({f.folder, "folder", SideFileRoleOf(f.folder, "folder", res_.format, res_.diags.items())});
      continue;
    }
    roles.push_back({f.name, f.kind, SideFileRoleOf(f.name, f.kind, res_.format, res_.diags.items())});
  }
  return SideFileRolesJson(roles);
}

std::string Session::AccountJson() const {
  const CallLog* calls = decoder_ ? decoder_->Calls() : nullptr;
  return profscope::AccountJson(calls ? XRayAccount(*calls) : std::vector<AccountRow>());
}

std::string Session::RecordLabel(int32_t row) const {
  if (!decoder_ || row < 0 || static_cast<size_t>(row) >= res_.records.rows()) return "";
  return decoder_->RecordLabel(res_, row);
}

std::string Session::RecordFieldsJson(int32_t row) {
  if (!decoder_ || row < 0 || static_cast<size_t>(row) >= res_.records.rows()) return "[]";
  FieldList fields;
  Window& w = WindowFor(row);
  decoder_->RecordFields(w, res_, row, fields);
  NoteRecordCut(w, row, fields);
  return FieldsToJson(fields.items());
}

std::vector<uint8_t> Session::ContainerBytes(int32_t row) {
  std::vector<uint8_t> out;
  if (!decoder_ || row < 0 || static_cast<size_t>(row) >= res_.records.rows()) return out;
  decoder_->ContainerBytes(WindowFor(row), res_, row, out);
  return out;
}

std::string Session::RecordTypeName(int32_t row) const {
  if (!decoder_ || row < 0 || static_cast<size_t>(row) >= res_.records.rows()) return "";
  return decoder_->TypeName(res_, row);
}

profscope::RecordCategory Session::RecordCategory(int32_t row) const {
  if (row < 0 || static_cast<size_t>(row) >= res_.records.rows()) return profscope::RecordCategory::kUnparsed;
  return static_cast<profscope::RecordCategory>(res_.records.category[static_cast<size_t>(row)]);
}

std::string Session::DecoderOptionsJson() const {
  const DecoderOptionSet* set = FindDecoderOptions(res_.format);
  if (!set) return "{}";
  std::string out = "{\"title\":" + Q(set->title) + ",\"options\":[";
  for (size_t i = 0; i < set->options.size(); ++i) {
    const DecoderOptionSpec& o = set->options[i];
    std::string value = "0";
    for (const auto& [k, v] : options_)
      if (k == o.key) value = v;  // the last one set
    if (i) out += ',';
    out += "{\"key\":" + Q(o.key) + ",\"label\":" + Q(o.label) + ",\"help\":" + Q(o.help) + ",\"value\":" + Q(value) + "}";
  }
  return out + "]}";
}

double Session::NanosPerTimeUnit() const {
  return res_.clock_hz ? 1e9 / static_cast<double>(res_.clock_hz) : 1.0;
}

CallTreeBuilder& Session::Analyzer() {
  if (!analyzer_) {
    analyzer_ = std::make_unique<CallTreeBuilder>(res_.profile);
    analyzer_->set_weights_inclusive(res_.samples_are_calls);  // a call's duration includes its callees'
  }
  return *analyzer_;
}

bool Session::ParseAnalysisOptions(std::string_view json, AnalysisOptions* out, std::string* error) const {
  return profscope::ParseAnalysisOptions(json, time_origin_, out, error);
}

CallTree Session::Analyze(const AnalysisOptions& options) { return Analyzer().Build(options); }

CallTree Session::AnalyzeKeeping(const AnalysisOptions& options) {
  CallTree t = Analyze(options);
  if (t.error.empty()) {
    SampleNodes kept(t, res_.profile.samples, res_.profile.stacks.frame.size());
    kept_nodes_ = std::move(kept);
  }
  std::vector<int32_t>().swap(t.sample_node);
  return t;
}

std::vector<int32_t> Session::AnalysisCanon() {
  CallTreeBuilder& b = Analyzer();
  std::vector<int32_t> c(res_.profile.funcs.name.size());
  for (size_t i = 0; i < c.size(); ++i) c[i] = b.Canon(static_cast<int32_t>(i));
  return c;
}

const std::vector<int32_t>& Session::AnalysisNameIds() { return Analyzer().name_ids(); }

std::string Session::AnalysisName(int32_t canon) {
  const auto& names = Analyzer().names();
  return canon >= 0 && static_cast<size_t>(canon) < names.size() ? names[static_cast<size_t>(canon)] : std::string();
}

std::string Session::AnalysisLibrary(int32_t canon) { return Analyzer().Library(canon); }

}  // namespace profscope
