#include "core/format/perf/callchain_table.h"

#include <algorithm>

#include "core/model/profile.h"

namespace profscope::perf {

uint64_t CallchainTable::Hash(const uint64_t head[2], const uint64_t* v, size_t n) {
  uint64_t h1 = (head[0] ^ n) * 0x9e3779b97f4a7c15ULL, h2 = head[1] * 0xc2b2ae3d27d4eb4fULL;
  uint64_t h3 = 0x165667b19e3779f9ULL, h4 = 0x27d4eb2f165667c5ULL;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {  // four independent multiplications
    h1 = (h1 ^ v[i]) * 0xff51afd7ed558ccdULL;
    h2 = (h2 ^ v[i + 1]) * 0xc4ceb9fe1a85ec53ULL;
    h3 = (h3 ^ v[i + 2]) * 0xff51afd7ed558ccdULL;
    h4 = (h4 ^ v[i + 3]) * 0xc4ceb9fe1a85ec53ULL;
    h1 ^= h1 >> 32;
    h2 ^= h2 >> 29;
    h3 ^= h3 >> 31;
    h4 ^= h4 >> 33;
  }
  for (; i < n; ++i) {
    h1 = (h1 ^ v[i]) * 0xff51afd7ed558ccdULL;
    h1 ^= h1 >> 32;
  }
  h1 = (h1 ^ h3) * 0xc4ceb9fe1a85ec53ULL;
  h2 = (h2 ^ h4) * 0xff51afd7ed558ccdULL;
  return FlatIndex::Mix(h1, h2);
}

bool CallchainTable::Same(const Slot& c, const uint64_t head[2], const uint64_t* v, size_t n) const {
  if (c.size != n) return false;
  const uint64_t* k = words_.data() + c.at;
  uint64_t diff = (k[0] ^ head[0]) | (k[1] ^ head[1]);
  k += 2;
  for (size_t i = 0; i < n; ++i) diff |= k[i] ^ v[i];
  return diff == 0;
}

CallchainTable::Found CallchainTable::Find(uint64_t h, const uint64_t head[2], const uint64_t* v, size_t n) {
  if (words_.size() >= kWords) Empty();
  if ((count_ + 1) * 4 > slots_.size() * 3) Grow();
  const uint32_t tag = static_cast<uint32_t>(h >> 32);
  const size_t size = slots_.size();
  size_t i = Home(tag);
  for (size_t probe = 0; probe < kMaxProbe; ++probe, i = i + 1 == size ? 0 : i + 1) {
    const Slot& c = slots_[i];
    if (!c.size) return Found{false, kNone, i};
    if (c.tag == tag && Same(c, head, v, n)) return Found{true, c.stack, kNoSlot};
  }
  return Found{};
}

void CallchainTable::Add(const Found& f, uint64_t h, const uint64_t head[2], const uint64_t* v, size_t n,
                         int32_t stack) {
  if (f.hit || f.slot == kNoSlot) return;
  slots_[f.slot] = Slot{static_cast<uint32_t>(h >> 32), stack, static_cast<uint32_t>(words_.size()),
                        static_cast<uint32_t>(n)};
  ++count_;
  const size_t want = words_.size() + 2 + n;
  if (want > words_.capacity())  // doubled, but not past the bound (and what one key takes past it)
    words_.reserve(std::max(want, std::min(2 * words_.capacity(), kWords + 4096)));
  words_.insert(words_.end(), head, head + 2);
  words_.insert(words_.end(), v, v + n);
}

void CallchainTable::Empty() {
  std::fill(slots_.begin(), slots_.end(), Slot{});
  count_ = 0;
  words_.clear();
}

void CallchainTable::Clear() {
  std::vector<Slot>().swap(slots_);
  count_ = 0;
  std::vector<uint64_t>().swap(words_);
}

void CallchainTable::Grow() {
  std::vector<Slot> old;
  old.swap(slots_);
  const size_t size = old.empty() ? 1024 : old.size() + old.size() / 2;
  slots_.assign(size, Slot{});
  count_ = 0;
  for (const Slot& c : old) {
    if (!c.size) continue;
    size_t i = Home(c.tag);
    size_t probe = 0;
    for (; probe < kMaxProbe && slots_[i].size; ++probe) i = i + 1 == size ? 0 : i + 1;
    if (probe == kMaxProbe) continue;  // (forgotten: its key stays in words_ until they are emptied)
    slots_[i] = c;
    ++count_;
  }
}

}  // namespace profscope::perf
