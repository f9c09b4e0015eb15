// core/model/packed_column.h: every value reads back as pushed, whether the column holds runs or plain
// values, and the column takes the memory its values need.
#include "core/model/packed_column.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace profscope {
namespace {

template <typename T>
void ExpectSame(const PackedColumn<T>& c, const std::vector<T>& want) {
  ASSERT_EQ(c.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(c[i], want[i]) << "row " << i;
  std::vector<T> seen;
  c.ForEach([&](T v) { seen.push_back(v); });
  EXPECT_EQ(seen, want);
  if (!want.empty()) EXPECT_EQ(c.back(), want.back());
  // At with a run remembered: forward, backward, and jumping about
  size_t run = 0;
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(c.At(i, &run), want[i]) << "forward, row " << i;
  for (size_t i = want.size(); i-- > 0;) ASSERT_EQ(c.At(i, &run), want[i]) << "backward, row " << i;
  for (size_t k = 0; k < want.size(); ++k) {
    const size_t i = (k * 2654435761u) % want.size();
    ASSERT_EQ(c.At(i, &run), want[i]) << "jumping, row " << i;
  }
  // Read: stretches from anywhere, across runs, the whole column, and none
  std::vector<T> got(want.size());
  c.Read(0, want.size(), got.data());
  ASSERT_EQ(got, want) << "read whole";
  for (size_t k = 0; k < 64 && !want.empty(); ++k) {
    const size_t from = (k * 2654435761u) % want.size(), n = std::min(want.size() - from, size_t{1} + (k * 40503u) % 5000);
    std::vector<T> part(n);
    c.Read(from, n, part.data());
    ASSERT_EQ(part, std::vector<T>(want.begin() + static_cast<std::ptrdiff_t>(from), want.begin() + static_cast<std::ptrdiff_t>(from + n)))
        << "read " << n << " from " << from;
  }
  c.Read(want.size(), 0, got.data());
}

template <typename T>
PackedColumn<T> Pack(const std::vector<T>& v) {
  PackedColumn<T> c;
  for (T x : v) c.push_back(x);
  return c;
}

TEST(PackedColumn, EmptyAndOne) {
  PackedColumn<int32_t> c;
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.packed_bytes(), 0u);
  c.push_back(-1);
  ExpectSame(c, {-1});
}

// A signed column of rows and kNone (a profile's samples of a few threads, interleaved: no runs) holds each
// value in the narrowest width v + 1 fits: 1 byte for -1 .. 254, 2 up to 65534; a value below -1 widens it to
// its type's, and every value still reads back.
TEST(PackedColumn, SignedRowsAndNoneTakeTheNarrowestWidth) {
  std::mt19937 rng(7);
  std::vector<int32_t> v;
  for (int i = 0; i < 100000; ++i) v.push_back(static_cast<int32_t>(rng() % 256) - 1);  // -1 .. 254
  PackedColumn<int32_t> c = Pack(v);
  ExpectSame(c, v);
  EXPECT_FALSE(c.is_runs());
  EXPECT_EQ(c.packed_bytes(), v.size());
  v.push_back(255);  // 256 as stored: 2 bytes
  c.push_back(255);
  ExpectSame(c, v);
  EXPECT_EQ(c.packed_bytes(), 2 * v.size());
  v.push_back(65534);
  c.push_back(65534);
  EXPECT_EQ(c.packed_bytes(), 2 * v.size());
  v.push_back(-2);  // stored as 0xFFFFFFFF: the type's width
  c.push_back(-2);
  ExpectSame(c, v);
  EXPECT_EQ(c.packed_bytes(), 4 * v.size());
  std::vector<int32_t> got(v.size());
  c.Read(0, v.size(), got.data());
  EXPECT_EQ(got, v);
  std::vector<int64_t> w = {-1, 3, -1, 7, 200};
  for (int i = 0; i < 5000; ++i) w.push_back(static_cast<int64_t>(rng() % 7) - 1);
  PackedColumn<int64_t> cw = Pack(w);
  ExpectSame(cw, w);
  EXPECT_EQ(cw.packed_bytes(), w.size());
  cw.push_back(INT64_MIN);
  w.push_back(INT64_MIN);
  ExpectSame(cw, w);
  EXPECT_EQ(cw.packed_bytes(), 8 * w.size());
}

TEST(PackedColumn, ParentsOfADataSectionAreAFewRuns) {
  // A header, its attrs, a data section of a million records, then features: perf's parents.
  std::vector<int32_t> v = {-1, 0, 0, 0, -1};
  for (int i = 0; i < 1000000; ++i) v.push_back(4);
  for (int i = 0; i < 20; ++i) v.push_back(-1);
  PackedColumn<int32_t> c = Pack(v);
  ExpectSame(c, v);
  EXPECT_TRUE(c.is_runs());
  EXPECT_LE(c.run_count(), 8u);
  EXPECT_LT(c.packed_bytes(), 200u);
  EXPECT_LT(c.bytes(), 1000u);
}

TEST(PackedColumn, OffsetsOfFixedSizeRecordsAreRunsWithAStep) {
  // XRay FDR: 8-byte function records, a 16-byte metadata record now and then.
  std::vector<uint64_t> off;
  uint64_t at = 32;
  for (int i = 0; i < 300000; ++i) {
    off.push_back(at);
    at += (i % 5000 == 4999) ? 16 : 8;
  }
  PackedColumn<uint64_t> c = Pack(off);
  ExpectSame(c, off);
  EXPECT_TRUE(c.is_runs());
  EXPECT_LE(c.run_count(), 200u);
}

TEST(PackedColumn, VaryingValuesArePlainAndAsNarrowAsTheyFit) {
  std::mt19937 rng(7);
  std::vector<uint64_t> sizes;
  for (int i = 0; i < 100000; ++i) sizes.push_back(8 + rng() % 2000);  // perf SAMPLE sizes: 16 bits
  PackedColumn<uint64_t> c = Pack(sizes);
  ExpectSame(c, sizes);
  EXPECT_FALSE(c.is_runs());
  EXPECT_EQ(c.packed_bytes(), 2u * sizes.size());
  EXPECT_LE(c.bytes(), 3u * sizes.size());
}

TEST(PackedColumn, PlainValuesWidenWhenALargerOneComes) {
  std::mt19937 rng(11);
  std::vector<uint64_t> v;
  for (int i = 0; i < 50000; ++i) v.push_back(rng() % 200);
  for (int i = 0; i < 50000; ++i) v.push_back(rng() % 60000);
  v.push_back(uint64_t{1} << 40);  // a data section past 4 GB
  for (int i = 0; i < 1000; ++i) v.push_back(rng());
  PackedColumn<uint64_t> c;
  for (size_t i = 0; i < v.size(); ++i) {
    c.push_back(v[i]);
    if (i == 49999) EXPECT_EQ(c.packed_bytes(), 50000u);
    if (i == 99999) EXPECT_EQ(c.packed_bytes(), 200000u);
  }
  ExpectSame(c, v);
  EXPECT_EQ(c.packed_bytes(), 8u * v.size());
  EXPECT_EQ(c.most(), uint64_t{1} << 40);
}

TEST(PackedColumn, RunsTurnPlainOnlyWhenThatIsSmaller) {
  // Runs first (a file's metadata), then values with no runs (types alternating two ways: XRay's enter/exit).
  std::vector<uint32_t> v;
  for (int i = 0; i < 10000; ++i) v.push_back(5);
  for (int i = 0; i < 100000; ++i) v.push_back(i % 3 == 0 ? 101 : 100);
  PackedColumn<uint32_t> c = Pack(v);
  ExpectSame(c, v);
  EXPECT_FALSE(c.is_runs());
  EXPECT_EQ(c.packed_bytes(), v.size());  // 1 byte a value
}

TEST(PackedColumn, SignedStepsThatDoNotFitStartANewRun) {
  // int32 steps must fit int32, as int-runs.js reads them: -2^31 .. 2^31-1 is not a run of step 2^32-1.
  std::vector<int32_t> v = {INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, 0, 1, 2, 3};
  PackedColumn<int32_t> c = Pack(v);
  ExpectSame(c, v);
  for (size_t r = 0; r < c.run_count(); ++r) {
    const size_t end = r + 1 < c.run_count() ? c.starts()[r + 1] : c.size();
    for (size_t i = c.starts()[r]; i < end; ++i)
      EXPECT_EQ(int64_t{c.firsts()[r]} + int64_t{c.steps()[r]} * int64_t(i - c.starts()[r]), int64_t{v[i]});
  }
}

// Every run, read as int-runs.js reads it (first + step * k, no wrap-around), gives the column's values.
template <typename T>
void ExpectRunsReadExactly(const PackedColumn<T>& c, const std::vector<T>& v) {
  using S = std::make_signed_t<T>;
  ASSERT_TRUE(c.is_runs());
  for (size_t r = 0; r < c.run_count(); ++r) {
    const size_t end = r + 1 < c.run_count() ? c.starts()[r + 1] : c.size();
    for (size_t i = c.starts()[r]; i < end; ++i) {
      const long double exact = static_cast<long double>(c.firsts()[r]) +
                                static_cast<long double>(static_cast<S>(c.steps()[r])) * static_cast<long double>(i - c.starts()[r]);
      ASSERT_EQ(exact, static_cast<long double>(v[i])) << "row " << i;
    }
  }
}

TEST(PackedColumn, RunsNeverWrapAroundTheirType) {
  std::vector<uint8_t> v;
  for (int i = 0; i < 600; ++i) v.push_back(static_cast<uint8_t>(250 - i));  // counts down through 0
  PackedColumn<uint8_t> c = Pack(v);
  ExpectSame(c, v);
  ExpectRunsReadExactly(c, v);
  EXPECT_GE(c.run_count(), 3u);  // 250 .. 0, then 255 .. 0, then 255 ..
  const std::vector<uint8_t> up = {250, 253, 0, 3};  // +3 would wrap to 0: a new run
  ExpectSame(Pack(up), up);
  ExpectRunsReadExactly(Pack(up), up);
  const std::vector<uint32_t> types = {0xFFFFFFFEu, 0xFFFFFFFFu, 0, 1};
  ExpectSame(Pack(types), types);
  ExpectRunsReadExactly(Pack(types), types);
  std::vector<uint64_t> w = {UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX, 0, 1, 2, UINT64_MAX - 5, UINT64_MAX};
  PackedColumn<uint64_t> cw = Pack(w);
  ExpectSame(cw, w);
  ExpectRunsReadExactly(cw, w);
}

TEST(PackedColumn, TruncateDropsTheLastRowsAndTheColumnGoesOn) {
  std::vector<int32_t> v;
  for (int i = 0; i < 10000; ++i) v.push_back(i / 100);  // runs of 100 equal values
  for (size_t cut : {size_t{9999}, size_t{5050}, size_t{5001}, size_t{5000}, size_t{1}, size_t{0}}) {
    PackedColumn<int32_t> c = Pack(v);
    c.truncate(cut);
    std::vector<int32_t> want(v.begin(), v.begin() + static_cast<long>(cut));
    ExpectSame(c, want);
    for (int i = 0; i < 300; ++i) {  // and takes values after it as if it had never had more
      c.push_back(-i);
      want.push_back(-i);
    }
    ExpectSame(c, want);
  }
  std::mt19937 rng(5);
  std::vector<uint32_t> plain;
  for (int i = 0; i < 9000; ++i) plain.push_back(rng() % 70000);
  PackedColumn<uint32_t> p = Pack(plain);
  ASSERT_FALSE(p.is_runs());
  p.truncate(4000);
  plain.resize(4000);
  ExpectSame(p, plain);
}

TEST(PackedColumn, FindGivesTheFirstRowOfAValue) {
  std::vector<int32_t> v = {-1, 0, 0, 0, 5, 6, 7, 8, 8, 8, 3, 1, -1};
  for (int i = 0; i < 5000; ++i) v.push_back(100 + 2 * i);
  PackedColumn<int32_t> c = Pack(v);
  for (int32_t x : {-1, 0, 5, 8, 3, 1, 100, 102, 101, 10098, 10100, 20000, -7}) {
    const auto at = std::find(v.begin(), v.end(), x);
    EXPECT_EQ(c.find(x), static_cast<size_t>(at - v.begin())) << x;
  }
  std::mt19937 rng(9);
  std::vector<int32_t> r;
  for (int i = 0; i < 9000; ++i) r.push_back(static_cast<int32_t>(rng() % 5000));
  PackedColumn<int32_t> pr = Pack(r);
  for (int32_t x : {r[0], r[4321], r[8999], 5001}) EXPECT_EQ(pr.find(x), static_cast<size_t>(std::find(r.begin(), r.end(), x) - r.begin()));
}

TEST(PackedColumn, RandomColumnsOfEveryShape) {
  std::mt19937 rng(3);
  for (int round = 0; round < 60; ++round) {
    std::vector<int32_t> v;
    const int n = static_cast<int>(rng() % 20000);
    int32_t x = static_cast<int32_t>(rng());
    int32_t step = static_cast<int32_t>(rng() % 5) - 2;
    for (int i = 0; i < n; ++i) {
      if (rng() % (round % 4 == 0 ? 3 : 500) == 0) {  // some columns break their runs often, some seldom
        x = static_cast<int32_t>(rng() % 1000) - 500;
        step = static_cast<int32_t>(rng() % 5) - 2;
      }
      v.push_back(x);
      x += step;
    }
    PackedColumn<int32_t> c;
    c.reserve(static_cast<size_t>(n));
    for (int32_t y : v) c.push_back(y);
    ExpectSame(c, v);
    if (!c.is_runs()) EXPECT_EQ(c.packed_bytes(), 4u * v.size());
    EXPECT_LE(c.packed_bytes(), 4u * v.size() + 12u * 4096u);
  }
}

// AppendRun holds what push_back of each value holds, whatever came before it and whatever the run: long
// and short, rising and falling, crossing 0 and T's ends, after runs and plain values.
template <typename T>
void AppendRunsAsPushes(uint32_t seed) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 80; ++round) {
    PackedColumn<T> c;
    std::vector<T> want;
    const int pieces = 1 + static_cast<int>(rng() % 40);
    for (int k = 0; k < pieces; ++k) {
      T first, step;
      switch (rng() % 4) {
        case 0: first = static_cast<T>(rng() % 1000); step = static_cast<T>(rng() % 3); break;  // small, rising
        case 1: first = static_cast<T>(rng()); step = static_cast<T>(rng()); break;              // anything
        case 2: first = static_cast<T>(std::numeric_limits<T>::max() - static_cast<T>(rng() % 50)); step = 1; break;  // past the top
        default: first = static_cast<T>(static_cast<T>(rng() % 100) - static_cast<T>(50)); step = static_cast<T>(static_cast<T>(0) - static_cast<T>(rng() % 3)); break;  // across 0
      }
      const size_t len = rng() % 4 == 0 ? rng() % 3 : rng() % 9000;
      const bool pushed = rng() % 3 == 0;  // half the pieces pushed value by value
      for (size_t i = 0; i < len; ++i) want.push_back(static_cast<T>(static_cast<std::make_unsigned_t<T>>(first) + static_cast<std::make_unsigned_t<T>>(step) * static_cast<std::make_unsigned_t<T>>(i)));
      if (pushed)
        for (size_t i = want.size() - len; i < want.size(); ++i) c.push_back(want[i]);
      else
        c.AppendRun(first, step, len);
    }
    ExpectSame(c, want);
    // the largest value as unsigned; of a signed column, of v + 1 (-1 is 0, -2 the largest)
    using U = std::make_unsigned_t<T>;
    const U bias = std::is_signed_v<T> ? 1 : 0;
    U most = 0;
    for (T v : want) most = std::max(most, static_cast<U>(static_cast<U>(v) + bias));
    EXPECT_EQ(c.most(), most);
    c.push_back(static_cast<T>(5));  // the column goes on
    want.push_back(static_cast<T>(5));
    ExpectSame(c, want);
  }
}

TEST(PackedColumn, AppendRunHoldsWhatPushesHold) {
  AppendRunsAsPushes<int32_t>(1);
  AppendRunsAsPushes<uint32_t>(2);
  AppendRunsAsPushes<uint64_t>(3);
  AppendRunsAsPushes<int64_t>(4);
  AppendRunsAsPushes<uint8_t>(5);
}

TEST(PackedColumn, AppendRunOfAMillionRowsIsOneRun) {
  PackedColumn<int32_t> c;
  c.AppendRun(7, 0, 1000000);
  c.AppendRun(100, 1, 1000000);
  EXPECT_TRUE(c.is_runs());
  EXPECT_EQ(c.run_count(), 2u);
  EXPECT_EQ(c.size(), 2000000u);
  EXPECT_EQ(c[999999], 7);
  EXPECT_EQ(c[1000000], 100);
  EXPECT_EQ(c.back(), 100 + 999999);
}

// The greedy runs of values, as the header says a column makes them: (start, first, step) each.
template <typename T>
std::vector<std::array<int64_t, 3>> NaiveRuns(const std::vector<T>& v) {
  using S = std::make_signed_t<T>;
  std::vector<std::array<int64_t, 3>> out;
  for (size_t i = 0; i < v.size();) {
    const size_t start = i++;
    int64_t step = 0;
    if (i < v.size()) {  // (exactly, in 128 bits: a step between 64-bit values may not fit 64)
      const __int128 d = static_cast<__int128>(v[i]) - static_cast<__int128>(v[start]);
      if (d >= std::numeric_limits<S>::min() && d <= std::numeric_limits<S>::max()) {
        step = static_cast<int64_t>(d);
        for (++i; i < v.size() && static_cast<__int128>(v[i]) == static_cast<__int128>(v[i - 1]) + d; ++i) {
        }
      }
    }
    out.push_back({static_cast<int64_t>(start), static_cast<int64_t>(v[start]), step});
  }
  return out;
}

template <typename T>
std::vector<std::array<int64_t, 3>> GreedyRunsOf(const PackedColumn<T>& c, size_t max_runs, bool* all) {
  std::vector<std::array<int64_t, 3>> out;
  *all = c.ForEachGreedyRun(max_runs, [&](size_t start, T first, T step) {
    out.push_back({static_cast<int64_t>(start), static_cast<int64_t>(first), static_cast<int64_t>(static_cast<std::make_signed_t<T>>(step))});
  });
  return out;
}

// A column gives the runs its values make, whether it holds them as runs (its own) or plain (found as it
// reads them: wasm/bindings.cc hands the page the runs of a column the heap holds plain), up to a limit.
template <typename T>
void GreedyRunsAsTheColumnMakesThem(uint32_t seed) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 60; ++round) {
    std::vector<T> v;
    const int n = static_cast<int>(rng() % (round % 3 == 0 ? 4000 : 30000));  // under 4096 rows: runs still
    T x = static_cast<T>(rng());
    int step = static_cast<int>(rng() % 5) - 2;
    for (int i = 0; i < n; ++i) {
      if (rng() % (round % 4 == 0 ? 3 : 300) == 0) {
        x = static_cast<T>(round % 5 == 0 ? rng() : rng() % 1000);  // (some anywhere in T: steps that do not fit)
        step = static_cast<int>(rng() % 5) - 2;
      }
      v.push_back(x);
      using U = std::make_unsigned_t<T>;  // (wrapping, not a signed overflow)
      x = static_cast<T>(static_cast<U>(static_cast<U>(x) + static_cast<U>(static_cast<T>(step))));
    }
    PackedColumn<T> c;
    for (T y : v) c.push_back(y);
    const auto want = NaiveRuns(v);
    bool all = false;
    EXPECT_EQ(GreedyRunsOf(c, want.size(), &all), want) << "round " << round << (c.is_runs() ? " (runs)" : " (plain)");
    EXPECT_TRUE(all);
    if (c.is_runs()) {
      ASSERT_EQ(c.run_count(), want.size());
      for (size_t r = 0; r < want.size(); ++r) ASSERT_EQ(static_cast<int64_t>(c.starts()[r]), want[r][0]);
    }
    if (!want.empty()) {  // one fewer than they are: the first ones, and false
      const auto some = GreedyRunsOf(c, want.size() - 1, &all);
      EXPECT_FALSE(all);
      const std::vector<std::array<int64_t, 3>> first_ones(want.begin(), want.end() - 1);
      EXPECT_EQ(some, first_ones);
    }
  }
}

TEST(PackedColumn, GreedyRunsAsTheColumnMakesThem) {
  GreedyRunsAsTheColumnMakesThem<int32_t>(7);
  GreedyRunsAsTheColumnMakesThem<uint32_t>(8);
  GreedyRunsAsTheColumnMakesThem<int64_t>(9);
  GreedyRunsAsTheColumnMakesThem<uint64_t>(11);
  GreedyRunsAsTheColumnMakesThem<uint8_t>(10);
}

}  // namespace
}  // namespace profscope
