// Where perf looks for a binary's separate debug file, done the same way for
// every ELF given as a side file by a shell that can read the host's files
// (the native CLI, the WASM CLI under node; not the page).
// Source of truth: perf 6.1 util/symbol.c dso__load (binary_type_symtab: the
// order below) and util/dso.c dso__read_binary_type_filename (each path),
// filename__read_debuglink (.gnu_debuglink = name, padding, CRC32).
//
// Order (perf's, without its build-id cache ~/.debug, which needs $HOME):
//   DEBUGLINK      the .gnu_debuglink name as is, DIR/NAME, DIR/.debug/NAME,
//                  /usr/lib/debug/DIR/NAME
//   FEDORA         /usr/lib/debug/PATH.debug
//   UBUNTU         /usr/lib/debug/PATH
//   BUILDID        /usr/lib/debug/.build-id/xx/rest.debug
//   OPENEMBEDDED   DIR/.debug/BASE
//   MIXEDUP_UBUNTU /usr/lib/debug/lib/... for PATH /usr/lib/...
// A candidate is used only when it is an ELF file with a .symtab whose
// .gnu_debuglink CRC (DEBUGLINK candidates) or build-id (the others) agrees
// with the binary; perf 6.1 checks neither, profscope reports a mismatch and
// goes on to the next candidate.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/io/byte_source.h"

namespace profscope::symbols {

// Read access to the host's files: what a shell provides (cli::Host).
class FileAccess {
 public:
  virtual ~FileAccess() = default;
  // `path` opened for reading, or nullptr with `error` set to why not.
  virtual std::unique_ptr<ByteSource> Open(const std::string& path, std::string* error) = 0;
  virtual bool IsDirectory(const std::string& path) = 0;
  // The running kernel's vdso image, where the host can read its own (perf
  // names and unwinds [vdso] frames with its own process's copy: util/vdso.c);
  // nullptr where it cannot (the browser).
  virtual std::unique_ptr<ByteSource> RunningVdso() { return nullptr; }
};

// What an ELF file says about its debug information.
struct DebugInfoRefs {
  bool elf = false;          // an ELF file with readable headers
  bool has_symtab = false;   // a non-empty .symtab
  std::string build_id;      // lower-case hex, "" when absent
  std::string debuglink;     // .gnu_debuglink's file name, "" when absent
  uint32_t debuglink_crc = 0;
};
DebugInfoRefs ReadDebugInfoRefs(ByteSource& src);

enum class DebugCheck : uint8_t { kCrc, kBuildId };

struct DebugCandidate {
  std::string path;
  const char* kind;  // perf's binary type: "debuglink", "fedora", "ubuntu", "build-id", "openembedded", "mixedup-ubuntu"
  DebugCheck check;
};
// The paths perf tries for the binary at `binary_path` (as the shell named it), in order.
std::vector<DebugCandidate> DebugFileCandidates(const std::string& binary_path, const DebugInfoRefs& refs);

// "/usr/lib/debug/.build-id/93/ac61....debug" ("" for a build-id too short).
std::string BuildIdDebugPath(const std::string& build_id);

// The CRC-32 of .gnu_debuglink (the zlib/IEEE polynomial) over every byte of `src`.
uint32_t DebuglinkCrc(ByteSource& src);

struct DebugFileFound {
  std::string path;                    // "" when none was found
  const char* kind = "";               // which of perf's candidates it was
  std::unique_ptr<ByteSource> source;  // open, for the caller to keep
  // Candidates that exist but do not belong to the binary (CRC or build-id
  // differs) or hold no symbols: one sentence each, never used.
  std::vector<std::string> rejected;
};
// Looks for the debug file of the binary in `binary` (named `binary_path`);
// nothing when it is not an ELF file or has neither a build-id nor a debuglink
// nor an absolute path.
DebugFileFound FindDebugFile(const std::string& binary_path, ByteSource& binary, FileAccess& files);

}  // namespace profscope::symbols
