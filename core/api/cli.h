// The profscope command line, once for both shells: its grammar, usage
// text and dispatch. cli/main.cc (native) and wasm/cli.mjs (through
// wasm/cli_bindings.cc) only give it their files and print what it writes,
// so the two agree by construction.
//
// Adding a command: a row in kCommands (cli.cc) and its case in Run. Adding
// an option: a row in kOptions, with the commands it applies to. Options
// with a value take it as the next argument or after '=' (--event=NAME).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/api/output_sink.h"
#include "core/io/byte_source.h"
#include "core/symbols/debug_file_search.h"

namespace profscope::cli {

// What a shell gives the command line: read access to its files.
// Open(path, error) and IsDirectory(path) come from symbols::FileAccess (the
// separate debug files of --symbols ELF files are looked for through them).
class Host : public symbols::FileAccess {
 public:
  // The names of a directory's entries.
  virtual std::vector<std::string> List(const std::string& dir) = 0;
  // Writes `bytes` to the file `path` (export -o); false with `error` set to
  // why not (empty when the reason is not known).
  virtual bool WriteFile(const std::string& path, std::string_view bytes, std::string* error) = 0;
};

enum class Command { kInfo, kRecords, kStacks, kEvents, kExport, kDiff, kScript };

// A parsed command line.
struct Request {
  Command command = Command::kInfo;
  std::vector<std::string> inputs;  // FILE arguments as given
  std::vector<std::string> side;    // --symbols / --binary / --jitdump / --instr-map paths
  std::vector<std::pair<std::string, std::string>> options;  // --option KEY=VALUE
  bool addresses = false;           // stacks --addresses
  std::string event;                // stacks / export / diff --event NAME
  std::string format, weight;       // export --format, --weight; stacks --weight count|time
  std::string output;               // export -o OUT ("" or "-": standard output)
  bool normalize = false;           // diff --normalize
  uint64_t max_memory_mib = 0;      // --max-memory MB (0: MemoryBudget::kDefaultMiB)
};

// The arguments after the program name; nullopt for a usage error.
std::optional<Request> Parse(const std::vector<std::string>& args);
std::string Usage();

// The files of one recording: a perf record --threads directory becomes
// DIR/data then its data.N files in numeric order (N decimal digits only);
// otherwise the inputs as given. Each with the name the session calls it:
// the main file as given, the others by their base name.
struct Input {
  std::string path, name;
};
std::vector<Input> ExpandInputs(const std::vector<std::string>& inputs, Host& host);

// A --symbols DIR walked (core/api/side_folder.h): its ELF, kallsyms and
// tarball files, a folder's files before its sub-folders, each level in name
// order, within SideFolderLimits; `capped`
// when a limit stopped the walk. `folder` is DIR without trailing '/'.
struct SideFolder {
  struct File {
    std::string path;  // "DIR/relative/path"
    std::unique_ptr<ByteSource> source;
  };
  std::string folder;
  std::vector<File> files;
  bool capped = false;
};
SideFolder WalkSideFolder(const std::string& dir, Host& host);

// Runs a command line: its output to `out`, messages to `err` (both flushed).
// Returns the exit status: 0 decoded, 1 nothing decodable or a file that
// cannot be opened (`info` still prints its JSON), 2 usage error.
int Run(const std::vector<std::string>& args, Host& host, OutputSink& out, OutputSink& err);

}  // namespace profscope::cli
