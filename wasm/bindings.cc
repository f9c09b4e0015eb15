// embind bindings: the JS face of core/api/session.h (see profscope.d.ts).
// Every array getter returns a fresh JS typed array (a copy), never a view
// into the WASM heap, so the worker can transfer it and heap growth cannot
// detach it.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"
#include "core/api/compare.h"
#include "core/api/export/exporter.h"
#include "core/api/session.h"

using emscripten::val;

namespace {

// Pulls byte ranges from JS: read(offset, length) -> Uint8Array (in the
// worker: FileReaderSync over Blob.slice; in node: fs.readSync).
class JsSource : public profscope::ByteSource {
 public:
  JsSource(val read, double size) : read_(std::move(read)), size_(static_cast<uint64_t>(size)) {}
  uint64_t size() const override { return size_; }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    val chunk = read_(static_cast<double>(offset), static_cast<double>(len));
    size_t n = chunk["length"].as<size_t>();
    if (n > len) n = len;
    val view(emscripten::typed_memory_view(n, dst));
    view.call<void>("set", chunk.call<val>("subarray", 0, static_cast<double>(n)));
    return n;
  }

 private:
  val read_;
  uint64_t size_;
};

template <typename T>
val Copy(const char* ctor, const std::vector<T>& v) {
  return val::global(ctor).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

val CopyU64AsF64(const std::vector<uint64_t>& v) {
  std::vector<double> d(v.begin(), v.end());
  return Copy("Float64Array", d);
}

// Times relative to `origin` (0 stays 0 = "no time"): XRay TSC values near
// 2^61 would lose their low bits as doubles, so time getters subtract an origin
// first (see timeOrigin()).
val CopyTimes(const std::vector<uint64_t>& v, uint64_t origin) {
  std::vector<double> d(v.size());
  for (size_t i = 0; i < v.size(); ++i) d[i] = v[i] == 0 ? 0.0 : static_cast<double>(v[i] - origin);
  return Copy("Float64Array", d);
}

std::vector<int32_t> IntArray(const val& v) {
  std::vector<int32_t> out;
  if (v.isUndefined() || v.isNull()) return out;
  const size_t n = v["length"].as<size_t>();
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(v[i].as<int32_t>());
  return out;
}

bool Has(const val& obj, const char* key) {
  if (obj.isUndefined() || obj.isNull()) return false;
  val v = obj[key];
  return !v.isUndefined() && !v.isNull();
}

std::string JsonQuote(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += static_cast<char>(c); }
    else if (c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); o += b; }
    else o += static_cast<char>(c);
  }
  return o + "\"";
}

class JsSession {
 public:
  JsSession(val read, double size, std::string name)
      : src_(std::move(read), size), session_(src_, std::move(name)) {}

  // perf record --threads: the data.N files of the directory, in order, before decode().
  void addDataFile(val read, double size, std::string name) {
    extra_.push_back(std::make_unique<JsSource>(std::move(read), size));
    session_.AddDataFile(*extra_.back(), std::move(name));
  }

  // A program binary, jit dump or XRay instrumentation map, before decode().
  void addSideFile(val read, double size, std::string name) {
    extra_.push_back(std::make_unique<JsSource>(std::move(read), size));
    session_.AddSideFile(*extra_.back(), std::move(name));
  }

  bool decode(val progress) {
    profscope::ProgressFn fn;
    if (!progress.isUndefined() && !progress.isNull()) {
      fn = [progress](uint64_t done, uint64_t total) {
        progress(static_cast<double>(done), static_cast<double>(total));
      };
    }
    origin_ready_ = false;  // the tables are (re)made by this decode
    return session_.Decode(fn);
  }
  std::string infoJson() const { return session_.InfoJson(); }
  std::string recordsText() const { return session_.RecordsText(); }
  std::string stacksText(bool addresses, std::string event) const { return session_.StacksText(addresses, event); }
  std::string eventsText() const { return session_.EventsText(); }
  std::string timelineJson() const { return session_.TimelineJson(); }
  std::string diagnosticsJson() const { return session_.DiagnosticsJson(); }
  std::string summaryJson() const { return session_.SummaryJson(); }
  std::string threadsJson() const { return session_.ThreadsJson(); }
  std::string mappingsJson() const { return session_.MappingsJson(); }
  std::string eventsJson() const { return session_.EventsJson(); }
  std::string stringsJson() const { return session_.StringsJson(); }
  // XRay: `llvm-xray account` rows; intervals (enter/exit pairs) for the flame chart.
  std::string accountJson() const { return session_.AccountJson(); }
  std::string intervalsJson() const { return session_.IntervalsJson(); }
  // Decoder options before decode() (gperftools: pc_minus_one, drop_duplicate_leaf, strip_signal_frames).
  void setOption(std::string key, std::string value) { session_.SetOption(std::move(key), std::move(value)); }
  // profscope export (core/api/export/exporter.h): {bytes: Uint8Array, error: string}.
  val exportFile(std::string format, std::string weight, std::string event) const {
    profscope::exporter::Output r = profscope::exporter::ExportByName(session_.result(), format, weight, event);
    val o = val::object();
    o.set("bytes", val::global("Uint8Array").new_(
                       emscripten::typed_memory_view(r.bytes.size(), reinterpret_cast<const uint8_t*>(r.bytes.data()))));
    o.set("error", r.error);
    return o;
  }
  // profscope diff THIS OTHER: {text: "STACK COUNT_A COUNT_B" lines, error: string}.
  val diffText(const JsSession& other, std::string event, bool normalize) const {
    profscope::DiffText d = profscope::DiffCommand(session_.result(), other.session_.result(), event, normalize);
    val o = val::object();
    o.set("text", d.text);
    o.set("error", d.error);
    return o;
  }

  double recordCount() const { return static_cast<double>(rt().rows()); }
  val recordOffsets() const { return CopyU64AsF64(rt().offset); }
  val recordSizes() const { return CopyU64AsF64(rt().size); }
  val recordTypes() const { return Copy("Uint32Array", rt().type); }
  val recordKinds() const { return Copy("Uint8Array", rt().kind); }
  val recordParents() const { return Copy("Int32Array", rt().parent); }
  val recordFiles() const { return Copy("Uint8Array", rt().file); }
  std::string recordLabel(int row) const { return session_.RecordLabel(row); }
  std::string recordFieldsJson(int row) { return session_.RecordFieldsJson(row); }
  int recordAt(double offset) const { return session_.RecordAt(static_cast<uint64_t>(offset)); }

  val funcNames() const { return Copy("Int32Array", p().funcs.name); }
  val funcMappings() const { return Copy("Int32Array", p().funcs.mapping); }
  val frameAddresses() const { return CopyU64AsF64(p().frames.address); }
  val frameFuncs() const { return Copy("Int32Array", p().frames.func); }
  val frameMappings() const { return Copy("Int32Array", p().frames.mapping); }
  val stackFrames() const { return Copy("Int32Array", p().stacks.frame); }
  val stackPrefixes() const { return Copy("Int32Array", p().stacks.prefix); }
  // Every time getter returns times minus timeOrigin() (decimal text; "0" unless times exceed 2^53).
  std::string timeOrigin() const { return std::to_string(Origin()); }
  val sampleTimes() const { return CopyTimes(p().samples.time, Origin()); }
  val sampleThreads() const { return Copy("Int32Array", p().samples.thread); }
  val sampleCpus() const { return Copy("Int32Array", p().samples.cpu); }
  val sampleEvents() const { return Copy("Int32Array", p().samples.event); }
  val sampleWeights() const { return Copy("Float64Array", p().samples.weight); }
  val sampleStacks() const { return Copy("Int32Array", p().samples.stack); }
  // samples per row (gperftools counts); empty when every row is one sample
  val sampleCounts() const { return Copy("Uint32Array", p().samples.count); }
  val sampleRecords() const { return Copy("Int32Array", p().samples.record); }
  val intervalThreads() const { return Copy("Int32Array", p().intervals.thread); }
  val intervalFuncs() const { return Copy("Int32Array", p().intervals.func); }
  val intervalStarts() const { return CopyTimes(p().intervals.start, Origin()); }
  val intervalEnds() const { return CopyTimes(p().intervals.end, Origin()); }
  val intervalDepths() const { return Copy("Int32Array", p().intervals.depth); }
  val intervalRecords() const { return Copy("Int32Array", p().intervals.record); }
  // ---- aggregation in the core (core/analysis/call_tree.h) ----
  // opts: {filter:{event, threads:[], cpus:[], t0, t1}, transforms:[{type, func, path, lib}], invert,
  //        sandwich:{mode:'callers'|'callees', func}}; t0/t1 in the units of sampleTimes() (before any page scaling).
  val analyze(val opts) {
    profscope::AnalysisOptions o;
    val f = Has(opts, "filter") ? opts["filter"] : val::object();
    if (Has(f, "event")) o.event = f["event"].as<int32_t>();
    if (Has(f, "threads")) o.threads = IntArray(f["threads"]);
    if (Has(f, "cpus")) o.cpus = IntArray(f["cpus"]);
    const uint64_t origin = Origin();
    if (Has(f, "t0")) {
      double t = std::ceil(f["t0"].as<double>());
      o.has_t0 = true;
      o.t0 = origin + (t > 0 ? static_cast<uint64_t>(t) : 0);
    }
    if (Has(f, "t1")) {
      double t = std::floor(f["t1"].as<double>());
      o.has_t1 = true;
      o.t1 = t >= 0 ? origin + static_cast<uint64_t>(t) : origin > 0 ? origin - 1 : 0;
    }
    if (Has(opts, "transforms")) {
      val ts = opts["transforms"];
      const size_t n = ts["length"].as<size_t>();
      for (size_t i = 0; i < n; ++i) {
        val t = ts[i];
        std::string type = Has(t, "type") ? t["type"].as<std::string>() : "";
        profscope::AnalysisTransform x;
        if (type == "focus-subtree") x.type = profscope::AnalysisTransform::kFocusSubtree;
        else if (type == "focus-function") x.type = profscope::AnalysisTransform::kFocusFunction;
        else if (type == "merge-function") x.type = profscope::AnalysisTransform::kMergeFunction;
        else if (type == "drop-function") x.type = profscope::AnalysisTransform::kDropFunction;
        else if (type == "collapse-recursion") x.type = profscope::AnalysisTransform::kCollapseRecursion;
        else if (type == "collapse-library") x.type = profscope::AnalysisTransform::kCollapseLibrary;
        else continue;
        if (Has(t, "func")) x.func = t["func"].as<int32_t>();
        if (Has(t, "path")) x.path = IntArray(t["path"]);
        if (Has(t, "lib")) x.lib = t["lib"].as<std::string>();
        o.transforms.push_back(std::move(x));
      }
    }
    o.invert = Has(opts, "invert") && opts["invert"].as<bool>();
    if (Has(opts, "sandwich")) {
      val sw = opts["sandwich"];
      std::string mode = Has(sw, "mode") ? sw["mode"].as<std::string>() : "";
      o.sandwich = mode == "callers" ? profscope::AnalysisOptions::kCallers
                   : mode == "callees" ? profscope::AnalysisOptions::kCallees
                                       : profscope::AnalysisOptions::kNoSandwich;
      o.sandwich_func = Has(sw, "func") ? sw["func"].as<int32_t>() : -1;
    }
    profscope::CallTree t = Analyzer().Build(o);
    val out = val::object();
    out.set("parent", Copy("Int32Array", t.parent));
    out.set("func", Copy("Int32Array", t.func));
    out.set("depth", Copy("Int32Array", t.depth));
    out.set("self", Copy("Float64Array", t.self));
    out.set("total", Copy("Float64Array", t.total));
    out.set("sampleNode", Copy("Int32Array", t.sample_node));
    out.set("count", static_cast<double>(t.size()));
    out.set("samples", static_cast<double>(t.samples));
    return out;
  }
  // func row -> canonical func (functions merged by name)
  val analysisCanon() {
    profscope::CallTreeBuilder& b = Analyzer();
    std::vector<int32_t> c(p().funcs.name.size());
    for (size_t i = 0; i < c.size(); ++i) c[i] = b.Canon(static_cast<int32_t>(i));
    return Copy("Int32Array", c);
  }
  // canonical func -> string id (-1 for names made by the analysis: see analysisNamesJson)
  val analysisNameIds() { return Copy("Int32Array", Analyzer().name_ids()); }
  // JSON object {index: name} of the canonical names without a string id ("[unknown]", "[lib] PATH")
  std::string analysisExtraNamesJson() {
    profscope::CallTreeBuilder& b = Analyzer();
    std::string out = "{";
    for (size_t i = 0; i < b.name_ids().size(); ++i) {
      if (b.name_ids()[i] >= 0) continue;
      if (out.size() > 1) out += ',';
      out += "\"" + std::to_string(i) + "\":" + JsonQuote(b.names()[i]);
    }
    return out + "}";
  }

  val markerTimes() const { return CopyTimes(p().markers.time, Origin()); }
  val markerKinds() const { return Copy("Int32Array", p().markers.kind); }
  val markerThreads() const { return Copy("Int32Array", p().markers.thread); }
  val markerCpus() const { return Copy("Int32Array", p().markers.cpu); }
  val markerLabels() const { return Copy("Int32Array", p().markers.label); }
  val markerRecords() const { return Copy("Int32Array", p().markers.record); }
  val frameSourceFrames() const { return Copy("Int32Array", p().frame_sources.frame); }
  val frameSourceStrings() const { return Copy("Int32Array", p().frame_sources.source); }

 private:
  profscope::CallTreeBuilder& Analyzer() {
    if (!analyzer_) analyzer_ = std::make_unique<profscope::CallTreeBuilder>(p());
    return *analyzer_;
  }
  std::unique_ptr<profscope::CallTreeBuilder> analyzer_;
  // 0 when every time fits a double exactly; else one below the smallest non-zero time.
  // Computed once (the tables do not change after decode); every time getter and analyze() use it.
  uint64_t Origin() const {
    if (origin_ready_) return origin_;
    const profscope::Profile& pr = p();
    uint64_t lo = UINT64_MAX, hi = 0;
    auto scan = [&](const std::vector<uint64_t>& v) {
      for (uint64_t t : v)
        if (t != 0) { lo = t < lo ? t : lo; hi = t > hi ? t : hi; }
    };
    scan(pr.samples.time);
    scan(pr.intervals.start);
    scan(pr.intervals.end);
    scan(pr.markers.time);
    origin_ = hi >= (uint64_t{1} << 53) ? lo - 1 : 0;
    origin_ready_ = true;
    return origin_;
  }
  mutable bool origin_ready_ = false;
  mutable uint64_t origin_ = 0;
  const profscope::RecordTable& rt() const { return session_.result().records; }
  const profscope::Profile& p() const { return session_.result().profile; }
  JsSource src_;
  std::vector<std::unique_ptr<JsSource>> extra_;
  profscope::Session session_;
};

std::string Version() { return "profscope 0.1.0"; }

}  // namespace

EMSCRIPTEN_BINDINGS(profscope) {
  emscripten::function("version", &Version);
  emscripten::class_<JsSession>("Session")
      .constructor<val, double, std::string>()
      .function("addDataFile", &JsSession::addDataFile)
      .function("addSideFile", &JsSession::addSideFile)
      .function("decode", &JsSession::decode)
      .function("eventsText", &JsSession::eventsText)
      .function("timelineJson", &JsSession::timelineJson)
      .function("infoJson", &JsSession::infoJson)
      .function("recordsText", &JsSession::recordsText)
      .function("stacksText", &JsSession::stacksText)
      .function("diagnosticsJson", &JsSession::diagnosticsJson)
      .function("summaryJson", &JsSession::summaryJson)
      .function("threadsJson", &JsSession::threadsJson)
      .function("mappingsJson", &JsSession::mappingsJson)
      .function("eventsJson", &JsSession::eventsJson)
      .function("stringsJson", &JsSession::stringsJson)
      .function("accountJson", &JsSession::accountJson)
      .function("intervalsJson", &JsSession::intervalsJson)
      .function("setOption", &JsSession::setOption)
      .function("exportFile", &JsSession::exportFile)
      .function("diffText", &JsSession::diffText)
      .function("intervalThreads", &JsSession::intervalThreads)
      .function("intervalFuncs", &JsSession::intervalFuncs)
      .function("intervalStarts", &JsSession::intervalStarts)
      .function("intervalEnds", &JsSession::intervalEnds)
      .function("intervalDepths", &JsSession::intervalDepths)
      .function("intervalRecords", &JsSession::intervalRecords)
      .function("markerTimes", &JsSession::markerTimes)
      .function("timeOrigin", &JsSession::timeOrigin)
      .function("analyze", &JsSession::analyze)
      .function("analysisCanon", &JsSession::analysisCanon)
      .function("analysisNameIds", &JsSession::analysisNameIds)
      .function("analysisExtraNamesJson", &JsSession::analysisExtraNamesJson)
      .function("markerKinds", &JsSession::markerKinds)
      .function("markerThreads", &JsSession::markerThreads)
      .function("markerCpus", &JsSession::markerCpus)
      .function("markerLabels", &JsSession::markerLabels)
      .function("markerRecords", &JsSession::markerRecords)
      .function("frameSourceFrames", &JsSession::frameSourceFrames)
      .function("frameSourceStrings", &JsSession::frameSourceStrings)
      .function("recordCount", &JsSession::recordCount)
      .function("recordOffsets", &JsSession::recordOffsets)
      .function("recordSizes", &JsSession::recordSizes)
      .function("recordTypes", &JsSession::recordTypes)
      .function("recordKinds", &JsSession::recordKinds)
      .function("recordParents", &JsSession::recordParents)
      .function("recordFiles", &JsSession::recordFiles)
      .function("recordLabel", &JsSession::recordLabel)
      .function("recordFieldsJson", &JsSession::recordFieldsJson)
      .function("recordAt", &JsSession::recordAt)
      .function("funcNames", &JsSession::funcNames)
      .function("funcMappings", &JsSession::funcMappings)
      .function("frameAddresses", &JsSession::frameAddresses)
      .function("frameFuncs", &JsSession::frameFuncs)
      .function("frameMappings", &JsSession::frameMappings)
      .function("stackFrames", &JsSession::stackFrames)
      .function("stackPrefixes", &JsSession::stackPrefixes)
      .function("sampleTimes", &JsSession::sampleTimes)
      .function("sampleThreads", &JsSession::sampleThreads)
      .function("sampleCpus", &JsSession::sampleCpus)
      .function("sampleEvents", &JsSession::sampleEvents)
      .function("sampleWeights", &JsSession::sampleWeights)
      .function("sampleStacks", &JsSession::sampleStacks)
      .function("sampleRecords", &JsSession::sampleRecords)
      .function("sampleCounts", &JsSession::sampleCounts);
}
