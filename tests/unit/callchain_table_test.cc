// CallchainTable (PerfStacks' interned callchains): the tests choose the hash, so
// keys that share one reach the word-by-word compare, and a file whose callchains
// all share a hash (the hash is not keyed) cannot make lookups quadratic.
#include "core/format/perf/callchain_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace profscope::perf {
namespace {

using Key = std::vector<uint64_t>;
constexpr uint64_t kHead[2] = {7, 3 << 1 | 1};

CallchainTable::Found Find(CallchainTable& t, uint64_t h, const Key& k, const uint64_t* head = kHead) {
  return t.Find(h, head, k.data(), k.size());
}
void Add(CallchainTable& t, uint64_t h, const Key& k, int32_t stack, const uint64_t* head = kHead) {
  const CallchainTable::Found f = t.Find(h, head, k.data(), k.size());
  ASSERT_FALSE(f.hit);
  ASSERT_NE(f.slot, CallchainTable::kNoSlot);
  t.Add(f, h, head, k.data(), k.size(), stack);
}

// Keys that share a hash are told apart by their words: an entry's upper half,
// the length, a prefix, the head (another address-space version or cpumode).
TEST(CallchainTable, KeysSharingAHashAreComparedWordByWord) {
  CallchainTable t;
  const uint64_t h = 0x1234567890abcdefULL;
  const Key a = {0xfffffffffffffe00ULL, 0x7f0000400010, 0x7f0000400020};
  Add(t, h, a, 10);
  const Key upper = {0xfffffffffffffe00ULL, 0x7f0000400010, 0x7f0100400020};
  const Key prefix = {0xfffffffffffffe00ULL, 0x7f0000400010};
  const Key longer = {0xfffffffffffffe00ULL, 0x7f0000400010, 0x7f0000400020, 0x7f0000400030};
  const uint64_t other_space[2] = {8, 3 << 1 | 1}, other_mode[2] = {7, 3 << 1};
  for (const Key* k : {&upper, &prefix, &longer}) EXPECT_FALSE(Find(t, h, *k).hit);
  EXPECT_FALSE(Find(t, h, a, other_space).hit);
  EXPECT_FALSE(Find(t, h, a, other_mode).hit);
  Add(t, h, upper, 11);
  Add(t, h, prefix, 12);
  Add(t, h, longer, 13);
  Add(t, h, a, 14, other_space);
  Add(t, h, a, 15, other_mode);
  const std::vector<std::pair<const Key*, int32_t>> want = {{&a, 10}, {&upper, 11}, {&prefix, 12}, {&longer, 13}};
  for (const auto& [k, stack] : want) {
    const CallchainTable::Found f = Find(t, h, *k);
    EXPECT_TRUE(f.hit);
    EXPECT_EQ(f.stack, stack);
  }
  EXPECT_EQ(Find(t, h, a, other_space).stack, 14);
  EXPECT_EQ(Find(t, h, a, other_mode).stack, 15);
  EXPECT_EQ(t.size(), 6u);
}

TEST(CallchainTable, TheHashReadsEveryWord) {
  const Key a = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const uint64_t h = CallchainTable::Hash(kHead, a.data(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    for (uint64_t bit : {uint64_t{1}, uint64_t{1} << 40}) {
      Key b = a;
      b[i] ^= bit;
      EXPECT_NE(CallchainTable::Hash(kHead, b.data(), b.size()), h) << i << " " << bit;
    }
  }
  EXPECT_NE(CallchainTable::Hash(kHead, a.data(), a.size() - 1), h);
  const uint64_t head[2] = {kHead[0], kHead[1] ^ 1};
  EXPECT_NE(CallchainTable::Hash(head, a.data(), a.size()), h);
}

// A stored answer of kNone (a callchain perf shows empty: the caller walks its
// frames) is a hit all the same, not a slot to add it again in.
TEST(CallchainTable, AnAnswerOfNoneIsStillAHit) {
  CallchainTable t;
  const Key k = {0xfffffffffffffe00ULL};
  Add(t, 99, k, CallchainTable::kNone);
  const CallchainTable::Found f = Find(t, 99, k);
  EXPECT_TRUE(f.hit);
  EXPECT_EQ(f.stack, CallchainTable::kNone);
  EXPECT_EQ(f.slot, CallchainTable::kNoSlot);
}

// 200 000 distinct callchains that all share one hash (what a hostile file can
// make of an unkeyed hash): a lookup looks at kMaxProbe slots at most, those
// past it are not interned, and every one interned is found again, also after
// the slots grew (more distinct hashes) with the shared ones among them.
TEST(CallchainTable, CallchainsSharingAHashCostAtMostABoundedProbe) {
  CallchainTable t;
  const uint64_t shared = 0xabcdef0123456789ULL;
  size_t interned = 0, refused = 0;
  for (uint64_t i = 0; i < 200000; ++i) {
    const Key k = {0xfffffffffffffe00ULL, 0x400000 + i};
    const CallchainTable::Found f = Find(t, shared, k);
    ASSERT_FALSE(f.hit);
    if (f.slot == CallchainTable::kNoSlot) {
      ++refused;
      continue;
    }
    t.Add(f, shared, kHead, k.data(), k.size(), static_cast<int32_t>(i));
    ++interned;
  }
  EXPECT_EQ(interned, CallchainTable::kMaxProbe);
  EXPECT_EQ(refused, 200000 - CallchainTable::kMaxProbe);
  // Distinct hashes make the slots grow several times. A key whose probe runs into the shared
  // ones' cluster (when added, or when the slots grow) is not interned; every other one is found
  // again with its answer, and no key ever gets another's answer.
  for (uint64_t i = 0; i < 20000; ++i) {
    const Key k = {0xfffffffffffffe00ULL, 0x900000 + i};
    const uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL;
    const CallchainTable::Found f = Find(t, h, k);
    ASSERT_FALSE(f.hit);
    t.Add(f, h, kHead, k.data(), k.size(), static_cast<int32_t>(1000000 + i));
  }
  size_t shared_found = 0, others_found = 0;
  for (uint64_t i = 0; i < 200000; ++i) {
    const CallchainTable::Found f = Find(t, shared, {0xfffffffffffffe00ULL, 0x400000 + i});
    if (!f.hit) continue;
    ASSERT_EQ(f.stack, static_cast<int32_t>(i));
    ++shared_found;
  }
  for (uint64_t i = 0; i < 20000; ++i) {
    const CallchainTable::Found f = Find(t, (i + 1) * 0x9e3779b97f4a7c15ULL, {0xfffffffffffffe00ULL, 0x900000 + i});
    if (!f.hit) continue;
    ASSERT_EQ(f.stack, static_cast<int32_t>(1000000 + i));
    ++others_found;
  }
  EXPECT_LE(shared_found, CallchainTable::kMaxProbe);
  EXPECT_GE(shared_found, CallchainTable::kMaxProbe / 2);
  EXPECT_GE(others_found, 20000u - 200u);  // at most 1 % lost to the cluster
  EXPECT_EQ(t.size(), shared_found + others_found);
}

// Once the stored keys reach their bound, the next lookup forgets them all and
// the table fills again.
TEST(CallchainTable, KeysPastTheirBoundAreForgotten) {
  CallchainTable t;
  const Key first(1000, 0x400000);
  Add(t, 1, first, 1);
  Key k(1000, 0);
  uint64_t i = 2;
  while (t.words() < CallchainTable::kWords) {
    k[0] = i;
    Add(t, i * 0x9e3779b97f4a7c15ULL, k, static_cast<int32_t>(i));
    ++i;
  }
  EXPECT_EQ(t.size(), i - 1);
  EXPECT_FALSE(Find(t, 1, first).hit);  // emptied by this lookup
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.words(), 0u);
  Add(t, 1, first, 1);
  EXPECT_EQ(Find(t, 1, first).stack, 1);
}

}  // namespace
}  // namespace profscope::perf
