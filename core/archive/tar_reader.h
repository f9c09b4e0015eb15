// A tar reader for side files: perf archive tarballs (`perf archive` writes
// a GNU tar of build-id cache entries: `.build-id/xx/yyyy` symlinks and
// `<path>/<buildid>/{elf,kallsyms,vdso,probes}` files) and any tarball of
// binaries. Reads ustar, old GNU and v7 headers, GNU long names/links
// (typeflags 'L'/'K'), pax extended headers ('x' per entry, 'g' global:
// path, linkpath, size) and base-256 sizes. Source of truth: POSIX.1-2008
// pax / ustar and GNU tar's "Basic Tar Format" documentation.
//
// Bounded: decompressed bytes read are capped (a decompression bomb stops
// there with a problem, never hangs), and only entries that can matter keep
// their bytes (the `keep` callback, within a separate byte budget). Every
// size is checked; damage stops the walk with a problem at its offset and
// keeps every entry read before it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/archive/byte_stream.h"

namespace profscope::archive {

enum class EntryType : uint8_t { kFile, kSymlink, kHardlink, kDirectory, kOther };

struct TarEntry {
  std::string path;            // as stored, without a leading "./" or "/"
  EntryType type = EntryType::kFile;
  std::string link;            // target of a symlink / hard link
  uint64_t size = 0;           // declared data size
  uint64_t header_offset = 0;  // of its (first) header block in the tar stream
  bool kept = false;           // data holds the whole content
  std::vector<uint8_t> data;
};

struct TarProblem {
  uint64_t offset;   // in the tar stream (decompressed bytes); see `compressed`
  bool compressed;   // offset is in the compressed file (the codec noticed it)
  std::string message;
};

struct TarOptions {
  uint64_t max_stream_bytes = uint64_t{1} << 30;  // decompressed bytes read at most
  uint64_t max_kept_bytes = uint64_t{512} << 20;  // entry bytes kept at most
  // Whether a regular file's data is kept: its path, declared size and first
  // bytes (up to 16, fewer for smaller files). Default: keep everything.
  std::function<bool(const std::string& path, uint64_t size, const uint8_t* head, size_t n)> keep;
};

struct TarResult {
  Compression compression = Compression::kNone;
  bool is_tar = false;             // the first header block was a valid tar header
  std::vector<TarEntry> entries;   // in archive order (pax/long-name headers folded in)
  std::vector<TarProblem> problems;
  uint64_t stream_bytes = 0;       // decompressed bytes read
  uint64_t kept_bytes = 0;
};

// True when a 512-byte block is a tar header: its checksum is right (signed
// or unsigned sum, as tar accepts) and its size field parses.
bool IsTarHeader(const uint8_t* block);

// Reads the tar stream `in`.
TarResult ReadTar(ByteStream& in, const TarOptions& opt);

// Detects the compression of `w` by content, then reads the tar inside.
TarResult ReadTarFile(Window& w, const TarOptions& opt);

}  // namespace profscope::archive
