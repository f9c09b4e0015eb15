// The call log (core/model/call_log.h): times and actions packed a few bytes a record read back exactly,
// from any run on, whatever the times do (decrease, jump, wrap around 64 bits); the log unchanged by a
// push that fails.
#include "core/model/call_log.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

using profscope::CallAction;
using profscope::CallLog;

struct Rec {
  uint32_t tid;
  uint64_t tsc;
  CallAction action;
  int32_t func;
  int32_t row;
};

void ExpectReadsBack(const CallLog& log, const std::vector<Rec>& want) {
  ASSERT_EQ(log.size(), want.size());
  size_t entries = 0;
  for (const Rec& r : want) entries += profscope::IsEntry(r.action) ? 1 : 0;
  EXPECT_EQ(log.entries(), entries);
  // every record in file order, from the first run on
  CallLog::Reader all(log);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(all.index(), i);
    const CallLog::Call c = all.Next();
    ASSERT_EQ(c.tsc, want[i].tsc) << i;
    ASSERT_EQ(c.action, want[i].action) << i;
    ASSERT_EQ(log.Func(i), want[i].func) << i;
    ASSERT_EQ(log.row[i], want[i].row) << i;
    ASSERT_EQ(log.Tid(i), want[i].tid) << i;
  }
  // and from each run on
  for (size_t r = 0; r < log.runs.size(); ++r) {
    CallLog::Reader rd(log, r);
    ASSERT_EQ(rd.index(), log.runs[r].first);
    for (size_t i = log.runs[r].first; i < log.RunEnd(r); ++i) ASSERT_EQ(rd.Next().tsc, want[i].tsc) << "run " << r << " record " << i;
  }
  EXPECT_EQ(CallLog::Reader(log, log.runs.size()).index(), log.size());
}

TEST(CallLog, TimesAndActionsReadBackExactly) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 40; ++round) {
    CallLog log;
    std::vector<Rec> want;
    uint64_t t = rng();
    const size_t n = rng() % 5000;
    for (size_t i = 0; i < n; ++i) {
      switch (rng() % 10) {
        case 0: t = rng(); break;                               // anywhere
        case 1: t -= rng() % 1000; break;                        // back a little
        case 2: t = round % 2 ? 0 : UINT64_MAX - rng() % 3; break;  // the ends of the clock
        default: t += rng() % (round % 3 == 0 ? 30 : 70000); break;  // on, as a buffer's records go
      }
      const Rec r{static_cast<uint32_t>(rng() % 3 ? 7 : 8), t, static_cast<CallAction>(rng() % 4),
                  static_cast<int32_t>(rng() % 5 ? rng() % 300 : rng()), static_cast<int32_t>(i * 2 + rng() % 2)};
      log.Add(r.tid, 1, profscope::kNone, r.action, r.func, r.tsc, r.row);
      want.push_back(r);
      if (rng() % 50 == 0) {  // an argument record follows: the entry becomes enter-arg
        log.SetLastAction(CallAction::kEnterArg);
        want.back().action = CallAction::kEnterArg;
      }
    }
    ExpectReadsBack(log, want);
  }
}

// Runs of records added at once (AddRun: one thread, rows that count up) read back as the same records
// added one at a time, among single Adds of other threads, with an entry made enter-arg after a run.
TEST(CallLog, RecordsAddedAsARunReadBackAsAddedOneByOne) {
  std::mt19937_64 rng(6);
  for (int round = 0; round < 40; ++round) {
    CallLog log, one_by_one;
    std::vector<Rec> want;
    uint64_t t = rng();
    int32_t row = 0;
    while (want.size() < 3000) {
      const uint32_t tid = static_cast<uint32_t>(rng() % 3 ? 7 : 8);
      const size_t k = rng() % 4 == 0 ? 1 : rng() % 256;
      std::vector<CallAction> a(k);
      std::vector<int32_t> fn(k);
      std::vector<uint64_t> ts(k);
      const int32_t first_row = row;
      for (size_t j = 0; j < k; ++j) {
        t = rng() % 20 == 0 ? (round % 2 ? rng() : t - rng() % 1000) : t + rng() % (round % 3 == 0 ? 30 : 70000);
        a[j] = static_cast<CallAction>(rng() % 4);
        fn[j] = static_cast<int32_t>(rng() % 5 ? rng() % 300 : rng());
        ts[j] = t;
        want.push_back(Rec{tid, t, a[j], fn[j], row++});
        one_by_one.Add(tid, 1, profscope::kNone, a[j], fn[j], t, want.back().row);
      }
      EXPECT_EQ(log.AddRun(tid, 1, profscope::kNone, k, a.data(), fn.data(), ts.data(), first_row), want.size() - k);
      row += static_cast<int32_t>(rng() % 3);  // (rows of other records between the runs)
      if (k && rng() % 10 == 0) {
        log.SetLastAction(CallAction::kEnterArg);
        one_by_one.SetLastAction(CallAction::kEnterArg);
        want.back().action = CallAction::kEnterArg;
      }
    }
    ExpectReadsBack(log, want);
    EXPECT_EQ(log.packed_bytes(), one_by_one.packed_bytes());
    ASSERT_EQ(log.runs.size(), one_by_one.runs.size());
    for (size_t r = 0; r < log.runs.size(); ++r) {
      EXPECT_EQ(log.runs[r].first, one_by_one.runs[r].first);
      EXPECT_EQ(log.runs[r].at, one_by_one.runs[r].at);
      EXPECT_EQ(log.runs[r].tsc_before, one_by_one.runs[r].tsc_before);
    }
  }
}

TEST(CallLog, ABuffersRecordsTakeAFewBytesEach) {
  CallLog log;
  uint64_t t = 0x123456789abcull;
  for (int i = 0; i < 100000; ++i) log.Add(1, 2, 0, i % 2 ? CallAction::kExit : CallAction::kEnter, i % 40, t += 5 + i % 400, i + 1);
  // a first time of 45 bits, then differences under 4 K: two bytes a record at most
  EXPECT_LE(log.packed_bytes(), 2u * 100000 + 16);
  // function ids under 256: a byte each at most; rows counting up: one run
  EXPECT_LE(log.func.packed_bytes(), 100000u);
  EXPECT_TRUE(log.row.is_runs());
  EXPECT_EQ(log.entries(), 50000u);
}

}  // namespace
