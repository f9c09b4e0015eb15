#include "core/analysis/xray_account.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/io/keyed_hash.h"

namespace profscope {

std::vector<AccountRow> XRayAccount(const CallLog& log) {
  // `llvm-xray account`: records in the order its loader gives them (no
  // sorting, no sibling-call deduction); records it cannot place are skipped
  // as with -keep-going.
  std::unordered_map<int32_t, std::vector<uint64_t>, KeyedIntHash> lat;
  int32_t last_func = 0;                // (exits of one function follow each other: one lookup for them)
  std::vector<uint64_t>* last = nullptr;
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
      uint64_t a = s.back().second;
      if (!last || func != last_func) {
        last = &lat[func];  // (unordered_map: references stay valid)
        last_func = func;
      }
      last->push_back(std::max(a, tsc) - std::min(a, tsc));
      s.pop_back();
    }
  }
  std::vector<int32_t> ids;  // by function id, as llvm-xray lists them
  for (const auto& [id, t] : lat) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  std::vector<AccountRow> rows;
  for (int32_t id : ids) {
    std::vector<uint64_t>& t = lat[id];
    AccountRow r;
    r.func = id;
    r.count = t.size();
    double sum = 0;
    uint64_t most = 0;
    for (uint64_t v : t) {
      sum += static_cast<double>(v);
      most = std::max(most, v);
    }
    // the sorted latencies' k-th values, by selection (linear) instead of a sort: p99's first, then p90's
    // and the median's among the values below it
    const size_t k99 = static_cast<size_t>(std::floor(t.size() * 0.99)), k90 = static_cast<size_t>(std::floor(t.size() * 0.9)),
                 k50 = t.size() / 2;
    const auto nth = [&](size_t k, size_t end) {
      std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(k), t.begin() + static_cast<std::ptrdiff_t>(end));
      return static_cast<double>(t[k]);
    };
    r.p99 = nth(k99, t.size());
    r.p90 = nth(k90, k99 + 1);
    r.median = nth(k50, k90 + 1);
    r.min = static_cast<double>(*std::min_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(k50 + 1)));
    r.max = static_cast<double>(most);
    std::vector<uint64_t>().swap(t);
    r.sum = sum;
    if (log.ticks_per_second) {
      double f = static_cast<double>(log.ticks_per_second);
      r.min /= f; r.max /= f; r.median /= f; r.p90 /= f; r.p99 /= f; r.sum /= f;
    }
    r.name = log.Name(id);
    rows.push_back(std::move(r));
  }
  return rows;
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
