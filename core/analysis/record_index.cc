#include "core/analysis/record_index.h"

#include <algorithm>
#include <unordered_map>

#include "core/io/keyed_hash.h"
#include "core/model/record_blocks.h"

namespace profscope {
namespace {

using Block = RecordBlock;
constexpr unsigned kTree = RecordBlock::kParent | RecordBlock::kKind | RecordBlock::kFile;
constexpr unsigned kExtents = kTree | RecordBlock::kOffset | RecordBlock::kSize;

// A row is in the main file's space when it is not nested and belongs to file 0 (rows of perf --threads
// data.N files have offsets in their own file).
bool InMainFile(const Block& b, size_t i) { return b.kind[i] != static_cast<uint8_t>(RecordKind::kNested) && b.file[i] == 0; }

// A run of a slot's children: rows first, first + step, ... (len of them).
struct KidRun {
  int32_t slot;
  int32_t first;
  int32_t step;
  uint32_t len;
};

// The children lists run by run (greedy, as web/src/lib/int-runs.js RunBuilder makes them: a run of one takes
// any step that fits 32 bits); false when they take more than max_runs runs. In the same pass, the rows with
// a child in the main file's space are flagged in file_kids (for every row, runs or not).
bool KidsAsRuns(const RecordTable& t, size_t max_runs, std::vector<bool>& file_kids, RecordIndex& out) {
  const size_t n = t.rows();
  std::vector<KidRun> runs;
  std::unordered_map<int32_t, size_t, KeyedIntHash> last_run;  // slot -> its last run
  int32_t last_slot = -1;
  size_t last = 0;
  bool fits = true;
  ForRecordBlocks(t, kTree, [&](size_t from, size_t k, const Block& b) {
    for (size_t i = 0; i < k; ++i) {
      const int32_t r = static_cast<int32_t>(from + i);
      const int32_t p = b.parent[i];
      const bool has_parent = p >= 0 && static_cast<size_t>(p) < n;
      if (has_parent && InMainFile(b, i)) file_kids[static_cast<size_t>(p)] = true;
      if (!fits) continue;
      const int32_t slot = has_parent ? p : static_cast<int32_t>(n);
      size_t at;
      bool seen = true;
      if (slot == last_slot) {
        at = last;
      } else {
        auto it = last_run.find(slot);
        seen = it != last_run.end();
        at = seen ? it->second : 0;
      }
      if (seen) {
        KidRun& run = runs[at];
        const int64_t d = static_cast<int64_t>(r) - (static_cast<int64_t>(run.first) + static_cast<int64_t>(run.step) * (run.len - 1));
        if (d >= INT32_MIN && d <= INT32_MAX && (run.len == 1 || d == run.step)) {
          run.step = static_cast<int32_t>(d);
          ++run.len;
          last_slot = slot;
          last = at;
          continue;
        }
      }
      if (runs.size() >= max_runs) {
        fits = false;
        continue;
      }
      runs.push_back(KidRun{slot, r, 0, 1});
      last_run[slot] = runs.size() - 1;
      last_slot = slot;
      last = runs.size() - 1;
    }
  });
  if (!fits) return false;
  std::stable_sort(runs.begin(), runs.end(), [](const KidRun& a, const KidRun& b) { return a.slot < b.slot; });
  // kids_start[s]: the children of the slots before s; it changes only after a slot with children
  int32_t before = 0;
  size_t next = 0;  // the first slot not given its value yet
  for (size_t g = 0; g < runs.size();) {
    const auto slot = static_cast<size_t>(runs[g].slot);
    out.kids_start.AppendRun(before, 0, slot + 1 - next);
    next = slot + 1;
    for (; g < runs.size() && static_cast<size_t>(runs[g].slot) == slot; ++g) {
      out.kids.AppendRun(runs[g].first, runs[g].step, runs[g].len);
      before += static_cast<int32_t>(runs[g].len);
    }
  }
  out.kids_start.AppendRun(before, 0, n + 2 - next);
  return true;
}

// The children lists as a counting sort of the rows by parent slot.
void KidsAsArrays(const RecordTable& t, RecordIndex& out) {
  const size_t n = t.rows();
  std::vector<int32_t> start(n + 2, 0);
  ForRecordBlocks(t, kTree, [&](size_t, size_t k, const Block& b) {
    for (size_t i = 0; i < k; ++i) {
      const int32_t p = b.parent[i];
      ++start[(p >= 0 && static_cast<size_t>(p) < n ? static_cast<size_t>(p) : n) + 1];
    }
  });
  for (size_t s = 1; s < n + 2; ++s) start[s] += start[s - 1];
  std::vector<int32_t> kids(n);
  {
    std::vector<int32_t> at(start.begin(), start.end() - 1);  // each slot's next place
    ForRecordBlocks(t, kTree, [&](size_t from, size_t k, const Block& b) {
      for (size_t i = 0; i < k; ++i) {
        const int32_t p = b.parent[i];
        kids[static_cast<size_t>(at[p >= 0 && static_cast<size_t>(p) < n ? static_cast<size_t>(p) : n]++)] = static_cast<int32_t>(from + i);
      }
    });
  }
  out.kids_start.reserve(n + 2);
  for (int32_t v : start) out.kids_start.push_back(v);
  std::vector<int32_t>().swap(start);
  out.kids.reserve(n);
  for (int32_t v : kids) out.kids.push_back(v);
}

}  // namespace

RecordIndex BuildRecordIndex(const RecordTable& t) {
  RecordIndex out;
  const size_t n = t.rows();
  std::vector<bool> file_kids(n, false);  // rows with a child in the main file's space
  if (!KidsAsRuns(t, std::max<size_t>(16, n / 12), file_kids, out)) {
    out.kids_start = {};
    out.kids = {};
    KidsAsArrays(t, out);
  }

  // the leaves, in row order while their offsets do not decrease (nearly every file), else sorted; in row
  // order, whether an end is below one before it
  std::vector<int32_t> unsorted;
  bool sorted = true, decreases = false;
  uint64_t prev = 0;
  double most = 0;
  int32_t first = 0, step = 0;  // the leaves' run being made (len of them)
  uint32_t len = 0;
  ForRecordBlocks(t, kExtents, [&](size_t from, size_t k, const Block& b) {
    for (size_t i = 0; i < k; ++i) {
      if (!InMainFile(b, i)) continue;
      const int32_t r = static_cast<int32_t>(from + i);
      if (file_kids[from + i]) {
        out.containers.push_back(r);
        continue;
      }
      if (sorted && b.offset[i] < prev) {
        sorted = false;
        out.leaf_order.AppendRun(first, step, len);
        unsorted = out.leaf_order.ToVector();
        out.leaf_order = {};
      }
      prev = b.offset[i];
      if (!sorted) {
        unsorted.push_back(r);
        continue;
      }
      const double end = static_cast<double>(b.offset[i]) + static_cast<double>(b.size[i]);
      if (end >= most || (len == 0 && out.leaf_order.empty())) most = end;
      else decreases = true;
      if (len == 1) step = r - first;
      if (len <= 1 || static_cast<int64_t>(r) == first + static_cast<int64_t>(step) * len) {
        if (len++ == 0) first = r;
        continue;
      }
      out.leaf_order.AppendRun(first, step, len);
      first = r;
      len = 1;
    }
  });
  if (sorted) out.leaf_order.AppendRun(first, step, len);
  if (!sorted) {
    std::vector<std::pair<uint64_t, uint64_t>> ext(unsorted.size());  // (offset, size) of each leaf
    size_t ro = 0, rs = 0;
    for (size_t j = 0; j < unsorted.size(); ++j) {
      const auto r = static_cast<size_t>(unsorted[j]);
      ext[j] = {t.offset.At(r, &ro), t.size.At(r, &rs)};
    }
    std::vector<uint32_t> by(unsorted.size());
    for (size_t j = 0; j < by.size(); ++j) by[j] = static_cast<uint32_t>(j);
    std::sort(by.begin(), by.end(), [&](uint32_t a, uint32_t b) {
      if (ext[a].first != ext[b].first) return ext[a].first < ext[b].first;
      if (ext[a].second != ext[b].second) return ext[a].second > ext[b].second;
      return unsorted[a] < unsorted[b];
    });
    out.leaf_order.reserve(by.size());
    for (uint32_t j : by) out.leaf_order.push_back(unsorted[j]);
  }

  // the running max of the leaves' ends, kept only when an end is below one before it
  auto ends = [&](auto f) {
    size_t ro = 0, rs = 0;
    double max_end = 0;
    bool any = false;
    out.leaf_order.ForEach([&](int32_t r) {
      const auto row = static_cast<size_t>(r);
      const double end = static_cast<double>(t.offset.At(row, &ro)) + static_cast<double>(t.size.At(row, &rs));
      if (!any || end >= max_end) max_end = end;
      any = true;
      f(end, max_end);
    });
  };
  if (!sorted) ends([&](double end, double max_end) { decreases = decreases || end < max_end; });
  if (decreases) {
    out.leaf_max_end.reserve(out.leaf_order.size());
    ends([&](double, double most) { out.leaf_max_end.push_back(most); });
  }
  return out;
}

}  // namespace profscope
