#include "core/symbols/symbol_store.h"

#include <algorithm>
#include <cstring>

#if PROFSCOPE_HAVE_ZLIB
#include <zlib.h>
#endif

#include "core/io/path_name.h"
#include "core/symbols/build_id.h"
#include "core/format/elf/elf_layout.h"
#include "core/format/elf/elf_reader.h"
#include "core/symbols/elf_symbols.h"
#include "core/symbols/kallsyms.h"
#include "core/symbols/perf_map.h"
#include "core/symbols/perf_symbol_tree.h"

namespace profscope::symbols {

namespace {

constexpr uint64_t kMaxInputBytes = uint64_t{1} << 30;  // one side file read whole at most

enum class InputKind : uint8_t { kElf, kKallsyms, kLink, kPerfMap, kOther };


std::string StripSlash(std::string p) {
  while (!p.empty() && p[0] == '/') p.erase(0, 1);
  return p;
}

bool IsHex(const std::string& s) {
  if (s.size() < 2 || s.size() > 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}


// The build-id a build-id cache path names: ".build-id/xx/yyyy[.debug]",
// "<path>/<buildid>/{elf,debug,kallsyms,vdso,probes}".
std::string PathBuildId(const std::string& path) {
  std::vector<std::string> parts;
  size_t p = 0;
  while (p <= path.size()) {
    size_t q = path.find('/', p);
    if (q == std::string::npos) q = path.size();
    if (q > p) parts.push_back(path.substr(p, q - p));
    p = q + 1;
  }
  for (size_t i = 0; i + 2 < parts.size(); ++i) {
    if (parts[i] == ".build-id" && parts[i + 1].size() == 2 && IsHex(parts[i + 1])) {
      std::string rest = parts[i + 2];
      if (rest.size() > 6 && rest.compare(rest.size() - 6, 6, ".debug") == 0) rest.resize(rest.size() - 6);
      if (IsHex(rest)) return parts[i + 1] + rest;
    }
  }
  if (parts.size() >= 2) {
    const std::string& leaf = parts.back();
    const std::string& dir = parts[parts.size() - 2];
    if ((leaf == "elf" || leaf == "debug" || leaf == "kallsyms" || leaf == "vdso") && IsHex(dir) && dir.size() >= 16) return dir;
  }
  return {};
}

// perf's compressed kernel modules (kmod_path__parse: ".ko.gz", ".ko.xz", ".ko.zst"): "ext4.ko.xz" -> "ext4.ko".
std::string CompressedModuleName(const std::string& path) {
  for (const char* ext : {".ko.xz", ".ko.gz", ".ko.zst"}) {
    const size_t n = std::strlen(ext);
    if (path.size() > n && path.compare(path.size() - n, n, ext) == 0) return path.substr(0, path.size() - n + 3);
  }
  return {};
}

constexpr uint64_t kMaxModuleBytes = uint64_t{256} << 20;  // a decompressed module at most

// The file a build-id cache entry stands for: "<path>/<buildid>/elf" -> "<path>".
std::string CachedPath(const std::string& path) {
  size_t a = path.find_last_of('/');
  if (a == std::string::npos || a == 0) return path;
  std::string leaf = path.substr(a + 1);
  if (leaf != "elf" && leaf != "debug" && leaf != "vdso") return path;
  size_t b = path.find_last_of('/', a - 1);
  std::string dir = path.substr(b == std::string::npos ? 0 : b + 1, a - (b == std::string::npos ? 0 : b + 1));
  if (!IsHex(dir) || dir.size() < 16 || b == std::string::npos) return path;
  return path.substr(0, b);
}

}  // namespace

struct SymbolStore::Input {
  std::string path, origin;
  std::string logical;        // the file it stands for (a build-id cache entry's original path)
  InputKind kind = InputKind::kOther;
  std::vector<uint8_t> bytes;
  std::string link;
  elf::ElfFile elf;
  std::string build_id;       // the ELF note's, else the one the path names
  bool debug_only = false;    // a separate debug file (no loadable .text bytes)
  bool used = false;
  // A lazily read ELF (AddFileLazily): its headers were read, its bytes are
  // read by Materialize only when it matches a DSO.
  ByteSource* src = nullptr;
  bool compressed = false;    // a compressed module (ext4.ko.xz): decompressed by Materialize
  bool elf_ok = false;        // the headers were readable
  uint16_t elf_type = 0;      // ET_EXEC 2, ET_DYN 3, ET_REL 1
  bool symtab = false;        // a .symtab section
  bool damage_reported = false;  // its damage was said (LoadUser)
  bool quiet = false;         // not given by the person (the running vdso): never reported

  const std::string& Label() const { return origin.empty() ? path : origin; }
};

struct SymbolStore::DsoEntry {
  std::string path, build_id, name;
  DsoKind kind = DsoKind::kUser;
  bool loaded = false;
  SymbolTable syms;
  std::string source;
  const std::vector<uint8_t>* source_bytes = nullptr;  // user DSOs: the symbol file's bytes
  // Candidates(), kept: the unwinder asks while decoding, the symbols later;
  // a mismatch is reported once. Made again if the build-id became known since.
  bool have_candidates = false;
  std::string candidates_build_id;
  std::vector<Input*> candidates;
  bool runtime_done = false;
  Input* runtime = nullptr;  // RuntimeBytes' answer
};

DsoKind KindOfPath(const std::string& path, bool kernel_space) {
  if (!kernel_space && path.rfind("/tmp/perf-", 0) == 0 && PerfMapPid(path) >= 0) return DsoKind::kPerfMap;
  if (path.rfind("[kernel.kallsyms]", 0) == 0 || path.rfind("[guest.kernel.kallsyms", 0) == 0) return DsoKind::kKernel;
  if (path == "[vdso]" || path == "[vdso32]" || path == "[vdsox32]") return DsoKind::kVdso;
  if (kernel_space) return DsoKind::kModule;
  if (path.empty() || path[0] == '[' || path.rfind("//anon", 0) == 0 || path.rfind("/dev/zero", 0) == 0 ||
      path.rfind("/anon_hugepage", 0) == 0 || path.rfind("/SYSV", 0) == 0 || path.rfind("/memfd:", 0) == 0)
    return DsoKind::kAnon;
  return DsoKind::kUser;
}

std::string ModuleName(const std::string& path) {
  if (!path.empty() && path[0] == '[') return path;
  std::string b = BaseName(path);
  size_t dot = b.find('.');
  if (dot != std::string::npos) b.resize(dot);
  for (char& c : b)
    if (c == '-') c = '_';
  return "[" + b + "]";
}

// A side file that gave fewer bytes than its size (cut or changed since it was opened): what was read is used.
static std::string EndedProblem(const std::string& path, uint64_t got, uint64_t size) {
  return EndedWhileRead(path, got, size) + ": what follows is missing";
}

SymbolStore::SymbolStore() = default;
SymbolStore::~SymbolStore() = default;

void SymbolStore::AddFile(const std::string& path, ByteSource& src, const std::string& origin) {
  uint64_t n = src.size();
  uint8_t head[8] = {0};
  size_t hn = src.Read(0, head, n < 8 ? static_cast<size_t>(n) : 8);
  archive::Compression c = archive::DetectCompression(head, hn);
  bool elf = hn >= 4 && head[0] == 0x7f && std::memcmp(head + 1, "ELF", 3) == 0;
  if (!elf && c != archive::Compression::kNone) { AddTar(path, src, origin); return; }
  if (!elf && n >= 512) {
    uint8_t block[512];
    if (src.Read(0, block, 512) == 512 && archive::IsTarHeader(block)) { AddTar(path, src, origin); return; }
  }
  if (n > kMaxInputBytes) {
    problems_.push_back({origin.empty() ? path : origin, 0, true,
                         path + ": " + std::to_string(n) + " bytes is more than a side file may have; not read"});
    return;
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(n));
  size_t got = n ? src.Read(0, bytes.data(), bytes.size()) : 0;
  bytes.resize(got);
  if (got < n) problems_.push_back({origin.empty() ? path : origin, 0, true, EndedProblem(path, got, n), false, true});
  AddBytes(path, std::move(bytes), origin);
}

void SymbolStore::AddFileLazily(const std::string& path, ByteSource& src, const std::string& origin, bool quiet) {
  const size_t before = inputs_.size(), problems = problems_.size();
  AddFileLazilyImpl(path, src, origin);
  if (!quiet) return;
  for (size_t i = before; i < inputs_.size(); ++i) inputs_[i]->quiet = true;
  problems_.resize(problems);
}

void SymbolStore::AddFileLazilyImpl(const std::string& path, ByteSource& src, const std::string& origin) {
  uint64_t n = src.size();
  uint8_t head[16] = {0};
  size_t hn = src.Read(0, head, n < 16 ? static_cast<size_t>(n) : 16);
  bool elf = hn >= 4 && head[0] == 0x7f && std::memcmp(head + 1, "ELF", 3) == 0;
  const std::string module = CompressedModuleName(path);
  if (!elf && !module.empty() && archive::DetectCompression(head, hn) != archive::Compression::kNone) {
    // A compressed kernel module: matched by its name ([ext4]), read when it matches.
    auto in = std::make_unique<Input>();
    in->path = StripSlash(path);
    in->logical = StripSlash(module);
    in->origin = origin;
    in->kind = InputKind::kElf;
    in->src = &src;
    in->compressed = true;
    in->elf_ok = true;  // until Materialize says otherwise
    in->elf_type = 1;
    in->symtab = true;
    inputs_.push_back(std::move(in));
    return;
  }
  if (!elf) {
    // Tarballs and kallsyms are read now; anything else is kept as unused, unread.
    bool tar = archive::DetectCompression(head, hn) != archive::Compression::kNone;
    uint8_t block[4096];
    size_t bn = n ? src.Read(0, block, n < sizeof block ? static_cast<size_t>(n) : sizeof block) : 0;
    tar = tar || (bn >= 512 && archive::IsTarHeader(block));
    if (tar || LooksLikeKallsyms(block, bn) || LooksLikePerfMap(block, bn)) { AddFile(path, src, origin); return; }
    auto in = std::make_unique<Input>();
    in->path = StripSlash(path);
    in->logical = in->path;
    in->origin = origin;
    inputs_.push_back(std::move(in));
    return;
  }
  elf::ElfLayout l = elf::ReadElfLayout(src);
  auto in = std::make_unique<Input>();
  in->path = StripSlash(path);
  in->logical = CachedPath(in->path);
  in->origin = origin;
  in->kind = InputKind::kElf;
  in->src = &src;
  in->elf_ok = l.ok && n <= kMaxInputBytes;
  in->elf_type = l.type;
  in->build_id = l.build_id.empty() ? PathBuildId(in->path) : l.build_id;
  const elf::SectionHeader* text = l.FindSection(".text");
  in->debug_only = text && text->type == elf::kShtNobits;
  const elf::SectionHeader* st = l.FindSection(".symtab");
  in->symtab = st && st->type == 2;
  if (!l.ok)
    problems_.push_back({in->Label(), 0, true, in->path + ": damaged ELF file (" +
                                                  (l.problems.empty() ? std::string("header") : l.problems[0]) + ")"});
  else if (n > kMaxInputBytes)
    problems_.push_back({in->Label(), 0, true,
                         in->path + ": " + std::to_string(n) + " bytes is more than a side file may have; not read"});
  inputs_.push_back(std::move(in));
}

void SymbolStore::set_memory_limit(uint64_t bytes) {
  memory_limit_ = bytes;
  if (bytes && bytes < tar_.max_stream_bytes) tar_.max_stream_bytes = bytes;
}

bool SymbolStore::Materialize(Input& in) {
  if (!in.src) return in.elf_ok;
  ByteSource& src = *in.src;
  if (memory_limit_ && !in.compressed && src.size() > memory_limit_ - std::min(memory_limit_, read_bytes_)) {
    // Reading it would pass the decode's memory budget: not read, said once.
    in.src = nullptr;
    in.elf_ok = false;
    problems_.push_back({in.Label(), 0, true, in.path + ": " + std::to_string(src.size()) + " bytes would take the side files read past the memory budget of " +
                                                  std::to_string(memory_limit_ >> 20) + " MB (--max-memory); not read"});
    return false;
  }
  in.src = nullptr;
  if (in.compressed) {
    if (!Decompress(in, src)) {
      in.elf_ok = false;
      return false;
    }
  } else {
    in.bytes.resize(static_cast<size_t>(src.size()));
    size_t got = in.bytes.empty() ? 0 : src.Read(0, in.bytes.data(), in.bytes.size());
    in.bytes.resize(got);
    if (got < src.size()) problems_.push_back({in.Label(), 0, true, EndedProblem(in.path, got, src.size()), false, true});
  }
  read_bytes_ += in.bytes.size();
  in.elf = elf::ReadElfBytes(in.bytes.data(), in.bytes.size());
  in.elf.funcs.clear();  // the store reads symbols itself, by perf's rules
  in.elf.funcs.shrink_to_fit();
  if (!in.elf.ok) {
    in.elf_ok = false;
    problems_.push_back({in.Label(), 0, true, in.path + ": damaged ELF file (" +
                                                  (in.elf.problems.empty() ? std::string("header") : in.elf.problems[0]) + ")"});
  }
  if (in.compressed) {
    in.build_id = in.elf.build_id;
    in.elf_type = in.elf.type;
    in.symtab = HasSymtab(in.elf);
  }
  return in.elf_ok;
}

bool SymbolStore::Decompress(Input& in, ByteSource& src) {
  uint8_t head[16] = {0};
  size_t hn = src.Read(0, head, src.size() < 16 ? static_cast<size_t>(src.size()) : 16);
  Window w(src, 1u << 20);
  std::unique_ptr<archive::ByteStream> s = archive::OpenStream(w, archive::DetectCompression(head, hn));
  uint8_t buf[1 << 16];
  for (size_t n; (n = s->Read(buf, sizeof buf)) > 0;) {
    if (in.bytes.size() + n > kMaxModuleBytes) {
      problems_.push_back({in.Label(), 0, true, in.path + ": more than " + std::to_string(kMaxModuleBytes >> 20) +
                                                    " MiB decompressed; not used"});
      in.bytes.clear();
      return false;
    }
    in.bytes.insert(in.bytes.end(), buf, buf + n);
  }
  if (!s->error().empty()) {
    problems_.push_back({in.Label(), s->error_offset(), true, in.path + ": " + s->error() + "; not used"});
    in.bytes.clear();
    return false;
  }
  return true;
}

void SymbolStore::AddLink(const std::string& path, const std::string& target, const std::string& origin) {
  auto in = std::make_unique<Input>();
  in->path = StripSlash(path);
  in->origin = origin;
  in->kind = InputKind::kLink;
  in->link = target;
  in->build_id = PathBuildId(in->path);
  inputs_.push_back(std::move(in));
}

void SymbolStore::AddTar(const std::string& path, ByteSource& src, const std::string& origin) {
  Window w(src, 1u << 20);
  archive::TarOptions opt = tar_;
  if (!opt.keep) {
    // Keep what can name frames: ELF files and kallsyms; links are listed anyway.
    opt.keep = [](const std::string& p, uint64_t, const uint8_t* h, size_t n) {
      if (n >= 4 && h[0] == 0x7f && std::memcmp(h + 1, "ELF", 3) == 0) return true;
      return BaseName(p) == "kallsyms" || LooksLikeKallsyms(h, n);
    };
  }
  archive::TarResult r = archive::ReadTarFile(w, opt);
  const std::string label = origin.empty() ? path : origin;
  if (!r.is_tar) {
    problems_.push_back({label, 0, true, path + ": not a tar archive nor an ELF or kallsyms file; not used"});
    return;
  }
  for (const auto& p : r.problems)
    problems_.push_back({label, p.offset, true, path + ": " + p.message + (p.compressed ? "" : " (at tar stream offset " + std::to_string(p.offset) + ")")});
  for (auto& e : r.entries) {
    if (e.type == archive::EntryType::kSymlink || e.type == archive::EntryType::kHardlink) {
      AddLink(e.path, e.link, label);
    } else if (e.type == archive::EntryType::kFile && e.kept) {
      AddBytes(e.path, std::move(e.data), label);
    }
  }
}

void SymbolStore::AddBytes(const std::string& path, std::vector<uint8_t> bytes, const std::string& origin) {
  read_bytes_ += bytes.size();
  auto in = std::make_unique<Input>();
  in->path = StripSlash(path);
  in->logical = CachedPath(in->path);
  in->origin = origin;
  in->bytes = std::move(bytes);
  const uint8_t* d = in->bytes.data();
  size_t n = in->bytes.size();
  if (n >= 4 && d[0] == 0x7f && std::memcmp(d + 1, "ELF", 3) == 0) {
    in->kind = InputKind::kElf;
    in->elf = elf::ReadElfBytes(d, n);
    in->elf.funcs.clear();  // the store reads symbols itself, by perf's rules
    in->elf.funcs.shrink_to_fit();
    in->build_id = in->elf.build_id.empty() ? PathBuildId(in->path) : in->elf.build_id;
    const elf::Section* text = in->elf.FindSection(".text");
    in->debug_only = text && text->type == 8;
    in->elf_ok = in->elf.ok;
    in->elf_type = in->elf.type;
    in->symtab = HasSymtab(in->elf);
    if (!in->elf.ok)
      problems_.push_back({in->Label(), 0, true, in->path + ": damaged ELF file (" +
                                                    (in->elf.problems.empty() ? std::string("header") : in->elf.problems[0]) + ")"});
  } else if (LooksLikeKallsyms(d, n)) {
    in->kind = InputKind::kKallsyms;
    in->build_id = PathBuildId(in->path);
  } else if (LooksLikePerfMap(d, n)) {
    in->kind = InputKind::kPerfMap;
  } else {
    in->kind = InputKind::kOther;
  }
  inputs_.push_back(std::move(in));
}

int32_t SymbolStore::Dso(const std::string& path, const std::string& build_id, bool kernel_space) {
  DsoKind kind = KindOfPath(path, kernel_space);
  std::string name = path;
  if (kind == DsoKind::kKernel) name = "[kernel.kallsyms]";
  else if (kind == DsoKind::kModule) name = ModuleName(path);
  for (size_t i = 0; i < dsos_.size(); ++i) {
    DsoEntry& d = *dsos_[i];
    if (d.kind != kind || d.name != name) continue;
    if (kind == DsoKind::kKernel || d.build_id == build_id || build_id.empty()) return static_cast<int32_t>(i);
    if (d.build_id.empty()) { d.build_id = build_id; return static_cast<int32_t>(i); }
  }
  auto d = std::make_unique<DsoEntry>();
  d->path = path;
  d->build_id = build_id;
  d->name = name;
  d->kind = kind;
  dsos_.push_back(std::move(d));
  int32_t id = static_cast<int32_t>(dsos_.size() - 1);
  if (kind == DsoKind::kKernel) {
    if (kernel_dso_ < 0) kernel_dso_ = id;
    else if (dsos_[static_cast<size_t>(kernel_dso_)]->build_id.empty()) dsos_[static_cast<size_t>(kernel_dso_)]->build_id = build_id;
  }
  return id;
}

void SymbolStore::SetKernelMap(const std::string& mmap_name, uint64_t start, uint64_t end, uint64_t pgoff) {
  size_t b = mmap_name.find(']');
  kernel_ref_name_ = b == std::string::npos ? std::string() : mmap_name.substr(b + 1);
  // pgoff 0 means kptr_restrict hid the address at record time: no relocation (machine.c).
  kernel_ref_addr_ = pgoff;
  kernel_start_ = start;
  kernel_end_ = end;
  kernel_map_set_ = true;
}

void SymbolStore::SetModuleMap(int32_t dso, uint64_t start) {
  for (auto& m : module_maps_)
    if (m.first == dso) { m.second = start; return; }
  module_maps_.push_back({dso, start});
}

const std::string& SymbolStore::DsoName(int32_t dso) const { return dsos_[static_cast<size_t>(dso)]->name; }
DsoKind SymbolStore::Kind(int32_t dso) const { return dsos_[static_cast<size_t>(dso)]->kind; }

const Symbol* SymbolStore::Find(int32_t dso, uint64_t addr) {
  if (dso < 0 || static_cast<size_t>(dso) >= dsos_.size()) return nullptr;
  DsoEntry& d = *dsos_[static_cast<size_t>(dso)];
  if (!d.loaded) Load(d);
  return d.syms.Find(addr);
}

bool SymbolStore::HasSymbols(int32_t dso) {
  if (dso < 0 || static_cast<size_t>(dso) >= dsos_.size()) return false;
  DsoEntry& d = *dsos_[static_cast<size_t>(dso)];
  if (!d.loaded) Load(d);
  return !d.syms.empty();
}

std::string SymbolStore::SourceOf(int32_t dso) {
  if (dso < 0 || static_cast<size_t>(dso) >= dsos_.size()) return {};
  DsoEntry& d = *dsos_[static_cast<size_t>(dso)];
  if (!d.loaded) Load(d);
  return d.source;
}

const std::vector<uint8_t>* SymbolStore::SymbolFileBytes(int32_t dso) {
  if (dso < 0 || static_cast<size_t>(dso) >= dsos_.size()) return nullptr;
  DsoEntry& d = *dsos_[static_cast<size_t>(dso)];
  if (!d.loaded) Load(d);
  return d.source_bytes;
}

bool SymbolStore::KernelMapRange(uint64_t* start, uint64_t* end) {
  if (kernel_dso_ < 0) return false;
  DsoEntry& d = *dsos_[static_cast<size_t>(kernel_dso_)];
  if (!d.loaded) Load(d);
  if (d.syms.empty()) return false;
  *start = d.syms.all().front().start;
  *end = d.syms.all().back().end;
  return true;
}

void SymbolStore::Load(DsoEntry& d) {
  d.loaded = true;
  if (d.kind == DsoKind::kKernel) LoadKernel(d);
  else if (d.kind == DsoKind::kModule) {
    // Module symbols come with the kernel's kallsyms (split per module), or
    // from the module's own .ko file.
    if (kernel_dso_ >= 0 && !dsos_[static_cast<size_t>(kernel_dso_)]->loaded) Load(*dsos_[static_cast<size_t>(kernel_dso_)]);
    if (d.syms.empty()) LoadUser(d);
  } else if (d.kind == DsoKind::kPerfMap) {
    LoadPerfMap(d);
  } else if (d.kind != DsoKind::kAnon) {
    LoadUser(d);
  }
}

bool SymbolStore::Usable(Input& in, const DsoEntry& d) {
  const bool knew_id = !in.build_id.empty();
  if (!Materialize(in)) return false;
  // A compressed module's build-id is known once read: another one is refused.
  if (!knew_id && !in.build_id.empty() && !d.build_id.empty() && !SameBuildId(in.build_id, d.build_id)) {
    problems_.push_back({in.Label(), 0, true, in.path + " has build-id " + in.build_id + " but " + d.path +
                                                  " was recorded with " + d.build_id + ": not used"});
    return false;
  }
  return in.symtab || !in.debug_only;
}

std::vector<SymbolStore::Input*> SymbolStore::Candidates(DsoEntry& d) {
  std::vector<Input*> out;
  const std::string want = StripSlash(d.path);
  const std::string base = BaseName(want);
  for (auto& up : inputs_) {
    Input& in = *up;
    if (in.kind != InputKind::kElf || !in.elf_ok) continue;
    bool by_id = !d.build_id.empty() && SameBuildId(in.build_id, d.build_id);
    const std::string& lp = in.logical;
    bool by_path = !want.empty() && (lp == want || (lp.size() > want.size() &&
                                                    lp.compare(lp.size() - want.size(), want.size(), want) == 0 &&
                                                    lp[lp.size() - want.size() - 1] == '/'));
    bool by_name = BaseName(lp) == base || (d.kind == DsoKind::kModule && ModuleName(lp) == d.name);
    if (by_id) { out.push_back(&in); continue; }
    if (!by_path && !by_name) continue;
    if (!d.build_id.empty() && !in.build_id.empty()) {
      problems_.push_back({in.Label(), 0, true, in.path + " has build-id " + in.build_id + " but " + d.path +
                                                    " was recorded with " + d.build_id + ": not used"});
      in.used = true;  // reported as a mismatch, not as matching nothing
      continue;
    }
    out.push_back(&in);
  }
  // Debug files first (perf tries debuglink and build-id debug files before the binary).
  std::stable_sort(out.begin(), out.end(), [](const Input* a, const Input* b) { return a->debug_only > b->debug_only; });
  return out;
}

const std::vector<SymbolStore::Input*>& SymbolStore::CandidatesOf(DsoEntry& d) {
  if (!d.have_candidates || d.candidates_build_id != d.build_id) {
    d.candidates = Candidates(d);
    d.have_candidates = true;
    d.candidates_build_id = d.build_id;
  }
  return d.candidates;
}

const std::vector<uint8_t>* SymbolStore::RuntimeBytes(int32_t dso) {
  if (dso < 0 || static_cast<size_t>(dso) >= dsos_.size()) return nullptr;
  DsoEntry& d = *dsos_[static_cast<size_t>(dso)];
  if (d.kind != DsoKind::kUser && d.kind != DsoKind::kVdso) return nullptr;
  if (!d.runtime_done || (d.have_candidates && d.candidates_build_id != d.build_id)) {
    d.runtime_done = true;
    d.runtime = nullptr;
    for (Input* in : CandidatesOf(d)) {
      if (in->debug_only || !Usable(*in, d)) continue;
      d.runtime = in;
      in->used = true;
      break;
    }
  }
  return d.runtime ? &d.runtime->bytes : nullptr;
}

bool SymbolStore::HasFile(int32_t dso) {
  if (dso < 0 || static_cast<size_t>(dso) >= dsos_.size()) return false;
  DsoEntry& d = *dsos_[static_cast<size_t>(dso)];
  if (!d.loaded) Load(d);
  return !d.source.empty() || d.runtime;
}

bool SymbolStore::HasElfInputs() const {
  for (const auto& in : inputs_)
    if (in->kind == InputKind::kElf) return true;
  return false;
}

void SymbolStore::LoadUser(DsoEntry& d) {
  const std::vector<Input*>& c = CandidatesOf(d);
  Input* syms = nullptr;
  Input* runtime = nullptr;
  // Only the files chosen are read (a folder may hold the same binary twice: link and file).
  for (Input* in : c) {
    if (syms && runtime) break;
    if (!Usable(*in, d)) continue;
    if (!syms && in->symtab) syms = in;
    if (!runtime && !in->debug_only) runtime = in;
  }
#if PROFSCOPE_HAVE_ZLIB
  // A separate debug file named by the binary's .gnu_debuglink, checked by its CRC.
  if (runtime && !runtime->elf.debuglink.empty() && (!syms || syms == runtime)) {
    for (auto& up : inputs_) {
      Input& in = *up;
      if (in.kind != InputKind::kElf || BaseName(in.path) != runtime->elf.debuglink || !in.symtab || !Materialize(in) ||
          !HasSymtab(in.elf))
        continue;
      uLong crc = crc32(0L, Z_NULL, 0);
      const uint8_t* p = in.bytes.data();
      size_t left = in.bytes.size();
      while (left) {
        uInt step = left > (1u << 30) ? (1u << 30) : static_cast<uInt>(left);
        crc = crc32(crc, p, step);
        p += step;
        left -= step;
      }
      if (static_cast<uint32_t>(crc) == runtime->elf.debuglink_crc) { syms = &in; break; }
      problems_.push_back({in.Label(), 0, true, in.path + ": .gnu_debuglink CRC does not match " + runtime->path + "; not used"});
      in.used = true;
    }
  }
#endif
  if (!syms) syms = runtime;
  if (!runtime) runtime = syms;
  if (!syms) return;
  ElfImage s{syms->bytes.data(), syms->bytes.size(), &syms->elf};
  ElfImage r{runtime->bytes.data(), runtime->bytes.size(), &runtime->elf};
  std::string damage;
  LoadElfSymbols(s, r, d.kind == DsoKind::kModule ? ElfRole::kModule : ElfRole::kUser, d.syms, &damage);
  // Damage in a file that is used (its headers were readable) is said once per file: what
  // could be read names frames, what could not is not guessed.
  for (Input* in : {syms, runtime}) {
    if (in->damage_reported) continue;
    std::string what = in == syms && !damage.empty() ? damage : (in->elf.problems.empty() ? std::string() : in->elf.problems[0]);
    if (what.empty()) continue;
    in->damage_reported = true;
    problems_.push_back({in->Label(), 0, true, in->path + ": damaged ELF file (" + what + "); used for " + d.path + " as far as it could be read"});
  }
  syms->used = runtime->used = true;
  for (Input* in : c) in->used = true;  // the others are copies (same build-id or name): not "unused"
  d.source = syms->path;
  d.source_bytes = &syms->bytes;
}

void SymbolStore::LoadPerfMap(DsoEntry& d) {
  // perf reads /tmp/perf-PID.map itself; here the file of that name given.
  const std::string want = BaseName(d.path);
  for (auto& up : inputs_) {
    Input& in = *up;
    if (in.kind != InputKind::kPerfMap || BaseName(in.path) != want) continue;
    // perf inserts them in file order and repairs nothing (no fixup_end, no
    // fixup_duplicate): its tree decides among symbols that overlap.
    PerfSymbolTree tree;
    for (auto& s : ParsePerfMap(std::string_view(reinterpret_cast<const char*>(in.bytes.data()), in.bytes.size()))) {
      Symbol sym;
      sym.start = s.start;
      sym.end = s.size ? s.start + s.size : s.start;
      if (sym.end < sym.start) sym.end = UINT64_MAX;
      sym.name = std::move(s.name);
      tree.Insert(std::move(sym));
    }
    tree.MoveInto(d.syms);
    in.used = true;
    d.source = in.path;
    return;
  }
}

void SymbolStore::LoadKernel(DsoEntry& d) {
  // 1. A vmlinux with the kernel's build-id (perf's dso__load_vmlinux).
  for (auto& up : inputs_) {
    Input& in = *up;
    if (in.kind != InputKind::kElf || !in.elf_ok || in.elf_type != 2 || !in.symtab) continue;
    const bool named_vmlinux = BaseName(in.path).rfind("vmlinux", 0) == 0;
    // No kernel build-id recorded: perf uses the vmlinux it is given (--vmlinux)
    // without a check (symsrc__init checks only when the DSO has a build-id).
    const bool unchecked = d.build_id.empty() && named_vmlinux;
    if (!unchecked && (d.build_id.empty() || !SameBuildId(in.build_id, d.build_id))) {
      if (!d.build_id.empty() && BaseName(in.path).rfind("vmlinux", 0) == 0) {
        problems_.push_back({in.Label(), 0, true, in.path + " has build-id " + in.build_id + ", the recorded kernel " +
                                                      d.build_id + ": not used"});
        in.used = true;
      }
      continue;
    }
    if (!Materialize(in) || !HasSymtab(in.elf)) continue;
    if (unchecked)
      problems_.push_back({in.Label(), 0, false, in.path + ": the recording has no kernel build-id; used as the kernel "
                                                     "without a check that it is the same kernel (as perf --vmlinux does)"});
    ElfImage im{in.bytes.data(), in.bytes.size(), &in.elf};
    SymbolTable t;
    LoadElfSymbols(im, im, ElfRole::kKernel, t);
    // Relocate by the reference symbol (KASLR): map->reloc in perf, the
    // recorded address of "_text" minus its value in the vmlinux (looked up in
    // .symtab itself: an alias such as _stext may have won at its address).
    uint64_t unrel = 0;
    const bool have = !kernel_ref_name_.empty() && FindSymtabValue(im, kernel_ref_name_, &unrel);
    uint64_t delta = have && kernel_ref_addr_ ? kernel_ref_addr_ - unrel : 0;
    for (auto& s : t.mutable_all()) { s.start += delta; s.end += delta; }
    d.syms = std::move(t);
    d.syms.Finish(false);
    in.used = true;
    d.source = in.path;
    return;
  }
  // 2. kallsyms: the build-id cache's [kernel.kallsyms]/<id>/kallsyms, else a
  //    kallsyms file that names no build-id (cannot be checked: reported).
  Input* pick = nullptr;
  for (auto& up : inputs_) {
    Input& in = *up;
    if (in.kind != InputKind::kKallsyms) continue;
    if (!in.build_id.empty() && !d.build_id.empty()) {
      if (SameBuildId(in.build_id, d.build_id)) { pick = &in; break; }
      problems_.push_back({in.Label(), 0, true, in.path + " is the kallsyms of kernel " + in.build_id +
                                                    ", not of the recorded kernel " + d.build_id + ": not used"});
      in.used = true;
      continue;
    }
    if (!pick) pick = &in;
  }
  if (!pick) return;
  if (pick->build_id.empty() && !d.build_id.empty())
    problems_.push_back({pick->Label(), 0, false, pick->path + " names no build-id: used for the kernel " + d.build_id +
                                                      " without a check that it is the same kernel"});
  pick->used = true;
  d.source = pick->path;
  Kallsyms k = ParseKallsyms(std::string_view(reinterpret_cast<const char*>(pick->bytes.data()), pick->bytes.size()));
  // kallsyms__delta: the reference symbol's address there minus the recorded one.
  uint64_t delta = 0, ref = 0;
  if (kernel_ref_addr_ && !kernel_ref_name_.empty() && k.Lookup(kernel_ref_name_, &ref)) delta = ref - kernel_ref_addr_;
  SymbolTable all;
  for (const auto& s : k.symbols) {
    char t = static_cast<char>(s.type & ~0x20);
    uint8_t bind = (s.type == 'W' || s.type == 'w') ? kStbWeak : (s.type >= 'a' ? kStbLocal : kStbGlobal);
    uint8_t type = (t == 'T' || t == 'W') ? kSttFunc : kSttObject;
    all.Add(s.addr, 0, bind, type, s.module.empty() ? s.name : s.name + "\t" + s.module);
  }
  all.Finish(true);
  // maps__split_kallsyms: module symbols go to their module's map (relative
  // to its start) or are dropped; kernel ones are relocated by delta.
  std::vector<Symbol> kernel;
  for (auto& s : all.mutable_all()) {
    size_t tab = s.name.find('\t');
    if (tab != std::string::npos) {
      std::string mod = s.name.substr(tab + 1);
      s.name.resize(tab);
      for (auto& [dso, start] : module_maps_) {
        DsoEntry& m = *dsos_[static_cast<size_t>(dso)];
        if (m.name != mod) continue;
        Symbol ms = s;
        ms.start -= start;
        ms.end -= start;
        m.syms.mutable_all().push_back(std::move(ms));
        m.source = pick->path;
        break;
      }
      continue;
    }
    if (s.name == "__entry_SYSCALL_64_trampoline" || s.name == "__entry_text_start_trampoline") continue;
    s.start -= delta;
    s.end -= delta;
    kernel.push_back(std::move(s));
  }
  d.syms.mutable_all() = std::move(kernel);
  d.syms.Finish(false);
  for (auto& [dso, start] : module_maps_) {
    DsoEntry& m = *dsos_[static_cast<size_t>(dso)];
    if (!m.syms.empty()) { m.syms.Finish(false); m.loaded = true; }
  }
}

void SymbolStore::Finish() {
  if (finished_) return;
  finished_ = true;
  for (auto& d : dsos_)
    if (!d->loaded) Load(*d);
  // An input the person did not give is never reported.
  std::vector<std::string> quiet;
  for (auto& in : inputs_)
    if (in->quiet) quiet.push_back(in->Label());
  problems_.erase(std::remove_if(problems_.begin(), problems_.end(),
                                 [&](const StoreProblem& p) {
                                   return std::find(quiet.begin(), quiet.end(), p.input) != quiet.end();
                                 }),
                  problems_.end());
  // One report per side file given (a tarball or folder counts as one).
  std::vector<std::string> labels;
  for (auto& in : inputs_)
    if (!in->quiet && std::find(labels.begin(), labels.end(), in->Label()) == labels.end()) labels.push_back(in->Label());
  for (const auto& l : labels) {
    bool any = false, named = false;
    for (auto& in : inputs_) {
      if (in->Label() != l) continue;
      any = any || in->used;
      named = named || in->kind == InputKind::kElf || in->kind == InputKind::kKallsyms || in->kind == InputKind::kPerfMap;
    }
    // Build-id links of a used cache entry count as used with it.
    if (!any)
      problems_.push_back({l, 0, true, named ? l + " matches no DSO of this recording by build-id or file name; not used"
                                              : l + " holds no ELF file or kallsyms; not used", true});
  }
}

}  // namespace profscope::symbols
