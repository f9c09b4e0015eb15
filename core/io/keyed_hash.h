// Hashes a file cannot aim at. The indexes' slots and the string tables are
// placed by hashes of what the file says (addresses, names, paths); with a
// fixed hash a hostile file could make every key land in the same slots and
// every lookup walk them all (quadratic: a hang). So the placement is keyed
// by a secret chosen per process (HashSeed): a file cannot know it. Results
// never depend on it; only where rows sit in an index does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace profscope {

// The process's secret (random from the system, read once).
uint64_t HashSeed();

// splitmix64's finalizer: a bijection of 64 bits.
inline uint64_t Fmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A hash of two numbers with the secret in both before any mixing: numbers a file
// chose so that their hashes collide (a mixer without a key can be inverted) need it.
inline uint64_t KeyedMix(uint64_t a, uint64_t b, uint64_t k0, uint64_t k1) {
  return Fmix64(Fmix64(a ^ k0) + (b ^ k1));
}
inline uint64_t KeyedMix(uint64_t a, uint64_t b) {
  static const uint64_t k0 = HashSeed(), k1 = Fmix64(k0 ^ 0x5851f42d4c957f2dULL);
  return KeyedMix(a, b, k0, k1);
}

// SipHash-1-3 of `s` under HashSeed(): strings that collide cannot be made
// without the key.
uint64_t KeyedHash(std::string_view s);

// For std::unordered_map / set of strings read from a file.
struct KeyedStringHash {
  size_t operator()(std::string_view s) const noexcept { return static_cast<size_t>(KeyedHash(s)); }
};

// For std::unordered_map / set of numbers read from a file (ids, pids, tids, offsets): the
// standard hash of a number is the number itself, so keys a file picks to be equal modulo
// the bucket count would all share one bucket.
struct KeyedIntHash {
  uint64_t key = HashSeed();
  size_t operator()(uint64_t v) const noexcept { return static_cast<size_t>(Fmix64(v ^ key)); }
};

}  // namespace profscope
