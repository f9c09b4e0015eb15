// RowsToReserve and EstimateRows: the room a table growing as a file is read makes (the perf sample and
// record tables), checked by reading simulated files row by row as PerfRecordParser does.
#include "core/model/row_estimate.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace profscope {
namespace {

struct Grown {
  size_t room = 0;         // at the end
  uint64_t copied = 0;     // rows copied by the room made again
  int reservations = 0;
};

// Reads `rows` rows whose row r ends at byte end(r) of a file of `size` bytes: room is made when the table
// is full (at 4096 rows and on, by RowsToReserve; before, by doubling) and, with `relook`, when
// EstimateRows says so.
Grown Read(size_t rows, uint64_t size, const std::function<uint64_t(size_t)>& end, bool relook, double most = 1e12) {
  Grown g;
  g.room = 64;
  EstimateRows due;
  for (size_t have = 0; have < rows; ++have) {  // (row `have` is about to be added)
    size_t want = 0;
    if (have >= 4096 && (have == g.room || (relook && due.Due(have)))) {
      due.Looked(have);
      want = RowsToReserve(have, g.room, end(have), size, most);
    } else if (have == g.room) {
      want = 2 * have;
    }
    if (want > g.room) {
      g.copied += have;
      g.room = want;
      ++g.reservations;
    }
    EXPECT_GT(g.room, have) << "row " << have << " has no room";
    if (g.room <= have) break;
  }
  return g;
}

TEST(RowEstimate, AFileLikeItsStartIsGivenItsRoomOnce) {
  const size_t n = 3'000'000;
  const uint64_t per = 250;
  const Grown g = Read(n, n * per + 4096, [&](size_t r) { return 4096 + (r + 1) * per; }, true);
  EXPECT_GE(g.room, n);
  EXPECT_LE(g.room, n + n / 5);
  EXPECT_EQ(g.copied, 4096u * 2 - 64) << "only the small table before the first estimate is copied";
}

TEST(RowEstimate, ASparseStartIsCorrectedWhileTheTableIsSmall) {
  // A perf.data's start as in bench/perfreal's 1 GB recording: its first samples 325 bytes apart (its
  // mappings and thread names between them), the rest 247.
  const size_t n = 4'340'000, head = 8'000;
  auto end = [&](size_t r) { return r < head ? (r + 1) * 325 : head * 325 + (r + 1 - head) * 247; };
  const uint64_t size = end(n - 1) + 100'000;  // (and the features after the samples)
  const Grown relooked = Read(n, size, end, true);
  const Grown once = Read(n, size, end, false);
  EXPECT_GE(relooked.room, n);
  EXPECT_LE(relooked.room, n + n / 5);
  EXPECT_LE(relooked.copied, 100'000u) << "copies only while the table is small";
  // Looking only when full leaves the first estimate short, and copies a table of millions of rows.
  EXPECT_GT(once.copied, 3'000'000u);
}

TEST(RowEstimate, ALongSparseStartCopiesNoMoreThanLookingOnlyWhenFull) {
  // A fiftieth of the file with rows four times as far apart: the estimates converge slowly.
  const size_t n = 4'000'000, head = 20'000;
  auto end = [&](size_t r) { return r < head ? (r + 1) * 1000 : head * 1000 + (r + 1 - head) * 250; };
  const uint64_t size = end(n - 1);
  const Grown relooked = Read(n, size, end, true);
  const Grown once = Read(n, size, end, false);
  EXPECT_GE(relooked.room, n);
  EXPECT_LE(relooked.room, n + n / 4);
  EXPECT_LE(relooked.copied, once.copied + 100'000);
  EXPECT_LE(relooked.copied, n / 3);
}

TEST(RowEstimate, EstimatesCreepingUpDoNotCopyTheTableEachTime) {
  // Rows get denser through the file: each look estimates a little more than the last.
  const size_t n = 4'000'000;
  auto end = [&](size_t r) {
    const double x = static_cast<double>(r + 1);
    return static_cast<uint64_t>(300.0 * x - 25.0 * x * x / static_cast<double>(n));  // 300 bytes a row, then 250
  };
  const Grown g = Read(n, end(n - 1), end, true);
  EXPECT_GE(g.room, n);
  EXPECT_LE(g.reservations, 4 + 4) << "doublings to 4096, then a few";
  EXPECT_LE(g.copied, 200'000u);
}

TEST(RowEstimate, NeverMoreThanTheBudgetLetsUnlessTheTableIsFull) {
  // A dense start: the estimate overshoots, and is held to `most`.
  const double most = 1'000'000;
  EXPECT_EQ(RowsToReserve(5000, 8192, 5000, 1'000'000'000, most), 1'000'000u);
  EXPECT_EQ(RowsToReserve(8192, 8192, 8192, 1'000'000'000, most), 1'000'000u);
  // A full table always grows, by a quarter at least, even past `most` (the budget then stops the decode).
  EXPECT_EQ(RowsToReserve(2'000'000, 2'000'000, 1000, 1000, most), 2'500'000u);
  // Room left and the estimate within it: nothing to do.
  EXPECT_EQ(RowsToReserve(10'000, 100'000, 1000, 2000, most), 0u);
  // Nothing read to extrapolate from.
  EXPECT_EQ(RowsToReserve(10'000, 10'000, 0, 2000, most), 0u);
  // Past the room: a tenth more than the estimate (20 000 * 2 * 1.05 + 1024 = 43 024).
  EXPECT_EQ(RowsToReserve(20'000, 40'000, 1000, 2000, most), static_cast<size_t>(43'024 * 1.1));
  EXPECT_EQ(RowsToReserve(20'000, 41'999, 1000, 2000, most), static_cast<size_t>(43'024 * 1.1));
  // Past the room only by the 1024 rows a small table is given: nothing to do.
  EXPECT_EQ(RowsToReserve(20'000, 42'000, 1000, 2000, most), 0u);
  // A full table: the same, or a quarter more when the estimate is less.
  EXPECT_EQ(RowsToReserve(20'000, 20'000, 1000, 2000, most), static_cast<size_t>(43'024 * 1.1));
  EXPECT_EQ(RowsToReserve(40'000, 40'000, 2000, 2000, most), 50'000u);
}

TEST(RowEstimate, LooksAgainEachTimeTheRowsDouble) {
  EstimateRows e;
  std::vector<size_t> at;
  for (size_t r = 0; r <= 100'000; ++r)
    if (e.Due(r)) {
      at.push_back(r);
      e.Looked(r);
    }
  EXPECT_EQ(at, (std::vector<size_t>{4096, 8192, 16384, 32768, 65536}));
  // A look when full, between the doublings, leaves the next one where it was.
  EstimateRows f;
  f.Looked(4096);
  f.Looked(5000);
  EXPECT_TRUE(f.Due(8192));
  EXPECT_FALSE(f.Due(10000));
}

}  // namespace
}  // namespace profscope
