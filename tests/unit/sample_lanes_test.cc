// The samples per thread (or CPU) in time order, and the per-event and per-CPU counts
// (core/analysis/sample_lanes.h), against a plain stable sort: short lanes, lanes long enough for the
// radix sort (in order, reversed, random with ties, nearly sorted), keys outside the lanes, times
// relative to an origin (0 staying 0); the exact calls in the flame chart's rows (thread, depth, start).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "core/analysis/sample_lanes.h"
#include "core/model/interval_view.h"

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
  const SampleLanes none = OrderLanes(std::vector<int32_t>{}, 3, {}, 0);
  EXPECT_EQ(none.start, (std::vector<int32_t>{0, 0, 0, 0, 0}));
  EXPECT_TRUE(none.samples.empty());
  const SampleLanes keyless = OrderLanes(std::vector<int32_t>{0, 1}, 0, {2, 1}, 0);
  EXPECT_EQ(keyless.start, (std::vector<int32_t>{0, 2}));
  EXPECT_EQ(keyless.samples, (std::vector<int32_t>{1, 0}));
}

TEST(SampleLanes, TimesRelativeToTheOriginWithZeroStayingZero) {
  // an XRay-like origin: one below the smallest non-zero time; 0 (no time) sorts first
  const uint64_t origin = (uint64_t{1} << 60) - 1;
  const std::vector<uint64_t> time = {origin + 5, 0, origin + 1, origin + 5, 0};
  const SampleLanes l = OrderLanes(std::vector<int32_t>{0, 0, 0, 0, 0}, 1, time, origin);
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
  const PackedColumn<int32_t> cpu = {3, 1, 3, -1, 70000, 70000, 65535, 0};
  const auto rows = CpuRows(cpu);
  const std::vector<std::pair<int32_t, uint32_t>> want = {{0, 1}, {1, 1}, {3, 2}, {65535, 1}, {70000, 2}};
  EXPECT_EQ(rows, want);
  EXPECT_TRUE(CpuRows({-1, -1}).empty());
}

// Exact calls kept in their columns (as an XRay log's calls that never exited).
Profile Calls(const std::vector<int32_t>& thread, const std::vector<int32_t>& depth, const std::vector<uint64_t>& start) {
  Profile p;
  p.intervals.thread = thread;
  p.intervals.depth = depth;
  p.intervals.start = start;
  for (size_t i = 0; i < start.size(); ++i) {
    p.intervals.end.push_back(start[i] + 1);
    p.intervals.func.push_back(static_cast<int32_t>(i));
    p.intervals.record.push_back(static_cast<int32_t>(i));
  }
  return p;
}

// What OrderIntervalRows should give: a stable sort by (thread, depth, start), the calls of no thread last.
void ExpectRows(const Profile& p, uint64_t origin) {
  const IntervalView v(p);
  const IntervalRows got = OrderIntervalRows(v, origin);
  std::vector<int32_t> want(v.size());
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<int32_t>(i);
  auto key = [&](int32_t i) {
    const uint64_t t = v.start(static_cast<size_t>(i));
    const int32_t th = v.thread(static_cast<size_t>(i));
    return std::make_tuple(th < 0 ? INT64_MAX : int64_t{th}, std::max(v.depth(static_cast<size_t>(i)), 0), t == 0 ? 0 : t - origin);
  };
  std::stable_sort(want.begin(), want.end(), [&](int32_t a, int32_t b) { return key(a) < key(b); });
  // the calls in rows in that order; those of no thread after them, in any order
  ASSERT_EQ(got.order.size(), want.size());
  const auto rows_end = static_cast<std::ptrdiff_t>(got.first.back());
  ASSERT_EQ(std::vector<int32_t>(got.order.begin(), got.order.begin() + rows_end), std::vector<int32_t>(want.begin(), want.begin() + rows_end));
  std::vector<int32_t> rest_got(got.order.begin() + rows_end, got.order.end()), rest_want(want.begin() + rows_end, want.end());
  std::sort(rest_got.begin(), rest_got.end());
  std::sort(rest_want.begin(), rest_want.end());
  ASSERT_EQ(rest_got, rest_want);
  ASSERT_EQ(got.first.size(), got.thread.size() + 1);
  ASSERT_EQ(got.depth.size(), got.thread.size());
  for (size_t r = 0; r < got.thread.size(); ++r) {
    ASSERT_LT(got.first[r], got.first[r + 1]);  // no empty row
    if (r) ASSERT_LT(std::make_pair(got.thread[r - 1], got.depth[r - 1]), std::make_pair(got.thread[r], got.depth[r]));
    for (int32_t k = got.first[r]; k < got.first[r + 1]; ++k) {
      const size_t c = static_cast<size_t>(got.order[static_cast<size_t>(k)]);
      ASSERT_EQ(v.thread(c), got.thread[r]);
      ASSERT_EQ(std::max(v.depth(c), 0), got.depth[r]);
    }
  }
  for (size_t k = static_cast<size_t>(got.first.back()); k < got.order.size(); ++k) ASSERT_LT(v.thread(static_cast<size_t>(got.order[k])), 0);
}

TEST(IntervalRows, RowsByThreadThenDepthInStartOrder) {
  // thread 1 depth 0, thread 0 depths 1 and 0 (and -1 as 0), a call of no thread; exit order (inner first)
  const Profile p = Calls({1, 0, 0, -1, 0, 0}, {0, 1, 0, 0, -1, 1}, {50, 12, 10, 5, 30, 11});
  const IntervalRows r = OrderIntervalRows(IntervalView(p), 0);
  EXPECT_EQ(r.thread, (std::vector<int32_t>{0, 0, 1}));
  EXPECT_EQ(r.depth, (std::vector<int32_t>{0, 1, 0}));
  EXPECT_EQ(r.first, (std::vector<int32_t>{0, 2, 4, 5}));
  EXPECT_EQ(r.order, (std::vector<int32_t>{2, 4, 5, 1, 0, 3}));  // (thread 0: 10 and 30 at depth 0, 11 and 12 at 1)
  ExpectRows(p, 0);
  const IntervalRows none = OrderIntervalRows(IntervalView(Profile{}), 0);
  EXPECT_TRUE(none.order.empty());
  EXPECT_EQ(none.first, (std::vector<int32_t>{0}));
}

TEST(IntervalRows, ManyCallsLikeAStableSort) {
  std::mt19937_64 rng(99);
  // few (thread, depth) pairs (a counting sort), and pairs too many to count (thread rows far apart, deep
  // calls: a radix sort on the key)
  for (const bool sparse : {false, true}) {
    for (const size_t n : {size_t{1000}, size_t{150000}}) {
      std::vector<int32_t> thread(n), depth(n);
      std::vector<uint64_t> start(n);
      for (size_t i = 0; i < n; ++i) {
        thread[i] = rng() % 17 == 0 ? -1 : static_cast<int32_t>(rng() % 4) * (sparse ? 300000 : 1);
        depth[i] = static_cast<int32_t>(rng() % (sparse ? 4000 : 40)) - 1;
        start[i] = (uint64_t{1} << 41) + rng() % 100000;  // ties, out of order
      }
      SCOPED_TRACE(testing::Message() << "n " << n << (sparse ? " sparse" : " dense"));
      ExpectRows(Calls(thread, depth, start), 0);
      ExpectRows(Calls(thread, depth, start), (uint64_t{1} << 41) - 1);
    }
  }
}

}  // namespace
}  // namespace profscope
