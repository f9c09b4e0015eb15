#include "core/format/elf/elf_layout.h"

#include <algorithm>
#include <cstring>

#ifdef PROFSCOPE_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef PROFSCOPE_HAVE_ZSTD
#include <zstd.h>
#include "core/io/zstd_problem.h"
#endif

namespace profscope::elf {

namespace {

constexpr size_t kMaxHeaders = 65536;

// Reads [off, off+n) of the source into `buf`; false when not all there.
bool ReadAt(ByteSource& src, uint64_t off, uint64_t n, std::vector<uint8_t>& buf) {
  if (!RangeFits(off, n, src.size())) return false;  // before allocating: n comes from the file
  buf.resize(static_cast<size_t>(n));
  return n == 0 || src.Read(off, buf.data(), static_cast<size_t>(n)) == n;
}

std::string HexBytes(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) { s += d[p[i] >> 4]; s += d[p[i] & 15]; }
  return s;
}

// The GNU build-id in a block of notes, or "".
std::string BuildIdInNotes(ByteReader r) {
  while (r.remaining() >= 12) {
    uint32_t namesz = r.U32(), descsz = r.U32(), type = r.U32();
    if (namesz > r.remaining()) break;
    std::string name = r.FixedString(namesz);
    r.Align(4);
    if (descsz > r.remaining()) break;
    const uint8_t* desc = r.cursor();
    r.Skip(descsz);
    r.Align(4);
    if (type == 3 && name == "GNU" && descsz > 0) return HexBytes(desc, descsz);
    if (!r.ok()) break;
  }
  return {};
}

bool Inflate(const uint8_t* in, size_t n, uint64_t want, std::vector<uint8_t>* out, std::string* why) {
#ifdef PROFSCOPE_HAVE_ZLIB
  // Callers cap sizes far below 4 GiB, so one call with the whole input and output is enough.
  if (static_cast<uint64_t>(n) > 0xffffffffu || want > 0xffffffffu) { *why = "compressed section too large"; return false; }
  out->assign(static_cast<size_t>(want), 0);
  z_stream zs;
  std::memset(&zs, 0, sizeof zs);
  if (inflateInit(&zs) != Z_OK) { *why = "zlib inflateInit failed"; return false; }
  zs.next_in = const_cast<Bytef*>(in);
  zs.avail_in = static_cast<uInt>(n);
  zs.next_out = out->data();
  zs.avail_out = static_cast<uInt>(want);
  int rc = inflate(&zs, Z_FINISH);
  const uint64_t got = want - zs.avail_out;
  std::string msg = zs.msg ? zs.msg : "";
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    if (rc == Z_BUF_ERROR && got == want) *why = "zlib stream holds more than the declared " + std::to_string(want) + " bytes";
    else if (rc == Z_BUF_ERROR) *why = "zlib stream ends after " + std::to_string(got) + " of the declared " + std::to_string(want) + " bytes";
    else *why = "zlib stream is damaged (" + (msg.empty() ? std::string("inflate error ") + std::to_string(rc) : msg) + ")";
    return false;
  }
  if (got != want) {
    *why = "zlib stream inflates to " + std::to_string(got) + " bytes, not the declared " + std::to_string(want);
    return false;
  }
  return true;
#else
  (void)in; (void)n; (void)want; (void)out;
  *why = "this build has no zlib";
  return false;
#endif
}

bool Unzstd(const uint8_t* in, size_t n, uint64_t want, std::vector<uint8_t>* out, std::string* why) {
#ifdef PROFSCOPE_HAVE_ZSTD
  out->assign(static_cast<size_t>(want), 0);
  size_t got = ZSTD_decompress(out->data(), out->size(), in, n);
  if (ZSTD_isError(got)) { *why = "zstd stream is damaged (" + ZstdProblem(got) + ")"; return false; }
  if (got != want) {
    *why = "zstd stream inflates to " + std::to_string(got) + " bytes, not the declared " + std::to_string(want);
    return false;
  }
  return true;
#else
  (void)in; (void)n; (void)want; (void)out;
  *why = "this build has no zstd";
  return false;
#endif
}

}  // namespace

const SectionHeader* ElfLayout::FindSection(const std::string& name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

const ProgramHeader* ElfLayout::FindSegment(uint32_t t) const {
  for (const auto& s : segments)
    if (s.type == t) return &s;
  return nullptr;
}

const ProgramHeader* ElfLayout::LoadAtOffset(uint64_t off) const {
  for (const auto& s : segments)
    if (s.type == kPtLoad && off >= s.offset && off - s.offset < std::max(s.filesz, uint64_t{1})) return &s;
  return nullptr;
}

const ProgramHeader* ElfLayout::LoadAtAddress(uint64_t vaddr) const {
  for (const auto& s : segments)
    if (s.type == kPtLoad && vaddr >= s.vaddr && vaddr - s.vaddr < s.memsz) return &s;
  return nullptr;
}

ElfLayout ReadElfLayout(ByteSource& src) {
  ElfLayout f;
  f.file_size = src.size();
  std::vector<uint8_t> buf;
  if (!ReadAt(src, 0, 16, buf) || buf[0] != 0x7f || buf[1] != 'E' || buf[2] != 'L' || buf[3] != 'F') {
    f.problems.push_back("not an ELF file (no \\x7fELF magic)");
    return f;
  }
  if ((buf[4] != 1 && buf[4] != 2) || (buf[5] != 1 && buf[5] != 2)) {
    f.problems.push_back("unknown ELF class or data encoding");
    return f;
  }
  f.is64 = buf[4] == 2;
  f.order = buf[5] == 1 ? ByteOrder::kLittle : ByteOrder::kBig;
  const size_t ehsize = f.is64 ? 64 : 52;
  if (!ReadAt(src, 0, ehsize, buf)) { f.problems.push_back("ELF header truncated"); return f; }
  ByteReader h(buf.data(), buf.size(), 0, f.order);
  h.Seek(16);
  f.type = h.U16();
  f.machine = h.U16();
  uint64_t phoff, shoff;
  if (f.is64) {
    h.Seek(0x20); phoff = h.U64(); shoff = h.U64(); h.Seek(0x36);
  } else {
    h.Seek(0x1c); phoff = h.U32(); shoff = h.U32(); h.Seek(0x2a);
  }
  uint16_t phentsize = h.U16(), phnum = h.U16(), shentsize = h.U16(), shnum = h.U16(), shstrndx = h.U16();
  if (!h.ok()) { f.problems.push_back("ELF header truncated"); return f; }
  f.ok = true;

  // Program headers.
  const size_t phwant = f.is64 ? 56 : 32;
  if (phnum && phentsize < phwant) {
    f.problems.push_back("program header entry size " + std::to_string(phentsize) + " is too small");
  } else if (phnum) {
    uint64_t n = std::min<uint64_t>(phnum, kMaxHeaders);
    if (!ReadAt(src, phoff, n * phentsize, buf)) {
      f.problems.push_back("program header table extends past the end of the file");
    } else {
      for (uint64_t i = 0; i < n; ++i) {
        ByteReader r(buf.data() + i * phentsize, phwant, phoff + i * phentsize, f.order);
        ProgramHeader s;
        s.type = r.U32();
        if (f.is64) {
          s.flags = r.U32(); s.offset = r.U64(); s.vaddr = r.U64(); r.U64();
          s.filesz = r.U64(); s.memsz = r.U64(); s.align = r.U64();
        } else {
          s.offset = r.U32(); s.vaddr = r.U32(); r.U32(); s.filesz = r.U32(); s.memsz = r.U32();
          s.flags = r.U32(); s.align = r.U32();
        }
        f.segments.push_back(s);
      }
    }
  }

  // Section headers and their names.
  const size_t shwant = f.is64 ? 64 : 40;
  if (shnum && shentsize < shwant) {
    f.problems.push_back("section header entry size " + std::to_string(shentsize) + " is too small");
  } else if (shnum && shoff) {
    uint64_t n = std::min<uint64_t>(shnum, kMaxHeaders);
    if (!ReadAt(src, shoff, n * shentsize, buf)) {
      f.problems.push_back("section header table extends past the end of the file");
    } else {
      std::vector<uint32_t> name_offsets;
      for (uint64_t i = 0; i < n; ++i) {
        ByteReader r(buf.data() + i * shentsize, shwant, shoff + i * shentsize, f.order);
        SectionHeader s;
        name_offsets.push_back(r.U32());
        s.type = r.U32();
        if (f.is64) {
          s.flags = r.U64(); s.addr = r.U64(); s.offset = r.U64(); s.size = r.U64();
        } else {
          s.flags = r.U32(); s.addr = r.U32(); s.offset = r.U32(); s.size = r.U32();
        }
        f.sections.push_back(s);
      }
      std::vector<uint8_t> names;
      if (shstrndx < f.sections.size() && f.sections[shstrndx].type != kShtNobits &&
          f.sections[shstrndx].size <= (16u << 20) &&
          ReadAt(src, f.sections[shstrndx].offset, f.sections[shstrndx].size, names)) {
        for (size_t i = 0; i < f.sections.size(); ++i) {
          uint32_t o = name_offsets[i];
          if (o < names.size()) {
            const char* p = reinterpret_cast<const char*>(names.data() + o);
            f.sections[i].name.assign(p, strnlen(p, names.size() - o));
          }
        }
      } else {
        f.problems.push_back("section name table missing or outside the file");
      }
    }
  }

  // Build-id: the notes segment(s), else the note sections.
  auto notes = [&](uint64_t off, uint64_t size) {
    if (!f.build_id.empty() || size > (1u << 20) || !ReadAt(src, off, size, buf)) return;
    f.build_id = BuildIdInNotes(ByteReader(buf.data(), buf.size(), off, f.order));
  };
  for (const auto& s : f.segments)
    if (s.type == kPtNote) notes(s.offset, s.filesz);
  for (const auto& s : f.sections)
    if (s.type == kShtNote) notes(s.offset, s.size);
  return f;
}

bool ReadSection(ByteSource& src, const ElfLayout& elf, const SectionHeader& s, uint64_t cap,
                 std::vector<uint8_t>* out, std::string* why) {
  out->clear();
  if (s.type == kShtNobits) { *why = s.name + " has no bytes in the file (NOBITS)"; return false; }
  if (!RangeFits(s.offset, s.size, src.size())) {
    *why = s.name + " (" + std::to_string(s.size) + " bytes at file offset " + std::to_string(s.offset) +
           ") extends past the end of the file";
    return false;
  }
  const bool gnu_z = s.name.rfind(".zdebug", 0) == 0;
  if (!(s.flags & kShfCompressed) && !gnu_z) {
    if (s.size > cap) { *why = s.name + " is " + std::to_string(s.size) + " bytes, over the cap of " + std::to_string(cap); return false; }
    std::vector<uint8_t> buf;
    if (!ReadAt(src, s.offset, s.size, buf)) { *why = "cannot read " + s.name; return false; }
    *out = std::move(buf);
    return true;
  }
  // Compressed: the input is at most the section's own size (bounded by the file).
  if (s.size > cap) { *why = s.name + " is " + std::to_string(s.size) + " bytes, over the cap of " + std::to_string(cap); return false; }
  std::vector<uint8_t> raw;
  if (!ReadAt(src, s.offset, s.size, raw)) { *why = "cannot read " + s.name; return false; }
  uint32_t ctype;
  uint64_t size;
  size_t header;
  if (gnu_z) {
    // "ZLIB" then the inflated size as a big-endian u64.
    if (raw.size() < 12 || std::memcmp(raw.data(), "ZLIB", 4) != 0) { *why = s.name + " lacks its ZLIB header"; return false; }
    ByteReader r(raw.data() + 4, 8, s.offset + 4, ByteOrder::kBig);
    size = r.U64();
    ctype = kElfCompressZlib;
    header = 12;
  } else {
    ByteReader r(raw.data(), raw.size(), s.offset, elf.order);
    ctype = r.U32();
    if (elf.is64) { r.U32(); size = r.U64(); r.U64(); } else { size = r.U32(); r.U32(); }
    if (!r.ok()) { *why = s.name + " is too short for its compression header"; return false; }
    header = r.pos();
  }
  if (size > cap) {
    *why = s.name + " declares " + std::to_string(size) + " bytes once inflated, over the cap of " + std::to_string(cap);
    return false;
  }
  if (ctype == kElfCompressZlib) return Inflate(raw.data() + header, raw.size() - header, size, out, why);
  if (ctype == kElfCompressZstd) return Unzstd(raw.data() + header, raw.size() - header, size, out, why);
  *why = s.name + " uses unknown compression type " + std::to_string(ctype);
  return false;
}

}  // namespace profscope::elf
