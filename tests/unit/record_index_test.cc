// BuildRecordIndex: children lists, the main file's leaves by offset, the running max of their ends and the
// containers, against a direct reference (a sort of every row), on hand-made and random record tables:
// parents that form a few runs (the run-by-run path) and scattered ones (the counting sort), nested rows and
// rows of other files, leaves in and out of offset order.
#include "core/analysis/record_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

namespace profscope {
namespace {

struct Row {
  uint64_t offset, size;
  RecordKind kind;
  int32_t parent;
  uint8_t file;
};

RecordTable Table(const std::vector<Row>& rows) {
  RecordTable t;
  for (const Row& r : rows) {
    t.current_file = r.file;
    t.Add(r.offset, r.size, 0, r.kind, r.parent, RecordCategory::kSample);
  }
  return t;
}

struct Expected {
  std::vector<int32_t> kids_start, kids, leaf_order;
  std::vector<double> leaf_max_end;
  std::vector<int32_t> containers;
};

Expected Reference(const std::vector<Row>& rows) {
  const auto n = static_cast<int32_t>(rows.size());
  auto slot = [&](int32_t r) { return rows[r].parent >= 0 && rows[r].parent < n ? rows[r].parent : n; };
  auto main_file = [&](int32_t r) { return rows[r].kind != RecordKind::kNested && rows[r].file == 0; };
  Expected e;
  std::vector<int32_t> all(rows.size());
  for (int32_t r = 0; r < n; ++r) all[r] = r;
  std::stable_sort(all.begin(), all.end(), [&](int32_t a, int32_t b) { return slot(a) < slot(b); });
  e.kids = all;
  for (int32_t s = 0; s <= n + 1; ++s)
    e.kids_start.push_back(static_cast<int32_t>(std::count_if(all.begin(), all.end(), [&](int32_t r) { return slot(r) < s; })));
  std::vector<bool> has(rows.size(), false);
  for (int32_t r = 0; r < n; ++r)
    if (rows[r].parent >= 0 && rows[r].parent < n && main_file(r)) has[rows[r].parent] = true;
  for (int32_t r = 0; r < n; ++r) {
    if (!main_file(r)) continue;
    if (has[r]) e.containers.push_back(r);
    else e.leaf_order.push_back(r);
  }
  std::stable_sort(e.leaf_order.begin(), e.leaf_order.end(), [&](int32_t a, int32_t b) {
    return std::make_tuple(rows[a].offset, ~rows[a].size, a) < std::make_tuple(rows[b].offset, ~rows[b].size, b);
  });
  double most = 0;
  bool decreases = false;
  for (size_t j = 0; j < e.leaf_order.size(); ++j) {
    const Row& r = rows[e.leaf_order[j]];
    const double end = static_cast<double>(r.offset + r.size);
    if (j == 0 || end >= most) most = end;
    else decreases = true;
    e.leaf_max_end.push_back(most);
  }
  if (!decreases) e.leaf_max_end.clear();
  return e;
}

void ExpectIndex(const std::vector<Row>& rows) {
  const RecordIndex x = BuildRecordIndex(Table(rows));
  const Expected e = Reference(rows);
  EXPECT_EQ(x.kids_start.ToVector(), e.kids_start);
  EXPECT_EQ(x.kids.ToVector(), e.kids);
  EXPECT_EQ(x.leaf_order.ToVector(), e.leaf_order);
  EXPECT_EQ(x.leaf_max_end, e.leaf_max_end);
  EXPECT_EQ(x.containers, e.containers);
}

TEST(RecordIndex, PerfLikeTable) {
  // header [0,16), data section [16,64) {record [16,40), COMPRESSED [40,64) {nested [0,30)}},
  // then a perf --threads data.1 file: its data section [0,100) {record [0,48)}
  const std::vector<Row> rows = {
      {0, 16, RecordKind::kFileHeader, -1, 0}, {16, 48, RecordKind::kDataSection, -1, 0}, {16, 24, RecordKind::kRecord, 1, 0},
      {40, 24, RecordKind::kRecord, 1, 0},     {0, 30, RecordKind::kNested, 3, 0},        {0, 100, RecordKind::kDataSection, -1, 1},
      {0, 48, RecordKind::kRecord, 5, 1},
  };
  const RecordIndex x = BuildRecordIndex(Table(rows));
  EXPECT_EQ(x.kids.ToVector(), (std::vector<int32_t>{2, 3, 4, 6, 0, 1, 5}));
  EXPECT_EQ(x.kids_start.ToVector(), (std::vector<int32_t>{0, 0, 2, 2, 3, 3, 4, 4, 7}));
  EXPECT_EQ(x.leaf_order.ToVector(), (std::vector<int32_t>{0, 2, 3}));  // COMPRESSED: its only child is nested
  EXPECT_EQ(x.containers, (std::vector<int32_t>{1}));
  EXPECT_TRUE(x.leaf_max_end.empty());  // ends rise
  ExpectIndex(rows);
}

TEST(RecordIndex, LeavesOutOfOrderAndInsideOthers) {
  // a leaf inside a longer one before it (an attr whose ids lie inside it), and one before them in the table
  ExpectIndex({{0, 100, RecordKind::kRecord, -1, 0}, {10, 10, RecordKind::kRecord, -1, 0}, {20, 10, RecordKind::kRecord, -1, 0}, {120, 8, RecordKind::kRecord, -1, 0}});
  const std::vector<Row> rows = {{200, 8, RecordKind::kRecord, -1, 0}, {0, 100, RecordKind::kRecord, -1, 0}, {0, 120, RecordKind::kRecord, -1, 0}, {50, 10, RecordKind::kRecord, -1, 0}};
  const RecordIndex x = BuildRecordIndex(Table(rows));
  EXPECT_EQ(x.leaf_order.ToVector(), (std::vector<int32_t>{2, 1, 3, 0}));  // by offset, the longest first
  EXPECT_EQ(x.leaf_max_end, (std::vector<double>{120, 120, 120, 208}));
  ExpectIndex(rows);
}

TEST(RecordIndex, EmptyAndOneRow) {
  const RecordIndex none = BuildRecordIndex(RecordTable{});
  EXPECT_EQ(none.kids_start.ToVector(), (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(none.kids.size(), 0u);
  EXPECT_EQ(none.leaf_order.size(), 0u);
  ExpectIndex({{0, 8, RecordKind::kRecord, -1, 0}});
  ExpectIndex({{0, 8, RecordKind::kRecord, 7, 0}});  // a parent past the table: top level
}

// Random tables: a few sections with runs of records (some with nested rows or pieces inside them), or
// parents anywhere; offsets in order or shuffled; some rows of another file.
TEST(RecordIndex, RandomTablesAsTheReference) {
  std::mt19937 rng(7);
  for (int round = 0; round < 60; ++round) {
    const size_t n = 1 + rng() % (round < 30 ? 400 : 5000);
    const bool scattered = round % 3 == 2, shuffled = round % 4 == 3;
    std::vector<Row> rows;
    uint64_t off = 0;
    int32_t section = -1;
    for (size_t i = 0; i < n; ++i) {
      Row r{off, 1 + rng() % 64, RecordKind::kRecord, section, static_cast<uint8_t>(rng() % 16 == 0 ? 1 : 0)};
      if (scattered && i) r.parent = static_cast<int32_t>(rng() % (i + 2)) - 1;
      if (!scattered && rng() % 50 == 0) {  // a new section
        r.kind = RecordKind::kDataSection;
        r.parent = -1;
        section = static_cast<int32_t>(i);
      } else if (!scattered && i && rng() % 8 == 0) {  // a nested row or a piece inside the record before
        r.kind = rng() % 2 ? RecordKind::kNested : RecordKind::kPayload;
        r.parent = static_cast<int32_t>(i - 1);
        r.offset = r.kind == RecordKind::kNested ? rng() % 100 : rows.back().offset;
      }
      if (shuffled) r.offset = rng() % 10000;
      if (rng() % 200 == 0) r.parent = static_cast<int32_t>(n + rng() % 5);  // out of the table
      off += r.size;
      rows.push_back(r);
    }
    SCOPED_TRACE("round " + std::to_string(round));
    ExpectIndex(rows);
  }
}

}  // namespace
}  // namespace profscope
