// How much room a table that grows as a file is read should make, from how far into the file it is.
//
// A decoder that knows the file's size and how far it has read can estimate the rows the whole file
// will give, and make room for them once instead of letting the columns double (each doubling copies
// the table and touches fresh pages; in WASM, whose heap never shrinks, it leaves a high-water mark of up
// to twice the table). A file's first part is not always like the rest (a perf.data opens with its
// mappings and thread names), so the estimate is looked at again while the table is still small
// (EstimateRows::Next: each time its rows double) and the room made again while a copy is cheap.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace profscope {

// The room to make for a table of `have` rows with room for `room`, which reached byte `at` of `size`
// bytes, never more than `most` rows (what the memory budget lets it hold), or 0 to leave it as it is. The
// estimate is the rows so far scaled to the whole size, 5 % more, and 1024 rows more; the room made is a
// tenth more than that, so that estimates creeping up as the read goes on (a header's bytes count less and
// less) do not copy the table each time:
// - a full table (have == room) grows to that, and at least a quarter more;
// - one with room left grows only when the estimate, without the 1024 rows only a small table needs, is
//   past its room.
inline size_t RowsToReserve(size_t have, size_t room, uint64_t at, uint64_t size, double most) {
  if (at == 0) return 0;
  const double scaled = static_cast<double>(have) * static_cast<double>(size) / static_cast<double>(at) * 1.05;
  const double give = std::min((scaled + 1024) * 1.1, most);
  if (have >= room) return static_cast<size_t>(std::max(give, static_cast<double>(have) * 1.25));
  return std::min(scaled, most) > static_cast<double>(room) ? static_cast<size_t>(give) : 0;
}

// When to look again: at `first` rows, then each time the rows double.
class EstimateRows {
 public:
  explicit EstimateRows(size_t first = 4096) : next_(first) {}
  // Whether a table of `rows` rows (added one at a time) is due for another look.
  bool Due(size_t rows) const { return rows == next_; }
  // Called at each look: the next one is at twice these rows.
  void Looked(size_t rows) {
    if (rows >= next_) next_ = 2 * rows;
  }

 private:
  size_t next_;
};

}  // namespace profscope
