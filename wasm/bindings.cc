// embind bindings: the JS face of core/api/session.h (see profscope.d.ts).
// Every array getter returns a fresh JS typed array (a copy), never a view
// into the WASM heap, so the worker can transfer it and heap growth cannot
// detach it.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
  val sampleRecords() const { return Copy("Int32Array", p().samples.record); }
  val intervalThreads() const { return Copy("Int32Array", p().intervals.thread); }
  val intervalFuncs() const { return Copy("Int32Array", p().intervals.func); }
  val intervalStarts() const { return CopyTimes(p().intervals.start, Origin()); }
  val intervalEnds() const { return CopyTimes(p().intervals.end, Origin()); }
  val intervalDepths() const { return Copy("Int32Array", p().intervals.depth); }
  val intervalRecords() const { return Copy("Int32Array", p().intervals.record); }
  val markerTimes() const { return CopyTimes(p().markers.time, Origin()); }
  val markerKinds() const { return Copy("Int32Array", p().markers.kind); }
  val markerThreads() const { return Copy("Int32Array", p().markers.thread); }
  val markerCpus() const { return Copy("Int32Array", p().markers.cpu); }
  val markerLabels() const { return Copy("Int32Array", p().markers.label); }
  val markerRecords() const { return Copy("Int32Array", p().markers.record); }
  val frameSourceFrames() const { return Copy("Int32Array", p().frame_sources.frame); }
  val frameSourceStrings() const { return Copy("Int32Array", p().frame_sources.source); }

 private:
  // 0 when every time fits a double exactly; else one below the smallest non-zero time.
  uint64_t Origin() const {
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
    return hi >= (uint64_t{1} << 53) ? lo - 1 : 0;
  }
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
      .function("intervalThreads", &JsSession::intervalThreads)
      .function("intervalFuncs", &JsSession::intervalFuncs)
      .function("intervalStarts", &JsSession::intervalStarts)
      .function("intervalEnds", &JsSession::intervalEnds)
      .function("intervalDepths", &JsSession::intervalDepths)
      .function("intervalRecords", &JsSession::intervalRecords)
      .function("markerTimes", &JsSession::markerTimes)
      .function("timeOrigin", &JsSession::timeOrigin)
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
      .function("sampleRecords", &JsSession::sampleRecords);
}
