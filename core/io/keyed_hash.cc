#include "core/io/keyed_hash.h"

#include <sys/random.h>

#include <chrono>
#include <cstring>

namespace profscope {

namespace {

uint64_t Rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct Sip {
  uint64_t v0, v1, v2, v3;
  void Round() {
    v0 += v1;
    v1 = Rotl(v1, 13);
    v1 ^= v0;
    v0 = Rotl(v0, 32);
    v2 += v3;
    v3 = Rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = Rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = Rotl(v1, 17);
    v1 ^= v2;
    v2 = Rotl(v2, 32);
  }
  void Word(uint64_t m) {  // one compression round (SipHash-1-3)
    v3 ^= m;
    Round();
    v0 ^= m;
  }
};

uint64_t NewSeed() {
  uint64_t s = 0;
  if (getentropy(&s, sizeof s) != 0 || s == 0) {  // (no entropy source: the clock and where the stack is)
    s = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
        static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&s)) << 20;
  }
  return Fmix64(s);
}

}  // namespace

uint64_t HashSeed() {
  static const uint64_t seed = NewSeed();
  return seed;
}

uint64_t KeyedHash(std::string_view s) {
  static const uint64_t k0 = HashSeed(), k1 = Fmix64(k0 ^ 0x9e3779b97f4a7c15ULL);
  Sip h{k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL, k0 ^ 0x6c7967656e657261ULL,
        k1 ^ 0x7465646279746573ULL};
  const char* p = s.data();
  const size_t n = s.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t m;
    std::memcpy(&m, p + i, 8);  // (little-endian hosts: x86-64, wasm32)
    h.Word(m);
  }
  uint64_t last = static_cast<uint64_t>(n) << 56;
  for (size_t j = 0; i + j < n; ++j) last |= static_cast<uint64_t>(static_cast<uint8_t>(p[i + j])) << (8 * j);
  h.Word(last);
  h.v2 ^= 0xff;
  h.Round();
  h.Round();
  h.Round();
  return h.v0 ^ h.v1 ^ h.v2 ^ h.v3;
}

}  // namespace profscope
