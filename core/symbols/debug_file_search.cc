#include "core/symbols/debug_file_search.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>

#include "core/format/elf/elf_layout.h"
#include "core/io/path_name.h"

namespace profscope::symbols {

namespace {

constexpr uint32_t kShtSymtab = 2;
constexpr uint64_t kMaxDebuglinkSection = 4096;

std::string DirOf(const std::string& p) {
  size_t s = p.find_last_of('/');
  if (s == std::string::npos) return ".";
  return s == 0 ? std::string() : p.substr(0, s);
}

}  // namespace

DebugInfoRefs ReadDebugInfoRefs(ByteSource& src) {
  DebugInfoRefs r;
  elf::ElfLayout l = elf::ReadElfLayout(src);
  if (!l.ok) return r;
  r.elf = true;
  r.build_id = l.build_id;
  const elf::SectionHeader* st = l.FindSection(".symtab");
  r.has_symtab = st && st->type == kShtSymtab && st->size > 0;
  const elf::SectionHeader* dl = l.FindSection(".gnu_debuglink");
  if (dl && dl->type != elf::kShtNobits && dl->size >= 8 && dl->size <= kMaxDebuglinkSection &&
      dl->offset <= src.size() && dl->size <= src.size() - dl->offset) {
    std::vector<uint8_t> b(static_cast<size_t>(dl->size));
    if (src.Read(dl->offset, b.data(), b.size()) == b.size()) {
      // filename__read_debuglink: the name, NUL, padding to 4 bytes, the CRC.
      size_t n = 0;
      while (n < b.size() && b[n] != 0) ++n;
      size_t crc_at = (n + 1 + 3) & ~size_t{3};
      if (n > 0 && n < b.size() && crc_at + 4 <= b.size()) {
        r.debuglink.assign(reinterpret_cast<const char*>(b.data()), n);
        ByteReader br(b.data() + crc_at, 4, 0, l.order);
        r.debuglink_crc = br.U32();
      }
    }
  }
  return r;
}

std::string BuildIdDebugPath(const std::string& build_id) {
  if (build_id.size() < 3) return {};
  return "/usr/lib/debug/.build-id/" + build_id.substr(0, 2) + "/" + build_id.substr(2) + ".debug";
}

std::vector<DebugCandidate> DebugFileCandidates(const std::string& binary_path, const DebugInfoRefs& refs) {
  std::vector<DebugCandidate> out;
  const bool absolute = !binary_path.empty() && binary_path[0] == '/';
  const std::string dir = DirOf(binary_path);
  // A debuglink name with a '/' is not a file name; perf would still try it as is.
  if (!refs.debuglink.empty() && refs.debuglink.find('/') == std::string::npos) {
    const std::string& n = refs.debuglink;
    out.push_back({n, "debuglink", DebugCheck::kCrc});
    out.push_back({dir + "/" + n, "debuglink", DebugCheck::kCrc});
    out.push_back({dir + "/.debug/" + n, "debuglink", DebugCheck::kCrc});
    if (absolute) out.push_back({"/usr/lib/debug" + dir + "/" + n, "debuglink", DebugCheck::kCrc});
  }
  if (absolute) {
    out.push_back({"/usr/lib/debug" + binary_path + ".debug", "fedora", DebugCheck::kBuildId});
    out.push_back({"/usr/lib/debug" + binary_path, "ubuntu", DebugCheck::kBuildId});
  }
  if (!refs.build_id.empty()) out.push_back({BuildIdDebugPath(refs.build_id), "build-id", DebugCheck::kBuildId});
  out.push_back({dir + "/.debug/" + BaseName(binary_path), "openembedded", DebugCheck::kBuildId});
  if (binary_path.rfind("/usr/lib/", 0) == 0)
    out.push_back({"/usr/lib/debug" + binary_path.substr(4), "mixedup-ubuntu", DebugCheck::kBuildId});
  // The same path twice (a debuglink equal to the file's own name...) is tried once.
  std::vector<DebugCandidate> unique;
  for (auto& c : out) {
    bool seen = c.path == binary_path;
    for (const auto& u : unique) seen = seen || u.path == c.path;
    if (!seen) unique.push_back(std::move(c));
  }
  return unique;
}

uint32_t DebuglinkCrc(ByteSource& src) {
  // .gnu_debuglink's checksum is the CRC-32 zlib computes (binutils' bfd_calc_gnu_debuglink_crc32).
  uLong c = crc32(0L, Z_NULL, 0);
  std::vector<uint8_t> buf(1u << 20);
  for (uint64_t off = 0, n = src.size(); off < n;) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(buf.size(), n - off));
    size_t got = src.Read(off, buf.data(), want);
    if (got == 0) break;
    c = crc32(c, buf.data(), static_cast<uInt>(got));
    off += got;
  }
  return static_cast<uint32_t>(c);
}

DebugFileFound FindDebugFile(const std::string& binary_path, ByteSource& binary, FileAccess& files) {
  DebugFileFound found;
  DebugInfoRefs refs = ReadDebugInfoRefs(binary);
  if (!refs.elf) return found;
  for (const DebugCandidate& c : DebugFileCandidates(binary_path, refs)) {
    if (files.IsDirectory(c.path)) continue;
    std::string error;
    std::unique_ptr<ByteSource> src = files.Open(c.path, &error);
    if (!src) continue;  // not there: the next place
    DebugInfoRefs d = ReadDebugInfoRefs(*src);
    const std::string what = c.path + " (" + c.kind + " of " + binary_path + ")";
    if (!d.elf) {
      found.rejected.push_back(what + " is not an ELF file; not used");
      continue;
    }
    if (c.check == DebugCheck::kCrc) {
      uint32_t crc = DebuglinkCrc(*src);
      if (crc != refs.debuglink_crc) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "CRC %08x, .gnu_debuglink wants %08x", crc, refs.debuglink_crc);
        found.rejected.push_back(what + " has " + buf + "; not used");
        continue;
      }
    } else if (!refs.build_id.empty() && !d.build_id.empty() && d.build_id != refs.build_id) {
      found.rejected.push_back(what + " has build-id " + d.build_id + ", the binary " + refs.build_id + "; not used");
      continue;
    }
    if (!d.has_symtab) {
      found.rejected.push_back(what + " has no symbol table; not used");
      continue;
    }
    found.path = c.path;
    found.kind = c.kind;
    found.source = std::move(src);
    return found;
  }
  return found;
}

}  // namespace profscope::symbols
