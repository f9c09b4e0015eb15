#include "core/analysis/call_lanes.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/model/min_heap.h"

namespace profscope {
namespace {

// The page's typicalGap (web/src/views/flame-chart/chart-model.js) of `n` sorted times given one by one:
// the median of the gaps before times 1, 1 + step, 1 + 2 step ... (up to 2000 of them, step at least 1),
// not below 0; 0 for fewer than 2 times.
class GapSampler {
 public:
  explicit GapSampler(size_t n) : n_(n), step_(std::max<size_t>(1, n > 1 ? (n - 1) / 2000 : 1)) {}
  void Add(double t) {
    if (k_ == next_ && k_ < n_) {
      gaps_.push_back(t - prev_);
      next_ += step_;
    }
    prev_ = t;
    ++k_;
  }
  // No later time is read (the times after the last sampled gap).
  bool Done() const { return next_ >= n_; }
  double Median() {
    if (gaps_.empty()) return 0;
    std::sort(gaps_.begin(), gaps_.end());
    return std::max(gaps_[gaps_.size() >> 1], 0.0);
  }

 private:
  size_t n_, step_, next_ = 1, k_ = 0;
  double prev_ = 0;
  std::vector<double> gaps_;
};

// The starts (relative to the origin, 0 staying 0: as Session::RelativeTime orders them) of the calls that
// are samples (below `n_samples`) in rows `which` of `rows`, and the sorted `extra` starts, merged in start
// order (a heap of the rows' next calls): f(start) for each, until f returns false.
template <typename F>
void MergeStarts(const IntervalView& v, const IntervalRows& rows, const std::vector<int32_t>& which, size_t n_samples,
                 uint64_t origin, const std::vector<uint64_t>& extra, F f) {
  struct Head {
    uint64_t start;
    size_t src;  // which[src], or extra when src == which.size()
    size_t at;   // the place of the call (an index of rows.order) or of the extra start
  };
  // the source's first call at or after `at` that is a sample (false: none left)
  auto next = [&](size_t src, size_t at, Head* h) {
    if (src == which.size()) {
      if (at >= extra.size()) return false;
      *h = {extra[at], src, at};
      return true;
    }
    const auto r = static_cast<size_t>(which[src]);
    const auto end = static_cast<size_t>(rows.first[r + 1]);
    for (; at < end; ++at) {
      const auto call = static_cast<size_t>(rows.order[at]);
      if (call < n_samples) {
        *h = {Relative(v.start(call), origin), src, at};
        return true;
      }
    }
    return false;
  };
  std::vector<Head> heap;
  heap.reserve(which.size() + 1);
  Head h;
  for (size_t src = 0; src < which.size(); ++src)
    if (next(src, static_cast<size_t>(rows.first[static_cast<size_t>(which[src])]), &h)) heap.push_back(h);
  if (next(which.size(), 0, &h)) heap.push_back(h);
  auto before = [](const Head& a, const Head& b) { return a.start < b.start; };
  MakeHeap(heap, before);
  while (!heap.empty()) {
    if (!f(heap[0].start)) return;
    if (next(heap[0].src, heap[0].at + 1, &h)) {
      heap[0] = h;
    } else {
      heap[0] = heap.back();
      heap.pop_back();
      if (heap.empty()) return;
    }
    SiftDown(heap, 0, before);  // (the top replaced: one pass down the heap a call)
  }
}

// The rows of `rows` of thread `thread` (rows are by thread, then depth).
std::vector<int32_t> RowsOfThread(const IntervalRows& rows, int32_t thread) {
  const auto lo = std::lower_bound(rows.thread.begin(), rows.thread.end(), thread);
  const auto hi = std::upper_bound(lo, rows.thread.end(), thread);
  std::vector<int32_t> out;
  for (auto it = lo; it != hi; ++it) out.push_back(static_cast<int32_t>(it - rows.thread.begin()));
  return out;
}

// The first k in [lo, hi) with !below(k) (below is true, then false, over the range).
template <typename P>
size_t FirstNot(size_t lo, size_t hi, P below) {
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (below(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace

CallLaneSummary SummarizeCallLanes(const IntervalView& calls, const IntervalRows& rows, const SampleTable& samples,
                                   size_t n_threads, uint64_t origin, double scale) {
  const IntervalView& v = calls;
  const SampleTable& t = samples;
  const size_t n = t.size();
  // per lane (the last: no thread): calls, first and last start; the starts of the calls in no row
  std::vector<double> count(n_threads + 1, 0);
  std::vector<uint64_t> first(n_threads + 1, UINT64_MAX), last(n_threads + 1, 0), unrowed;
  size_t i = 0;
  t.thread.ForEach([&](int32_t th) {
    const uint64_t at = Relative(t.time[i++], origin);
    const size_t k = LaneOfKey(th, n_threads);
    ++count[k];
    first[k] = std::min(first[k], at);
    last[k] = std::max(last[k], at);
    if (th < 0) unrowed.push_back(at);  // (calls of no thread are in no row)
  });
  std::sort(unrowed.begin(), unrowed.end());
  const std::vector<uint64_t> none;
  // The median gap of up to kExactGap starts (a merge of their rows); of more, their mean gap, (last -
  // first) / (m - 1): a merge would read every call's start again, out of order (1 s for the 13 M calls of a
  // 200 MB log), and the chart's end is then padded by less than 1/65 535 of its span either way (under a
  // pixel of the whole view).
  constexpr size_t kExactGap = size_t{1} << 16;
  auto gap_of = [&](size_t m, const std::vector<int32_t>& which, const std::vector<uint64_t>& extra, uint64_t lo, uint64_t hi) {
    if (m < 2) return 0.0;
    if (m > kExactGap) return std::max((static_cast<double>(hi) * scale - static_cast<double>(lo) * scale) / static_cast<double>(m - 1), 0.0);
    GapSampler g(m);
    MergeStarts(v, rows, which, n, origin, extra, [&](uint64_t at) {
      g.Add(static_cast<double>(at) * scale);
      return !g.Done();
    });
    return g.Median();
  };
  std::vector<int32_t> thread;
  std::vector<double> counts, firsts, lasts, gaps;
  bool need_file_gap = false;
  for (size_t k = 0; k <= n_threads; ++k) {
    if (!count[k]) continue;
    const bool none_lane = k == n_threads;
    std::vector<int32_t> which;
    if (!none_lane) {
      which = RowsOfThread(rows, static_cast<int32_t>(k));
    } else {  // no thread: the rows of threads past the thread table, and the calls in no row
      const auto from = std::lower_bound(rows.thread.begin(), rows.thread.end(), static_cast<int32_t>(std::min<size_t>(n_threads, INT32_MAX)));
      for (auto it = from; it != rows.thread.end(); ++it) which.push_back(static_cast<int32_t>(it - rows.thread.begin()));
    }
    const double gap = gap_of(static_cast<size_t>(count[k]), which, none_lane ? unrowed : none, first[k], last[k]);
    need_file_gap = need_file_gap || gap == 0;
    thread.push_back(none_lane ? -1 : static_cast<int32_t>(k));
    counts.push_back(count[k]);
    firsts.push_back(static_cast<double>(first[k]) * scale);
    lasts.push_back(static_cast<double>(last[k]) * scale);
    gaps.push_back(gap);
  }
  double file_gap = 0;
  if (need_file_gap) {  // (a lane of one call: the page pads by the file's gap; made only then)
    std::vector<int32_t> all(rows.thread.size());
    for (size_t r = 0; r < all.size(); ++r) all[r] = static_cast<int32_t>(r);
    file_gap = gap_of(n, all, unrowed, *std::min_element(first.begin(), first.end()), *std::max_element(last.begin(), last.end()));
  }
  CallLaneSummary out;
  out.thread = std::move(thread);
  out.count = std::move(counts);
  out.first = std::move(firsts);
  out.last = std::move(lasts);
  out.gap = std::move(gaps);
  out.file_gap = file_gap;
  return out;
}

size_t CallActivityColumns(size_t cols) { return std::clamp<size_t>(cols, 1, size_t{1} << 16); }

size_t CallActivitySize(size_t lanes, size_t cols) {
  const size_t n_cols = CallActivityColumns(cols);
  return std::min(lanes, (size_t{1} << 24) / n_cols) * n_cols;  // (at most 2^24 counts)
}

std::vector<float> CallActivity(const IntervalView& calls, const IntervalRows& rows, const SampleTable& samples,
                                size_t n_threads, uint64_t origin, const std::vector<int32_t>& lanes, double scale,
                                double t0, double t1, size_t cols) {
  const size_t n_cols = CallActivityColumns(cols);
  const size_t n = CallActivitySize(lanes.size(), cols) / n_cols;
  const std::vector<int32_t>& want = lanes;
  std::vector<double> out(n * n_cols, 0);
  const double dt = (t1 - t0) / static_cast<double>(n_cols);
  // (a view the page could not send, a scale not above 0 or times not finite, would give columns out of order)
  if (n && dt > 0 && scale > 0 && std::isfinite(scale) && std::isfinite(t0) && std::isfinite(t1) && std::isfinite(dt)) {
    const IntervalView& v = calls;
    const SampleTable& t = samples;
    const size_t n_samples = t.size();
    const auto last_col = static_cast<int64_t>(n_cols) - 1;
    // a time's column (relative to the origin, as a double): -1 before t0, n_cols from t1 on (laneActivity's
    // arithmetic, in doubles); a start's
    auto col_at = [&](double relative) -> int64_t {
      const double at = relative * scale;
      if (at < t0) return -1;
      if (at >= t1) return static_cast<int64_t>(n_cols);
      return std::min(last_col, static_cast<int64_t>(std::floor((at - t0) / dt)));
    };
    auto col = [&](uint64_t x) { return col_at(static_cast<double>(Relative(x, origin))); };
    std::vector<int32_t> slot(n_threads, -1);  // thread -> its lane in `want` (the first, asked twice)
    int32_t none_slot = -1;
    for (size_t j = n; j-- > 0;) {
      const size_t l = LaneOfKey(want[j], n_threads);
      if (l < n_threads) slot[l] = static_cast<int32_t>(j);
      else none_slot = static_cast<int32_t>(j);
    }
    auto start_at = [&](size_t k) { return v.start(static_cast<size_t>(rows.order[k])); };
    for (size_t th = 0; th < n_threads; ++th) {
      if (slot[th] < 0) continue;
      double* o = out.data() + static_cast<size_t>(slot[th]) * n_cols;
      for (int32_t r : RowsOfThread(rows, static_cast<int32_t>(th))) {
        const auto a = static_cast<size_t>(rows.first[static_cast<size_t>(r)]), b = static_cast<size_t>(rows.first[static_cast<size_t>(r) + 1]);
        const auto b0 = static_cast<size_t>(rows.block_first[static_cast<size_t>(r)]), b1 = static_cast<size_t>(rows.block_first[static_cast<size_t>(r) + 1]);
        constexpr size_t kBlock = IntervalRows::kBlock;
        // The first call from `from` on that starts past column c. A row's calls do not overlap, so a block
        // of them starts no later than it ends, and the blocks after it start no earlier: the searches go
        // over the blocks' ends (side by side in memory) first, then over one block's calls, whose starts
        // are read from anywhere in the calls.
        auto first_past = [&](size_t from, int64_t c) {
          const size_t j = FirstNot(b0 + (from - a) / kBlock, b1, [&](size_t jj) { return col_at(rows.block_end[jj]) <= c; });
          if (j == b1) return b;
          const size_t ka = std::max(from, a + (j - b0) * kBlock), kb = std::min(b, a + (j - b0 + 1) * kBlock);
          return FirstNot(ka, kb, [&](size_t k) { return col(start_at(k)) <= c; });
        };
        const size_t lo = first_past(a, -1);
        const size_t hi = first_past(lo, last_col);
        if (hi - lo <= 4 * n_cols) {
          for (size_t k = lo; k < hi; ++k) ++o[col(start_at(k))];
          continue;
        }
        size_t from = lo;
        for (size_t c = 0; c < n_cols && from < hi; ++c) {
          const size_t to = std::min(hi, first_past(from, static_cast<int64_t>(c)));
          o[c] += static_cast<double>(to - from);
          from = to;
        }
      }
    }
    // the calls that never exited are in the rows but are no samples
    for (size_t call = n_samples; call < v.size(); ++call) {
      const size_t l = LaneOfKey(v.thread(call), n_threads);
      if (l == n_threads || slot[l] < 0) continue;
      const int64_t c = col(v.start(call));
      if (c >= 0 && c <= last_col) --out[static_cast<size_t>(slot[l]) * n_cols + static_cast<size_t>(c)];
    }
    // no thread (never in an XRay log): its samples, one by one
    if (none_slot >= 0) {
      double* o = out.data() + static_cast<size_t>(none_slot) * n_cols;
      size_t i = 0;
      t.thread.ForEach([&](int32_t th) {
        const size_t s = i++;
        if (LaneOfKey(th, n_threads) < n_threads) return;
        const int64_t c = col(t.time[s]);
        if (c >= 0 && c <= last_col) ++o[c];
      });
    }
  }
  return std::vector<float>(out.begin(), out.end());
}

}  // namespace profscope
