// The samples per thread (or CPU) in time order, and the per-event and per-CPU counts
// (core/analysis/sample_lanes.h), against a plain stable sort: short lanes, lanes long enough for the
// radix sort (in order, reversed, random with ties, nearly sorted), keys outside the lanes, times
// relative to an origin (0 staying 0).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/analysis/sample_lanes.h"

namespace profscope {
namespace {

// What OrderLanes should give: per lane (the last one for keys outside), a stable sort by the
// relative time.
SampleLanes Naive(const std::vector<int32_t>& key, int32_t n_lanes, const std::vector<uint64_t>& time, uint64_t origin) {
  std::vector<std::vector<int32_t>> of(static_cast<size_t>(n_lanes) + 1);
  for (size_t i = 0; i < key.size(); ++i) {
    const int32_t k = key[i];
    of[k >= 0 && k < n_lanes ? static_cast<size_t>(k) : static_cast<size_t>(n_lanes)].push_back(static_cast<int32_t>(i));
  }
  auto rel = [&](int32_t s) { return time[static_cast<size_t>(s)] == 0 ? uint64_t{0} : time[static_cast<size_t>(s)] - origin; };
  SampleLanes out;
  out.start.push_back(0);
  for (auto& lane : of) {
    std::stable_sort(lane.begin(), lane.end(), [&](int32_t a, int32_t b) { return rel(a) < rel(b); });
    out.samples.insert(out.samples.end(), lane.begin(), lane.end());
    out.start.push_back(static_cast<int32_t>(out.samples.size()));
  }
  return out;
}

void ExpectSame(const std::vector<int32_t>& key, int32_t n_lanes, const std::vector<uint64_t>& time, uint64_t origin) {
  const SampleLanes got = OrderLanes(key, n_lanes, time, origin);
  const SampleLanes want = Naive(key, n_lanes, time, origin);
  ASSERT_EQ(got.start, want.start);
  ASSERT_EQ(got.samples, want.samples);
}

TEST(SampleLanes, GroupsByKeyThenTimeWithTheKeylessLast) {
  // threads 0 and 1, and samples of no thread (-1) or of a row past the table (5)
  const std::vector<int32_t> key = {0, 1, -1, 0, 5, 1, 0};
  const std::vector<uint64_t> time = {30, 10, 20, 10, 5, 10, 30};
  const SampleLanes l = OrderLanes(key, 2, time, 0);
  EXPECT_EQ(l.start, (std::vector<int32_t>{0, 3, 5, 7}));
  EXPECT_EQ(l.samples, (std::vector<int32_t>{3, 0, 6, 1, 5, 4, 2}));  // equal times keep sample order
}

TEST(SampleLanes, NoSamplesAndNoLanes) {
  const SampleLanes none = OrderLanes({}, 3, {}, 0);
  EXPECT_EQ(none.start, (std::vector<int32_t>{0, 0, 0, 0, 0}));
  EXPECT_TRUE(none.samples.empty());
  const SampleLanes keyless = OrderLanes({0, 1}, 0, {2, 1}, 0);
  EXPECT_EQ(keyless.start, (std::vector<int32_t>{0, 2}));
  EXPECT_EQ(keyless.samples, (std::vector<int32_t>{1, 0}));
}

TEST(SampleLanes, TimesRelativeToTheOriginWithZeroStayingZero) {
  // an XRay-like origin: one below the smallest non-zero time; 0 (no time) sorts first
  const uint64_t origin = (uint64_t{1} << 60) - 1;
  const std::vector<uint64_t> time = {origin + 5, 0, origin + 1, origin + 5, 0};
  const SampleLanes l = OrderLanes({0, 0, 0, 0, 0}, 1, time, origin);
  EXPECT_EQ(l.samples, (std::vector<int32_t>{1, 4, 2, 0, 3}));
}

TEST(SampleLanes, LongLanesSortLikeAStableSort) {
  std::mt19937_64 rng(12345);
  for (const size_t n : {size_t{70000}, size_t{200000}}) {
    for (int shape = 0; shape < 5; ++shape) {
      std::vector<uint64_t> time(n);
      for (size_t i = 0; i < n; ++i) {
        switch (shape) {
          case 0: time[i] = 1000 + i; break;                                 // in order
          case 1: time[i] = 1000 + (n - i); break;                           // reversed
          case 2: time[i] = 1 + rng() % 5000; break;                         // random, many ties
          case 3: time[i] = (uint64_t{1} << 40) + i * 10 + rng() % 30; break;  // nearly sorted (exit order)
          default: time[i] = rng() % 4 == 0 ? 0 : rng(); break;              // any bits, some with no time
        }
      }
      // two long lanes, a short one, and keyless samples
      std::vector<int32_t> key(n);
      for (size_t i = 0; i < n; ++i) key[i] = i % 11 == 0 ? 2 : (i % 13 == 0 ? -1 : static_cast<int32_t>(rng() % 2));
      SCOPED_TRACE(testing::Message() << "n " << n << " shape " << shape);
      ExpectSame(key, 3, time, 0);
      if (shape != 4) ExpectSame(key, 3, time, 999);
    }
  }
}

TEST(SampleLanes, EventTotalsCountRowsByTheirCounts) {
  SampleTable t;
  t.event = {0, 1, 1, 2, -1};
  t.time.resize(5);
  EXPECT_EQ(EventTotals(t, 2), (std::vector<double>{1, 2, 1}));  // more events used than named
  EXPECT_EQ(EventTotals(t, 5), (std::vector<double>{1, 2, 1, 0, 0}));
  t.count = {5, 1, 1, 1, 9};  // gperftools: rows stand for several samples
  EXPECT_EQ(EventTotals(t, 2), (std::vector<double>{5, 2, 1}));
  EXPECT_TRUE(EventTotals(SampleTable{}, 0).empty());
}

TEST(SampleLanes, CpuRowsByCpuIncludingLargeNumbers) {
  const std::vector<int32_t> cpu = {3, 1, 3, -1, 70000, 70000, 65535, 0};
  const auto rows = CpuRows(cpu);
  const std::vector<std::pair<int32_t, uint32_t>> want = {{0, 1}, {1, 1}, {3, 2}, {65535, 1}, {70000, 2}};
  EXPECT_EQ(rows, want);
  EXPECT_TRUE(CpuRows({-1, -1}).empty());
}

}  // namespace
}  // namespace profscope
