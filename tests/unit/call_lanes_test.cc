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
#include <vector>

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
    for (int32_t k = lanes.start[l]; k < lanes.start[l + 1]; ++k)
      times.back().push_back(s.RelativeTime(time[static_cast<size_t>(lanes.samples[static_cast<size_t>(k)])]) * scale);
  }
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
  // one lane asked alone, and a lane asked twice: each answered
  if (!thread.empty()) {
    const std::vector<int32_t> twice = {thread.back(), thread.back()};
    const std::vector<float> got = s.LaneCallActivity(twice, scale, lo, hi + 1, 16);
    const std::vector<float> want = Activity(times.back(), lo, hi + 1, 16);
    EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + 16), want);
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

TEST(CallLanes, ASamplerHasNone) {
  const std::vector<uint8_t> bytes = ReadAll(fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf/leader_group_u/perf.data");
  MemorySource src(bytes);
  Session s(src, "perf.data");
  s.Decode();
  EXPECT_FALSE(s.CallsAreSamples());
  EXPECT_TRUE(s.CallLanes(1).thread.empty());
  const std::vector<float> zeros = s.LaneCallActivity({0, 1}, 1, 0, 1e9, 4);
  EXPECT_EQ(zeros, std::vector<float>(8, 0));
}

}  // namespace
}  // namespace profscope
