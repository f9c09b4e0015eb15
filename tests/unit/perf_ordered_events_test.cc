// perf's ordered-events queue (perf_ordered_events.h): the order records
// reach the interpretation, and its memory bound.
#include "core/format/perf/perf_ordered_events.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "core/format/perf/perf_format.h"

namespace profscope::perf {
namespace {

class Sink : public RecordSink {
 public:
  void Record(int32_t row, ByteReader rec) override {
    rows.push_back(row);
    sizes.push_back(rec.size());
  }
  std::vector<int32_t> rows;
  std::vector<size_t> sizes;
};

// SAMPLE records (IP | TID | TIME) and FINISHED_ROUND, little-endian.
std::vector<uint8_t> Sample(uint64_t time) {
  std::vector<uint8_t> b(32, 0);
  uint32_t type = kSample;
  uint16_t size = 32;
  std::memcpy(&b[0], &type, 4);
  std::memcpy(&b[6], &size, 2);
  std::memcpy(&b[24], &time, 8);
  return b;
}
std::vector<uint8_t> Round() {
  std::vector<uint8_t> b(8, 0);
  uint32_t type = kFinishedRound;
  uint16_t size = 8;
  std::memcpy(&b[0], &type, 4);
  std::memcpy(&b[6], &size, 2);
  return b;
}

struct Fixture {
  PerfSession session;
  DecodeResult out;
  Sink sink;
  PerfOrderedEvents q{session, out, sink};
  std::vector<std::vector<uint8_t>> keep;
  Fixture() {
    PerfEventAttr a;
    a.sample_type = kSampleIp | kSampleTid | kSampleTime;
    session.AddAttr(a, {}, 0);
  }
  void Add(int32_t row, std::vector<uint8_t> b) {
    keep.push_back(std::move(b));
    q.Record(row, ByteReader(keep.back().data(), keep.back().size(), 0, ByteOrder::kLittle));
  }
};

TEST(PerfOrderedEvents, RoundsDeliverUpToThePreviousRoundsLargestTime) {
  Fixture f;
  f.Add(1, Sample(30));
  f.Add(2, Sample(10));
  f.Add(3, Sample(0));  // no time: at once
  EXPECT_EQ(f.sink.rows, (std::vector<int32_t>{3}));
  f.Add(4, Round());  // flushes up to 0 (nothing), then remembers 30
  EXPECT_EQ(f.sink.rows, (std::vector<int32_t>{3, 4}));
  f.Add(5, Sample(10));  // same time as row 2: after it (file order)
  f.Add(6, Sample(40));
  f.Add(7, Round());  // up to 30
  EXPECT_EQ(f.sink.rows, (std::vector<int32_t>{3, 4, 2, 5, 1, 7}));
  f.q.Finish();
  EXPECT_EQ(f.sink.rows, (std::vector<int32_t>{3, 4, 2, 5, 1, 7, 6}));
  EXPECT_EQ(f.sink.sizes.back(), 32u);  // the bytes were kept
  EXPECT_TRUE(f.out.diags.items().empty());
}

TEST(PerfOrderedEvents, AFullQueueDeliversItsOlderHalfAndSaysSo) {
  Fixture f;
  f.q.set_max_queued_bytes(4 * 32);
  for (int i = 0; i < 4; ++i) f.Add(i, Sample(100 + 10 * static_cast<uint64_t>(i)));
  EXPECT_TRUE(f.sink.rows.empty());
  f.Add(4, Sample(50));  // over the bound: times 100..130, the half up to 115 goes
  EXPECT_EQ(f.sink.rows, (std::vector<int32_t>{0, 1}));
  ASSERT_EQ(f.out.diags.items().size(), 1u);
  EXPECT_EQ(f.out.diags.items()[0].code, DiagCode::kLimitExceeded);
  EXPECT_NE(f.out.diags.items()[0].message.find("older half"), std::string::npos);
  f.q.Finish();
  EXPECT_EQ(f.sink.rows, (std::vector<int32_t>{0, 1, 4, 2, 3}));
}

TEST(PerfOrderedEvents, SimpleperfFilesStayInFileOrder) {
  Fixture f;
  f.session.features.simpleperf.present = true;
  f.Add(1, Sample(30));
  f.Add(2, Sample(10));
  EXPECT_EQ(f.sink.rows, (std::vector<int32_t>{1, 2}));
}

}  // namespace
}  // namespace profscope::perf

namespace profscope::perf {
namespace {

// A flush merges the runs in time order of what a round holds (perf writes each CPU's buffer in
// turn): whatever the runs, the records come out as a stable sort by time would give them (ties
// in file order, what waited from an earlier flush before what came since).
TEST(PerfOrderedEvents, RunsOfARoundComeOutAsAStableSortByTime) {
  uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 33;
  };
  for (int trial = 0; trial < 200; ++trial) {
    SCOPED_TRACE(trial);
    Fixture f;
    // Some trials with a small bound (the older half goes when full), some with records that
    // wait long (a time far ahead: they keep an arena of an early round until the end).
    const size_t bound = trial % 4 == 1 ? 32 * (5 + next() % 20) : 0;
    if (bound) f.q.set_max_queued_bytes(bound);
    const bool stragglers = trial % 5 == 2;
    std::vector<std::pair<uint64_t, int32_t>> all;  // (time, row) of every timed record, file order
    int32_t row = 0;
    const int rounds = 1 + static_cast<int>(next() % 4);
    // Runs of rising times (few distinct times, so ties across runs are many); with up to 100
    // runs a round, more than the merge handles before it sorts instead.
    for (int r = 0; r < rounds; ++r) {
      const int runs = 1 + static_cast<int>(next() % (trial % 3 == 0 ? 100 : 6));
      for (int k = 0; k < runs; ++k) {
        uint64_t t = 1 + next() % 8;
        const int len = static_cast<int>(next() % 12);
        for (int i = 0; i < len; ++i) {
          t += next() % 3;
          const uint64_t time = stragglers && next() % 10 == 0 ? 1000000 + next() % 5 : t;
          all.push_back({time, ++row});
          f.Add(row, Sample(time));
        }
      }
      f.Add(++row, Round());
    }
    f.q.Finish();
    // The model: at each FINISHED_ROUND, what waits is sorted by time (ties in file order) and
    // what is not after the previous round's largest time goes; the end delivers the rest.
    std::vector<int32_t> want;
    std::vector<std::pair<uint64_t, int32_t>> waiting;
    uint64_t max_time = 0, limit = 0;
    auto deliver = [&](uint64_t upto) {
      std::stable_sort(waiting.begin(), waiting.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      size_t n = 0;
      while (n < waiting.size() && waiting[n].first <= upto) want.push_back(waiting[n++].second);
      waiting.erase(waiting.begin(), waiting.begin() + static_cast<long>(n));
    };
    size_t next_timed = 0;
    for (int32_t x = 1; x <= row; ++x) {
      if (next_timed < all.size() && all[next_timed].second == x) {
        if (bound && !waiting.empty() && 32 * (waiting.size() + 1) > bound) {  // full: the older half
          uint64_t lo = ~0ull, hi = 0;
          for (const auto& w : waiting) {
            lo = std::min(lo, w.first);
            hi = std::max(hi, w.first);
          }
          const uint64_t half = lo + (hi - lo) / 2;
          deliver(half);
          limit = std::max(limit, half);
        }
        waiting.push_back(all[next_timed]);
        max_time = std::max(max_time, all[next_timed].first);
        ++next_timed;
      } else {  // a FINISHED_ROUND
        deliver(limit);
        limit = max_time;
        want.push_back(x);
      }
    }
    deliver(~0ull);
    EXPECT_EQ(f.sink.rows, want);
  }
}

}  // namespace
}  // namespace profscope::perf
