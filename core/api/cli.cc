#include "core/api/cli.h"

#include <algorithm>
#include <new>
#include <string_view>

#include "core/api/compare.h"
#include "core/api/export/exporter.h"
#include "core/api/session.h"
#include "core/api/side_folder.h"

namespace profscope::cli {

namespace {

struct CommandSpec {
  const char* name;
  Command command;
  const char* synopsis;  // after "profscope "
};

constexpr CommandSpec kCommands[] = {
    {"info", Command::kInfo, "info FILE"},
    {"records", Command::kRecords, "records FILE"},
    {"stacks", Command::kStacks, "stacks FILE [--addresses] [--event NAME] [--weight count|time]"},
    {"events", Command::kEvents, "events FILE"},
    {"export", Command::kExport,
     "export FILE --format folded|speedscope|gecko|pprof|chrome [-o OUT]\n"
     "                        [--weight samples|period|time] [--event NAME]"},
    {"diff", Command::kDiff, "diff A B [--normalize] [--event NAME]"},
    {"script", Command::kScript, "script FILE [--symbols PATH ...]"},
};

constexpr unsigned Bit(Command c) { return 1u << static_cast<unsigned>(c); }
constexpr unsigned kAllCommands = ~0u;

// Applies an option to the request; false when its value is malformed (a usage error).
using Apply = bool (*)(Request& r, const std::string& value);

struct OptionSpec {
  const char* name;  // "--event", "-o"
  bool takes_value;
  unsigned commands;  // Bit(...) of the commands it applies to
  Apply apply;
};

bool AddSide(Request& r, const std::string& v) {
  r.side.push_back(v);
  return true;
}

bool AddDecoderOption(Request& r, const std::string& kv) {
  size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  r.options.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  return true;
}

// --max-memory MB: a whole number of MiB, 1 .. 1 TiB.
bool SetMaxMemory(Request& r, const std::string& v) {
  if (v.empty() || v.size() > 7 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  r.max_memory_mib = std::stoull(v);
  return r.max_memory_mib > 0 && r.max_memory_mib <= (1u << 20);
}

constexpr OptionSpec kOptions[] = {
    {"--addresses", false, Bit(Command::kStacks), [](Request& r, const std::string&) { return r.addresses = true; }},
    {"--event", true, Bit(Command::kStacks) | Bit(Command::kExport) | Bit(Command::kDiff),
     [](Request& r, const std::string& v) { r.event = v; return true; }},
    {"--format", true, Bit(Command::kExport), [](Request& r, const std::string& v) { r.format = v; return true; }},
    {"--weight", true, Bit(Command::kExport) | Bit(Command::kStacks), [](Request& r, const std::string& v) { r.weight = v; return true; }},
    {"-o", true, Bit(Command::kExport), [](Request& r, const std::string& v) { r.output = v; return true; }},
    {"--normalize", false, Bit(Command::kDiff), [](Request& r, const std::string&) { return r.normalize = true; }},
    // Side files are told apart by their content; the names say what one is for.
    {"--symbols", true, kAllCommands, AddSide},
    {"--binary", true, kAllCommands, AddSide},  // the old name of --symbols
    {"--jitdump", true, kAllCommands, AddSide},
    {"--instr-map", true, kAllCommands, AddSide},
    {"--option", true, kAllCommands, AddDecoderOption},
    {"--max-memory", true, kAllCommands, SetMaxMemory},
};

const OptionSpec* FindOption(std::string_view name, Command command) {
  for (const OptionSpec& o : kOptions)
    if (name == o.name && (o.commands & Bit(command))) return &o;
  return nullptr;
}

// "data.N" with N decimal digits.
bool IsDataPart(const std::string& n) {
  if (n.size() <= 5 || n.compare(0, 5, "data.") != 0) return false;
  return std::all_of(n.begin() + 5, n.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// data.N before data.M when N < M (any length of digits), then by name.
bool PartBefore(const std::string& a, const std::string& b) {
  auto digits = [](const std::string& n) {
    size_t k = 5;
    while (k + 1 < n.size() && n[k] == '0') ++k;
    return std::string_view(n).substr(k);
  };
  std::string_view da = digits(a), db = digits(b);
  if (da.size() != db.size()) return da.size() < db.size();
  if (da != db) return da < db;
  return a < b;
}

}  // namespace

std::optional<Request> Parse(const std::vector<std::string>& args) {
  if (args.size() < 2) return std::nullopt;
  const CommandSpec* cmd = nullptr;
  for (const CommandSpec& c : kCommands)
    if (args[0] == c.name) cmd = &c;
  if (!cmd) return std::nullopt;
  Request r;
  r.command = cmd->command;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!a.empty() && a[0] == '-' && a != "-") {
      // --name VALUE, --name=VALUE, -x VALUE
      const size_t eq = a.rfind("--", 0) == 0 ? a.find('=') : std::string::npos;
      const OptionSpec* o = FindOption(std::string_view(a).substr(0, eq), r.command);
      if (!o) return std::nullopt;
      std::string value;
      if (o->takes_value) {
        if (eq != std::string::npos) value = a.substr(eq + 1);
        else if (i + 1 < args.size()) value = args[++i];
        else return std::nullopt;
      } else if (eq != std::string::npos) {
        return std::nullopt;
      }
      if (!o->apply(r, value)) return std::nullopt;
    } else {
      r.inputs.push_back(a);
    }
  }
  if (r.inputs.empty()) return std::nullopt;
  if (r.command == Command::kExport && r.format.empty()) return std::nullopt;
  if (r.command == Command::kDiff && r.inputs.size() != 2) return std::nullopt;
  // stacks --weight: count (samples) or time (period): what each folded line's value sums
  if (r.command == Command::kStacks && !r.weight.empty() && r.weight != "count" && r.weight != "samples" &&
      r.weight != "time" && r.weight != "period")
    return std::nullopt;
  return r;
}

std::string Usage() {
  std::string u;
  for (const CommandSpec& c : kCommands) u += std::string(u.empty() ? "usage: " : "       ") + "profscope " + c.synopsis + "\n";
  u +=
      "side files (any command, repeatable; for diff they are offered to both profiles):\n"
      "  --symbols PATH (or --binary PATH): an ELF binary or debug file, a perf archive\n"
      "  tarball (perf.data.tar.bz2, .gz, .xz, .zst), a /proc/kallsyms copy, a vmlinux,\n"
      "  a kernel module, or a folder of them (a build-id cache such as ~/.debug,\n"
      "  /usr/lib/debug, any folder of binaries; matched by build-id, else file name);\n"
      "  --jitdump jit-PID.dump, --instr-map BINARY_OR_YAML\n"
      "decoder options (any command, repeatable): --option KEY=VALUE; gperftools:\n"
      "  pc_minus_one, drop_duplicate_leaf, strip_signal_frames (=1 turns on pprof's\n"
      "  adjustment); perf.data: queue_size=BYTES (K/M/G; perf's report.queue-size:\n"
      "  records waiting for time order before the older half is read; default 64M);\n"
      "  a key the decoder does not know gives a diagnostic (see info)\n"
      "memory budget (any command): --max-memory MB (default 768): a decode that reaches\n"
      "  it stops there with a memory_budget diagnostic and shows what it decoded\n"
      "an option's value may also follow '=' (--event=NAME, --symbols=ELF)\n"
      "FILE may be a perf record --threads directory (its data and data.N files),\n"
      "or several files of one recording given in order (data data.0 data.1 ...).\n"
      "script prints perf script's default output (perf.data recordings only).\n"
      "export writes OUT (default: standard output); diff prints \"STACK COUNT_A COUNT_B\"\n"
      "per folded stack (difffolded.pl's form), --normalize scales A to B's total.\n";
  return u;
}

std::vector<Input> ExpandInputs(const std::vector<std::string>& inputs, Host& host) {
  std::vector<Input> out;
  if (inputs.size() == 1 && host.IsDirectory(inputs[0])) {
    std::string dir = inputs[0];
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    out.push_back({dir + "/data", dir + "/data"});
    std::vector<std::string> parts;
    for (const std::string& n : host.List(dir))
      if (IsDataPart(n)) parts.push_back(n);
    std::sort(parts.begin(), parts.end(), PartBefore);
    for (const std::string& n : parts) out.push_back({dir + "/" + n, n});
    return out;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& p = inputs[i];
    out.push_back({p, i == 0 ? p : p.substr(p.find_last_of('/') == std::string::npos ? 0 : p.find_last_of('/') + 1)});
  }
  return out;
}

SideFolder WalkSideFolder(const std::string& given, Host& host) {
  SideFolder out;
  std::string root = given;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  size_t entries = 0;
  // Depth first, names sorted: the same order on every host.
  struct Dir { std::string path; int depth; };
  std::vector<Dir> todo{{root, 0}};
  while (!todo.empty() && !out.capped) {
    Dir d = todo.back();
    todo.pop_back();
    std::vector<std::string> names = host.List(d.path);
    std::sort(names.begin(), names.end());
    std::vector<Dir> sub;
    for (const std::string& n : names) {
      if (n == "." || n == "..") continue;
      if (++entries > SideFolderLimits::kMaxEntries) { out.capped = true; break; }
      const std::string path = d.path + "/" + n;
      if (host.IsDirectory(path)) {
        if (d.depth + 1 > SideFolderLimits::kMaxDepth) { out.capped = true; continue; }
        sub.push_back({path, d.depth + 1});
        continue;
      }
      std::string error;
      std::unique_ptr<ByteSource> s = host.Open(path, &error);
      if (!s) continue;
      uint8_t head[4096];
      const uint64_t size = s->size();
      const size_t n_head = size ? s->Read(0, head, size < sizeof head ? static_cast<size_t>(size) : sizeof head) : 0;
      if (!WorthOfferingFromFolder(head, n_head)) continue;
      if (out.files.size() >= SideFolderLimits::kMaxFiles) { out.capped = true; break; }
      out.files.push_back({path, std::move(s)});
    }
    // Visited in name order: the last pushed is taken first.
    for (auto it = sub.rbegin(); it != sub.rend(); ++it) todo.push_back(*it);
  }
  out.folder = root;
  return out;
}

namespace {

// One recording opened and decoded (its sources stay open: a session reads lazily).
struct Opened {
  std::vector<std::unique_ptr<ByteSource>> sources, side;
  std::vector<SideFolder> folders;
  std::unique_ptr<Session> session;
  bool ok = false;
};

void Message(OutputSink& err, const std::string& text) {
  err.Write("profscope: " + text + "\n");
  err.Flush();
}

// Opens the inputs (a --threads directory expanded) and the side files, then
// decodes; false (after a message) when a file cannot be opened.
bool Open(const std::vector<std::string>& given, const Request& req, Host& host, OutputSink& err, Opened& o) {
  std::vector<Input> inputs = ExpandInputs(given, host);
  auto open = [&](const std::string& path, std::vector<std::unique_ptr<ByteSource>>& into) {
    std::string error;
    std::unique_ptr<ByteSource> s = host.Open(path, &error);
    if (!s) {
      Message(err, "cannot open " + path + ": " + error);
      return false;
    }
    into.push_back(std::move(s));
    return true;
  };
  for (const Input& in : inputs)
    if (!open(in.path, o.sources)) return false;
  std::vector<std::string> side_files;
  for (const std::string& p : req.side) {
    if (host.IsDirectory(p)) {
      o.folders.push_back(WalkSideFolder(p, host));
      continue;
    }
    if (!open(p, o.side)) return false;
    side_files.push_back(p);
  }
  o.session = std::make_unique<Session>(*o.sources[0], inputs[0].name);
  for (size_t i = 1; i < o.sources.size(); ++i) o.session->AddDataFile(*o.sources[i], inputs[i].name);
  for (size_t i = 0; i < o.side.size(); ++i) o.session->AddSideFile(*o.side[i], side_files[i]);
  for (SideFolder& f : o.folders) {
    for (SideFolder::File& file : f.files) o.session->AddSideFolderFile(*file.source, file.path, f.folder);
    o.session->NoteSideFolder(f.folder, f.capped, f.files.size());
  }
  o.session->SetFileAccess(&host);
  for (const auto& [k, v] : req.options) o.session->SetOption(k, v);
  if (req.max_memory_mib) o.session->SetMaxMemoryMiB(req.max_memory_mib);
  o.ok = o.session->Decode();
  return true;
}

void PrintFatal(const Session& s, OutputSink& err) {
  for (const auto& d : s.result().diags.items())
    if (d.severity == Severity::kFatal) err.Write("profscope: " + d.message + "\n");
  err.Flush();
}

int Diff(const Request& req, Host& host, OutputSink& out, OutputSink& err) {
  Opened a, b;
  if (!Open({req.inputs[0]}, req, host, err, a) || !Open({req.inputs[1]}, req, host, err, b)) return 1;
  if (!a.ok || !b.ok) {
    PrintFatal(*(a.ok ? b : a).session, err);
    return 1;
  }
  DiffText d = DiffCommand(a.session->result(), b.session->result(), req.event, req.normalize);
  if (!d.error.empty()) {
    Message(err, d.error);
    return 1;
  }
  out.Write(d.text);
  out.Flush();
  return 0;
}

int Export(const Request& req, const Session& session, Host& host, OutputSink& out, OutputSink& err) {
  exporter::Output r = exporter::ExportByName(session.result(), req.format, req.weight, req.event);
  if (!r.error.empty()) {
    Message(err, "export: " + r.error);
    return 1;
  }
  if (req.output.empty() || req.output == "-") {
    out.Write(r.bytes);
    out.Flush();
    return 0;
  }
  std::string error;
  if (host.WriteFile(req.output, r.bytes, &error)) return 0;
  Message(err, "cannot write " + req.output + (error.empty() ? "" : ": " + error));
  return 1;
}

}  // namespace

namespace {
int RunCommand(const std::vector<std::string>& args, Host& host, OutputSink& out, OutputSink& err);
}  // namespace

int Run(const std::vector<std::string>& args, Host& host, OutputSink& out, OutputSink& err) {
  // A failed allocation after the decode (writing stacks, an export) ends the
  // command with a message, never an abort (the WASM module stays usable).
  try {
    return RunCommand(args, host, out, err);
  } catch (const std::bad_alloc&) {
    out.Flush();
    Message(err, "out of memory while writing the output; what was written is complete up to its last line");
    return 1;
  }
}

namespace {
int RunCommand(const std::vector<std::string>& args, Host& host, OutputSink& out, OutputSink& err) {
  std::optional<Request> req = Parse(args);
  if (!req) {
    err.Write(Usage());
    err.Flush();
    return 2;
  }
  if (req->command == Command::kDiff) return Diff(*req, host, out, err);
  Opened o;
  if (!Open(req->inputs, *req, host, err, o)) return 1;
  const Session& session = *o.session;
  const bool ok = o.ok;
  if (ok && req->command == Command::kExport) return Export(*req, session, host, out, err);
  switch (req->command) {
    case Command::kInfo: out.Write(session.InfoJson()); break;
    case Command::kRecords: if (ok) session.WriteRecords(out); break;
    case Command::kStacks:
      if (ok) session.WriteStacks(req->addresses, req->event, out, req->weight == "time" || req->weight == "period");
      break;
    case Command::kEvents: if (ok) session.WriteEvents(out); break;
    case Command::kScript:
      if (ok && !o.session->WriteScript(out)) {
        Message(err, "script: " + session.result().format + " has no perf script output (perf.data recordings only)");
        return 1;
      }
      break;
    case Command::kExport:
    case Command::kDiff: break;
  }
  out.Flush();
  if (ok) return 0;
  if (req->command != Command::kInfo) PrintFatal(session, err);
  return 1;
}
}  // namespace

}  // namespace profscope::cli
