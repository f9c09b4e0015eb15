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

}  // namespace profscope
