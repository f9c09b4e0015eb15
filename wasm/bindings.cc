// embind bindings: the JS face of core/api/session.h (see profscope.d.ts).
// They only translate: every answer comes from Session. Every array getter
// returns a fresh JS typed array (a copy), never a view into the WASM heap, so
// the worker can transfer it and heap growth cannot detach it; strings cross
// as one UTF-8 blob plus offsets, addresses as BigUint64Array, times relative
// to the session's time origin.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/compare.h"
#include "core/api/export/exporter.h"
#include "core/api/output_sink.h"
#include "core/api/session.h"
#include "core/model/interval_view.h"
#include "core/trace/trace_printer.h"
#include "wasm/js_source.h"

using emscripten::val;

namespace {

// Pulls byte ranges from JS (wasm/js_source.h).
using profscope::IntervalView;
using profscope::wasm::JsSource;

template <typename T>
val Copy(const char* ctor, const std::vector<T>& v) {
  return val::global(ctor).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

// A typed array (`ctor`, of T) of f(0) .. f(n - 1), filled through a small buffer in the heap: a
// temporary of the column's size would grow the module's heap, for good, by its size (77 MB for an
// XRay log's 9.6 M record offsets as doubles).
template <typename T, typename F>
val Fill(const char* ctor, size_t n, F f) {
  constexpr size_t kChunk = size_t{1} << 16;
  val out = val::global(ctor).new_(static_cast<double>(n));
  std::vector<T> buf(std::min(n, kChunk));
  for (size_t at = 0; at < n; at += kChunk) {
    const size_t k = std::min(kChunk, n - at);
    for (size_t i = 0; i < k; ++i) buf[i] = f(at + i);
    out.call<void>("set", emscripten::typed_memory_view(k, buf.data()), static_cast<double>(at));
  }
  return out;
}

// A typed array (`ctor`, of T) of the n values visit(emit) emits in order, through a small buffer in the heap
// as Fill's (for values made in one pass, not by index).
template <typename T, typename Visit>
val FillInOrder(const char* ctor, size_t n, Visit visit) {
  constexpr size_t kChunk = size_t{1} << 16;
  val out = val::global(ctor).new_(static_cast<double>(n));
  std::vector<T> buf(std::min(n, kChunk));
  size_t used = 0, at = 0;
  auto flush = [&] {
    out.call<void>("set", emscripten::typed_memory_view(used, buf.data()), static_cast<double>(at));
    at += used;
    used = 0;
  };
  visit([&](T v) {
    if (at + used >= n) return;  // (never: visit emits n values)
    buf[used++] = v;
    if (used == buf.size()) flush();
  });
  if (used) flush();
  return out;
}

// A Float64Array of f(v[i]).
template <typename T, typename F>
val ToF64(const std::vector<T>& v, F f) {
  return Fill<double>("Float64Array", v.size(), [&](size_t i) { return f(v[i]); });
}

val CopyU64AsF64(const std::vector<uint64_t>& v) {
  return ToF64(v, [](uint64_t x) { return static_cast<double>(x); });
}

// A typed array (`ctor`, of T) of a packed column's values, in one pass through a small buffer in the heap.
template <typename T, typename C>
val CopyPacked(const char* ctor, const profscope::PackedColumn<C>& col) {
  constexpr size_t kChunk = size_t{1} << 16;
  const size_t n = col.size();
  val out = val::global(ctor).new_(static_cast<double>(n));
  std::vector<T> buf(std::min(n, kChunk));
  size_t at = 0, k = 0;
  col.ForEach([&](C v) {
    buf[k++] = static_cast<T>(v);
    if (k == buf.size()) {
      out.call<void>("set", emscripten::typed_memory_view(k, buf.data()), static_cast<double>(at));
      at += k;
      k = 0;
    }
  });
  if (k) out.call<void>("set", emscripten::typed_memory_view(k, buf.data()), static_cast<double>(at));
  return out;
}

// An unsigned packed column as the narrowest exact typed array: a Uint8Array, Uint16Array or Uint32Array
// when every value fits (the record offsets and sizes of any file under 4 GB; an XRay log's millions of
// record sizes, each 8, 16 or 32, are 1 byte a row), else a Float64Array (exact to 2^53).
template <typename T>
val CopyNarrow(const profscope::PackedColumn<T>& v) {
  static_assert(std::is_unsigned_v<T>);
  switch (profscope::PackedColumn<T>::WidthFor(v.most())) {
    case 1: return CopyPacked<uint8_t>("Uint8Array", v);
    case 2: return CopyPacked<uint16_t>("Uint16Array", v);
    case 4: return CopyPacked<uint32_t>("Uint32Array", v);
    default: return CopyPacked<double>("Float64Array", v);  // (exact to 2^53: offsets, sizes)
  }
}

// Whether a column's run firsts go to the page as a Float64Array (an unsigned column past int32).
template <typename T>
bool FirstsWide(const profscope::PackedColumn<T>& v) {
  return std::is_unsigned_v<T> && static_cast<uint64_t>(v.most()) > static_cast<uint64_t>(INT32_MAX);
}

// Runs as the page reads them (web/src/lib/int-runs.js): {length, starts, firsts, steps}.
val RunsObject(size_t length, val starts, val firsts, val steps) {
  val out = val::object();
  out.set("length", static_cast<double>(length));
  out.set("starts", std::move(starts));
  out.set("firsts", std::move(firsts));
  out.set("steps", std::move(steps));
  return out;
}

// A packed column as its runs ({length, starts, firsts, steps}: web/src/lib/int-runs.js reads them) when it
// is held as at most `max_runs` runs, else `plain()` (a typed array, which int-runs.js reads too); the runs
// follow the same greedy rule as int-runs.js (core/model/packed_column.h). Steps must fit an Int32Array,
// firsts a Float64Array past 32 bits.
template <typename T, typename Plain>
val Runs(const profscope::PackedColumn<T>& v, Plain plain, double max_runs) {
  using S = std::make_signed_t<T>;
  const size_t runs = v.run_count();
  bool fit = v.is_runs() && !v.empty() && static_cast<double>(runs) <= max_runs;
  for (size_t r = 0; fit && r < runs; ++r) {
    const int64_t step = static_cast<S>(v.steps()[r]);
    fit = step >= INT32_MIN && step <= INT32_MAX;
  }
  if (!fit) return plain();
  val firsts = FirstsWide(v)  // (firsts past int32: a Float64Array, exact to 2^53)
                   ? Fill<double>("Float64Array", runs, [&](size_t r) { return static_cast<double>(v.firsts()[r]); })
                   : Fill<int32_t>("Int32Array", runs, [&](size_t r) { return static_cast<int32_t>(v.firsts()[r]); });
  return RunsObject(v.size(), Copy("Int32Array", v.starts()), std::move(firsts),
                    Fill<int32_t>("Int32Array", runs, [&](size_t r) { return static_cast<int32_t>(static_cast<S>(v.steps()[r])); }));
}

// An unsigned column as its runs where they take at most a third of the bytes of its narrowest typed array
// (CopyNarrow), else as that array.
template <typename T>
val NarrowRuns(const profscope::PackedColumn<T>& v) {
  const double plain_bytes = static_cast<double>(v.size()) * profscope::PackedColumn<T>::WidthFor(v.most());
  const double run_bytes = 8 + (FirstsWide(v) ? 8 : 4);  // a start and a step, and a first
  return Runs(v, [&] { return CopyNarrow(v); }, plain_bytes / (3 * run_bytes));
}

// An int column as its runs, at most `share` a value, else an Int32Array. A column the heap holds plain (1 or
// 2 bytes a value take less than its runs) may still be fewer runs than `share` allows the page: they are
// counted first, then made (the heap never gives memory back).
val IntRuns(const profscope::PackedColumn<int32_t>& v, double share) {
  const double max_runs = static_cast<double>(v.size()) * share;
  auto plain = [&] { return CopyPacked<int32_t>("Int32Array", v); };
  if (v.is_runs() || v.empty()) return Runs(v, plain, max_runs);
  size_t runs = 0;
  const size_t most = static_cast<size_t>(max_runs);  // (counted first: the heap never gives memory back)
  if (!v.ForEachGreedyRun(most, [&](size_t, int32_t, int32_t) { ++runs; })) return plain();
  std::vector<int32_t> starts, firsts, steps;
  starts.reserve(runs), firsts.reserve(runs), steps.reserve(runs);
  v.ForEachGreedyRun(most, [&](size_t row, int32_t first, int32_t step) {
    starts.push_back(static_cast<int32_t>(row)), firsts.push_back(first), steps.push_back(step);
  });
  return RunsObject(v.size(), Copy("Int32Array", starts), Copy("Int32Array", firsts), Copy("Int32Array", steps));
}

// Exact u64 values (addresses): the bytes are copied once into a fresh buffer
// that a BigUint64Array then views (WASM and JS typed arrays are both little-endian).
val CopyU64(const std::vector<uint64_t>& v) {
  val bytes = val::global("Uint8Array").new_(emscripten::typed_memory_view(v.size() * sizeof(uint64_t), reinterpret_cast<const uint8_t*>(v.data())));
  return val::global("BigUint64Array").new_(bytes["buffer"]);
}

// Collects output into `out` until it would pass `cap`; then drops the rest and sets `over`.
class CappedSink : public profscope::OutputSink {
 public:
  CappedSink(std::string& out, size_t cap, bool& over) : out_(out), cap_(cap), over_(over) {}
  ~CappedSink() override { Flush(); }

 protected:
  void Emit(std::string_view chunk) override {
    if (over_ || out_.size() + chunk.size() > cap_) {
      over_ = true;
      return;
    }
    out_.append(chunk);
  }

 private:
  std::string& out_;
  size_t cap_;
  bool& over_;
};

// Strings as one UTF-8 blob plus offsets: string i is bytes[offsets[i], offsets[i + 1]).
val StringBlob(const std::vector<std::string>& strings) {
  std::vector<uint32_t> offsets;
  offsets.reserve(strings.size() + 1);
  std::string bytes;
  for (const auto& s : strings) {
    offsets.push_back(static_cast<uint32_t>(bytes.size()));
    bytes += s;
  }
  offsets.push_back(static_cast<uint32_t>(bytes.size()));
  val out = val::object();
  out.set("bytes", val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()))));
  out.set("offsets", Copy("Uint32Array", offsets));
  return out;
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

  // A file of a dropped folder (Session::AddSideFolderFile): name "FOLDER/rel/path".
  void addSideFolderFile(val read, double size, std::string name, std::string folder) {
    extra_.push_back(std::make_unique<JsSource>(std::move(read), size));
    session_.AddSideFolderFile(*extra_.back(), std::move(name), std::move(folder));
  }
  void noteSideFolder(std::string folder, bool capped, double offered) {
    session_.NoteSideFolder(folder, capped, static_cast<size_t>(offered));
  }

  // progress(done, total, samples, records): bytes decoded of the total, and the samples and record
  // rows decoded so far (perf's samples as their rounds are ordered; an XRay log's calls are made at its end)
  profscope::ProgressFn ProgressOf(val progress) const {
    return [this, progress](uint64_t done, uint64_t total) {
      const profscope::DecodeResult& r = session_.result();
      progress(static_cast<double>(done), static_cast<double>(total), static_cast<double>(r.profile.samples.size()),
               static_cast<double>(r.records.rows()));
    };
  }
  bool decode(val progress) {
    profscope::ProgressFn fn;
    if (!progress.isUndefined() && !progress.isNull()) {
      fn = ProgressOf(progress);
    }
    return session_.Decode(fn);
  }
  // The decode in steps (Session::DecodeStart): pause(offset) is asked at most
  // once per `every` bytes of the main file's records; true pauses there.
  // Each call returns true while the decode is paused.
  bool decodeStart(val progress, val pause, double every) {
    profscope::ProgressFn fn;
    if (!progress.isUndefined() && !progress.isNull()) {
      fn = ProgressOf(progress);
    }
    profscope::PauseFn pause_fn;
    if (!pause.isUndefined() && !pause.isNull()) {
      pause_fn = [pause](uint64_t offset, uint8_t file) { return pause(static_cast<double>(offset), file).as<bool>(); };
    }
    const uint64_t step = every >= 1 ? static_cast<uint64_t>(every) : uint64_t{1} << 20;
    return session_.DecodeStart(fn, pause_fn, step) == profscope::Session::DecodeState::kPaused;
  }
  bool decodeResume() { return session_.DecodeResume() == profscope::Session::DecodeState::kPaused; }
  void decodeStop() { session_.DecodeStop(); }
  bool decodeOk() const { return session_.DecodeOk(); }
  double pausedAt() const { return static_cast<double>(session_.PausedAt()); }
  int pausedFile() const { return session_.PausedFile(); }
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
  std::string accountJson() const { return session_.AccountJson(); }
  std::string sideFilesJson() const { return session_.SideFilesJson(); }
  std::string missingJson() const { return session_.MissingJson(); }
  void setOption(std::string key, std::string value) { session_.SetOption(std::move(key), std::move(value)); }
  std::string decoderOptionsJson() const { return session_.DecoderOptionsJson(); }
  val strings() const { return StringBlob(p().strings.all()); }
  // profscope export (core/api/export/exporter.h): {bytes: Uint8Array, error: string}.
  val exportFile(std::string format, std::string weight, std::string event) const {
    profscope::exporter::Output r = profscope::exporter::ExportByName(session_.result(), format, weight, event);
    val o = val::object();
    o.set("bytes", val::global("Uint8Array").new_(
                       emscripten::typed_memory_view(r.bytes.size(), reinterpret_cast<const uint8_t*>(r.bytes.data()))));
    o.set("error", r.error);
    return o;
  }
  // profscope script (perf script's default text, perf.data files only): {bytes, error}.
  // The page keeps the text in the heap: past kScriptCap it says so and gives none.
  val scriptFile() {
    static constexpr size_t kScriptCap = size_t{256} << 20;
    std::string text;
    bool over = false;
    bool ok;
    {
      CappedSink sink(text, kScriptCap, over);
      ok = session_.WriteScript(sink);
    }
    std::string error;
    if (!ok) error = "perf script text is made for perf.data files only";
    if (over) {
      error = "the perf script text of this profile passes 256 MiB: run `profscope script FILE` (the command line) for it";
      text.clear();
      text.shrink_to_fit();
    }
    val o = val::object();
    o.set("bytes", val::global("Uint8Array").new_(
                       emscripten::typed_memory_view(text.size(), reinterpret_cast<const uint8_t*>(text.data()))));
    o.set("error", error);
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

  // The page's Compare tab (core/api/compare.h CompareProfiles): the merged tree and
  // the functions table of THIS (A) and OTHER (B) as columns; {error} when nothing was compared.
  val diff(const JsSession& other, std::string event, bool normalize) const {
    profscope::DiffModel m = profscope::CompareProfiles(session_.result(), other.session_.result(), event, normalize);
    val o = val::object();
    o.set("error", m.error);
    if (!m.error.empty()) return o;
    const profscope::ProfileDiff& d = m.diff;
    o.set("labels", StringBlob(d.funcs.label));
    o.set("modules", StringBlob(d.funcs.module));
    o.set("parent", Copy("Int32Array", d.tree.parent));
    o.set("func", Copy("Int32Array", d.tree.func));
    o.set("depth", Copy("Int32Array", d.tree.depth));
    o.set("selfA", CopyU64AsF64(d.tree.self_a));
    o.set("totalA", CopyU64AsF64(d.tree.total_a));
    o.set("selfB", CopyU64AsF64(d.tree.self_b));
    o.set("totalB", CopyU64AsF64(d.tree.total_b));
    std::vector<int32_t> fn_func;
    std::vector<double> fn_self_a, fn_self_b, fn_total_a, fn_total_b, fn_dself, fn_dtotal, fn_pself, fn_ptotal;
    for (const profscope::DiffFunction& f : d.functions) {
      fn_func.push_back(f.func);
      fn_self_a.push_back(static_cast<double>(f.self_a));
      fn_self_b.push_back(static_cast<double>(f.self_b));
      fn_total_a.push_back(static_cast<double>(f.total_a));
      fn_total_b.push_back(static_cast<double>(f.total_b));
      fn_dself.push_back(static_cast<double>(f.delta_self));
      fn_dtotal.push_back(static_cast<double>(f.delta_total));
      fn_pself.push_back(f.delta_self_pct);
      fn_ptotal.push_back(f.delta_total_pct);
    }
    val fns = val::object();
    fns.set("func", Copy("Int32Array", fn_func));
    fns.set("selfA", Copy("Float64Array", fn_self_a));
    fns.set("selfB", Copy("Float64Array", fn_self_b));
    fns.set("totalA", Copy("Float64Array", fn_total_a));
    fns.set("totalB", Copy("Float64Array", fn_total_b));
    fns.set("deltaSelf", Copy("Float64Array", fn_dself));
    fns.set("deltaTotal", Copy("Float64Array", fn_dtotal));
    fns.set("deltaSelfPct", Copy("Float64Array", fn_pself));
    fns.set("deltaTotalPct", Copy("Float64Array", fn_ptotal));
    o.set("functions", fns);
    o.set("sumA", static_cast<double>(d.total_a));
    o.set("sumB", static_cast<double>(d.total_b));
    o.set("rawSumA", static_cast<double>(d.raw_total_a));
    return o;
  }

  double recordCount() const { return static_cast<double>(rt().rows()); }
  double sampleCount() const { return static_cast<double>(p().samples.size()); }
  val recordOffsets() const { return CopyNarrow(rt().offset); }
  val recordSizes() const { return CopyNarrow(rt().size); }
  val recordTypes() const { return CopyNarrow(rt().type); }
  val recordKinds() const { return CopyPacked<uint8_t>("Uint8Array", rt().kind); }
  val recordParents() const { return CopyPacked<int32_t>("Int32Array", rt().parent); }
  // The parents as runs of a constant step ({length, starts, firsts, steps}: web/src/lib/int-runs.js) when
  // there are at most `share` runs a row (a data section's millions of records share one parent), else as
  // recordParents gives them: the worker never holds a column of every row's parent only to pack it.
  val recordParentRuns(double share) const { return IntRuns(rt().parent, share); }
  val recordFiles() const { return CopyPacked<uint8_t>("Uint8Array", rt().file); }
  // The record table's columns as runs where that is much smaller (an XRay log's fixed-size records, a perf
  // file's kinds and files), else as recordOffsets ... recordFiles give them.
  val recordOffsetRuns() const { return NarrowRuns(rt().offset); }
  val recordSizeRuns() const { return NarrowRuns(rt().size); }
  val recordTypeRuns() const { return NarrowRuns(rt().type); }
  val recordKindRuns() const { return NarrowRuns(rt().kind); }
  val recordFileRuns() const { return NarrowRuns(rt().file); }
  std::string recordLabel(int row) const { return session_.RecordLabel(row); }
  // Every (kind, type) of the record table with its first row, in that row's order (ListRecordTypes).
  val recordTypeList() const {
    const profscope::RecordTypes t = session_.ListRecordTypes();
    val out = val::object();
    out.set("kind", Copy("Uint8Array", t.kind));
    out.set("type", Copy("Uint32Array", t.type));
    out.set("first", Copy("Int32Array", t.first));
    return out;
  }
  // Bytes and counts per (kind, type) of the record table, by bytes (RecordComposition).
  val recordComposition() const {
    const std::vector<profscope::CompositionGroup> g = session_.RecordComposition();
    val out = val::object();
    out.set("kind", Fill<uint8_t>("Uint8Array", g.size(), [&](size_t i) { return g[i].kind; }));
    out.set("type", Fill<uint32_t>("Uint32Array", g.size(), [&](size_t i) { return g[i].type; }));
    out.set("count", Fill<double>("Float64Array", g.size(), [&](size_t i) { return static_cast<double>(g[i].count); }));
    out.set("bytes", Fill<double>("Float64Array", g.size(), [&](size_t i) { return static_cast<double>(g[i].bytes); }));
    out.set("first", Fill<int32_t>("Int32Array", g.size(), [&](size_t i) { return g[i].first; }));
    return out;
  }
  // The record table's children lists and the main file's leaves (Session::BuildRecordIndex): kidsStart, kids
  // and leafOrder as runs where they take at most `share` runs a value, else Int32Arrays; leafMaxEnd a
  // Float64Array or null; containers an Int32Array (web/src/lib/records.js reads them).
  val recordIndex(double share) const {
    const profscope::RecordIndex x = session_.BuildRecordIndex();
    val out = val::object();
    out.set("kidsStart", IntRuns(x.kids_start, share));
    out.set("kids", IntRuns(x.kids, share));
    // (few leaves among many rows: runs only where they take at most a third of the leaves' array)
    out.set("leafOrder", IntRuns(x.leaf_order, 1.0 / 3));
    out.set("leafMaxEnd", x.leaf_max_end.empty() ? val::null() : Copy("Float64Array", x.leaf_max_end));
    out.set("containers", Copy("Int32Array", x.containers));
    return out;
  }
  std::string recordTypeName(int row) const { return session_.RecordTypeName(row); }
  std::string recordFieldsJson(int row) { return session_.RecordFieldsJson(row); }
  val containerBytes(int row) { return Copy("Uint8Array", session_.ContainerBytes(row)); }

  val funcNames() const { return Copy("Int32Array", p().funcs.name); }
  val funcMappings() const { return Copy("Int32Array", p().funcs.mapping); }
  val frameAddresses() const { return CopyU64(p().frames.address); }
  val frameFuncs() const { return Copy("Int32Array", p().frames.func); }
  val frameInlined() const { return Copy("Uint8Array", p().frames.inlined); }
  val frameMappings() const { return Copy("Int32Array", p().frames.mapping); }
  val stackFrames() const { return Copy("Int32Array", p().stacks.frame); }
  val stackPrefixes() const { return Copy("Int32Array", p().stacks.prefix); }
  val timeBase() const {
    val out = val::object();
    out.set("origin", std::to_string(session_.TimeOrigin()));
    out.set("start", session_.RelativeTime(session_.result().time_start));
    out.set("end", session_.RelativeTime(session_.result().time_end));
    out.set("zero", session_.TimeZero());
    out.set("scale", session_.NanosPerTimeUnit());
    return out;
  }
  val sampleTimes() const { return Times(p().samples.time); }
  // One sample's time (as sampleTimes gives it); 0 for a sample that is not there.
  double sampleTime(int i) const {
    const std::vector<uint64_t>& t = p().samples.time;
    return i >= 0 && static_cast<size_t>(i) < t.size() ? session_.RelativeTime(t[static_cast<size_t>(i)]) : 0.0;
  }
  val sampleThreads() const { return CopyPacked<int32_t>("Int32Array", p().samples.thread); }
  val sampleCpus() const { return CopyPacked<int32_t>("Int32Array", p().samples.cpu); }
  val sampleEvents() const { return CopyPacked<int32_t>("Int32Array", p().samples.event); }
  val sampleWeights() const {
    const auto& w = p().samples.weight;
    return Fill<double>("Float64Array", w.size(), [&](size_t i) { return static_cast<double>(w[i]); });
  }
  val sampleStacks() const { return CopyPacked<int32_t>("Int32Array", p().samples.stack); }
  val sampleRecords() const { return CopyPacked<int32_t>("Int32Array", p().samples.record); }
  val sampleCounts() const { return Copy("Uint32Array", p().samples.count); }
  template <typename C>
  static int At(const C& v, int i) { return i >= 0 && static_cast<size_t>(i) < v.size() ? v[static_cast<size_t>(i)] : -1; }
  // One sample's stack and record row (-1 for a sample that is not there): the worker asks for the ones it
  // shows instead of keeping whole columns.
  int sampleStack(int i) const { return At(p().samples.stack, i); }
  int sampleRecord(int i) const { return At(p().samples.record, i); }
  // One sample's thread lane (as sampleLanes(false) puts it): its thread row, -1 when it has none (or for a
  // sample that is not there).
  int sampleLane(int i) const { return session_.SampleLane(i); }
  // The record rows of the given samples (an Int32Array of sample numbers; -1 for one that is not there).
  // Read and written through a small buffer in the heap (a node's samples may be all 4 M of a file's).
  val sampleRecordsOf(const val& samples) const {
    constexpr size_t kChunk = size_t{1} << 16;
    const size_t n = samples["length"].as<size_t>();
    val out = val::global("Int32Array").new_(static_cast<double>(n));
    std::vector<int32_t> buf(std::min(n, kChunk));
    for (size_t at = 0; at < n; at += kChunk) {
      const size_t k = std::min(kChunk, n - at);
      val view(emscripten::typed_memory_view(k, buf.data()));
      view.call<void>("set", samples.call<val>("subarray", static_cast<double>(at), static_cast<double>(at + k)));
      for (size_t i = 0; i < k; ++i) buf[i] = At(p().samples.record, buf[i]);
      out.call<void>("set", view, static_cast<double>(at));
    }
    return out;
  }
  // The first sample of record row `row`, -1 when it is no sample's.
  int recordSample(int row) const {
    const auto& rec = p().samples.record;
    const size_t at = rec.find(row);
    return at < rec.size() ? static_cast<int>(at) : -1;
  }
  // The samples by thread row (by_cpu: by CPU), each lane in time order, and their times in that order
  // (as sampleTimes gives them): {samples, start, times}, lane l = [start[l], start[l + 1]).
  val sampleLanes(bool by_cpu) const {
    const profscope::SampleLanes lanes = session_.Lanes(by_cpu);
    const std::vector<uint64_t>& time = p().samples.time;
    val out = val::object();
    out.set("samples", Copy("Int32Array", lanes.samples));
    out.set("start", Copy("Int32Array", lanes.start));
    out.set("times", Fill<double>("Float64Array", lanes.samples.size(), [&](size_t k) {
              return session_.RelativeTime(time[static_cast<size_t>(lanes.samples[k])]);
            }));
    return out;
  }
  // The flame chart's rows of exact calls (Session::FlameRows): row r is thread[r]'s calls at depth[r],
  // first[r] .. first[r + 1] (the calls of no thread are in no row); with the calls' count and span (the
  // earliest start and latest end, RelativeTime). The calls themselves stay here: flameBoxes.
  val flameRows() const {
    const profscope::IntervalRows& rows = session_.FlameRows();
    const auto span = session_.IntervalSpan();
    val out = val::object();
    out.set("thread", Copy("Int32Array", rows.thread));
    out.set("depth", Copy("Int32Array", rows.depth));
    out.set("first", Copy("Int32Array", rows.first));
    out.set("calls", static_cast<double>(rows.order.size()));
    out.set("lo", span.first);
    out.set("hi", span.second);
    return out;
  }
  // The boxes the flame chart draws of rows `which` (an Int32Array of flameRows' rows) in [t0, t1) at `cols`
  // columns (Session::FlameBoxes; times RelativeTime times `scale`, as t0 and t1): per box its row, its
  // call's start, end, function and entry record.
  val flameBoxes(const val& which, double scale, double t0, double t1, int cols) const {
    const size_t n = std::min<size_t>(which["length"].as<size_t>(), size_t{1} << 20);
    std::vector<int32_t> rows(n);
    if (n) val(emscripten::typed_memory_view(n, rows.data())).call<void>("set", which.call<val>("subarray", 0, static_cast<double>(n)));
    const profscope::IntervalBoxes b = session_.FlameBoxes(rows, scale, t0, t1, cols);
    const IntervalView& v = session_.Calls();
    auto call = [&](size_t k) { return static_cast<size_t>(b.call[k]); };
    val out = val::object();
    out.set("row", Copy("Int32Array", b.row));
    out.set("start", Copy("Float64Array", b.start));
    out.set("end", Copy("Float64Array", b.end));
    out.set("func", Fill<int32_t>("Int32Array", b.call.size(), [&](size_t k) { return v.func(call(k)); }));
    out.set("record", Fill<int32_t>("Int32Array", b.call.size(), [&](size_t k) { return v.record(call(k)); }));
    return out;
  }
  // Are the exact calls the samples (an XRay log: its lanes are callLanes, no lane draws samples)?
  bool callsAreSamples() const { return session_.CallsAreSamples(); }
  // The flame chart's thread lanes of a log whose calls are its samples (XRay), without a lane entry per
  // call (Session::CallLanes): {thread, count, first, last, gap, fileGap}, times RelativeTime times `scale`,
  // as sampleLanes' times; null when the calls are not the samples (sampleLanes then).
  val callLanes(double scale) const {
    if (!callsAreSamples()) return val::null();
    const profscope::CallLaneSummary lanes = session_.CallLanes(scale);
    val out = val::object();
    out.set("thread", Copy("Int32Array", lanes.thread));
    out.set("count", Copy("Float64Array", lanes.count));
    out.set("first", Copy("Float64Array", lanes.first));
    out.set("last", Copy("Float64Array", lanes.last));
    out.set("gap", Copy("Float64Array", lanes.gap));
    out.set("fileGap", lanes.file_gap);
    return out;
  }
  // The calls started per column of [t0, t1) at `cols` columns of the thread lanes `lanes` (an Int32Array of
  // callLanes' threads; Session::LaneCallActivity): a Float32Array, lane j's column c at j * cols + c.
  val callActivity(const val& lanes, double scale, double t0, double t1, int cols) const {
    const size_t n = std::min<size_t>(lanes["length"].as<size_t>(), size_t{1} << 24);
    std::vector<int32_t> want(n);
    if (n) val(emscripten::typed_memory_view(n, want.data())).call<void>("set", lanes.call<val>("subarray", 0, static_cast<double>(n)));
    return Copy("Float32Array", session_.LaneCallActivity(want, scale, t0, t1, cols));
  }
  val eventTotals() const { return Copy("Float64Array", session_.EventTotals()); }
  // {cpus, rows}: every CPU the samples name, by CPU, and its sample rows.
  val cpuRows() const {
    const auto rows = session_.CpuRows();
    val out = val::object();
    out.set("cpus", Fill<int32_t>("Int32Array", rows.size(), [&](size_t i) { return rows[i].first; }));
    out.set("rows", Fill<uint32_t>("Uint32Array", rows.size(), [&](size_t i) { return rows[i].second; }));
    return out;
  }
  // (XRay's calls that exited are read from their samples: IntervalView)
  val intervalThreads() const { return IntervalColumn<int32_t>("Int32Array", [](const IntervalView& v, size_t i) { return v.thread(i); }); }
  val intervalFuncs() const { return IntervalColumn<int32_t>("Int32Array", [](const IntervalView& v, size_t i) { return v.func(i); }); }
  val intervalStarts() const { return IntervalColumn<double>("Float64Array", [this](const IntervalView& v, size_t i) { return session_.RelativeTime(v.start(i)); }); }
  val intervalEnds() const { return IntervalColumn<double>("Float64Array", [this](const IntervalView& v, size_t i) { return session_.RelativeTime(v.end(i)); }); }
  val intervalDepths() const { return IntervalColumn<int32_t>("Int32Array", [](const IntervalView& v, size_t i) { return v.depth(i); }); }
  val intervalRecords() const { return IntervalColumn<int32_t>("Int32Array", [](const IntervalView& v, size_t i) { return v.record(i); }); }
  val markerTimes() const { return Times(p().markers.time); }
  val markerKinds() const { return Copy("Int32Array", p().markers.kind); }
  val markerThreads() const { return Copy("Int32Array", p().markers.thread); }
  val markerCpus() const { return Copy("Int32Array", p().markers.cpu); }
  val markerLabels() const { return Copy("Int32Array", p().markers.label); }
  val markerRecords() const { return Copy("Int32Array", p().markers.record); }
  val frameSourceFrames() const { return Copy("Int32Array", p().frame_sources.frame); }
  val frameSourceStrings() const { return Copy("Int32Array", p().frame_sources.source); }

  // The call tree of the options' JSON form (core/api/analysis_options_json.h),
  // or {error} when the text is not such options or the view is too large to build.
  val analyze(std::string json) { return Analyzed(json, false); }
  // The same, but the tree's sample -> node stays here, not copied (4 bytes a sample): nodeSamples and
  // sampleNode answer from it, keptSampleNode copies it. It is the last tree made so, until the next.
  val analyzeKeeping(std::string json) { return Analyzed(json, true); }
  // The samples of call node `node` of the kept tree (its subtree), in sample order: an Int32Array.
  val nodeSamples(int32_t node) const {
    const profscope::SampleNodes& kept = session_.KeptNodes();
    const size_t n = kept.ForEachUnder(p().samples, node, [](int32_t) {});  // (counted first: no vector of them)
    return FillInOrder<int32_t>("Int32Array", n, [&](auto emit) { kept.ForEachUnder(p().samples, node, emit); });
  }
  // The call node of sample `sample` in the kept tree; -1 when filtered out or dropped, or not there.
  int32_t sampleNode(double sample) const {
    return sample >= 0 && sample < 9007199254740992.0 ? session_.KeptNodes().Of(p().samples, static_cast<int64_t>(sample)) : -1;  // (NaN: -1)
  }
  // The kept tree's sample -> node (an Int32Array copy): for a page whose lanes draw samples.
  val keptSampleNode() const {
    const profscope::SampleNodes& kept = session_.KeptNodes();
    return FillInOrder<int32_t>("Int32Array", kept.size(), [&](auto emit) { kept.ForEach(p().samples, emit); });
  }
  val analysisCanon() { return Copy("Int32Array", session_.AnalysisCanon()); }
  val analysisNameIds() { return Copy("Int32Array", session_.AnalysisNameIds()); }
  std::string analysisName(int canon) { return session_.AnalysisName(canon); }
  std::string analysisLibrary(int canon) { return session_.AnalysisLibrary(canon); }

 private:
  val Analyzed(const std::string& json, bool keep) {
    profscope::AnalysisOptions o;
    std::string error;
    val out = val::object();
    if (!session_.ParseAnalysisOptions(json, &o, &error)) {
      out.set("error", error);
      return out;
    }
    profscope::CallTree t = keep ? session_.AnalyzeKeeping(o) : session_.Analyze(o);
    if (!t.error.empty()) {  // a view too large to build (an inverted tree of deep stacks)
      out.set("error", t.error);
      return out;
    }
    out.set("parent", Copy("Int32Array", t.parent));
    out.set("func", Copy("Int32Array", t.func));
    out.set("depth", Copy("Int32Array", t.depth));
    out.set("subtreeEnd", Copy("Int32Array", t.subtree_end));
    out.set("self", Copy("Float64Array", t.self));
    out.set("total", Copy("Float64Array", t.total));
    out.set("count", static_cast<double>(t.size()));
    out.set("samples", static_cast<double>(t.samples));
    if (!t.notice.empty()) out.set("notice", t.notice);  // shown in part (an inverted tree too large: its heaviest nodes)
    if (!keep) out.set("sampleNode", Copy("Int32Array", t.sample_node));  // (kept: in the session)
    return out;
  }

  // Times relative to the session's origin (0 stays 0): exact as doubles.
  template <typename T, typename F>
  val IntervalColumn(const char* ctor, F f) const {
    const IntervalView v(p());
    return Fill<T>(ctor, v.size(), [&](size_t i) { return f(v, i); });
  }
  val Times(const std::vector<uint64_t>& v) const {
    return ToF64(v, [this](uint64_t t) { return session_.RelativeTime(t); });
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
  emscripten::function("traceEventAvailable", &profscope::trace::TracePrinter::Available);
  emscripten::class_<JsSession>("Session")
      .constructor<val, double, std::string>()
      .function("addDataFile", &JsSession::addDataFile)
      .function("addSideFile", &JsSession::addSideFile)
      .function("addSideFolderFile", &JsSession::addSideFolderFile)
      .function("noteSideFolder", &JsSession::noteSideFolder)
      .function("decode", &JsSession::decode)
      .function("decodeStart", &JsSession::decodeStart)
      .function("decodeResume", &JsSession::decodeResume)
      .function("decodeStop", &JsSession::decodeStop)
      .function("decodeOk", &JsSession::decodeOk)
      .function("pausedAt", &JsSession::pausedAt)
      .function("pausedFile", &JsSession::pausedFile)
      .function("infoJson", &JsSession::infoJson)
      .function("recordsText", &JsSession::recordsText)
      .function("stacksText", &JsSession::stacksText)
      .function("eventsText", &JsSession::eventsText)
      .function("timelineJson", &JsSession::timelineJson)
      .function("diagnosticsJson", &JsSession::diagnosticsJson)
      .function("summaryJson", &JsSession::summaryJson)
      .function("threadsJson", &JsSession::threadsJson)
      .function("mappingsJson", &JsSession::mappingsJson)
      .function("eventsJson", &JsSession::eventsJson)
      .function("containerBytes", &JsSession::containerBytes)
      .function("recordTypeName", &JsSession::recordTypeName)
      .function("recordTypeList", &JsSession::recordTypeList)
      .function("recordComposition", &JsSession::recordComposition)
      .function("recordIndex", &JsSession::recordIndex)
      .function("accountJson", &JsSession::accountJson)
      .function("sideFilesJson", &JsSession::sideFilesJson)
      .function("missingJson", &JsSession::missingJson)
      .function("setOption", &JsSession::setOption)
      .function("decoderOptionsJson", &JsSession::decoderOptionsJson)
      .function("strings", &JsSession::strings)
      .function("exportFile", &JsSession::exportFile)
      .function("scriptFile", &JsSession::scriptFile)
      .function("diffText", &JsSession::diffText)
      .function("diff", &JsSession::diff)
      .function("recordCount", &JsSession::recordCount)
      .function("sampleCount", &JsSession::sampleCount)
      .function("recordOffsets", &JsSession::recordOffsets)
      .function("recordSizes", &JsSession::recordSizes)
      .function("recordTypes", &JsSession::recordTypes)
      .function("recordKinds", &JsSession::recordKinds)
      .function("recordParents", &JsSession::recordParents)
      .function("recordParentRuns", &JsSession::recordParentRuns)
      .function("recordFiles", &JsSession::recordFiles)
      .function("recordOffsetRuns", &JsSession::recordOffsetRuns)
      .function("recordSizeRuns", &JsSession::recordSizeRuns)
      .function("recordTypeRuns", &JsSession::recordTypeRuns)
      .function("recordKindRuns", &JsSession::recordKindRuns)
      .function("recordFileRuns", &JsSession::recordFileRuns)
      .function("recordLabel", &JsSession::recordLabel)
      .function("recordFieldsJson", &JsSession::recordFieldsJson)
      .function("funcNames", &JsSession::funcNames)
      .function("funcMappings", &JsSession::funcMappings)
      .function("frameAddresses", &JsSession::frameAddresses)
      .function("frameFuncs", &JsSession::frameFuncs)
      .function("frameInlined", &JsSession::frameInlined)
      .function("frameMappings", &JsSession::frameMappings)
      .function("stackFrames", &JsSession::stackFrames)
      .function("stackPrefixes", &JsSession::stackPrefixes)
      .function("timeBase", &JsSession::timeBase)
      .function("sampleTimes", &JsSession::sampleTimes)
      .function("sampleTime", &JsSession::sampleTime)
      .function("sampleThreads", &JsSession::sampleThreads)
      .function("sampleCpus", &JsSession::sampleCpus)
      .function("sampleEvents", &JsSession::sampleEvents)
      .function("sampleWeights", &JsSession::sampleWeights)
      .function("sampleStacks", &JsSession::sampleStacks)
      .function("sampleRecords", &JsSession::sampleRecords)
      .function("sampleStack", &JsSession::sampleStack)
      .function("sampleRecord", &JsSession::sampleRecord)
      .function("sampleLane", &JsSession::sampleLane)
      .function("sampleRecordsOf", &JsSession::sampleRecordsOf)
      .function("recordSample", &JsSession::recordSample)
      .function("sampleCounts", &JsSession::sampleCounts)
      .function("sampleLanes", &JsSession::sampleLanes)
      .function("eventTotals", &JsSession::eventTotals)
      .function("flameRows", &JsSession::flameRows)
      .function("flameBoxes", &JsSession::flameBoxes)
      .function("callsAreSamples", &JsSession::callsAreSamples)
      .function("analyzeKeeping", &JsSession::analyzeKeeping)
      .function("nodeSamples", &JsSession::nodeSamples)
      .function("sampleNode", &JsSession::sampleNode)
      .function("keptSampleNode", &JsSession::keptSampleNode)
      .function("callLanes", &JsSession::callLanes)
      .function("callActivity", &JsSession::callActivity)
      .function("cpuRows", &JsSession::cpuRows)
      .function("intervalThreads", &JsSession::intervalThreads)
      .function("intervalFuncs", &JsSession::intervalFuncs)
      .function("intervalStarts", &JsSession::intervalStarts)
      .function("intervalEnds", &JsSession::intervalEnds)
      .function("intervalDepths", &JsSession::intervalDepths)
      .function("intervalRecords", &JsSession::intervalRecords)
      .function("markerTimes", &JsSession::markerTimes)
      .function("markerKinds", &JsSession::markerKinds)
      .function("markerThreads", &JsSession::markerThreads)
      .function("markerCpus", &JsSession::markerCpus)
      .function("markerLabels", &JsSession::markerLabels)
      .function("markerRecords", &JsSession::markerRecords)
      .function("frameSourceFrames", &JsSession::frameSourceFrames)
      .function("frameSourceStrings", &JsSession::frameSourceStrings)
      .function("analyze", &JsSession::analyze)
      .function("analysisCanon", &JsSession::analysisCanon)
      .function("analysisNameIds", &JsSession::analysisNameIds)
      .function("analysisName", &JsSession::analysisName)
      .function("analysisLibrary", &JsSession::analysisLibrary);
}
