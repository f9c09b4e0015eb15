#include "core/analysis/sample_lanes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/analysis/group_rows.h"
#include "core/model/min_heap.h"

namespace profscope {
namespace {

using Counts = std::vector<std::array<uint32_t, 65536>>;

// Sorts rows[0, n) by key(row) (stable): a comparison sort for lists under 65536 (a radix pass's
// histogram costs as much as such a list), else an LSD radix sort on the key's 16-bit digits that skips
// the digits every row shares (times of one recording share their high bits; an XRay log's calls come in
// exit order, nearly sorted, which a comparison sort of millions would still pay n log n for).
template <typename Key>
void SortByKey(int32_t* rows, size_t n, Key key, std::vector<int32_t>& scratch, Counts& counts) {
  if (n < 65536) {
    std::stable_sort(rows, rows + n, [&](int32_t a, int32_t b) { return key(a) < key(b); });
    return;
  }
  counts.resize(4);
  for (auto& c : counts) c.fill(0);
  for (size_t k = 0; k < n; ++k) {
    const uint64_t v = key(rows[k]);
    for (int d = 0; d < 4; ++d) ++counts[static_cast<size_t>(d)][(v >> (16 * d)) & 0xffff];
  }
  scratch.resize(n);
  int32_t* from = rows;
  int32_t* to = scratch.data();
  for (int d = 0; d < 4; ++d) {
    auto& c = counts[static_cast<size_t>(d)];
    const uint64_t first = (key(rows[0]) >> (16 * d)) & 0xffff;
    if (c[first] == n) continue;  // every row has this digit: nothing moves
    uint32_t sum = 0;
    for (auto& x : c) {
      const uint32_t here = x;
      x = sum;
      sum += here;
    }
    for (size_t k = 0; k < n; ++k) {
      const int32_t r = from[k];
      to[c[(key(r) >> (16 * d)) & 0xffff]++] = r;
    }
    std::swap(from, to);
  }
  if (from != rows) std::copy(from, from + n, rows);
}

// Sorts each run of `order` (run r = [bounds[r], bounds[r + 1])) by key, stably, unless it is in order
// already (a recording's lanes and rows nearly always are: this only checks them).
// Rows below `known` (each run holds them first, in row order) are known in order among themselves: only the
// rest are checked.
template <typename Key>
void SortRuns(std::vector<int32_t>& order, const std::vector<int32_t>& bounds, Key key, std::vector<int32_t>& scratch, Counts& counts,
              size_t known = 0) {
  for (size_t r = 0; r + 1 < bounds.size(); ++r) {
    int32_t* rows = order.data() + bounds[r];
    const size_t m = static_cast<size_t>(bounds[r + 1] - bounds[r]);
    bool sorted = true;
    size_t from = 1;
    while (known > 0 && from < m && static_cast<size_t>(rows[from]) < known) ++from;
    for (size_t j = from; j < m && sorted; ++j) sorted = key(rows[j - 1]) <= key(rows[j]);
    if (!sorted) SortByKey(rows, m, key, scratch, counts);
  }
}

}  // namespace

IntervalRows OrderIntervalRows(const IntervalView& calls, uint64_t origin, size_t in_order) {
  IntervalRows out;
  const size_t n = calls.size();
  auto thread_of = [&](size_t i) { return calls.thread(i); };
  auto depth_of = [&](size_t i) { return std::max(calls.depth(i), 0); };
  auto start_of = [&](int32_t i) { return Relative(calls.start(static_cast<size_t>(i)), origin); };
  int64_t max_thread = -1, max_depth = 0;
  for (size_t i = 0; i < n; ++i) {
    max_thread = std::max<int64_t>(max_thread, thread_of(i));
    max_depth = std::max<int64_t>(max_depth, depth_of(i));
  }
  const uint64_t groups = static_cast<uint64_t>(max_thread + 1) * static_cast<uint64_t>(max_depth + 1);
  std::vector<int32_t> scratch;
  Counts counts;
  if (groups <= std::max<uint64_t>(n, uint64_t{1} << 16)) {
    // few (thread, depth) pairs (a tracer's threads times its depths: the 200 MB XRay log's 4 x 16): a
    // counting sort whose passes read the calls in order
    auto group = [&](size_t i) {
      const int32_t th = thread_of(i);
      return static_cast<size_t>(th < 0 ? groups : static_cast<uint64_t>(th) * static_cast<uint64_t>(max_depth + 1) + static_cast<uint64_t>(depth_of(i)));
    };
    std::vector<int32_t> at;
    GroupRows(n, static_cast<size_t>(groups), group, out.order, at);
    for (uint64_t g = 0; g < groups; ++g) {
      const size_t k = static_cast<size_t>(at[g]), e = static_cast<size_t>(at[g + 1]);
      if (k == e) continue;
      out.first.push_back(static_cast<int32_t>(k));
      out.thread.push_back(static_cast<int32_t>(g / static_cast<uint64_t>(max_depth + 1)));
      out.depth.push_back(static_cast<int32_t>(g % static_cast<uint64_t>(max_depth + 1)));
    }
    out.first.push_back(at[groups]);
  } else {
    // many: a radix sort on (thread, depth) as one key (the calls of no thread last), then the rows are its runs
    auto row_key = [&](int32_t i) {
      const int32_t th = thread_of(static_cast<size_t>(i));
      const uint64_t t = th < 0 ? uint64_t{UINT32_MAX} : static_cast<uint64_t>(th);
      return (t << 32) | static_cast<uint32_t>(depth_of(static_cast<size_t>(i)));
    };
    out.order.resize(n);
    for (size_t i = 0; i < n; ++i) out.order[i] = static_cast<int32_t>(i);
    SortByKey(out.order.data(), n, row_key, scratch, counts);
    size_t k = 0;
    while (k < n) {
      const uint64_t key = row_key(out.order[k]);
      if ((key >> 32) == UINT32_MAX) break;  // the calls of no thread: no row
      size_t e = k + 1;
      while (e < n && row_key(out.order[e]) == key) ++e;
      out.first.push_back(static_cast<int32_t>(k));
      out.thread.push_back(static_cast<int32_t>(key >> 32));
      out.depth.push_back(static_cast<int32_t>(key & UINT32_MAX));
      k = e;
    }
    out.first.push_back(static_cast<int32_t>(k));
  }
  // each row in start order: a thread's calls at one depth do not overlap, so their exit order (an XRay
  // log's) is their start order already
  SortRuns(out.order, out.first, start_of, scratch, counts, in_order);
  // the rows' blocks and where each ends (a row's ends are in order too: its calls do not overlap)
  const size_t rows = out.thread.size();
  out.block_first.reserve(rows + 1);
  out.block_first.push_back(0);
  for (size_t r = 0; r < rows; ++r) {
    const size_t n_calls = static_cast<size_t>(out.first[r + 1] - out.first[r]);
    out.block_first.push_back(out.block_first.back() + static_cast<int32_t>((n_calls + IntervalRows::kBlock - 1) / IntervalRows::kBlock));
  }
  out.block_end.reserve(static_cast<size_t>(out.block_first.back()));
  for (size_t r = 0; r < rows; ++r) {
    const size_t a = static_cast<size_t>(out.first[r]), b = static_cast<size_t>(out.first[r + 1]);
    for (size_t k = a; k < b; k += IntervalRows::kBlock) {
      const size_t last = std::min(k + IntervalRows::kBlock, b) - 1;
      out.block_end.push_back(static_cast<double>(Relative(calls.end(static_cast<size_t>(out.order[last])), origin)));
    }
  }
  return out;
}

SampleLanes OrderLanes(const PackedColumn<int32_t>& key, int32_t n_lanes, const std::vector<uint64_t>& time, uint64_t origin) {
  SampleLanes out;
  const size_t n = key.size();
  const size_t lanes = static_cast<size_t>(std::max(n_lanes, 0));
  size_t run = 0;
  auto lane_of = [&](size_t i) { return LaneOfKey(key.At(i, &run), lanes); };  // (in order: GroupRows' passes cost no search)
  GroupRows(n, lanes, lane_of, out.samples, out.start);
  std::vector<int32_t> scratch;
  Counts counts;
  auto time_of = [&](int32_t s) { return Relative(time[static_cast<size_t>(s)], origin); };
  SortRuns(out.samples, out.start, time_of, scratch, counts);
  return out;
}

namespace {

// Calls [first, last) in start order (relative to the origin), equal starts in call order: the lane of the
// samples of no thread.
void SortByStart(const IntervalView& calls, uint64_t origin, std::vector<int32_t>::iterator first, std::vector<int32_t>::iterator last) {
  std::sort(first, last, [&](int32_t a, int32_t b) {
    const uint64_t ka = Relative(calls.start(static_cast<size_t>(a)), origin), kb = Relative(calls.start(static_cast<size_t>(b)), origin);
    return ka < kb || (ka == kb && a < b);
  });
}

// A lane's calls so far that no later call holds yet, as stretches of calls one after another at one depth
// (with the calls inside them), the deepest last: each stretch's depth, the lane's place of its first call,
// its first call's start and the latest start in it. The stretches left at the end are the calls inside
// calls that never exited (no samples), one after another in time: a call's place in the start order is its
// stretch's first call's place plus its depth below that stretch's.
class Nesting {
 public:
  struct Stretch {
    int32_t depth;
    uint32_t first;
    uint64_t first_start;
    uint64_t last_start;
  };
  // Takes the lane's next call in (exit order) at depth d starting at t (kCheck: else t is not read);
  // `first` is the place of the first call in it (itself, or the first inside it). False when kCheck and
  // the calls do not nest.
  template <bool kCheck>
  PROFSCOPE_ALWAYS_INLINE bool Take(int32_t d, uint64_t t, uint32_t* first) {
    Stretch here{d, seen_++, t, t};
    if (!open_.empty() && open_.back().depth > d) {  // the calls inside this one: it started strictly before them
      const Stretch& inner = open_.back();
      if (kCheck && (static_cast<int64_t>(inner.depth) != static_cast<int64_t>(d) + 1 || !(t < inner.first_start))) return false;
      here.first = inner.first;
      here.last_start = inner.last_start;
      open_.pop_back();
    }
    *first = here.first;
    if (!open_.empty() && open_.back().depth == d) {  // after the calls before it at its depth, which ended
      if (kCheck && !(open_.back().last_start <= here.first_start)) return false;
      open_.back().last_start = here.last_start;
    } else {
      open_.push_back(here);
    }
    return true;
  }
  // How many calls were taken.
  uint32_t seen() const { return seen_; }
  // The stretches left, outermost first; the lane starts again.
  std::vector<Stretch> Restart() {
    seen_ = 0;
    std::vector<Stretch> left;
    left.swap(open_);
    return left;
  }

 private:
  std::vector<Stretch> open_;
  uint32_t seen_ = 0;
};

}  // namespace

namespace {

// The first pass of LanesOfNestedCalls: whether the calls nest (its `nested`), each lane's calls counted
// (start: n_lanes + 2 entries, lane l's count at l + 1), and each lane's Nesting and stretches left at the
// end (last first), ready for the second pass.
bool NestedCallsCounted(const IntervalView& calls, size_t n_samples, size_t lanes, uint64_t origin,
                        std::vector<int32_t>& start, std::vector<Nesting>& nesting,
                        std::vector<std::vector<Nesting::Stretch>>& outermost) {
  auto lane_of = [&](size_t i) { return LaneOfKey(calls.thread(i), lanes); };
  nesting.assign(lanes, Nesting());
  start.assign(lanes + 2, 0);
  for (size_t i = 0; i < n_samples; ++i) {
    const size_t l = lane_of(i);
    ++start[l + 1];
    uint32_t first;
    const int32_t d = calls.depth(i);
    if (l == lanes) {
      if (calls.thread(i) >= 0) return false;  // (a thread past the table's)
    } else if (d < 0 || !nesting[l].Take<true>(d, Relative(calls.start(i), origin), &first)) {
      return false;
    }
  }
  outermost.assign(lanes, {});
  for (size_t l = 0; l < lanes; ++l) {
    std::vector<Nesting::Stretch> left = nesting[l].Restart();
    for (size_t k = 1; k < left.size(); ++k)  // (the calls inside calls that never exited: one after another)
      if (!(left[k - 1].last_start <= left[k].first_start)) return false;
    outermost[l].assign(left.rbegin(), left.rend());
  }
  return true;
}

}  // namespace

bool CallsNest(const IntervalView& calls, size_t n_samples, int32_t n_lanes, uint64_t origin) {
  std::vector<int32_t> start;
  std::vector<Nesting> nesting;
  std::vector<std::vector<Nesting::Stretch>> outermost;
  return NestedCallsCounted(calls, std::min(n_samples, calls.from_samples()), static_cast<size_t>(std::max(n_lanes, 0)),
                            origin, start, nesting, outermost);
}

SampleLanes LanesOfNestedCalls(const IntervalView& calls, size_t n_samples, int32_t n_lanes, uint64_t origin, bool* nested) {
  *nested = false;
  SampleLanes out;
  const size_t lanes = static_cast<size_t>(std::max(n_lanes, 0));
  n_samples = std::min(n_samples, calls.from_samples());
  auto lane_of = [&](size_t i) { return LaneOfKey(calls.thread(i), lanes); };
  // First the lanes' sizes and whether the calls nest, then again, each call to its place.
  std::vector<Nesting> nesting;
  std::vector<std::vector<Nesting::Stretch>> outermost;  // each lane's stretches left at the end, last first
  if (!NestedCallsCounted(calls, n_samples, lanes, origin, out.start, nesting, outermost)) return {};
  for (size_t l = 0; l <= lanes; ++l) out.start[l + 1] += out.start[l];
  out.samples.resize(static_cast<size_t>(out.start.back()));
  size_t other = static_cast<size_t>(out.start[lanes]);
  for (size_t i = 0; i < n_samples; ++i) {
    const size_t l = lane_of(i);
    if (l == lanes) {
      out.samples[other++] = static_cast<int32_t>(i);
      continue;
    }
    std::vector<Nesting::Stretch>& outer = outermost[l];
    const uint32_t k = nesting[l].seen();  // (its place among the lane's calls in exit order)
    while (outer.size() > 1 && k >= outer[outer.size() - 2].first) outer.pop_back();  // (the stretch it is in)
    const int32_t d = calls.depth(i);
    uint32_t first = 0;
    nesting[l].Take<false>(d, 0, &first);
    const int64_t below = static_cast<int64_t>(d) - outer.back().depth;
    const size_t place = first + static_cast<size_t>(below);
    if (below < 0 || place >= static_cast<size_t>(out.start[l + 1] - out.start[l])) return {};  // (not for calls that nest)
    out.samples[static_cast<size_t>(out.start[l]) + place] = static_cast<int32_t>(i);
  }
  SortByStart(calls, origin, out.samples.begin() + out.start[lanes], out.samples.end());
  *nested = true;
  return out;
}

SampleLanes LanesOfCalls(const IntervalView& calls, const IntervalRows& rows, size_t n_samples, int32_t n_lanes, uint64_t origin) {
  SampleLanes out;
  const size_t lanes = static_cast<size_t>(std::max(n_lanes, 0));
  n_samples = std::min(n_samples, calls.from_samples());
  const size_t n_rows = rows.thread.size();
  auto in_lane = [&](size_t r) { return LaneOfKey(rows.thread[r], lanes); };  // (its thread's, else no lane's)
  auto is_sample = [&](int32_t c) { return static_cast<size_t>(c) < n_samples; };
  // (a call past the samples: one that never exited, kept as an interval of its own)
  auto key_of = [&](int32_t c) { return Relative(calls.start(static_cast<size_t>(c)), origin); };
  out.start.assign(lanes + 2, 0);
  for (size_t r = 0; r < n_rows; ++r)
    for (int32_t k = rows.first[r]; k < rows.first[r + 1]; ++k) out.start[in_lane(r) + 1] += is_sample(rows.order[static_cast<size_t>(k)]);
  for (size_t k = static_cast<size_t>(rows.first.back()); k < rows.order.size(); ++k) out.start[lanes + 1] += is_sample(rows.order[k]);
  for (size_t l = 0; l <= lanes; ++l) out.start[l + 1] += out.start[l];
  out.samples.resize(static_cast<size_t>(out.start.back()));
  // Each lane's rows (by thread, then depth: a lane's are side by side) merged by (start, call), as the
  // rows are ordered: a min-heap of the rows' next samples.
  struct Head {
    uint64_t key;
    int32_t call;
    int32_t at;   // its place in rows.order
    int32_t end;  // its row's end there
  };
  auto before = [](const Head& a, const Head& b) { return a.key < b.key || (a.key == b.key && a.call < b.call); };
  std::vector<Head> heap;
  // The next sample of a row from `at` on, as a head; false when the row has none left.
  auto next_head = [&](int32_t at, int32_t end, Head* h) {
    for (; at < end; ++at) {
      const int32_t c = rows.order[static_cast<size_t>(at)];
      if (!is_sample(c)) continue;
      *h = Head{key_of(c), c, at, end};
      return true;
    }
    return false;
  };
  size_t fill = 0;
  size_t r = 0;
  for (size_t l = 0; l < lanes; ++l) {
    while (r < n_rows && in_lane(r) < l) ++r;  // (rows past the lanes come last: in_lane is then `lanes`)
    heap.clear();
    for (; r < n_rows && in_lane(r) == l; ++r) {
      Head h;
      if (next_head(rows.first[r], rows.first[r + 1], &h)) heap.push_back(h);
    }
    MakeHeap(heap, before);
    fill = static_cast<size_t>(out.start[l]);
    while (!heap.empty()) {
      Head& top = heap[0];
      out.samples[fill++] = top.call;
      if (!next_head(top.at + 1, top.end, &top)) {
        top = heap.back();
        heap.pop_back();
        if (heap.empty()) break;
      }
      SiftDown(heap, 0, before);
    }
  }
  // The samples of no lane (of no thread, or of a thread past the lanes): few; sorted as they are
  fill = static_cast<size_t>(out.start[lanes]);
  auto take = [&](size_t a, size_t b) {
    for (size_t k = a; k < b; ++k)
      if (is_sample(rows.order[k])) out.samples[fill++] = rows.order[k];
  };
  for (size_t q = 0; q < n_rows; ++q)
    if (in_lane(q) == lanes) take(static_cast<size_t>(rows.first[q]), static_cast<size_t>(rows.first[q + 1]));
  take(static_cast<size_t>(rows.first.back()), rows.order.size());
  SortByStart(calls, origin, out.samples.begin() + out.start[lanes], out.samples.end());
  return out;
}

IntervalBoxes BoxIntervals(const IntervalView& calls, const IntervalRows& rows, const std::vector<int32_t>& which, uint64_t origin,
                           double scale, double t0, double t1, int32_t cols) {
  IntervalBoxes out;
  if (!(t1 > t0) || cols < 1) return out;
  const double dt = (t1 - t0) / cols;
  // (times as a shell has them: Session::RelativeTime, then scaled as the page scales them)
  auto time_of = [&](uint64_t t) {
    const double r = static_cast<double>(Relative(t, origin));
    return scale != 1 ? r * scale : r;
  };
  const bool blocks = rows.block_first.size() == rows.first.size();
  constexpr size_t kBlock = IntervalRows::kBlock;
  for (const int32_t r : which) {
    if (r < 0 || static_cast<size_t>(r) + 1 >= rows.first.size()) continue;
    const size_t a = static_cast<size_t>(rows.first[static_cast<size_t>(r)]), b = static_cast<size_t>(rows.first[static_cast<size_t>(r) + 1]);
    auto call_at = [&](size_t k) { return static_cast<size_t>(rows.order[k]); };
    auto end_at = [&](size_t k) { return time_of(calls.end(call_at(k))); };
    // the first call from `k` on that ends after t: the block it is in, by the blocks' ends, then the call
    auto first_ending_after = [&](double t, size_t k) {
      size_t lo = k, hi = b;
      if (blocks && k < b) {
        const size_t j0 = static_cast<size_t>(rows.block_first[static_cast<size_t>(r)]);
        size_t jl = j0 + (k - a) / kBlock, jh = static_cast<size_t>(rows.block_first[static_cast<size_t>(r) + 1]);
        while (jl < jh) {
          const size_t mid = jl + (jh - jl) / 2;
          const double e = scale != 1 ? rows.block_end[mid] * scale : rows.block_end[mid];
          if (e > t) jh = mid;
          else jl = mid + 1;
        }
        if (jl == static_cast<size_t>(rows.block_first[static_cast<size_t>(r) + 1])) return b;
        lo = std::max(k, a + (jl - j0) * kBlock);
        hi = std::min(b, a + (jl - j0 + 1) * kBlock);
      }
      while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (end_at(mid) > t) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    double last_col = -std::numeric_limits<double>::infinity();
    for (size_t k = first_ending_after(t0, a); k < b;) {
      const size_t c = call_at(k);
      const double s = time_of(calls.start(c));
      if (!(s < t1)) break;
      const double e = time_of(calls.end(c));
      const double x0 = (s - t0) / dt, x1 = (e - t0) / dt;
      if (x1 - x0 < 1 && std::floor(x0) <= last_col) {
        // (the calls ending in the drawn columns would all be left out: on to the first ending after them)
        k = std::max(k + 1, first_ending_after(t0 + (last_col + 1) * dt, k + 1));
        continue;
      }
      last_col = std::floor(std::max(x1 - 1, x0));
      out.row.push_back(r);
      out.call.push_back(static_cast<int32_t>(c));
      out.start.push_back(s);
      out.end.push_back(e);
      ++k;
    }
  }
  return out;
}

std::vector<double> EventTotals(const SampleTable& samples, size_t n_named) {
  int32_t used = -1;
  samples.event.ForEachRun([&](int32_t first, int32_t step, size_t len) {  // (a run's largest is an end)
    const auto last = static_cast<int32_t>(static_cast<uint32_t>(first) + static_cast<uint32_t>(step) * static_cast<uint32_t>(len - 1));
    used = std::max({used, first, last});
  });
  std::vector<double> totals(std::max(n_named, static_cast<size_t>(used + 1)), 0.0);
  if (samples.count.empty()) {  // (a sample each: a count per run of one event)
    samples.event.ForEachRun([&](int32_t first, int32_t step, size_t len) {
      for (size_t k = 0; k < (step == 0 ? 1 : len); ++k) {
        const auto e = static_cast<int32_t>(static_cast<uint32_t>(first) + static_cast<uint32_t>(step) * static_cast<uint32_t>(k));
        if (e >= 0) totals[static_cast<size_t>(e)] += static_cast<double>(step == 0 ? len : 1);
      }
    });
    return totals;
  }
  size_t i = 0;
  samples.event.ForEach([&](int32_t e) {
    if (e >= 0) totals[static_cast<size_t>(e)] += static_cast<double>(samples.Count(i));
    ++i;
  });
  return totals;
}

std::vector<std::pair<int32_t, uint32_t>> CpuRows(const PackedColumn<int32_t>& cpu) {
  // CPUs are few and small: a dense count up to the largest below 2^16, a sorted list past it
  std::vector<uint32_t> dense;
  std::vector<int32_t> large;
  auto add = [&](int32_t c, size_t times) {
    if (c < 0) return;
    if (c < 65536) {
      if (static_cast<size_t>(c) >= dense.size()) dense.resize(static_cast<size_t>(c) + 1, 0);
      dense[static_cast<size_t>(c)] += static_cast<uint32_t>(times);
    } else {
      large.insert(large.end(), times, c);
    }
  };
  cpu.ForEachRun([&](int32_t first, int32_t step, size_t len) {  // (a run of one CPU counted at once)
    if (step == 0) add(first, len);
    else
      for (size_t k = 0; k < len; ++k) add(static_cast<int32_t>(static_cast<uint32_t>(first) + static_cast<uint32_t>(step) * static_cast<uint32_t>(k)), 1);
  });
  std::vector<std::pair<int32_t, uint32_t>> out;
  for (size_t c = 0; c < dense.size(); ++c)
    if (dense[c]) out.emplace_back(static_cast<int32_t>(c), dense[c]);
  std::sort(large.begin(), large.end());
  for (size_t k = 0; k < large.size();) {
    size_t e = k;
    while (e < large.size() && large[e] == large[k]) ++e;
    out.emplace_back(large[k], static_cast<uint32_t>(e - k));
    k = e;
  }
  return out;
}

}  // namespace profscope
