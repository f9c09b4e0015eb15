// The native command line's large allocations ask the kernel for transparent huge pages.
//
// A decode fills tables of hundreds of megabytes (a 200 MB XRay log's calls, a 1 GB perf.data's samples)
// that are written once, front to back. On 4 KiB pages every 4 KiB is a page fault and a TLB entry; with
// the kernel's transparent huge pages in "madvise" mode (Debian's default) a region asks for 2 MiB pages
// with madvise(MADV_HUGEPAGE), as glibc's own `glibc.malloc.hugetlb=1` tunable does for all of malloc.
// Here only blocks of 4 MiB and more ask, aligned to 2 MiB so that their pages can be huge: the tables,
// not the many small objects. Where the kernel has no transparent huge pages the advice is ignored.
// The same blocks are always mapped on their own and given back when freed: glibc otherwise raises its
// mmap threshold to the largest block freed, and the next tables of that size come from the heap, whose
// freed middle stays resident (p1024's peak: 235 MB with it, 200 MB without).
// (The WASM build's memory is the browser's: this file is the native command line's alone.)
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <malloc.h>
#include <sys/mman.h>

namespace {

constexpr size_t kHuge = size_t{2} << 20;  // x86-64's and arm64's transparent huge page
constexpr size_t kFrom = size_t{4} << 20;  // blocks this large ask for them

void* Allocate(size_t size) {
  if (size < kFrom) return std::malloc(size ? size : 1);
  const size_t rounded = (size + kHuge - 1) & ~(kHuge - 1);
  void* p = std::aligned_alloc(kHuge, rounded);
  if (p) madvise(p, rounded, MADV_HUGEPAGE);  // (advice: its failure changes nothing)
  return p;
}

// Before main: the threshold fixed at kFrom (which also stops glibc from moving it).
[[maybe_unused]] const int kFixedThreshold = mallopt(M_MMAP_THRESHOLD, static_cast<int>(kFrom));

}  // namespace

void* operator new(size_t size) {
  if (void* p = Allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept { return Allocate(size); }
void* operator new[](size_t size, const std::nothrow_t&) noexcept { return Allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

#endif
