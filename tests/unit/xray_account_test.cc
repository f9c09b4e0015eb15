// XRayAccount (core/analysis/xray_account.h) against a plain reading of `llvm-xray account`'s statistics:
// each function's latencies in the loader's order, sorted, the k-th values taken (count, min, median, 90th
// and 99th percentile, max, sum in the walk's order). Random nested calls on a few threads whose latencies
// straddle 2^32 ticks (kept aside in full: the array holds 4 bytes a call), exits that match no call, and
// records older than the first, all compared exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "core/analysis/xray_account.h"
#include "core/model/call_log.h"

namespace profscope {
namespace {

struct Want {
  std::vector<uint64_t> lat;  // in walk order
};

std::map<int32_t, Want> Reference(const CallLog& log) {
  std::map<int32_t, Want> out;
  std::map<uint32_t, std::vector<std::pair<int32_t, uint64_t>>> stacks;
  bool have_first = false;
  uint64_t first = 0;
  for (uint32_t run : log.loader_runs) {
    auto& s = stacks[log.runs[run].tid];
    CallLog::Reader rd(log, run);
    for (size_t i = log.runs[run].first; i < log.RunEnd(run); ++i) {
      const CallLog::Call c = rd.Next();
      if (!have_first) { first = c.tsc; have_first = true; }
      if (c.tsc < first) continue;
      if (IsEntry(c.action)) { s.emplace_back(log.Func(i), c.tsc); continue; }
      if (s.empty() || s.back().first != log.Func(i)) continue;
      const uint64_t a = s.back().second;
      out[log.Func(i)].lat.push_back(std::max(a, c.tsc) - std::min(a, c.tsc));
      s.pop_back();
    }
  }
  return out;
}

// Appends a random call tree of `depth` levels on thread tid from time *t on.
void Calls(CallLog& log, std::mt19937_64& rng, uint32_t tid, uint64_t* t, int depth, int32_t* row) {
  const int32_t f = static_cast<int32_t>(rng() % 6);
  log.Add(tid, 1, kNone, CallAction::kEnter, f, *t, (*row)++);
  const uint64_t kGaps[] = {1, 7, 1000, 0xFFFFFFFEull, 0xFFFFFFFFull, 0x100000000ull, 0x3'0000'0000ull};
  for (int k = rng() % 3; depth > 0 && k > 0; --k) {
    *t += kGaps[rng() % 3];
    Calls(log, rng, tid, t, depth - 1, row);
  }
  *t += rng() % 4 == 0 ? kGaps[rng() % 7] : kGaps[rng() % 3];
  // now and then an exit of another function (matches no call: skipped) before the right one
  if (rng() % 16 == 0) log.Add(tid, 1, kNone, CallAction::kExit, f + 1, *t, (*row)++);
  log.Add(tid, 1, kNone, CallAction::kExit, f, *t, (*row)++);
}

TEST(XRayAccount, StatisticsAreExactAcrossLatenciesOfMoreThan32Bits) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    CallLog log;
    int32_t row = 0;
    std::vector<uint64_t> clock(3, 1000);
    for (int round = 0; round < 30; ++round) {
      const uint32_t th = static_cast<uint32_t>(rng() % 3);
      if (round == 5) {  // a record older than the first the walk sees: skipped
        log.Add(10 + th, 1, kNone, CallAction::kEnter, 2, 10, row++);
      }
      Calls(log, rng, 10 + th, &clock[th], 1 + static_cast<int>(rng() % 4), &row);
    }
    for (uint32_t r = 0; r < log.runs.size(); ++r) log.loader_runs.push_back(r);
    const std::map<int32_t, Want> want = Reference(log);
    const std::vector<AccountRow> got = XRayAccount(log);
    ASSERT_EQ(got.size(), want.size()) << seed;
    size_t longs = 0;
    for (const AccountRow& r : got) {
      ASSERT_TRUE(want.count(r.func)) << seed;
      const std::vector<uint64_t>& lat = want.at(r.func).lat;
      std::vector<uint64_t> sorted = lat;
      std::sort(sorted.begin(), sorted.end());
      double sum = 0;
      for (uint64_t v : lat) sum += static_cast<double>(v);
      for (uint64_t v : lat) longs += v >= 0xFFFFFFFFull;
      const size_t n = sorted.size();
      EXPECT_EQ(r.count, n) << seed << " f" << r.func;
      EXPECT_EQ(r.min, static_cast<double>(sorted[0])) << seed << " f" << r.func;
      EXPECT_EQ(r.median, static_cast<double>(sorted[n / 2])) << seed << " f" << r.func;
      EXPECT_EQ(r.p90, static_cast<double>(sorted[static_cast<size_t>(std::floor(n * 0.9))])) << seed << " f" << r.func;
      EXPECT_EQ(r.p99, static_cast<double>(sorted[static_cast<size_t>(std::floor(n * 0.99))])) << seed << " f" << r.func;
      EXPECT_EQ(r.max, static_cast<double>(sorted.back())) << seed << " f" << r.func;
      EXPECT_EQ(r.sum, sum) << seed << " f" << r.func;
    }
    EXPECT_GT(longs, 0u) << seed << ": no latency of 32 bits or more";
  }
}

// One thread's calls of function 3, one after another, lasting `lat` ticks each; the loader's order is the file's.
CallLog CallsLasting(const std::vector<uint64_t>& lat) {
  CallLog log;
  uint64_t t = 100;
  int32_t row = 0;
  for (uint64_t d : lat) {
    log.Add(1, 1, kNone, CallAction::kEnter, 3, t, row++);
    log.Add(1, 1, kNone, CallAction::kExit, 3, t += d, row++);
  }
  for (uint32_t r = 0; r < log.runs.size(); ++r) log.loader_runs.push_back(r);
  return log;
}

TEST(XRayAccount, AFunctionWhoseCallsAreAllLongerThan32Bits) {
  const std::vector<AccountRow> got = XRayAccount(CallsLasting({0x500000000ull, 0x100000000ull, 0xFFFFFFFFull, 0x200000000ull}));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].count, 4u);
  EXPECT_EQ(got[0].min, static_cast<double>(0xFFFFFFFFull));
  EXPECT_EQ(got[0].median, static_cast<double>(0x200000000ull));
  EXPECT_EQ(got[0].max, static_cast<double>(0x500000000ull));
  EXPECT_EQ(got[0].sum, static_cast<double>(0x500000000ull + 0x100000000ull + 0xFFFFFFFFull + 0x200000000ull));
}

TEST(XRayAccount, MostCallsLongerThan32BitsAmongShortOnesInAnyOrder) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> lat;
    for (int i = 0; i < 300; ++i) lat.push_back(i % 10 < 7 ? 0xFFFFFFFFull + rng() % 0x100000000ull : 1 + rng() % 1000000);
    std::shuffle(lat.begin(), lat.end(), rng);
    const std::vector<AccountRow> got = XRayAccount(CallsLasting(lat));
    ASSERT_EQ(got.size(), 1u);
    std::vector<uint64_t> sorted = lat;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(got[0].min, static_cast<double>(sorted[0])) << seed;
    EXPECT_EQ(got[0].median, static_cast<double>(sorted[150])) << seed;
    EXPECT_EQ(got[0].p90, static_cast<double>(sorted[270])) << seed;
    EXPECT_EQ(got[0].p99, static_cast<double>(sorted[297])) << seed;
    EXPECT_EQ(got[0].max, static_cast<double>(sorted.back())) << seed;
  }
}

}  // namespace
}  // namespace profscope
