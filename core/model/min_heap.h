// A min-heap kept in a vector, for merging a few sorted streams (the heads of each): the one step the
// merges need, moving an entry down to its place after the top was replaced.
#pragma once

#include <cstddef>
#include <vector>

namespace profscope {

// Moves heap[at] down to its place: `before(a, b)` orders the heap, the least first.
template <typename T, typename Before>
void SiftDown(std::vector<T>& heap, size_t at, Before before) {
  const size_t size = heap.size();
  const T moving = heap[at];
  for (;;) {
    size_t c = 2 * at + 1;
    if (c >= size) break;
    if (c + 1 < size && before(heap[c + 1], heap[c])) ++c;
    if (!before(heap[c], moving)) break;
    heap[at] = heap[c];
    at = c;
  }
  heap[at] = moving;
}

// Makes a heap of the vector's entries.
template <typename T, typename Before>
void MakeHeap(std::vector<T>& heap, Before before) {
  for (size_t k = heap.size() / 2; k-- > 0;) SiftDown(heap, k, before);
}

}  // namespace profscope
