// perf's ordered-events queue (perf_ordered_events.h): the order records
// reach the interpretation, and its memory bound.
#include "core/format/perf/perf_ordered_events.h"

#include <gtest/gtest.h>

#include <cstring>
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
