// What the export writers share: the options, the time base (one origin, ticks
// to ns), per-sample weights, frame names/modules/source positions, thread
// labels and deterministic number text (integer arithmetic only, so the native
// and the WASM build write the same bytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/io/path_name.h"

namespace profscope::exporter {

enum class Format { kFolded, kSpeedscope, kGecko, kPprof, kChrome };
// What a sample weighs: its count (SampleTable::Count), its period
// (SampleTable::weight: perf's period, gperftools' period x count), or the
// time it stands for in ns (perf cpu-clock/task-clock periods, gperftools'
// period, an XRay call's self time).
enum class Weight { kSamples, kPeriod, kTime };

struct Options {
  Format format = Format::kFolded;
  Weight weight = Weight::kSamples;
  std::string event;  // keep one event (by name); empty = every event
};

// The written file (bytes: text for the JSON formats, gzip for pprof), or why
// nothing was written (error non-empty, bytes empty).
struct Output {
  std::string bytes;
  std::string error;
};

// "folded" | "speedscope" | "gecko" | "pprof" | "chrome"; false when unknown.
bool ParseFormat(const std::string& s, Format* out);
// "samples" | "period" | "time"; false when unknown.
bool ParseWeight(const std::string& s, Weight* out);
const char* FormatName(Format f);
const char* WeightName(Weight w);

// Times of one decode relative to one origin, in ns: the origin is the
// smallest non-zero time of the samples, intervals and markers (0 = "no
// time" in those tables); XRay TSC ticks become ns with DecodeResult::clock_hz.
class TimeBase {
 public:
  explicit TimeBase(const DecodeResult& res);
  uint64_t origin() const { return origin_; }
  // ns since the origin (0 for times before it).
  uint64_t Rel(uint64_t t) const { return t > origin_ ? ToNs(t - origin_) : 0; }
  uint64_t ToNs(uint64_t ticks) const;  // a duration in the file's clock -> ns
  uint64_t OriginNs() const { return ToNs(origin_); }

 private:
  uint64_t origin_ = 0;
  uint64_t hz_ = 0;
};

// Decimal text of ns / 10^digits with `digits` fraction digits, trailing zeros
// (and a bare '.') dropped: AppendScaled(o, 1234567, 6) -> "1.234567".
void AppendScaled(std::string& out, uint64_t ns, int digits);
inline void AppendMillis(std::string& out, uint64_t ns) { AppendScaled(out, ns, 6); }
inline void AppendMicros(std::string& out, uint64_t ns) { AppendScaled(out, ns, 3); }
void AppendNum(std::string& out, uint64_t v);
void AppendInt(std::string& out, int64_t v);
void AppendQuoted(std::string& out, const std::string& s);  // JSON string

using profscope::BaseName;  // core/io/path_name.h

inline uint64_t SatAdd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
inline uint64_t SatMul(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
inline int64_t ToI64(uint64_t v) { return v > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(v); }

// The event row named `name` (kNone for "" = every event); false when the
// profile has no such event.
bool FindEvent(const Profile& p, const std::string& name, int32_t* event);
inline bool EventPasses(int32_t want, int32_t e) { return want == kNone || want == e; }

// Per-sample weights (one per SampleTable row) in the chosen unit; false with
// *error set when the profile has no such weight. *unit is speedscope's name of
// the unit ("none" or "nanoseconds").
bool SampleWeights(const DecodeResult& res, Weight w, std::vector<uint64_t>* out, std::string* unit, std::string* error);

// Self time of each XRay call (its interval minus its direct callees'),
// in the file's clock, per sample row; from Profile::intervals.
std::vector<uint64_t> XRaySelfTicks(const Profile& p);

// Source position of each frame from Profile::frame_sources ("file:line").
struct FrameSources {
  std::vector<int32_t> file;   // per frame: string id of the file, kNone when unknown
  std::vector<int64_t> line;   // 0 when unknown
  std::vector<std::string> files;  // file strings (index = file id above)
};
FrameSources SourcesOf(const Profile& p);

// Display names.
std::string FuncName(const Profile& p, int32_t func);  // "[unknown]" for kNone
std::string ModuleName(const Profile& p, int32_t mapping);  // mapping file name, "" for kNone
bool IsKernelMapping(const Profile& p, int32_t mapping);
std::string ThreadName(const Profile& p, int32_t thread);  // latest name, else ""
// "name (pid P, tid T)" or "thread T".
std::string ThreadLabel(const Profile& p, int32_t thread);

// Sample rows of each thread in time order (file order among equal times),
// only those of `event` (kNone = all). Index = thread row; samples whose thread
// is kNone or out of range go to one extra list at the end.
std::vector<std::vector<uint32_t>> SamplesByThread(const Profile& p, int32_t event);

// Root-first frame rows of a stack.
void StackFrames(const Profile& p, int32_t stack, std::vector<int32_t>& out);

}  // namespace profscope::exporter
