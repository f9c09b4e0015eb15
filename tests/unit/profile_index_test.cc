// The interning indexes of core/model/profile.h: FlatIndex (grows without
// rehashing) and StackBuilder's lazily indexed NewFunc/NewFrame rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/io/keyed_hash.h"
#include "core/model/profile.h"

namespace profscope {
namespace {

TEST(ProfileIndex, StringsInternAcrossGrowth) {
  StringTable t;
  for (int i = 0; i < 20000; ++i) EXPECT_EQ(t.Intern("s" + std::to_string(i)), i);
  for (int i = 0; i < 20000; ++i) EXPECT_EQ(t.Intern("s" + std::to_string(i)), i);
  EXPECT_EQ(t.size(), 20000u);
  EXPECT_EQ(t.Intern(""), 20000);
  EXPECT_EQ(t.Get(123), "s123");
}

// Hashes that share their upper 32 bits (what used to place a row: keys a hostile file
// can aim, since the hashes are not secret) still spread over the slots, because the
// slot comes from the hash keyed by the process's secret: interning 60 000 of them
// compares a handful of rows per key, not every row before it (quadratic: 1.8e9).
TEST(ProfileIndex, FlatIndexSpreadsHashesThatShareTheirUpperHalf) {
  FlatIndex idx;
  std::vector<uint64_t> hashes;
  uint64_t compares = 0;
  auto find = [&](uint64_t h, int32_t new_row, bool* added) {
    return idx.FindOrInsert(h, [&](int32_t r) { ++compares; return hashes[static_cast<size_t>(r)] == h; }, new_row, added);
  };
  for (uint64_t i = 0; i < 60000; ++i) {
    const uint64_t h = 0xdeadbeef00000000ULL | (i * 16);
    bool added = false;
    ASSERT_EQ(find(h, static_cast<int32_t>(hashes.size()), &added), static_cast<int32_t>(i));
    ASSERT_TRUE(added);
    hashes.push_back(h);
  }
  for (uint64_t i = 0; i < 60000; ++i) {
    bool added = true;
    ASSERT_EQ(find(hashes[i], -2, &added), static_cast<int32_t>(i));
    ASSERT_FALSE(added);
  }
  // each lookup compares its own row, and another only when 32 keyed bits agree (rare)
  EXPECT_LT(compares, 60000u + 1000u);
}

// Two numbers' hash takes the key before any mixing (FlatIndex::Mix, KeyedMix): 2000 keys made to
// collide fully under one key (a frame's address solved for each sequential func id, as a hostile
// file can when the mixer has no key) do not collide under another. (The test knows the key; a
// file does not.)
uint64_t InverseOdd(uint64_t c) {
  uint64_t x = c;
  for (int i = 0; i < 6; ++i) x *= 2 - c * x;  // Newton: c * x == 1 mod 2^64
  return x;
}
uint64_t UnXorShift(uint64_t z, int s) {
  uint64_t x = z;
  for (int k = s; k < 64; k += s) x ^= z >> k;
  return x;
}
uint64_t UnFmix64(uint64_t z) {
  z = UnXorShift(z, 31) * InverseOdd(0x94d049bb133111ebULL);
  z = UnXorShift(z, 27) * InverseOdd(0xbf58476d1ce4e5b9ULL);
  return UnXorShift(z, 30);
}

TEST(ProfileIndex, KeyedMixCollisionsDependOnTheKey) {
  const uint64_t a0 = 0x0123456789abcdefULL, a1 = 0x0fedcba987654321ULL;
  const uint64_t b0 = 0x1111222233334444ULL, b1 = 0x5555666677778888ULL;
  ASSERT_EQ(UnFmix64(Fmix64(0xdeadbeefULL)), 0xdeadbeefULL);
  const uint64_t target = 0x4242424242424242ULL, inner = UnFmix64(target);
  std::vector<uint64_t> under_b;
  for (uint64_t func = 0; func < 2000; ++func) {
    const uint64_t address = a0 ^ UnFmix64(inner - (func ^ a1));
    ASSERT_EQ(KeyedMix(address, func, a0, a1), target);  // all one hash under key a
    under_b.push_back(KeyedMix(address, func, b0, b1));
  }
  std::sort(under_b.begin(), under_b.end());
  EXPECT_EQ(std::unique(under_b.begin(), under_b.end()), under_b.end());  // all apart under key b
  EXPECT_EQ(FlatIndex::Mix(a0, b0), KeyedMix(a0, b0));
}

// The strings' hash is keyed (SipHash-1-3 under the process's secret): equal strings
// hash alike, and strings that differ anywhere (a byte, the length, a trailing NUL) do not.
TEST(ProfileIndex, KeyedStringHashTellsStringsApart) {
  EXPECT_EQ(KeyedHash("libc.so.6"), KeyedHash(std::string("libc.so.6")));
  EXPECT_NE(KeyedHash(""), KeyedHash(std::string_view("\0", 1)));
  EXPECT_NE(KeyedHash("abcdefgh"), KeyedHash(std::string_view("abcdefgh\0", 9)));
  std::vector<uint64_t> all;
  for (int i = 0; i < 100000; ++i) all.push_back(KeyedHash("func_" + std::to_string(i)));
  for (int len = 0; len < 40; ++len) all.push_back(KeyedHash(std::string(static_cast<size_t>(len), 'x')));
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
  EXPECT_NE(HashSeed(), 0u);
}

// Numbers a file picks to be equal modulo a bucket count (tids, ids, offsets that are
// multiples of it) spread over the buckets of a map hashed with KeyedIntHash, where the
// standard hash (the number itself) puts them all in one.
TEST(ProfileIndex, KeyedIntHashSpreadsNumbersEqualModuloTheBuckets) {
  std::unordered_map<uint64_t, int, KeyedIntHash> m;
  m.reserve(40000);
  const uint64_t buckets = m.bucket_count();
  for (uint64_t i = 0; i < 40000; ++i) m.emplace(i * buckets, 1);
  size_t largest = 0;
  for (size_t b = 0; b < m.bucket_count(); ++b) largest = std::max(largest, m.bucket_size(b));
  EXPECT_LT(largest, 32u);
  std::unordered_map<uint64_t, int> plain;
  plain.reserve(40000);
  ASSERT_EQ(plain.bucket_count(), buckets);
  for (uint64_t i = 0; i < 1000; ++i) plain.emplace(i * buckets, 1);
  EXPECT_EQ(plain.bucket_size(0), 1000u);  // (what the keyed hash prevents)
}

TEST(ProfileIndex, FlatIndexFindsEveryRowAcrossGrowth) {
  std::vector<uint64_t> keys;
  FlatIndex idx;
  for (int i = 0; i < 50000; ++i) {
    uint64_t k = 0x400000u + 16u * static_cast<uint64_t>(i);
    bool added = false;
    EXPECT_EQ(idx.FindOrInsert(FlatIndex::Mix(k, 7), [&](int32_t r) { return keys[static_cast<size_t>(r)] == k; },
                               static_cast<int32_t>(keys.size()), &added),
              i);
    EXPECT_TRUE(added);
    keys.push_back(k);
  }
  EXPECT_EQ(idx.count(), 50000u);
  for (int i = 0; i < 50000; ++i) {
    uint64_t k = keys[static_cast<size_t>(i)];
    bool added = true;
    EXPECT_EQ(idx.FindOrInsert(FlatIndex::Mix(k, 7), [&](int32_t r) { return keys[static_cast<size_t>(r)] == k; }, -5,
                               &added),
              i);
    EXPECT_FALSE(added);
  }
  idx.Clear();
  EXPECT_EQ(idx.count(), 0u);
  EXPECT_EQ(idx.bytes(), 0u);
}

TEST(ProfileIndex, StackBuilderInternsAndIndexesNewRowsLazily) {
  Profile p;
  StackBuilder sb(p);
  int32_t name = p.strings.Intern("a");
  int32_t f0 = sb.NewFunc(name, 3);
  int32_t fr0 = sb.NewFrame(0x1000, f0, 3);
  // Rows added without the index are found by the interning calls afterwards.
  EXPECT_EQ(sb.Func(name, 3), f0);
  EXPECT_EQ(sb.Frame(0x1000, f0, 3), fr0);
  EXPECT_EQ(sb.Func(name, 4), f0 + 1);
  int32_t s0 = sb.Stack(kNone, fr0);
  int32_t s1 = sb.Stack(s0, fr0);
  EXPECT_NE(s0, s1);
  EXPECT_EQ(sb.Stack(kNone, fr0), s0);
  EXPECT_EQ(sb.Stack(s0, fr0), s1);
  // Released indexes are rebuilt from the tables.
  sb.ReleaseIndexes();
  EXPECT_EQ(sb.IndexBytes(), 0u);
  EXPECT_EQ(sb.Stack(s0, fr0), s1);
  EXPECT_EQ(sb.Func(name, 4), f0 + 1);
  EXPECT_EQ(sb.Frame(0x1000, f0, 3), fr0);
  EXPECT_EQ(p.stacks.frame.size(), 2u);
  EXPECT_EQ(p.funcs.name.size(), 2u);
  EXPECT_EQ(p.frames.address.size(), 1u);
  // Many stacks: every (prefix, frame) gets one row.
  int32_t prev = kNone;
  for (int i = 0; i < 30000; ++i) prev = sb.Stack(prev, fr0);
  prev = kNone;
  for (int i = 0; i < 30000; ++i) prev = sb.Stack(prev, fr0);
  EXPECT_EQ(p.stacks.frame.size(), 30000u);  // the chain from the root repeats s0, s1, then 29 998 are new
}

}  // namespace
}  // namespace profscope
