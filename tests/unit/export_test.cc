// The export writers on a small hand-made profile: speedscope, chrome and gecko
// compared as text (goldens), pprof decoded back (gunzip + protozero), XRay
// self times, weights and refusals.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <protozero/pbf_reader.hpp>
#include <string>
#include <vector>

#include "core/api/export/exporter.h"

namespace profscope::exporter {
namespace {

// Two threads of one process (app, tid 10; an unnamed tid 11), event cpu-clock,
// one mapping /bin/app; a frame with a source position (leaf: src/a.c:12).
//   t=1000 tid10 main;work    t=1500 tid11 main
//   t=2000 tid10 main;work    t=3000 tid10 main;leaf    t=4000 tid10 main;work
DecodeResult Fixture() {
  DecodeResult r;
  r.format = "perf.data";
  Profile& p = r.profile;
  p.threads.tid = {10, 11};
  p.threads.pid = {10, 10};
  p.threads.name = {p.strings.Intern("app"), kNone};
  p.threads.start = {0, 0};
  p.threads.end = {0, 0};
  p.threads.samples = {4, 1};
  p.events.name = {p.strings.Intern("cpu-clock")};
  p.events.samples = {5};
  p.mappings.pid = {10};
  p.mappings.start = {0x1000};
  p.mappings.end = {0x2000};
  p.mappings.pgoff = {0};
  p.mappings.path = {p.strings.Intern("/bin/app")};
  p.mappings.build_id = {kNone};
  p.mappings.time = {0};
  p.mappings.record = {0};
  StackBuilder b(p);
  auto frame = [&](const char* n, uint64_t a) { return b.Frame(a, b.Func(p.strings.Intern(n), 0), 0); };
  int32_t main = frame("main", 0x1100), work = frame("work", 0x1200), leaf = frame("leaf", 0x1300);
  p.frame_sources.frame = {leaf};
  p.frame_sources.source = {p.strings.Intern("src/a.c:12")};
  int32_t s_main = b.Stack(kNone, main), s_work = b.Stack(s_main, work), s_leaf = b.Stack(s_main, leaf);
  auto add = [&](uint64_t t, int32_t th, int32_t st) {
    p.samples.time.push_back(t);
    p.samples.thread.push_back(th);
    p.samples.cpu.push_back(0);
    p.samples.event.push_back(0);
    p.samples.weight.push_back(1000);
    p.samples.stack.push_back(st);
    p.samples.record.push_back(kNone);
  };
  add(1000, 0, s_work);
  add(1500, 1, s_main);
  add(2000, 0, s_work);
  add(3000, 0, s_leaf);
  add(4000, 0, s_work);
  p.markers.Add(2500, p.strings.Intern("COMM"), 0, 0, p.strings.Intern("comm app"), 0);
  r.time_start = 1000;
  r.time_end = 4000;
  return r;
}

Output Exp(const DecodeResult& r, const char* format, const char* weight = "", const char* event = "") {
  return ExportByName(r, format, weight, event);
}

TEST(Export, NumbersAreDecimalTextFromIntegers) {
  std::string s;
  AppendScaled(s, 1234567, 6);
  s += ' ';
  AppendScaled(s, 1000, 3);
  s += ' ';
  AppendScaled(s, 1500, 3);
  s += ' ';
  AppendScaled(s, 7, 3);
  s += ' ';
  AppendInt(s, -42);
  EXPECT_EQ(s, "1.234567 1 1.5 0.007 -42");
}

TEST(Export, Speedscope) {
  Output o = Exp(Fixture(), "speedscope");
  ASSERT_EQ(o.error, "");
  EXPECT_EQ(o.bytes,
            "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"profscope\","
            "\"name\":\"profscope: perf.data (samples)\",\"activeProfileIndex\":0,\"shared\":{\"frames\":["
            "{\"name\":\"main\"},{\"name\":\"work\"},{\"name\":\"leaf\",\"file\":\"src/a.c\",\"line\":12}]},\"profiles\":["
            "{\"type\":\"sampled\",\"name\":\"app (pid 10, tid 10)\",\"unit\":\"none\",\"startValue\":0,\"endValue\":4,"
            "\"samples\":[[0,1],[0,1],[0,2],[0,1]],\"weights\":[1,1,1,1]},"
            "{\"type\":\"sampled\",\"name\":\"thread 11\",\"unit\":\"none\",\"startValue\":0,\"endValue\":1,"
            "\"samples\":[[0]],\"weights\":[1]}]}\n");
  // cpu-clock's period is ns: period and time weights are the same here
  Output t = Exp(Fixture(), "speedscope", "time");
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.bytes.find("\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":4000,"), std::string::npos);
  EXPECT_NE(t.bytes.find("\"weights\":[1000,1000,1000,1000]"), std::string::npos);
}

TEST(Export, ChromeMergesRunsOfSamplesAsTheFlameChartDoes) {
  Output o = Exp(Fixture(), "chrome");
  ASSERT_EQ(o.error, "");
  // tid 10: samples at 0,1,2,3 us (typical gap 1 us; a sample lasts until the next one, the
  // last one 4 gaps, as in the flame chart): main 0-7, work 0-2, leaf 2-3, work 3-7;
  // tid 11: one sample (gap 1 ns: it lasts 4 ns).
  EXPECT_EQ(o.bytes,
            "{\"traceEvents\":[\n"
            "{\"ph\":\"M\",\"pid\":10,\"tid\":10,\"name\":\"process_name\",\"args\":{\"name\":\"app\"}},\n"
            "{\"ph\":\"M\",\"pid\":10,\"tid\":10,\"name\":\"thread_name\",\"args\":{\"name\":\"app\"}},\n"
            "{\"ph\":\"M\",\"pid\":10,\"tid\":11,\"name\":\"thread_name\",\"args\":{\"name\":\"thread 11\"}},\n"
            "{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":0,\"dur\":7,\"name\":\"main\",\"cat\":\"samples\",\"args\":{\"samples\":4}},\n"
            "{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":0,\"dur\":2,\"name\":\"work\",\"cat\":\"samples\",\"args\":{\"samples\":2}},\n"
            "{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":2,\"dur\":1,\"name\":\"leaf\",\"cat\":\"samples\",\"args\":{\"samples\":1}},\n"
            "{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":3,\"dur\":4,\"name\":\"work\",\"cat\":\"samples\",\"args\":{\"samples\":1}},\n"
            "{\"ph\":\"X\",\"pid\":10,\"tid\":11,\"ts\":0.5,\"dur\":0.004,\"name\":\"main\",\"cat\":\"samples\",\"args\":{\"samples\":1}},\n"
            "{\"ph\":\"i\",\"pid\":10,\"tid\":10,\"s\":\"t\",\"ts\":1.5,\"name\":\"COMM\",\"cat\":\"marker\",\"args\":{\"label\":\"comm app\"}}\n"
            "],\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":\"profscope\",\"format\":\"perf.data\"}}\n");
}

TEST(Export, GeckoThreadTables) {
  Output o = Exp(Fixture(), "gecko");
  ASSERT_EQ(o.error, "");
  // thread "app": frames "name (in app)", leaf with its line; samples at ms from the start
  EXPECT_NE(o.bytes.find("\"stringTable\":[\"main (in app)\",\"work (in app)\",\"leaf (in app)\",\"COMM\"]"), std::string::npos) << o.bytes;
  EXPECT_NE(o.bytes.find("\"data\":[[0,false,0,null,null,null,null,0,0],[1,false,0,null,null,null,null,0,0],"
                         "[2,false,0,null,null,12,null,0,0]]"),
            std::string::npos);
  EXPECT_NE(o.bytes.find("\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0],[0,1],[0,2]]}"), std::string::npos);
  EXPECT_NE(o.bytes.find("\"data\":[[1,0,0],[1,0.001,0],[2,0.002,0],[1,0.003,0]]"), std::string::npos);
  EXPECT_NE(o.bytes.find("\"data\":[[3,0.0015,null,0,0,{\"type\":\"Text\",\"name\":\"comm app\"}]]"), std::string::npos);
  EXPECT_NE(o.bytes.find("\"meta\":{\"interval\":0.001,"), std::string::npos);
  EXPECT_NE(o.bytes.find("\"startTime\":0.001,"), std::string::npos);
  EXPECT_NE(o.bytes.find("\"version\":24,\"presymbolicated\":true"), std::string::npos);
  EXPECT_EQ(Exp(Fixture(), "gecko", "period").error, "the Gecko format has one row per sample and no weights: use --weight samples");
}

std::string Gunzip(const std::string& gz) {
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
  std::string out(1 << 20, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  zs.avail_in = static_cast<uInt>(gz.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - zs.avail_out);
  inflateEnd(&zs);
  return out;
}

TEST(Export, PprofReadsBack) {
  Output o = Exp(Fixture(), "pprof");
  ASSERT_EQ(o.error, "");
  // gzip header: magic, deflate, no flags, mtime 0, OS 255
  ASSERT_GE(o.bytes.size(), 10u);
  EXPECT_EQ(static_cast<uint8_t>(o.bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<uint8_t>(o.bytes[1]), 0x8b);
  EXPECT_EQ(o.bytes.substr(4, 4), std::string(4, '\0'));
  EXPECT_EQ(static_cast<uint8_t>(o.bytes[9]), 255);
  std::string body = Gunzip(o.bytes);
  protozero::pbf_reader r(body);
  std::vector<std::string> strings;
  std::vector<std::vector<int64_t>> values;
  std::vector<std::vector<uint64_t>> locs;
  int sample_types = 0, locations = 0, functions = 0, mappings = 0;
  int64_t duration = 0;
  while (r.next()) {
    switch (r.tag()) {
      case 1: ++sample_types; r.skip(); break;
      case 2: {
        protozero::pbf_reader s = r.get_message();
        values.emplace_back();
        locs.emplace_back();
        while (s.next()) {
          if (s.tag() == 1) for (auto v : s.get_packed_uint64()) locs.back().push_back(v);
          else if (s.tag() == 2) for (auto v : s.get_packed_int64()) values.back().push_back(v);
          else s.skip();
        }
        break;
      }
      case 3: ++mappings; r.skip(); break;
      case 4: ++locations; r.skip(); break;
      case 5: ++functions; r.skip(); break;
      case 6: strings.push_back(r.get_string()); break;
      case 10: duration = r.get_int64(); break;
      default: r.skip();
    }
  }
  ASSERT_FALSE(strings.empty());
  EXPECT_EQ(strings[0], "");
  EXPECT_EQ(sample_types, 2);  // samples/count, cpu-clock/nanoseconds
  // aggregated by (stack, thread): main;work x3 on tid 10, main on tid 11, main;leaf
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0], (std::vector<int64_t>{3, 3000}));
  EXPECT_EQ(values[1], (std::vector<int64_t>{1, 1000}));
  EXPECT_EQ(values[2], (std::vector<int64_t>{1, 1000}));
  EXPECT_EQ(locs[0], (std::vector<uint64_t>{1, 2}));  // leaf first
  EXPECT_EQ(locations, 3);
  EXPECT_EQ(functions, 3);
  EXPECT_EQ(mappings, 1);
  EXPECT_EQ(duration, 3000);
  for (const char* s : {"samples", "count", "cpu-clock", "nanoseconds", "main", "work", "leaf", "src/a.c", "/bin/app", "app", "tid"})
    EXPECT_NE(std::find(strings.begin(), strings.end(), s), strings.end()) << s;
}

TEST(Export, XRaySelfTimesSubtractDirectCallees) {
  // thread 0: A [0,100) { B [10,40) { D [15,20) }, C [50,60) }; samples are the calls (record = entry row)
  Profile p;
  auto call = [&](uint64_t s, uint64_t e, int32_t depth, int32_t rec) {
    p.intervals.thread.push_back(0);
    p.intervals.func.push_back(0);
    p.intervals.start.push_back(s);
    p.intervals.end.push_back(e);
    p.intervals.depth.push_back(depth);
    p.intervals.record.push_back(rec);
    p.samples.time.push_back(s);
    p.samples.thread.push_back(0);
    p.samples.cpu.push_back(kNone);
    p.samples.event.push_back(0);
    p.samples.weight.push_back(static_cast<double>(e - s));
    p.samples.stack.push_back(kNone);
    p.samples.record.push_back(rec);
  };
  // in exit order, as the XRay decoder adds them
  call(15, 20, 2, 3);
  call(10, 40, 1, 2);
  call(50, 60, 1, 4);
  call(0, 100, 0, 1);
  EXPECT_EQ(XRaySelfTicks(p), (std::vector<uint64_t>{5, 25, 10, 60}));
}

TEST(Export, RefusalsSayWhy) {
  DecodeResult r = Fixture();
  EXPECT_EQ(Exp(r, "speedscope", "samples", "cycles").error, "no event named cycles");
  EXPECT_EQ(Exp(r, "svg").error, "unknown export format svg (folded, speedscope, gecko, pprof, chrome)");
  EXPECT_EQ(Exp(r, "speedscope", "bytes").error, "unknown weight bytes (samples, period, time)");
  r.profile.strings.Intern("cycles");
  r.profile.events.name[0] = r.profile.strings.Intern("cycles");
  EXPECT_EQ(Exp(r, "speedscope", "time").error,
            "time weights need a clock event (cpu-clock, task-clock) whose period is in ns; event cycles counts something "
            "else (use --weight period or samples)");
  EXPECT_EQ(Exp(r, "speedscope", "period").error, "");
  // folded is stacks' text
  EXPECT_EQ(Exp(Fixture(), "folded").bytes, "main 1\nmain;leaf 1\nmain;work 3\n");
}

}  // namespace
}  // namespace profscope::exporter
