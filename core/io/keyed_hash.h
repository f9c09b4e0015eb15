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

// SipHash-1-3 of `s` under HashSeed(): strings that collide cannot be made
// without the key.
uint64_t KeyedHash(std::string_view s);

// For std::unordered_map / set of strings read from a file.
struct KeyedStringHash {
  size_t operator()(std::string_view s) const { return static_cast<size_t>(KeyedHash(s)); }
};

// For std::unordered_map / set of numbers read from a file (ids, pids, tids, offsets): the
// standard hash of a number is the number itself, so keys a file picks to be equal modulo
// the bucket count would all share one bucket.
struct KeyedIntHash {
  uint64_t key = HashSeed();
  size_t operator()(uint64_t v) const {
    uint64_t z = v ^ key;
    z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ULL;
    z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ULL;
    return static_cast<size_t>(z ^ (z >> 32));
  }
};

}  // namespace profscope
