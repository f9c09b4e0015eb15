// The record table's (kind, type)s and composition (core/analysis/record_composition.cc): a table like a
// perf.data's, and random tables of runs and scattered rows against a row-by-row count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "core/analysis/record_composition.h"

namespace profscope {
namespace {

RecordTable Table(const std::vector<RecordKind>& kinds, const std::vector<uint32_t>& types, const std::vector<uint64_t>& sizes,
                  const std::vector<int32_t>& parents) {
  RecordTable t;
  for (size_t i = 0; i < kinds.size(); ++i) t.Add(i * 8, sizes[i], types[i], kinds[i], parents[i], RecordCategory::kMetadata);
  return t;
}

// header, attr, data section {SAMPLE, SAMPLE, MMAP2, COMPRESSED {nested SAMPLE}}, feature table {HOSTNAME}
RecordTable PerfLike() {
  using K = RecordKind;
  return Table({K::kFileHeader, K::kAttr, K::kDataSection, K::kRecord, K::kRecord, K::kRecord, K::kRecord, K::kNested, K::kFeatureTable, K::kFeature},
               {0, 0, 0, 9, 9, 10, 81, 9, 0, 2}, {104, 136, 500, 40, 48, 100, 300, 40, 16, 32}, {-1, -1, -1, 2, 2, 2, 2, 6, -1, 8});
}

TEST(RecordComposition, TypesByTheirFirstRow) {
  const RecordTypes t = ListRecordTypes(PerfLike());
  EXPECT_EQ(t.first, (std::vector<int32_t>{0, 1, 2, 3, 5, 6, 7, 8, 9}));
  EXPECT_EQ(t.type, (std::vector<uint32_t>{0, 0, 0, 9, 10, 81, 9, 0, 2}));
  EXPECT_EQ(t.kind[6], static_cast<uint8_t>(RecordKind::kNested));
  EXPECT_TRUE(ListRecordTypes(RecordTable{}).first.empty());
}

TEST(RecordComposition, GroupsByKindAndTypeWithoutContainersByBytes) {
  const std::vector<CompositionGroup> g = RecordComposition(PerfLike());
  std::vector<std::tuple<uint32_t, uint64_t, uint64_t, int32_t>> got;
  for (const CompositionGroup& x : g) got.emplace_back(x.type, x.count, x.bytes, x.first);
  // COMPRESSED, attr, header, MMAP2, SAMPLE x2, nested SAMPLE, HOSTNAME (containers left out)
  const std::vector<std::tuple<uint32_t, uint64_t, uint64_t, int32_t>> want = {
      {81, 1, 300, 6}, {0, 1, 136, 1}, {0, 1, 104, 0}, {10, 1, 100, 5}, {9, 2, 88, 3}, {9, 1, 40, 7}, {2, 1, 32, 9}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(g[5].kind, static_cast<uint8_t>(RecordKind::kNested));
}

// Random tables: kinds and types (few or thousands) in runs or scattered, records inside records (pieces: left out), parents out
// of range; both answers as a row-by-row walk gives them.
TEST(RecordComposition, AsARowByRowCount) {
  std::mt19937_64 rng(3);
  const RecordKind kinds[] = {RecordKind::kFileHeader, RecordKind::kDataSection, RecordKind::kRecord, RecordKind::kRecord,
                              RecordKind::kNested, RecordKind::kFeatureTable, RecordKind::kFeature, RecordKind::kPayload};
  for (int round = 0; round < 50; ++round) {
    const size_t n = rng() % 20000;
    std::vector<RecordKind> k(n);
    std::vector<uint32_t> ty(n);
    std::vector<uint64_t> sz(n);
    std::vector<int32_t> par(n);
    for (size_t i = 0; i < n; ++i) {
      const bool run = i && rng() % 8;
      k[i] = run ? k[i - 1] : kinds[rng() % 8];
      // (a few types, as files have; in some rounds thousands, more than the look-up's table of recent ones)
      ty[i] = run && rng() % 4 ? ty[i - 1] : static_cast<uint32_t>(rng() % (round % 3 == 0 ? 3000 : 5));
      sz[i] = run && rng() % 2 ? sz[i - 1] : rng() % 1000;
      par[i] = run ? par[i - 1] : static_cast<int32_t>(rng() % (n + 5)) - 2;
    }
    const RecordTable t = Table(k, ty, sz, par);
    // the walk
    std::vector<std::tuple<uint8_t, uint32_t, int32_t>> want_types;
    std::map<std::pair<uint8_t, uint32_t>, size_t> seen;
    std::vector<CompositionGroup> want;
    std::map<std::pair<uint8_t, uint32_t>, size_t> group;
    for (size_t i = 0; i < n; ++i) {
      const auto key = std::make_pair(static_cast<uint8_t>(k[i]), ty[i]);
      if (seen.emplace(key, i).second) want_types.emplace_back(key.first, key.second, static_cast<int32_t>(i));
      if (k[i] == RecordKind::kDataSection || k[i] == RecordKind::kFeatureTable) continue;
      if (k[i] == RecordKind::kRecord && par[i] >= 0 && static_cast<size_t>(par[i]) < n && k[static_cast<size_t>(par[i])] == RecordKind::kRecord)
        continue;
      auto [it, added] = group.emplace(key, want.size());
      if (added) want.push_back(CompositionGroup{key.first, key.second, 0, 0, static_cast<int32_t>(i)});
      ++want[it->second].count;
      want[it->second].bytes += sz[i];
    }
    std::stable_sort(want.begin(), want.end(), [](const CompositionGroup& a, const CompositionGroup& b) {
      return a.bytes != b.bytes ? a.bytes > b.bytes : a.count > b.count;
    });
    const RecordTypes types = ListRecordTypes(t);
    std::vector<std::tuple<uint8_t, uint32_t, int32_t>> got_types;
    for (size_t i = 0; i < types.first.size(); ++i) got_types.emplace_back(types.kind[i], types.type[i], types.first[i]);
    ASSERT_EQ(got_types, want_types) << "round " << round;
    const std::vector<CompositionGroup> got = RecordComposition(t);
    ASSERT_EQ(got.size(), want.size()) << "round " << round;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(std::make_tuple(got[i].kind, got[i].type, got[i].count, got[i].bytes, got[i].first),
                std::make_tuple(want[i].kind, want[i].type, want[i].count, want[i].bytes, want[i].first))
          << "round " << round << " group " << i;
    }
  }
}

}  // namespace
}  // namespace profscope
