/* The shared library of archive_dwarf_lib: arithmetic only (no libc call), built without frame pointers. */
__attribute__((noinline)) static long mix(long x) { return (x * 2654435761u) ^ (x >> 7); }
__attribute__((noinline)) long lib_inner(long n) { long h = 0; for (long i = 0; i < n; i++) h += mix(h + i); return h; }
__attribute__((noinline)) long lib_outer(long n, int reps) { long h = 0; for (int r = 0; r < reps; r++) h ^= lib_inner(n); return h; }
