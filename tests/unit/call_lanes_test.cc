// An XRay log's flame chart lanes as summaries and calls per column (core/analysis/call_lanes.h), against
// what the page computed from every call's lane entry (Session::Lanes(false): chart-model.js typicalGap and
// laneActivity): real logs of tests/data (one thread and several, basic and FDR mode, calls that never
// exited in a log cut short), in windows over the whole span, zoomed in, before and after the calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/call_lanes.h"
#include "core/api/session.h"
#include "core/io/byte_source.h"

namespace profscope {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// chart-model.js typicalGap
double TypicalGap(const std::vector<double>& times) {
  const size_t n = times.size();
  if (n < 2) return 0;
  const size_t step = std::max<size_t>(1, (n - 1) / 2000);
  std::vector<double> d;
  for (size_t i = 1; i < n; i += step) d.push_back(times[i] - times[i - 1]);
  std::sort(d.begin(), d.end());
  return std::max(d[d.size() >> 1], 0.0);
}

// chart-model.js laneActivity
std::vector<float> Activity(const std::vector<double>& times, double t0, double t1, size_t cols) {
  std::vector<float> out(cols, 0);
  const double dt = (t1 - t0) / static_cast<double>(cols);
  if (!(dt > 0)) return out;
  for (const double t : times) {
    if (t < t0 || t >= t1) continue;
    out[std::min(cols - 1, static_cast<size_t>(std::floor((t - t0) / dt)))] += 1;
  }
  return out;
}

void Check(const std::vector<uint8_t>& bytes, const std::string& what) {
  SCOPED_TRACE(what);
  MemorySource src(bytes);
  Session s(src, "xray.log");
  s.Decode();
  if (s.result().profile.samples.size() == 0) {  // (cut before any call exited: no lanes)
    EXPECT_FALSE(s.CallsAreSamples());
    return;
  }
  ASSERT_TRUE(s.CallsAreSamples());
  const double scale = 2.5;  // (ticks to ns, as the worker's)
  const SampleLanes lanes = s.Lanes(false);
  const auto& time = s.result().profile.samples.time;
  const size_t n_lanes = lanes.start.size() - 1;
  // the page's lanes: those with samples, thread -1 last
  std::vector<int32_t> thread;
  std::vector<std::vector<double>> times;
  for (size_t l = 0; l < n_lanes; ++l) {
    if (lanes.start[l + 1] == lanes.start[l]) continue;
    thread.push_back(l + 1 < n_lanes ? static_cast<int32_t>(l) : -1);
    times.emplace_back();
    for (int32_t k = lanes.start[l]; k < lanes.start[l + 1]; ++k) {
      const int32_t sample = lanes.samples[static_cast<size_t>(k)];
      times.back().push_back(s.RelativeTime(time[static_cast<size_t>(sample)]) * scale);
      ASSERT_EQ(s.SampleLane(sample), thread.back()) << "sample " << sample;  // (where a selected record is marked)
    }
  }
  EXPECT_EQ(s.SampleLane(-1), -1);
  EXPECT_EQ(s.SampleLane(static_cast<int64_t>(s.result().profile.samples.size())), -1);
  const CallLaneSummary sum = s.CallLanes(scale);
  ASSERT_EQ(sum.thread, thread);
  double lo = INFINITY, hi = -INFINITY;
  bool one_call = false;
  for (size_t j = 0; j < thread.size(); ++j) {
    EXPECT_EQ(sum.count[j], static_cast<double>(times[j].size()));
    EXPECT_EQ(sum.first[j], times[j].front());
    EXPECT_EQ(sum.last[j], times[j].back());
    EXPECT_NEAR(sum.gap[j], TypicalGap(times[j]), 1e-9 * std::max(1.0, times[j].back())) << "lane " << j;
    one_call = one_call || times[j].size() == 1;
    lo = std::min(lo, times[j].front());
    hi = std::max(hi, times[j].back());
  }
  if (one_call) {
    std::vector<double> all;
    for (const auto& t : times) all.insert(all.end(), t.begin(), t.end());
    std::sort(all.begin(), all.end());
    EXPECT_NEAR(sum.file_gap, TypicalGap(all), 1e-9 * std::max(1.0, hi));
  }
  // windows: the whole span (its end padded), its middle tenth, one narrower than a column, before and after
  const double span = std::max(hi - lo, 1.0);
  const std::vector<std::pair<double, double>> windows = {
      {lo, hi + span / 100}, {lo + span * 0.45, lo + span * 0.55}, {lo + span / 3, lo + span / 3 + span / 1e6},
      {lo - span, lo}, {hi + 1, hi + span}};
  for (const size_t cols : {size_t{1}, size_t{7}, size_t{640}}) {
    for (const auto& [t0, t1] : windows) {
      const std::vector<float> got = s.LaneCallActivity(sum.thread, scale, t0, t1, static_cast<int32_t>(cols));
      ASSERT_EQ(got.size(), thread.size() * cols);
      for (size_t j = 0; j < thread.size(); ++j) {
        const std::vector<float> want = Activity(times[j], t0, t1, cols);
        ASSERT_EQ(std::vector<float>(got.begin() + static_cast<std::ptrdiff_t>(j * cols),
                                     got.begin() + static_cast<std::ptrdiff_t>((j + 1) * cols)),
                  want)
            << "lane " << j << " cols " << cols << " window " << t0 << " " << t1;
      }
    }
  }
  // a lane asked twice: answered at its first place, zeros at the other; a view it cannot be: zeros
  if (!thread.empty()) {
    const std::vector<int32_t> twice = {thread.back(), thread.back()};
    const std::vector<float> got = s.LaneCallActivity(twice, scale, lo, hi + 1, 16);
    const std::vector<float> want = Activity(times.back(), lo, hi + 1, 16);
    EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + 16), want);
    EXPECT_EQ(std::vector<float>(got.begin() + 16, got.end()), std::vector<float>(16, 0));
    for (const auto& [sc, a, b] : std::vector<std::tuple<double, double, double>>{
             {-1, -100, -5}, {0, lo, hi}, {scale, -INFINITY, hi}, {scale, lo, INFINITY}, {scale, NAN, hi}, {scale, hi, lo}})
      EXPECT_EQ(s.LaneCallActivity({thread.back()}, sc, a, b, 1000), std::vector<float>(1000, 0)) << sc << " " << a << " " << b;
  }
}

TEST(CallLanes, AsTheLanesOfEveryCallGiveThem) {
  const fs::path dir = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/xray";
  size_t logs = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const fs::path log = e.path() / "xray.log";
    if (!fs::exists(log)) continue;
    const std::vector<uint8_t> bytes = ReadAll(log);
    Check(bytes, log.string());
    // cut short: its last calls never exit (in the rows, but no samples)
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() * 2 / 3));
    Check(cut, log.string() + " cut at 2/3");
    ++logs;
  }
  EXPECT_GE(logs, 10u);
}

// Rows of thousands of calls (a long recording's: the tests/data logs have a few per row), counted per column
// by the search over the rows' blocks, at column counts around the page's: as laneActivity counts the starts.
TEST(CallLanes, LongRowsCountedPerColumnAsOneByOne) {
  Profile p;
  for (size_t d = 0; d < 4; ++d) {
    p.stacks.frame.push_back(0);
    p.stacks.prefix.push_back(d == 0 ? kNone : static_cast<int32_t>(d - 1));
  }
  // thread 0: 40 000 calls one after another at depth 0, each with one call inside it at depth 1, in exit
  // order; thread 1: 3 000 calls at depth 0, spread wider. Gaps of 1 to 50 ticks, ties between the threads.
  std::vector<double> times0, times1;
  uint64_t t = 1000, u = 1000;
  uint32_t seed = 7;
  auto rnd = [&](uint32_t m) { return ((seed = seed * 1103515245u + 12345u) >> 8 & 0xffff) % m; };
  auto add = [&](int32_t thread, int32_t depth, uint64_t start, uint64_t length) {
    p.samples.time.push_back(start);
    p.samples.thread.push_back(thread);
    p.samples.stack.push_back(depth + 1);
    p.samples.weight.push_back(length);
    p.samples.cpu.push_back(kNone);
    p.samples.event.push_back(0);
    p.samples.record.push_back(kNone);
  };
  for (int k = 0; k < 40000; ++k) {
    const uint64_t len = 4 + rnd(40);
    add(0, 1, t + 1, len - 2);  // (the inner call exits first)
    add(0, 0, t, len);
    times0.push_back(static_cast<double>(t));
    times0.push_back(static_cast<double>(t + 1));
    t += len + rnd(10);
    if (k % 13 == 0) {
      add(1, 0, u, 5);
      times1.push_back(static_cast<double>(u));
      u += 5 + rnd(200);
    }
  }
  std::sort(times0.begin(), times0.end());
  p.intervals.from_samples = p.samples.size();
  const IntervalView v(p);
  const IntervalRows rows = OrderIntervalRows(v, 0);
  const double lo = 1000, hi = static_cast<double>(std::max(t, u));
  for (const size_t cols : {size_t{1}, size_t{3}, size_t{600}, size_t{1280}}) {
    for (const auto& [t0, t1] : std::vector<std::pair<double, double>>{{lo, hi}, {lo + 7777, lo + 99999}, {hi / 2, hi / 2 + 3.5}}) {
      const std::vector<float> got = CallActivity(v, rows, p.samples, 2, 0, {0, 1}, 1.0, t0, t1, cols);
      EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(cols)), Activity(times0, t0, t1, cols))
          << cols << " " << t0 << " " << t1;
      EXPECT_EQ(std::vector<float>(got.begin() + static_cast<std::ptrdiff_t>(cols), got.end()), Activity(times1, t0, t1, cols))
          << cols << " " << t0 << " " << t1;
    }
  }
}

TEST(CallLanes, ASamplerHasNone) {
  const std::vector<uint8_t> bytes = ReadAll(fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf/leader_group_u/perf.data");
  MemorySource src(bytes);
  Session s(src, "perf.data");
  s.Decode();
  EXPECT_FALSE(s.CallsAreSamples());
  EXPECT_TRUE(s.CallLanes(1).thread.empty());
  const std::vector<float> zeros = s.LaneCallActivity({0, 1}, 1, 0, 1e9, 4);
  EXPECT_EQ(zeros, std::vector<float>(8, 0));
  // sized as CallActivity sizes its answer: columns clamped, at most 2^24 counts
  EXPECT_EQ(s.LaneCallActivity({0}, 1, 0, 1e9, 0).size(), 1u);
  EXPECT_EQ(s.LaneCallActivity({0}, 1, 0, 1e9, 1 << 20).size(), size_t{1} << 16);
  EXPECT_EQ(s.LaneCallActivity(std::vector<int32_t>(300, 0), 1, 0, 1e9, 1 << 16).size(), size_t{1} << 24);
  // its samples' lanes: their thread rows (-1: none, or past the thread table)
  const auto& samples = s.result().profile.samples;
  const auto n_threads = static_cast<int32_t>(s.result().profile.threads.size());
  ASSERT_GT(samples.size(), 0u);
  for (size_t i = 0; i < samples.size(); ++i) {
    const int32_t th = samples.thread[i];
    ASSERT_EQ(s.SampleLane(static_cast<int64_t>(i)), th >= 0 && th < n_threads ? th : -1) << "sample " << i;
  }
}

}  // namespace
}  // namespace profscope
