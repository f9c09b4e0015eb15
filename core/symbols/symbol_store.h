// Where frame names come from: the side files a person gives (an ELF binary,
// a separate debug file, a perf archive tarball, a build-id cache folder or
// any folder of binaries, a /proc/kallsyms copy, a vmlinux, kernel modules)
// matched to the DSOs of a recording the way perf finds them (util/dso.c,
// util/symbol.c dso__load, dso__load_kernel_sym), and the DSOs' symbols
// loaded by perf's rules (elf_symbols.h, kallsyms.h, symbol_table.h).
//
// Input: (relative path, bytes) entries (a perf-PID.map text too): a side file given alone is one
// entry named by its file name; a folder gives its files with their paths
// relative to it; a tarball (any compression, by content) gives its members.
// Build-id cache layouts are understood from the paths too:
// `.build-id/xx/yyyy[.debug]`, `<path>/<buildid>/{elf,debug,kallsyms,vdso}`,
// `usr/lib/debug/.build-id/xx/yyyy.debug`.
//
// Matching: a DSO with a build-id takes only files with that build-id (ELF
// note, or the build-id the cache path names for kallsyms); a file whose
// path or name matches a DSO but whose build-id differs is reported and never
// used; a DSO without a build-id takes files by path, then by file name.
// Every input that ends up matching no DSO is reported.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/archive/tar_reader.h"
#include "core/io/byte_source.h"
#include "core/symbols/symbol_table.h"

namespace profscope::symbols {

enum class DsoKind : uint8_t { kUser, kKernel, kModule, kVdso, kAnon, kPerfMap };

// What perf calls the DSO of a mapping path (machine.c, map.c): "[kernel.kallsyms]..."
// is the kernel, "[name]" or "/...ko[.xz|.gz|.zst]" with pid -1 a module, "[vdso]" the vdso,
// "//anon", "[heap]", "[stack]", "/dev/zero"... anonymous (never symbolized);
// "/tmp/perf-PID.map" (perf's DSO of a process's anonymous executable memory:
// a JIT's code) is named from a perf map file of that name (perf_map.h), at
// absolute addresses.
DsoKind KindOfPath(const std::string& path, bool kernel_space);

// perf's kmod_path__parse_name: "/lib/modules/6.1/kernel/fs/ext4/ext4.ko.xz" -> "[ext4]"
// ('-' becomes '_'); "[ext4]" stays.
std::string ModuleName(const std::string& path);

struct StoreProblem {
  std::string input;    // the side file (or tarball member) concerned
  uint64_t offset = 0;  // where, for damage
  bool warning = true;
  std::string message;
  bool unused = false;  // the input matched nothing at all (Finish)
  bool ended = false;   // the input gave fewer bytes than its size (cut or changed since it was opened)
};

class SymbolStore {
 public:
  SymbolStore();
  ~SymbolStore();

  // One input entry: `path` relative to what the person gave, `origin` the
  // side file it came from (the tarball or folder; empty = itself). The
  // bytes are read now (ELF and kallsyms files kept, tarballs expanded,
  // anything else reported as unused).
  void AddFile(const std::string& path, ByteSource& src, const std::string& origin = {});
  // The same, but an ELF file's headers only are read now (its build-id,
  // sections); its bytes are read when it matches a DSO, so a folder of many
  // binaries costs little. A compressed kernel module (NAME.ko.xz, .ko.gz,
  // .ko.zst, as perf reads them) is matched by its name ([NAME]) and
  // decompressed when it matches. Files that are neither ELF, kallsyms nor a tarball
  // are not read (reported with their folder when nothing of it is used).
  // `src` must stay valid as long as the store.
  // `quiet`: an input the person did not give (the host's running vdso): it
  // is used where it matches and never reported.
  void AddFileLazily(const std::string& path, ByteSource& src, const std::string& origin = {}, bool quiet = false);
  // A symbolic link of a folder (the CLI's directory walk): `path` -> `target`.
  void AddLink(const std::string& path, const std::string& target, const std::string& origin = {});
  // Tar limits for tarballs added later.
  archive::TarOptions& tar_options() { return tar_; }
  // The decode's memory budget (bytes): a file whose bytes would take the
  // files read so far past it is not read (said as a problem), and a tarball
  // is not expanded past it. 0 = no limit.
  void set_memory_limit(uint64_t bytes);

  // A DSO of the recording: its path as recorded (MMAP/MMAP2 filename or the
  // build-id table's), its build-id (lower-case hex, perf pads it to 20 bytes
  // with zeros: compared without the padding), and whether its mapping is in
  // the kernel's address space (pid -1). Same (path, build-id) = same DSO.
  int32_t Dso(const std::string& path, const std::string& build_id, bool kernel_space);

  // The kernel map of the recording (perf.data's "[kernel.kallsyms]_text"
  // MMAP): its start, end and pgoff (= the address of the reference symbol,
  // "_text" or "_stext", named after the "]"). perf relocates kallsyms from
  // another boot by the difference of that symbol's addresses (kallsyms__delta).
  void SetKernelMap(const std::string& mmap_name, uint64_t start, uint64_t end, uint64_t pgoff);
  // The kernel map after perf's map__fixup_start/end once kallsyms loaded:
  // [first symbol, last symbol's end). False when no kernel symbols.
  bool KernelMapRange(uint64_t* start, uint64_t* end);
  // A module map (pid -1 MMAP of a module), so its kallsyms symbols can be
  // split into it (maps__split_kallsyms): its DSO and start.
  void SetModuleMap(int32_t dso, uint64_t start);

  // The symbol of `addr` in `dso`: user/vdso: the map-relative address
  // (ip - map start + pgoff, a file offset); kernel: the absolute address;
  // module: ip - module map start. Loads the DSO's symbols on first use.
  const Symbol* Find(int32_t dso, uint64_t addr);
  // What perf prints for the DSO (map__fprintf_dsoname: dso->name): the
  // recorded path for user DSOs, "[kernel.kallsyms]", "[ext4]", "[vdso]".
  const std::string& DsoName(int32_t dso) const;
  DsoKind Kind(int32_t dso) const;
  // True once the DSO's symbols were looked for and some were found.
  bool HasSymbols(int32_t dso);
  // The input the DSO's symbols come from ("" when none).
  std::string SourceOf(int32_t dso);
  // The bytes of that input for a user DSO (perf's dso->symsrc_filename, the
  // file it runs addr2line on for inlined frames), else nullptr.
  const std::vector<uint8_t>* SymbolFileBytes(int32_t dso);
  // The bytes of the file perf would unwind a user or vdso DSO with
  // (dso__data_get_fd: the binary itself -- a build-id cache entry's `elf` or
  // `vdso`, a tarball member, a file of a folder --, never a separate debug
  // file), chosen by the same matching as its symbols; nullptr when none was
  // given. Symbols are not loaded for this, so the unwinder can ask while
  // decoding.
  const std::vector<uint8_t>* RuntimeBytes(int32_t dso);
  // True when a file of the DSO was given (its symbols, or its binary for
  // unwinding): perf then prints "[unknown]" for an address it has no symbol for.
  bool HasFile(int32_t dso);
  // True when some input is an ELF file (a binary the unwinder may use).
  bool HasElfInputs() const;

  // Problems found so far; call Finish() first to also get the inputs that
  // matched no DSO (after every DSO was looked up).
  void Finish();
  const std::vector<StoreProblem>& problems() const { return problems_; }

  struct Input;
  struct DsoEntry;

 private:
  void AddFileLazilyImpl(const std::string& path, ByteSource& src, const std::string& origin);
  void AddBytes(const std::string& path, std::vector<uint8_t> bytes, const std::string& origin);
  void AddTar(const std::string& path, ByteSource& src, const std::string& origin);
  bool Materialize(Input& in);  // reads a lazily added ELF's bytes; false when it is damaged
  bool Decompress(Input& in, ByteSource& src);  // a compressed module's bytes
  bool Usable(Input& in, const DsoEntry& d);    // read, and not of another build-id
  void Load(DsoEntry& d);
  void LoadKernel(DsoEntry& d);
  void LoadPerfMap(DsoEntry& d);
  void LoadUser(DsoEntry& d);
  std::vector<Input*> Candidates(DsoEntry& d);
  const std::vector<Input*>& CandidatesOf(DsoEntry& d);  // Candidates, once per (DSO, build-id)
  std::vector<std::unique_ptr<Input>> inputs_;
  std::vector<std::unique_ptr<DsoEntry>> dsos_;
  std::vector<StoreProblem> problems_;
  archive::TarOptions tar_;
  uint64_t memory_limit_ = 0;  // 0: none
  uint64_t read_bytes_ = 0;    // bytes of inputs held (materialized files, tar members)
  std::string kernel_ref_name_;
  uint64_t kernel_ref_addr_ = 0, kernel_start_ = 0, kernel_end_ = 0;
  bool kernel_map_set_ = false;
  int32_t kernel_dso_ = -1;
  std::vector<std::pair<int32_t, uint64_t>> module_maps_;
  bool finished_ = false;
};

}  // namespace profscope::symbols
