// The JSON reader (core/api/json_reader.h) and the analysis options' JSON form
// (core/api/analysis_options_json.h): every member, times against the origin,
// and refusals (with the offset or the member) for text a person may have edited.
#include "core/api/analysis_options_json.h"

#include <gtest/gtest.h>

#include <string>

#include "core/api/json_reader.h"

namespace profscope {
namespace {

TEST(JsonReader, ReadsEveryKindOfValue) {
  JsonValue v;
  std::string err;
  ASSERT_TRUE(ParseJson(R"( {"a": [1, -2.5e1, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} )", &v, &err)) << err;
  ASSERT_EQ(v.type, JsonValue::Type::kObject);
  const JsonValue* a = v.Find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items.size(), 5u);
  EXPECT_EQ(a->items[0].number, 1);
  EXPECT_EQ(a->items[1].number, -25);
  EXPECT_TRUE(a->items[2].boolean);
  EXPECT_EQ(a->items[4].type, JsonValue::Type::kNull);
  EXPECT_EQ(v.Find("s")->string, "x\"\\/\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(v.Find("o")->type, JsonValue::Type::kObject);
  EXPECT_EQ(v.Find("missing"), nullptr);
}

TEST(JsonReader, RefusesWhatIsNotOneValueSayingWhere) {
  const char* bad[] = {"", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"a", "\"\\x\"", "{} {}", "[1 2]", "\"\x01\""};
  for (const char* text : bad) {
    JsonValue v;
    std::string err;
    EXPECT_FALSE(ParseJson(text, &v, &err)) << text;
    EXPECT_EQ(err.rfind("offset ", 0), 0u) << text << ": " << err;
  }
  JsonValue v;
  std::string err;
  EXPECT_FALSE(ParseJson("[1, x]", &v, &err));
  EXPECT_EQ(err, "offset 4: a value was expected");
}

TEST(JsonReader, BoundsNesting) {
  std::string deep(kJsonMaxDepth, '[');
  deep += std::string(kJsonMaxDepth, ']');
  JsonValue v;
  std::string err;
  EXPECT_TRUE(ParseJson(deep, &v, &err)) << err;
  std::string deeper(100000, '[');
  EXPECT_FALSE(ParseJson(deeper, &v, &err));
  EXPECT_NE(err.find("nested deeper than 64"), std::string::npos) << err;
}

TEST(JsonReader, LoneSurrogateBecomesReplacementCharacter) {
  JsonValue v;
  std::string err;
  ASSERT_TRUE(ParseJson(R"("\ud800x")", &v, &err)) << err;
  EXPECT_EQ(v.string, "\xef\xbf\xbdx");
}

TEST(AnalysisOptionsJson, ReadsEveryMember) {
  AnalysisOptions o;
  std::string err;
  ASSERT_TRUE(ParseAnalysisOptions(
      R"({"filter":{"event":2,"threads":[0,3],"cpus":[-1,1],"t0":10.2,"t1":20.8,"pid":7},
          "transforms":[{"type":"focus-subtree","path":[1,4],"label":"a → b"},{"type":"merge-function","func":5},
          {"type":"collapse-library","lib":"/lib/libc.so.6"},{"type":"unknown-kind","func":1},
          {"type":"collapse-recursion","func":3},{"type":"drop-function","func":6},{"type":"focus-function","func":2}],
          "invert":true,"search":"x"})",
      1000, &o, &err))
      << err;
  EXPECT_EQ(o.event, 2);
  EXPECT_EQ(o.threads, (std::vector<int32_t>{0, 3}));
  EXPECT_EQ(o.cpus, (std::vector<int32_t>{-1, 1}));
  // relative to the origin; the start rounded up, the end down
  EXPECT_TRUE(o.has_t0);
  EXPECT_TRUE(o.has_t1);
  EXPECT_EQ(o.t0, 1011u);
  EXPECT_EQ(o.t1, 1020u);
  ASSERT_EQ(o.transforms.size(), 6u);  // the unknown one is skipped
  EXPECT_EQ(o.transforms[0].type, AnalysisTransform::Type::kFocusSubtree);
  EXPECT_EQ(o.transforms[0].path, (std::vector<int32_t>{1, 4}));
  EXPECT_EQ(o.transforms[1].type, AnalysisTransform::Type::kMergeFunction);
  EXPECT_EQ(o.transforms[1].func, 5);
  EXPECT_EQ(o.transforms[2].type, AnalysisTransform::Type::kCollapseLibrary);
  EXPECT_EQ(o.transforms[2].lib, "/lib/libc.so.6");
  EXPECT_EQ(o.transforms[3].type, AnalysisTransform::Type::kCollapseRecursion);
  EXPECT_EQ(o.transforms[4].type, AnalysisTransform::Type::kDropFunction);
  EXPECT_EQ(o.transforms[5].type, AnalysisTransform::Type::kFocusFunction);
  EXPECT_TRUE(o.invert);
  EXPECT_EQ(o.sandwich, AnalysisOptions::Sandwich::kNone);
}

TEST(AnalysisOptionsJson, EmptyNullAndSandwich) {
  AnalysisOptions o;
  std::string err;
  ASSERT_TRUE(ParseAnalysisOptions("{}", 0, &o, &err)) << err;
  EXPECT_EQ(o.event, -1);
  EXPECT_FALSE(o.has_t0 || o.has_t1 || o.invert);
  ASSERT_TRUE(ParseAnalysisOptions(R"({"filter":{"event":null,"t0":null,"t1":null},"transforms":null,"sandwich":{"mode":"callers","func":4}})", 0, &o, &err)) << err;
  EXPECT_EQ(o.event, -1);
  EXPECT_FALSE(o.has_t0 || o.has_t1);
  EXPECT_EQ(o.sandwich, AnalysisOptions::Sandwich::kCallers);
  EXPECT_EQ(o.sandwich_func, 4);
  ASSERT_TRUE(ParseAnalysisOptions(R"({"sandwich":{"mode":"callees","func":0}})", 0, &o, &err)) << err;
  EXPECT_EQ(o.sandwich, AnalysisOptions::Sandwich::kCallees);
  EXPECT_FALSE(o.weighted);
}

TEST(AnalysisOptionsJson, Weight) {
  AnalysisOptions o;
  std::string err;
  for (const char* w : {"time", "period"}) {
    ASSERT_TRUE(ParseAnalysisOptions(std::string(R"({"weight":")") + w + "\"}", 0, &o, &err)) << err;
    EXPECT_TRUE(o.weighted) << w;
  }
  for (const char* w : {"count", "samples"}) {
    ASSERT_TRUE(ParseAnalysisOptions(std::string(R"({"weight":")") + w + "\"}", 0, &o, &err)) << err;
    EXPECT_FALSE(o.weighted) << w;
  }
  EXPECT_FALSE(ParseAnalysisOptions(R"({"weight":3})", 0, &o, &err));
  EXPECT_NE(err.find("weight"), std::string::npos) << err;
}

TEST(AnalysisOptionsJson, TimesBeforeTheOriginClamp) {
  AnalysisOptions o;
  std::string err;
  ASSERT_TRUE(ParseAnalysisOptions(R"({"filter":{"t0":-5,"t1":-0.5}})", 1000, &o, &err)) << err;
  EXPECT_EQ(o.t0, 1000u);
  EXPECT_EQ(o.t1, 999u);  // before every time of the file
  ASSERT_TRUE(ParseAnalysisOptions(R"({"filter":{"t0":0,"t1":-1}})", 0, &o, &err)) << err;
  EXPECT_EQ(o.t0, 0u);
  EXPECT_EQ(o.t1, 0u);
  ASSERT_TRUE(ParseAnalysisOptions(R"({"filter":{"t1":1e300}})", 1000, &o, &err)) << err;
  EXPECT_EQ(o.t1, UINT64_MAX);
}

TEST(AnalysisOptionsJson, RefusesWrongTypesNamingTheMember) {
  struct Case {
    const char* json;
    const char* says;
  } cases[] = {
      {"[]", "not a JSON object"},
      {R"({"filter":{"event":1.5}})", "filter.event is not a 32-bit integer"},
      {R"({"filter":{"event":4294967296}})", "filter.event is not a 32-bit integer"},
      {R"({"filter":{"threads":3}})", "filter.threads is not a list"},
      {R"({"filter":{"cpus":["0"]}})", "filter.cpus is not a 32-bit integer"},
      {R"({"filter":{"t0":"1"}})", "filter.t0 is not a number"},
      {R"({"transforms":{}})", "transforms is not a list"},
      {R"({"transforms":[{"type":7}]})", "transforms[].type is not a string"},
      {R"({"transforms":[{"type":"focus-subtree","path":[true]}]})", "transforms[].path is not a 32-bit integer"},
      {R"({"invert":1})", "invert is not true or false"},
      {R"({"sandwich":{"mode":"callers","func":"f"}})", "sandwich.func is not a 32-bit integer"},
      {R"({"filter":)", "analysis options: offset 10: a value was expected"},
  };
  for (const auto& c : cases) {
    AnalysisOptions o;
    o.invert = true;
    std::string err;
    EXPECT_FALSE(ParseAnalysisOptions(c.json, 0, &o, &err)) << c.json;
    EXPECT_NE(err.find(c.says), std::string::npos) << c.json << ": " << err;
    EXPECT_FALSE(o.invert) << "options are reset on a refusal";
  }
}

}  // namespace
}  // namespace profscope
