// The samples per thread (or CPU) in time order, and the per-event and per-CPU counts
// (core/analysis/sample_lanes.h), against a plain stable sort: short lanes, lanes long enough for the
// radix sort (in order, reversed, random with ties, nearly sorted), keys outside the lanes, times
// relative to an origin (0 staying 0); the exact calls in the flame chart's rows (thread, depth, start).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "core/analysis/sample_lanes.h"
#include "core/model/interval_view.h"

namespace profscope {
namespace {

// OrderLanes of keys given as a vector, packed as a profile's thread or CPU column.
SampleLanes OrderLanes(const std::vector<int32_t>& key, int32_t n_lanes, const std::vector<uint64_t>& time, uint64_t origin) {
  PackedColumn<int32_t> packed;
  for (const int32_t k : key) packed.push_back(k);
  return profscope::OrderLanes(packed, n_lanes, time, origin);
}

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

// Long runs (one event, one CPU, counting CPUs) and plain columns count as row by row does.
TEST(SampleLanes, TotalsAndCpuRowsOfRunsAndPlainColumnsAsRowByRow) {
  std::mt19937 rng(11);
  for (int round = 0; round < 30; ++round) {
    SampleTable t;
    PackedColumn<int32_t> cpu;
    std::vector<double> want_totals(4, 0.0);
    std::map<int32_t, uint32_t> want_cpus;
    const bool counted = round % 3 == 0;
    for (int piece = 0; piece < 20; ++piece) {
      const int32_t e = static_cast<int32_t>(rng() % 5) - 1, c = static_cast<int32_t>(rng() % 6) - 1;
      const int32_t cstep = rng() % 4 == 0 ? 1 : 0;
      const size_t len = round % 2 ? 1 + rng() % 3 : rng() % 20000;  // (short pieces: plain columns)
      for (size_t k = 0; k < len; ++k) {
        t.event.push_back(e);
        t.time.push_back(0);
        const uint32_t n = counted ? 1 + static_cast<uint32_t>(rng() % 3) : 1;
        if (counted) t.count.push_back(n);
        if (e >= 0) want_totals[static_cast<size_t>(e)] += n;
        const int32_t cc = c + cstep * static_cast<int32_t>(k);
        cpu.push_back(cc);
        if (cc >= 0) ++want_cpus[cc];
      }
    }
    EXPECT_EQ(EventTotals(t, 4), want_totals) << "round " << round;
    EXPECT_EQ(CpuRows(cpu), (std::vector<std::pair<int32_t, uint32_t>>(want_cpus.begin(), want_cpus.end()))) << "round " << round;
  }
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

// ForEachSpan gives each interval's start and end as start(i) and end(i) do: those read from the samples
// (their weights plain or runs, an end past 2^64 saturated) and those kept after them.
TEST(IntervalView, EachSpanAsStartAndEnd) {
  for (const bool runs : {false, true}) {
    Profile p;
    for (uint64_t i = 0; i < 5000; ++i) {
      p.samples.time.push_back(i == 7 ? UINT64_MAX - 3 : 1000 + 10 * i);
      p.samples.weight.push_back(runs ? 5 : (i * 7919) % 97);
      p.samples.thread.push_back(0);
      p.samples.stack.push_back(kNone);
    }
    p.intervals.from_samples = 4000;  // (the last 1000 samples are no calls)
    p.intervals.thread = {0, 1};
    p.intervals.depth = {0, 0};
    p.intervals.start = {5, 9};
    p.intervals.end = {6, 99};
    p.intervals.func = {0, 0};
    p.intervals.record = {0, 0};
    const IntervalView v(p);
    std::vector<std::pair<uint64_t, uint64_t>> got, want;
    v.ForEachSpan([&](uint64_t s, uint64_t e) { got.emplace_back(s, e); });
    for (size_t i = 0; i < v.size(); ++i) want.emplace_back(v.start(i), v.end(i));
    EXPECT_EQ(got, want);
    EXPECT_EQ(got.size(), 4002u);
    EXPECT_EQ(got[7].second, UINT64_MAX);
  }
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

// Samples that are calls: (thread, depth, start) each, in exit order, as XRay's; stack d + 1 is d below the
// root.
Profile SampleCalls(const std::vector<int32_t>& thread, const std::vector<int32_t>& depth, const std::vector<uint64_t>& start) {
  Profile p;
  for (size_t d = 0; d < 8; ++d) {
    p.stacks.frame.push_back(0);
    p.stacks.prefix.push_back(d == 0 ? kNone : static_cast<int32_t>(d - 1));
  }
  for (size_t i = 0; i < start.size(); ++i) {
    p.samples.time.push_back(start[i]);
    p.samples.thread.push_back(thread[i]);
    p.samples.stack.push_back(depth[i] + 1);
    p.samples.weight.push_back(1);
    p.samples.cpu.push_back(kNone);
    p.samples.event.push_back(0);
    p.samples.record.push_back(kNone);
  }
  p.intervals.from_samples = start.size();
  return p;
}

TEST(SampleLanes, NestedCallsInStartOrder) {
  // thread 0: main (never exited) calls a (calls b, c) then d, which never exits and calls e; thread 1: f
  // calls g at the same tick (a tie: not for the one pass); a call of no thread
  const Profile p = SampleCalls({0, 0, 0, 1, 0, 1, -1, 0}, {2, 2, 1, 1, 2, 0, 0, 3}, {12, 15, 10, 31, 20, 31, 5, 40});
  const IntervalView v(p);
  bool nested = true;
  EXPECT_TRUE(LanesOfNestedCalls(v, p.samples.size(), 2, 0, &nested).samples.empty());
  EXPECT_FALSE(nested);  // (thread 1's tie)
  EXPECT_FALSE(CallsNest(v, p.samples.size(), 2, 0));
  const SampleLanes want = OrderLanes(p.samples.thread, 2, p.samples.time, 0);
  EXPECT_EQ(want.samples, (std::vector<int32_t>{2, 0, 1, 4, 7, 3, 5, 6}));
  EXPECT_EQ(LanesOfCalls(v, OrderIntervalRows(v, 0), p.samples.size(), 2, 0).samples, want.samples);
  // thread 0 alone nests: a (10), b (12), c (15), then d's inner calls e (20) and its inner one (40)
  const Profile q = SampleCalls({0, 0, 0, 0, 0}, {2, 2, 1, 2, 3}, {12, 15, 10, 20, 40});
  const IntervalView w(q);
  const SampleLanes one = LanesOfNestedCalls(w, q.samples.size(), 1, 0, &nested);
  EXPECT_TRUE(nested);
  EXPECT_TRUE(CallsNest(w, q.samples.size(), 1, 0));
  EXPECT_EQ(one.samples, (std::vector<int32_t>{2, 0, 1, 3, 4}));
  EXPECT_EQ(one.start, (std::vector<int32_t>{0, 5, 5}));
  // the calls inside a call that never exited starting before the calls before it ended: no nesting
  const Profile r = SampleCalls({0, 0}, {1, 2}, {50, 10});
  LanesOfNestedCalls(IntervalView(r), r.samples.size(), 1, 0, &nested);
  EXPECT_FALSE(nested);
  EXPECT_FALSE(CallsNest(IntervalView(r), r.samples.size(), 1, 0));
}

// Calls as an XRay log makes them: each thread's calls nest, the samples come in exit order (a call after
// the calls inside it) with threads interleaved and ties in time (a call and its first inner call entered at
// the same tick), some samples of no thread or of a thread past the lanes, and calls that never exited kept
// as intervals after the samples. LanesOfCalls, merging the flame chart's rows, gives OrderLanes' lanes.
TEST(SampleLanes, LanesOfCallsAsOrderLanes) {
  std::mt19937_64 rng(777);
  int nested_rounds = 0, other_rounds = 0;
  for (int round = 0; round < 30; ++round) {
    const size_t target = round == 0 ? 250000 : 200 + rng() % 5000;
    const int32_t n_lanes = 1 + static_cast<int32_t>(rng() % 5);
    const size_t most_depth = round % 3 == 0 ? 400 : 1 + rng() % 20;
    Profile p;
    for (size_t d = 0; d <= most_depth + 1; ++d) {  // stack d: d frames below the root (call depth d - 1)
      p.stacks.frame.push_back(0);
      p.stacks.prefix.push_back(d == 0 ? kNone : static_cast<int32_t>(d - 1));
    }
    std::vector<std::vector<uint64_t>> open(static_cast<size_t>(n_lanes) + 2);
    std::vector<uint64_t> now(open.size(), 1000 + rng() % 50);
    std::vector<bool> last_exit(open.size(), false);
    auto add_sample = [&](int32_t thread, uint64_t start, size_t depth) {
      p.samples.time.push_back(start);
      p.samples.thread.push_back(thread);
      p.samples.stack.push_back(static_cast<int32_t>(depth + 1));
      p.samples.weight.push_back(1);
      p.samples.cpu.push_back(kNone);
      p.samples.event.push_back(0);
      p.samples.record.push_back(kNone);
    };
    while (p.samples.size() < target) {
      // the last is of no thread, the one before past the lanes (in some rounds)
      const size_t t = rng() % (round % 6 == 5 ? open.size() : open.size() - 1);
      const size_t u = round % 6 == 5 || t + 2 < open.size() ? t : open.size() - 1;
      const int32_t thread = u + 1 == open.size() ? kNone : static_cast<int32_t>(u);
      std::vector<uint64_t>& st = open[u];
      const bool enter = st.size() < most_depth && (st.empty() || rng() % 2 == 0);
      // ticks before it: rounds of ties anywhere (a call and its first inner call entered at one tick),
      // rounds of ties only of calls one after another (an enter right after an exit), rounds of none
      const int ties = round % 4;
      now[u] += ties == 1 ? rng() % 3 : ties == 2 && (!enter || last_exit[u]) ? rng() % 2 : 1 + rng() % 3;
      last_exit[u] = !enter;
      if (enter) {
        st.push_back(round % 7 == 6 && rng() % 50 == 0 ? 0 : now[u]);  // (a few of no time)
      } else if (round % 5 == 4 && st.size() > 2 && rng() % 100 == 0) {
        // an exit that closes inner calls that never exited: the outer one first, as BuildCalls repairs
        for (size_t d = st.size() - 3; d < st.size(); ++d) add_sample(thread, st[d], d);
        st.resize(st.size() - 3);
      } else {
        add_sample(thread, st.back(), st.size() - 1);
        st.pop_back();
      }
    }
    p.intervals.from_samples = p.samples.size();
    for (size_t t = 0; t < open.size(); ++t)  // the calls that never exited
      for (size_t d = 0; d < open[t].size(); ++d) {
        p.intervals.thread.push_back(t + 1 == open.size() ? kNone : static_cast<int32_t>(t));
        p.intervals.depth.push_back(static_cast<int32_t>(d));
        p.intervals.start.push_back(open[t][d]);
        p.intervals.end.push_back(now[t]);
        p.intervals.func.push_back(0);
        p.intervals.record.push_back(kNone);
      }
    const IntervalView v(p);
    for (const uint64_t origin : {uint64_t{0}, uint64_t{999}}) {
      SCOPED_TRACE(testing::Message() << "round " << round << " origin " << origin);
      const SampleLanes got = LanesOfCalls(v, OrderIntervalRows(v, origin), p.samples.size(), n_lanes, origin);
      const SampleLanes want = OrderLanes(p.samples.thread, n_lanes, p.samples.time, origin);
      ASSERT_EQ(got.start, want.start);
      ASSERT_EQ(got.samples, want.samples);
      // in one pass over their nesting, when they nest (else nothing)
      bool nested = false;
      const SampleLanes one_pass = LanesOfNestedCalls(v, p.samples.size(), n_lanes, origin, &nested);
      ASSERT_EQ(CallsNest(v, p.samples.size(), n_lanes, origin), nested);  // (its first pass alone)
      if (nested) {
        ++nested_rounds;
        ASSERT_EQ(one_pass.start, want.start);
        ASSERT_EQ(one_pass.samples, want.samples);
        // and the flame chart's rows need not check the samples' order
        const IntervalRows rows = OrderIntervalRows(v, origin), trusted = OrderIntervalRows(v, origin, p.samples.size());
        ASSERT_EQ(trusted.order, rows.order);
        ASSERT_EQ(trusted.first, rows.first);
        ASSERT_EQ(trusted.block_end, rows.block_end);
      } else {
        ++other_rounds;
        EXPECT_TRUE(one_pass.samples.empty());
      }
    }
  }
  // (both ways were taken: most rounds nest; ties of a call and its first inner call, repaired exits and a
  // thread's calls at two outermost depths do not)
  EXPECT_GE(nested_rounds, 10);
  EXPECT_GE(other_rounds, 10);
}

// The boxes of a call-by-call walk over each asked row: what BoxIntervals makes with a search per column.
IntervalBoxes WalkBoxes(const IntervalView& v, const IntervalRows& rows, const std::vector<int32_t>& which, uint64_t origin, double scale,
                        double t0, double t1, int32_t cols) {
  IntervalBoxes out;
  const double dt = (t1 - t0) / cols;
  auto time_of = [&](uint64_t t) {
    const double r = t == 0 ? 0.0 : static_cast<double>(t - origin);
    return scale != 1 ? r * scale : r;
  };
  for (const int32_t r : which) {
    if (r < 0 || static_cast<size_t>(r) + 1 >= rows.first.size()) continue;
    double last_col = -std::numeric_limits<double>::infinity();
    for (int32_t k = rows.first[static_cast<size_t>(r)]; k < rows.first[static_cast<size_t>(r) + 1]; ++k) {
      const size_t c = static_cast<size_t>(rows.order[static_cast<size_t>(k)]);
      const double s = time_of(v.start(c)), e = time_of(v.end(c));
      if (!(s < t1)) break;
      if (!(e > t0)) continue;
      const double x0 = (s - t0) / dt, x1 = (e - t0) / dt;
      if (x1 - x0 < 1 && std::floor(x0) <= last_col) continue;
      last_col = std::floor(std::max(x1 - 1, x0));
      out.row.push_back(r);
      out.call.push_back(static_cast<int32_t>(c));
      out.start.push_back(s);
      out.end.push_back(e);
    }
  }
  return out;
}

// Calls one after another on each (thread, depth) row, most far thinner than a column, some wide, with
// gaps; the boxes in random windows are the walk's, for the rows asked in the order asked.
TEST(IntervalBoxes, AsACallByCallWalkInAnyWindow) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 40; ++round) {
    std::vector<int32_t> thread, depth;
    std::vector<uint64_t> start, end;
    const uint64_t base = (round % 2) ? (uint64_t{1} << 45) : 1000;
    for (int32_t th = 0; th < 3; ++th) {
      for (int32_t d = 0; d < 4; ++d) {
        uint64_t t = base + rng() % 50;
        for (size_t k = 0, n = rng() % 3000; k < n; ++k) {
          t += rng() % 4 == 0 ? rng() % 200 : 0;
          const uint64_t len = rng() % 20 == 0 ? 1000 + rng() % 100000 : rng() % 40;
          thread.push_back(th);
          depth.push_back(d);
          start.push_back(t);
          end.push_back(t + len);
          t += len;
        }
      }
    }
    Profile p = Calls(thread, depth, start);
    p.intervals.end = end;
    const IntervalView v(p);
    const uint64_t origin = base - 1;
    const IntervalRows rows = OrderIntervalRows(v, origin);
    const double scale = round % 3 == 0 ? 1.0 : 0.4;
    const double span = 400000 * scale;
    std::vector<int32_t> which;
    for (int32_t r = static_cast<int32_t>(rows.thread.size()); r-- > 0;)
      if (rng() % 4) which.push_back(r);
    which.push_back(-1);                                          // (no such rows: left out)
    which.push_back(static_cast<int32_t>(rows.thread.size()));
    for (int w = 0; w < 5; ++w) {
      const double t0 = static_cast<double>(rng() % 300000) * scale - 1000;
      const double t1 = t0 + 1 + static_cast<double>(rng() % 1000000) * scale * (w == 0 ? 0.001 : 1) + (w == 4 ? span : 0);
      const int32_t cols = 1 + static_cast<int32_t>(rng() % 2000);
      SCOPED_TRACE(testing::Message() << "round " << round << " window " << w);
      const IntervalBoxes got = BoxIntervals(v, rows, which, origin, scale, t0, t1, cols);
      const IntervalBoxes want = WalkBoxes(v, rows, which, origin, scale, t0, t1, cols);
      ASSERT_EQ(got.row, want.row);
      ASSERT_EQ(got.call, want.call);
      ASSERT_EQ(got.start, want.start);
      ASSERT_EQ(got.end, want.end);
      // at most a box per column a row, and a wide call's own
      std::map<int32_t, size_t> per_row;
      for (int32_t r : got.row) ++per_row[r];
      for (const auto& [r, n] : per_row) EXPECT_LE(n, 2 * static_cast<size_t>(cols) + 2) << "row " << r;
    }
  }
}

TEST(IntervalBoxes, NoBoxesForAnEmptyWindowOrNoColumns) {
  const Profile p = Calls({0, 0}, {0, 0}, {10, 20});
  const IntervalView v(p);
  const IntervalRows rows = OrderIntervalRows(v, 0);
  EXPECT_TRUE(BoxIntervals(v, rows, {0}, 0, 1, 30, 30, 100).row.empty());
  EXPECT_TRUE(BoxIntervals(v, rows, {0}, 0, 1, 0, 100, 0).row.empty());
  EXPECT_TRUE(BoxIntervals(v, rows, {}, 0, 1, 0, 100, 100).row.empty());
  const IntervalBoxes both = BoxIntervals(v, rows, {0}, 0, 1, 0, 100, 100);
  EXPECT_EQ(both.call, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(both.start, (std::vector<double>{10, 20}));
  EXPECT_EQ(both.end, (std::vector<double>{11, 21}));
  // at one column for the window, both calls fall in it: the first is its box
  EXPECT_EQ(BoxIntervals(v, rows, {0}, 0, 1, 0, 100, 1).call, (std::vector<int32_t>{0}));
  // scaled: the times as the shell has them
  EXPECT_EQ(BoxIntervals(v, rows, {0}, 0, 2.5, 0, 250, 100).start, (std::vector<double>{25, 50}));
}

}  // namespace
}  // namespace profscope
