#include "core/api/analysis_options_json.h"

#include <cmath>
#include <limits>

#include "core/api/json_reader.h"

namespace profscope {

namespace {

class OptionReader {
 public:
  bool Int(const JsonValue* v, const char* what, int32_t* out) {
    if (!v) return true;
    if (!v->IsNumber() || v->number != std::floor(v->number) || v->number < std::numeric_limits<int32_t>::min() ||
        v->number > std::numeric_limits<int32_t>::max())
      return Fail(std::string(what) + " is not a 32-bit integer");
    *out = static_cast<int32_t>(v->number);
    return true;
  }
  bool Ints(const JsonValue* v, const char* what, std::vector<int32_t>* out) {
    if (!v) return true;
    if (v->type != JsonValue::Type::kArray) return Fail(std::string(what) + " is not a list");
    out->clear();
    for (const JsonValue& x : v->items) {
      int32_t i = 0;
      if (!Int(&x, what, &i)) return false;
      out->push_back(i);
    }
    return true;
  }
  bool Bool(const JsonValue* v, const char* what, bool* out) {
    if (!v) return true;
    if (v->type != JsonValue::Type::kBool) return Fail(std::string(what) + " is not true or false");
    *out = v->boolean;
    return true;
  }
  bool Str(const JsonValue* v, const char* what, std::string* out) {
    if (!v) return true;
    if (v->type != JsonValue::Type::kString) return Fail(std::string(what) + " is not a string");
    *out = v->string;
    return true;
  }
  // A time relative to the origin, as an absolute time (rounded up, or down for an end).
  bool Time(const JsonValue* v, const char* what, uint64_t origin, bool end, bool* has, uint64_t* out) {
    if (!v) return true;
    if (!v->IsNumber() || !std::isfinite(v->number)) return Fail(std::string(what) + " is not a number");
    const double t = end ? std::floor(v->number) : std::ceil(v->number);
    *has = true;
    if (t < 0) *out = end ? (origin > 0 ? origin - 1 : 0) : origin;
    else if (t >= 18446744073709551616.0 - static_cast<double>(origin)) *out = std::numeric_limits<uint64_t>::max();
    else *out = origin + static_cast<uint64_t>(t);
    return true;
  }
  bool Fail(const std::string& what) {
    if (error.empty()) error = what;
    return false;
  }
  std::string error;
};

bool TransformType(const std::string& s, AnalysisTransform::Type* out) {
  static const std::pair<const char*, AnalysisTransform::Type> kTypes[] = {
      {"focus-subtree", AnalysisTransform::Type::kFocusSubtree},   {"focus-function", AnalysisTransform::Type::kFocusFunction},
      {"merge-function", AnalysisTransform::Type::kMergeFunction}, {"drop-function", AnalysisTransform::Type::kDropFunction},
      {"collapse-recursion", AnalysisTransform::Type::kCollapseRecursion},
      {"collapse-library", AnalysisTransform::Type::kCollapseLibrary},
  };
  for (const auto& [name, type] : kTypes)
    if (s == name) { *out = type; return true; }
  return false;
}

}  // namespace

bool ParseAnalysisOptions(std::string_view json, uint64_t time_origin, AnalysisOptions* out, std::string* error) {
  *out = AnalysisOptions();
  JsonValue root;
  std::string err;
  if (!ParseJson(json, &root, &err)) {
    if (error) *error = "analysis options: " + err;
    return false;
  }
  OptionReader r;
  bool ok = root.type == JsonValue::Type::kObject || r.Fail("not a JSON object");
  if (const JsonValue* f = ok ? root.Find("filter") : nullptr) {
    ok = ok && r.Int(f->Find("event"), "filter.event", &out->event);
    ok = ok && r.Ints(f->Find("threads"), "filter.threads", &out->threads);
    ok = ok && r.Ints(f->Find("cpus"), "filter.cpus", &out->cpus);
    ok = ok && r.Time(f->Find("t0"), "filter.t0", time_origin, false, &out->has_t0, &out->t0);
    ok = ok && r.Time(f->Find("t1"), "filter.t1", time_origin, true, &out->has_t1, &out->t1);
  }
  if (const JsonValue* ts = ok ? root.Find("transforms") : nullptr) {
    ok = ts->type == JsonValue::Type::kArray || r.Fail("transforms is not a list");
    for (size_t i = 0; ok && i < ts->items.size(); ++i) {
      const JsonValue& t = ts->items[i];
      std::string type;
      AnalysisTransform x;
      ok = r.Str(t.Find("type"), "transforms[].type", &type);
      if (!ok || !TransformType(type, &x.type)) continue;
      ok = r.Int(t.Find("func"), "transforms[].func", &x.func) && r.Ints(t.Find("path"), "transforms[].path", &x.path) &&
           r.Str(t.Find("lib"), "transforms[].lib", &x.lib);
      if (ok) out->transforms.push_back(std::move(x));
    }
  }
  ok = ok && r.Bool(root.Find("invert"), "invert", &out->invert);
  if (const JsonValue* w = ok ? root.Find("weight") : nullptr) {
    std::string weight;
    ok = r.Str(w, "weight", &weight);
    out->weighted = weight == "time" || weight == "period";
  }
  if (const JsonValue* sw = ok ? root.Find("sandwich") : nullptr) {
    std::string mode;
    ok = r.Str(sw->Find("mode"), "sandwich.mode", &mode) && r.Int(sw->Find("func"), "sandwich.func", &out->sandwich_func);
    out->sandwich = mode == "callers"   ? AnalysisOptions::Sandwich::kCallers
                    : mode == "callees" ? AnalysisOptions::Sandwich::kCallees
                                        : AnalysisOptions::Sandwich::kNone;
  }
  if (!ok) {
    if (error) *error = "analysis options: " + r.error;
    *out = AnalysisOptions();
  }
  return ok;
}

}  // namespace profscope
