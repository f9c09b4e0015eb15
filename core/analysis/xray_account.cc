#include "core/analysis/xray_account.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/io/keyed_hash.h"

namespace profscope {

namespace {

// Walks the call log as `llvm-xray account` does: records in the order its loader gives them (no sorting, no
// sibling-call deduction), records it cannot place skipped as with -keep-going; f(func, latency) for each exit
// that closes its thread's innermost call.
template <typename F>
void ForEachLatency(const CallLog& log, F&& f) {
  std::unordered_map<uint32_t, std::vector<std::pair<int32_t, uint64_t>>, KeyedIntHash> stacks;
  uint64_t first = 0;
  bool have_first = false;
  for (uint32_t run : log.loader_runs) {
    auto& s = stacks[log.runs[run].tid];
    CallLog::Reader rd(log, run);
    for (size_t i = log.runs[run].first, end = log.RunEnd(run); i < end; ++i) {
      const CallLog::Call c = rd.Next();
      const uint64_t tsc = c.tsc;
      const int32_t func = log.Func(i);
      if (!have_first) { first = tsc; have_first = true; }
      if (tsc < first) continue;
      if (IsEntry(c.action)) {
        s.emplace_back(func, tsc);
        continue;
      }
      if (s.empty() || s.back().first != func) continue;
      const uint64_t a = s.back().second;
      f(func, std::max(a, tsc) - std::min(a, tsc));
      s.pop_back();
    }
  }
}

// The rows from every latency, grouped by function in one array of exactly their number, 4 bytes each, filled
// in the walk's order (so each function's sum adds in llvm-xray's order). A latency of 2^32 - 1 ticks or more
// (a call of a few seconds: a thread's outermost ones) is kept aside in full, its slot in the array holding
// that value: it sorts after every shorter one, so a percentile that lands on it is the matching one of the
// function's long latencies.
std::vector<AccountRow> Rows(const CallLog& log, const std::vector<int32_t>& id_of, const std::vector<size_t>& begin,
                             const std::unordered_map<int32_t, uint32_t, KeyedIntHash>& dense) {
  constexpr uint32_t kLong = UINT32_MAX;
  std::vector<uint32_t> all(begin.back());
  std::vector<std::pair<uint32_t, uint64_t>> longs;  // (function index, latency) in the walk's order
  std::vector<size_t> at(begin.begin(), begin.end() - 1);
  int32_t last_func = 0;  // (exits of one function follow each other: one lookup for them)
  uint32_t last = 0;
  bool have_last = false;
  ForEachLatency(log, [&](int32_t func, uint64_t latency) {
    if (!have_last || func != last_func) {
      last = dense.at(func);
      last_func = func;
      have_last = true;
    }
    if (latency >= kLong) longs.emplace_back(last, latency);
    all[at[last]++] = latency >= kLong ? kLong : static_cast<uint32_t>(latency);
  });
  std::vector<std::vector<uint64_t>> long_of(id_of.size());  // each function's long latencies, in walk order
  for (const auto& [d, v] : longs) long_of[d].push_back(v);
  std::vector<std::pair<uint32_t, uint64_t>>().swap(longs);
  std::vector<uint32_t> order(id_of.size());  // by function id, as llvm-xray lists them
  for (uint32_t d = 0; d < order.size(); ++d) order[d] = d;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return id_of[a] < id_of[b]; });
  std::vector<AccountRow> rows;
  rows.reserve(order.size());
  for (uint32_t d : order) {
    uint32_t* const t = all.data() + begin[d];
    const size_t n = begin[d + 1] - begin[d];
    std::vector<uint64_t>& longer = long_of[d];
    AccountRow r;
    r.func = id_of[d];
    r.count = n;
    double sum = 0;
    uint64_t most = 0;
    for (size_t k = 0, j = 0; k < n; ++k) {
      const uint64_t v = t[k] == kLong ? longer[j++] : t[k];
      sum += static_cast<double>(v);
      most = std::max(most, v);
    }
    std::sort(longer.begin(), longer.end());
    const size_t shorter = n - longer.size();
    // the sorted latencies' k-th values, by selection (linear) instead of a sort: p99's first, then p90's
    // and the median's among the values below it
    const size_t k99 = static_cast<size_t>(std::floor(n * 0.99)), k90 = static_cast<size_t>(std::floor(n * 0.9)), k50 = n / 2;
    const auto nth = [&](size_t k, size_t end) {
      std::nth_element(t, t + k, t + end);
      return static_cast<double>(k < shorter ? t[k] : longer[k - shorter]);
    };
    r.p99 = nth(k99, n);
    r.p90 = nth(k90, k99 + 1);
    r.median = nth(k50, k90 + 1);
    // (the k50 + 1 smallest are before k50 + 1 by now, in some order; a long one's slot sorts last)
    r.min = shorter ? static_cast<double>(*std::min_element(t, t + k50 + 1)) : static_cast<double>(longer[0]);
    r.max = static_cast<double>(most);
    r.sum = sum;
    std::vector<uint64_t>().swap(longer);
    if (log.ticks_per_second) {
      double f = static_cast<double>(log.ticks_per_second);
      r.min /= f; r.max /= f; r.median /= f; r.p90 /= f; r.p99 /= f; r.sum /= f;
    }
    r.name = log.Name(r.func);
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace

std::vector<AccountRow> XRayAccount(const CallLog& log) {
  // Two walks: the first counts each function's latencies, the second writes them into one array of that
  // size. (A growing vector per function kept up to twice the latencies, and in a
  // WASM heap, which never shrinks, the copies made as they grew: 100-200 MB more for a 200 MB log.)
  std::unordered_map<int32_t, uint32_t, KeyedIntHash> dense;  // function id -> its index in id_of
  std::vector<int32_t> id_of;
  std::vector<size_t> count;
  int32_t last_func = 0;
  size_t* last = nullptr;
  ForEachLatency(log, [&](int32_t func, uint64_t) {
    if (!last || func != last_func) {
      auto [it, added] = dense.emplace(func, static_cast<uint32_t>(id_of.size()));
      if (added) {
        id_of.push_back(func);
        count.push_back(0);
      }
      last = &count[it->second];
      last_func = func;
    }
    ++*last;
  });
  std::vector<size_t> begin(id_of.size() + 1, 0);  // function d's latencies are [begin[d], begin[d + 1])
  for (size_t d = 0; d < id_of.size(); ++d) begin[d + 1] = begin[d] + count[d];
  std::vector<size_t>().swap(count);
  return Rows(log, id_of, begin, dense);
}

std::string AccountText(const std::vector<AccountRow>& rows) {
  std::string out = "Functions with latencies: " + std::to_string(rows.size()) + "\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%9s %10s [%9s, %9s, %9s, %9s, %9s] %9s  %-12s\n", "funcid", "count", "min", "med", "90p",
                "99p", "max", "sum", "function");
  out += buf;
  for (const auto& r : rows) {
    std::snprintf(buf, sizeof buf, "%9d %10llu [%9.6f, %9.6f, %9.6f, %9.6f, %9.6f] %9.6f  ", r.func,
                  static_cast<unsigned long long>(r.count), r.min, r.median, r.p90, r.p99, r.max, r.sum);
    out += buf;
    out += r.name + "\n";
  }
  return out;
}

}  // namespace profscope
