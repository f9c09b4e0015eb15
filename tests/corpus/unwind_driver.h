// Test-only driver: unwinds every sample of a `perf record --call-graph
// dwarf` case with core/unwind, the way PerfDecoder will once it is wired in
// (used by tests/corpus/unwind_corpus_test.cc and bench/unwind_bench.cc).
//
// Per sample it needs: the record's bytes (ParseSample with the sample's attr:
// regs_user abi/mask/values, stack copy offset/size/dyn_size, callchain, pid,
// time) and the process's mappings at the sample's time (the profile's mapping
// table replayed in time order with perf's overlap rule). Per mapping: the
// binary (the case's own program, else this machine's file at the recorded
// path when its build-id matches), its load bias from start/pgoff and the
// PT_LOADs.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#ifdef PROFSCOPE_HAVE_ZSTD
#include <zstd.h>
#endif

#include "core/api/session.h"
#include "core/io/file_source.h"
#include "core/format/elf/elf_reader.h"
#include "core/format/perf/perf_attr.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_sample.h"
#include "core/unwind/unwinder.h"
#include "tests/corpus/corpus_util.h"

namespace profscope::unwind_driver {

namespace fs = std::filesystem;
namespace uw = profscope::unwind;

// A file read on demand (the unwinder reads a binary's headers and CFI only); empty when it cannot be opened.
inline std::unique_ptr<ByteSource> OpenOrEmpty(const fs::path& p) {
  std::string error;
  std::unique_ptr<ByteSource> src = OpenFileSource(p.string(), &error);
  return src ? std::move(src) : std::make_unique<OwnedSource>(std::vector<uint8_t>());
}

struct Options {
  bool use_binaries = true;
  uw::UnwindOptions unwind;
  // Repeat each user frame once per inline level that perf 6.1 adds for it
  // (machine.c append_inlines: one callchain node per record of
  // `addr2line -i` on the binary's debug file, all with the frame's address).
  bool expand_inlines = false;
  // The recording and its references: "" = perf.data/pipe.data, header.txt, folded_addrs*.txt;
  // a jitdump case after perf inject --jit: "perf.jit.data" with prefix "jit_".
  std::string input;
  std::string prefix;
  // Binaries that are not files (perf inject's jitted-PID-N.so): a module for a mapping path, or null.
  std::function<std::unique_ptr<uw::UnwindModule>(const std::string& path)> synthetic;
};

struct SampleOut {
  std::vector<uint32_t> inline_count;  // per user frame: how many times perf lists it (expand_inlines)
  int32_t row = -1;
  uint64_t time = 0;
  int32_t pid = -1;
  uint64_t ip = 0;
  std::vector<uint64_t> kernel;  // the callchain without context markers, callee first
  uw::UnwindResult result;
};

struct Mapping {
  int32_t row;
  int32_t pid;
  uint64_t start, end, pgoff, time;
  std::string path, build_id;
};

struct CaseResult {
  bool ok = false;
  std::string error;
  std::string inline_source;  // "file: N inlined frames" per debug file addr2line read
  std::string missing_system_binaries;  // "path (why); ..." for binaries perf used that this machine lacks
  std::string missing_vdso;  // why the recording kernel's [vdso] is not here ("" when it is, or none was mapped)
  std::vector<SampleOut> samples;
  std::map<std::string, std::vector<std::string>> references;  // folded_addrs*.txt -> lines
  uw::Unwinder::Stats stats;
  double unwind_seconds = 0;  // in Unwinder::Unwind (module loading on first use included)
  std::map<std::string, std::string> binaries_used;  // mapping path -> file

  // perf's stack per sample (kernel part then the user frames), folded root
  // first and counted, as perf_fold.py prints it.
  std::vector<std::string> FoldedFor(const std::string& reference) const {
    (void)reference;  // every dwarf case has one event: folded_addrs.txt holds all samples
    std::map<std::string, uint64_t> agg;
    for (const auto& s : samples) {
      std::vector<uint64_t> st = s.kernel;
      for (size_t i = 0; i < s.result.frames.size(); ++i)
        for (uint32_t k = i < s.inline_count.size() ? s.inline_count[i] : 1; k > 0; --k)
          st.push_back(s.result.frames[i].address);
      if (st.empty()) st.push_back(s.ip);
      std::string key;
      for (size_t i = st.size(); i-- > 0;) {
        char b[24];
        std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(st[i]));
        key += b;
        if (i) key += ';';
      }
      ++agg[key];
    }
    std::vector<std::string> out;
    for (const auto& [k, v] : agg) out.push_back(k + " " + std::to_string(v));
    return out;
  }
  std::string Summary() const {
    std::map<std::string, int> n;
    for (const auto& s : samples) ++n[uw::StopReasonName(s.result.stop)];
    std::string out = "stop reasons:";
    for (const auto& [k, v] : n) out += " " + k + "=" + std::to_string(v);
    return out + "\n";
  }
};

// This process's own vdso (what perf copies into a temporary file for a
// [vdso] mapping it has no build-id for: vdso.c get_file()).
inline const std::vector<uint8_t>& OwnVdso() {
  static const std::vector<uint8_t> v = [] {
    std::vector<uint8_t> out;
#ifdef __EMSCRIPTEN__
    return out;  // (under node, /proc/self/maps is node's, not this module's memory)
#endif
    std::ifstream maps("/proc/self/maps");
    for (std::string l; std::getline(maps, l);) {
      if (l.find("[vdso]") == std::string::npos) continue;
      unsigned long long a = 0, b = 0;
      if (std::sscanf(l.c_str(), "%llx-%llx", &a, &b) == 2 && b > a && b - a < (1u << 20))
        out.assign(reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(a)),
                   reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(b)));
    }
    return out;
  }();
  return v;
}

// The binary perf would have used for a mapping, or "" (with a reason).
// "[vdso]" stands for OwnVdso().
inline std::string FindBinary(const fs::path& dir, const Mapping& m, bool use_binaries, std::string* why) {
  if (!use_binaries) return "";  // perf --symfs EMPTY --buildid-dir EMPTY: not even the vdso copy is found
  if (m.path == "[vdso]") {
    // perf reads a [vdso] whose build-id the file records from its build-id
    // cache (absent here); one without a build-id (pipe mode: the build-ids
    // come last) from a copy of its own process's vdso.
    if (!m.build_id.empty()) {
      fs::path cached = fs::path(std::getenv("HOME") ? std::getenv("HOME") : "/root") / ".debug" / "[vdso]" / m.build_id / "vdso";
      if (fs::exists(cached)) return cached.string();
      // (or, the same kernel running, its own vdso: what perf caches when it records)
      if (!OwnVdso().empty() && profscope::elf::ReadElfBytes(OwnVdso().data(), OwnVdso().size()).build_id == m.build_id) return "[vdso]";
      *why = "the recording's [vdso] (build-id " + m.build_id + "): this machine runs another kernel and perf's cache lacks it";
      return "";
    }
    return OwnVdso().empty() ? "" : "[vdso]";
  }
  if (m.path.empty() || m.path[0] == '[' || m.path.rfind("//", 0) == 0 || m.path.rfind("/memfd:", 0) == 0) return "";
  fs::path own = dir / fs::path(m.path).filename();
  if (fs::exists(own)) return own.string();
  // A system binary of this machine (libc, ld.so, node): only when its build-id is the recorded one.
  if (!fs::exists(m.path)) {
    *why = m.path + " does not exist on this machine";
    return "";
  }
  elf::ElfLayout l = elf::ReadElfLayout(*OpenOrEmpty(m.path));
  if (!m.build_id.empty() && l.build_id != m.build_id) {
    *why = m.path + " has build-id " + l.build_id + ", the recording's is " + m.build_id;
    return "";
  }
  return m.path;
}

// Bytes of every record, nested ones (inside COMPRESSED) included, read from
// the source on demand through a read-ahead Window, as the decoder reads
// (valid until the next Get).
class RecordBytes {
 public:
  RecordBytes(ByteSource& src, const RecordTable& t) : src_(src), window_(src), t_(t) {
#ifdef PROFSCOPE_HAVE_ZSTD
    // One zstd stream across the containers, as perf writes it.
    ZSTD_DCtx* z = ZSTD_createDCtx();
    std::vector<uint8_t> rec;
    for (size_t i = 0; i < t.rows(); ++i) {
      if (t.kind[i] != static_cast<uint8_t>(RecordKind::kRecord)) continue;
      if (t.type[i] != perf::kCompressed && t.type[i] != perf::kCompressed2) continue;
      size_t at = t.type[i] == perf::kCompressed2 ? 16 : 8;
      if (t.size[i] < at || !Read(t.offset[i], t.size[i], &rec)) continue;
      starts_[static_cast<int32_t>(i)] = stream_.size();
      ZSTD_inBuffer in{rec.data() + at, rec.size() - at, 0};
      std::vector<uint8_t> buf(1 << 16);
      // Drain what zstd still holds once the input is consumed (a full output
      // buffer): those bytes belong to this container, as the decoder counts them.
      for (bool full = true; in.pos < in.size || full;) {
        ZSTD_outBuffer o{buf.data(), buf.size(), 0};
        size_t rc = ZSTD_decompressStream(z, &o, &in);
        stream_.insert(stream_.end(), buf.data(), buf.data() + o.pos);
        full = o.pos == o.size;
        if (ZSTD_isError(rc) || (o.pos == 0 && in.pos < in.size && rc == 0)) break;
      }
    }
    ZSTD_freeDCtx(z);
#endif
  }
  // The record at row `r`: data, size (nested: from the decompressed stream).
  bool Get(size_t r, const uint8_t** p, size_t* n) {
    uint64_t off = t_.offset[r], size = t_.size[r];
    if (t_.kind[r] == static_cast<uint8_t>(RecordKind::kNested)) {
      auto it = starts_.find(t_.parent[r]);
      if (it == starts_.end()) return false;
      off += it->second;
      if (off + size > stream_.size()) return false;
      *p = stream_.data() + off;
    } else {
      if (size > (64u << 20)) return false;
      *p = window_.Get(off, static_cast<size_t>(size));
      if (!*p) return false;
    }
    *n = static_cast<size_t>(size);
    return true;
  }

 private:
  bool Read(uint64_t off, uint64_t size, std::vector<uint8_t>* out) {
    if (!RangeFits(off, size, src_.size()) || size > (64u << 20)) return false;
    out->resize(static_cast<size_t>(size));
    return src_.Read(off, out->data(), out->size()) == out->size();
  }
  ByteSource& src_;
  Window window_;
  const RecordTable& t_;
  std::vector<uint8_t> stream_;
  std::map<int32_t, uint64_t> starts_;
};

// The process's mappings at one moment: start -> (end, mapping index), newer ones
// cutting older ones (perf's maps__fixup_overlappings).
class AddressSpace {
 public:
  void Add(uint64_t start, uint64_t end, size_t m) {
    auto it = maps_.lower_bound(start);
    if (it != maps_.begin() && std::prev(it)->second.first > start) it = std::prev(it);
    std::vector<std::pair<uint64_t, std::pair<uint64_t, size_t>>> keep;
    while (it != maps_.end() && it->first < end) {
      uint64_t os = it->first, oe = it->second.first;
      size_t om = it->second.second;
      if (oe <= start) { ++it; continue; }
      it = maps_.erase(it);
      if (os < start) keep.push_back({os, {start, om}});
      if (oe > end) keep.push_back({end, {oe, om}});
    }
    for (const auto& k : keep) maps_[k.first] = k.second;
    maps_[start] = {end, m};
  }
  bool Find(uint64_t a, size_t* m, uint64_t* start) const {
    auto it = maps_.upper_bound(a);
    if (it == maps_.begin()) return false;
    --it;
    if (a >= it->second.first) return false;
    *m = it->second.second;
    *start = it->first;
    return true;
  }

 private:
  std::map<uint64_t, std::pair<uint64_t, size_t>> maps_;
};

class Lookup : public uw::ModuleLookup {
 public:
  Lookup(const AddressSpace& as, const std::vector<Mapping>& maps, const std::vector<uw::UnwindModule*>& modules)
      : as_(as), maps_(maps), modules_(modules) {}
  bool Find(uint64_t address, uw::ModuleHit* out) override {
    size_t m;
    uint64_t start;
    if (!as_.Find(address, &m, &start)) return false;
    const Mapping& mp = maps_[m];
    out->mapping = mp.row;
    out->module = modules_[m];
    out->bias = 0;
    if (out->module && !out->module->Bias(mp.start, mp.pgoff, &out->bias)) out->module = nullptr;
    return true;
  }

 private:
  const AddressSpace& as_;
  const std::vector<Mapping>& maps_;
  const std::vector<uw::UnwindModule*>& modules_;
};

// The file perf reads symbols (and, through addr2line, inline frames) from:
// the separate debug file of the build-id under /usr/lib/debug (Debian's
// -dbg packages), else the binary itself.
inline std::string SymbolSource(const std::string& binary, const std::string& build_id) {
  if (build_id.size() > 2) {
    fs::path dbg = fs::path("/usr/lib/debug/.build-id") / build_id.substr(0, 2) / (build_id.substr(2) + ".debug");
    if (fs::exists(dbg)) return dbg.string();
  }
  return binary;
}

// How many frames perf 6.1 makes of each link-time address of `file`: the
// records binutils addr2line -i gives (perf runs that very tool when built
// without libbfd, as Debian's is), at least 1. Empty when addr2line fails.
inline std::map<uint64_t, uint32_t> InlineCounts(const std::string& file, const std::set<uint64_t>& addrs) {
  std::map<uint64_t, uint32_t> out;
  if (addrs.empty()) return out;
  std::string in = (fs::temp_directory_path() / ("profscope-a2l-" + std::to_string(::getpid()) + ".txt")).string();
  {
    std::ofstream f(in);
    for (uint64_t a : addrs) f << "0x" << std::hex << a << "\n";
  }
  std::string cmd = "addr2line -a -i -f -e '" + file + "' < '" + in + "' 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  pclose(p);
  fs::remove(in);
  std::vector<std::string> lines = corpus::Lines(text);
  uint64_t cur = 0;
  bool have = false;
  for (size_t i = 0; i < lines.size();) {
    if (lines[i].rfind("0x", 0) == 0) {
      cur = std::stoull(lines[i], nullptr, 16);
      have = true;
      out[cur] = 1;
      ++i;
      uint32_t records = 0;
      while (i + 1 < lines.size() && lines[i].rfind("0x", 0) != 0) {
        if (!(lines[i] == "??" && lines[i + 1] == "??:0")) ++records;
        i += 2;
      }
      out[cur] = std::max<uint32_t>(1, records);
    } else {
      ++i;
    }
  }
  (void)have;
  return out;
}

inline CaseResult UnwindCase(const fs::path& dir, const Options& opt) {
  CaseResult r;
  const fs::path input = opt.input.empty() ? corpus::PerfInput(dir) : dir / opt.input;
  std::string error;
  std::unique_ptr<ByteSource> src = OpenFileSource(input.string(), &error);  // read through, never whole
  if (!src) { r.error = "cannot open " + input.string() + ": " + error; return r; }
  Session s(*src, dir.filename().string());
  if (!s.Decode()) { r.error = "the case does not decode"; return r; }
  const DecodeResult& res = s.result();
  const ByteOrder order = res.byte_order == "big" ? ByteOrder::kBig : ByteOrder::kLittle;
  // The recording machine (header.txt's "arch : ...": perf's HEADER_ARCH).
  uw::Arch machine = uw::Arch::kX86_64;
  {
    std::string h = corpus::ReadText(dir / (opt.prefix + "header.txt"));
    size_t a = h.find("# arch : ");
    if (a != std::string::npos) {
      std::string name = h.substr(a + 9, h.find('\n', a) - a - 9);
      if (!uw::ArchFromName(name, &machine)) { r.error = "unknown arch " + name; return r; }
    }
  }
  // The attr (the dwarf cases have one event).
  RecordBytes rb(*src, res.records);
  perf::PerfEventAttr attr;
  bool have_attr = false;
  for (size_t i = 0; i < res.records.rows() && !have_attr; ++i) {
    const uint8_t* p;
    size_t n;
    if (!rb.Get(i, &p, &n)) continue;
    if (res.records.kind[i] == static_cast<uint8_t>(RecordKind::kAttr)) {
      have_attr = perf::ParseAttr(ByteReader(p, n, res.records.offset[i], order), &attr, nullptr);
    } else if (res.records.kind[i] == static_cast<uint8_t>(RecordKind::kRecord) &&
               res.records.type[i] == perf::kHeaderAttr && n > 8) {
      ByteReader pr(p + 8, n - 8, res.records.offset[i] + 8, order);
      uint32_t asize = pr.PeekU32(4);
      if (asize > n - 8) asize = static_cast<uint32_t>(n - 8);
      have_attr = perf::ParseAttr(pr.Slice(0, asize), &attr, nullptr);
    }
  }
  if (!have_attr) { r.error = "no attr"; return r; }
  // Mappings and their binaries.
  const MappingTable& mt = res.profile.mappings;
  std::vector<Mapping> maps;
  for (size_t i = 0; i < mt.size(); ++i) {
    Mapping m{static_cast<int32_t>(i), mt.pid[i], mt.start[i], mt.end[i], mt.pgoff[i], mt.time[i],
              res.profile.strings.Get(mt.path[i]),
              mt.build_id[i] == kNone ? std::string() : res.profile.strings.Get(mt.build_id[i])};
    maps.push_back(m);
  }
  std::map<std::string, std::unique_ptr<ByteSource>> files;
  std::map<std::string, std::unique_ptr<uw::UnwindModule>> by_file;
  std::vector<uw::UnwindModule*> modules(maps.size(), nullptr);
  std::set<std::string> missing;
  std::map<std::string, std::pair<std::string, std::string>> found;  // path|build-id -> (file, why not)
  {
    for (size_t i = 0; i < maps.size(); ++i) {
      if (maps[i].pid == -1) continue;
      std::string why;
      if (opt.use_binaries && opt.synthetic) {
        auto it = by_file.find("synthetic:" + maps[i].path);
        if (it == by_file.end()) {
          std::unique_ptr<uw::UnwindModule> sm = opt.synthetic(maps[i].path);
          if (sm) it = by_file.emplace("synthetic:" + maps[i].path, std::move(sm)).first;
        }
        if (it != by_file.end()) {
          modules[i] = it->second.get();
          continue;
        }
      }
      // (once per path and build-id: a binary has several mappings)
      const std::string key = maps[i].path + "|" + maps[i].build_id;
      auto known = found.find(key);
      if (known == found.end()) {
        std::string f0 = FindBinary(dir, maps[i], opt.use_binaries, &why);
        known = found.emplace(key, std::make_pair(f0, why)).first;
      }
      std::string f = known->second.first;
      why = known->second.second;
      if (f.empty()) {
        if (maps[i].path == "[vdso]" && !why.empty()) r.missing_vdso = why;
        // The machine binaries perf unwound through when it made the references.
        const std::string base = fs::path(maps[i].path).filename().string();
        if (!why.empty() && (base == "libc.so.6" || base == "ld-linux-x86-64.so.2" || base == "node"))
          missing.insert(why);
        continue;
      }
      r.binaries_used[maps[i].path] = f;
      auto it = by_file.find(f);
      if (it == by_file.end()) {
        if (f == "[vdso]") files[f] = std::make_unique<MemorySource>(OwnVdso());
        else files[f] = OpenOrEmpty(f);
        it = by_file.emplace(f, uw::UnwindModule::FromElf(*files[f], f)).first;
      }
      modules[i] = it->second.get();
    }
  }
  // Samples and mappings in time order (perf's ordered events), file order among equals.
  struct Ev {
    uint64_t time;
    size_t order;
    bool is_map;
    size_t index;
  };
  std::vector<Ev> evs;
  for (size_t i = 0; i < maps.size(); ++i) evs.push_back({maps[i].time, static_cast<size_t>(mt.record[i]), true, i});
  for (size_t i = 0; i < res.records.rows(); ++i)
    if ((res.records.kind[i] == static_cast<uint8_t>(RecordKind::kRecord) ||
         res.records.kind[i] == static_cast<uint8_t>(RecordKind::kNested)) &&
        res.records.type[i] == perf::kSample)
      evs.push_back({0, i, false, i});
  // Sample times.
  perf::SampleData sd;
  std::vector<perf::SampleData> parsed(res.records.rows());
  for (auto& e : evs) {
    if (e.is_map) continue;
    const uint8_t* p;
    size_t n;
    if (!rb.Get(e.index, &p, &n) || n < 8) continue;
    uint64_t base = res.records.kind[e.index] == static_cast<uint8_t>(RecordKind::kNested) ? 0 : res.records.offset[e.index];
    ByteReader pl(p + 8, n - 8, base + 8, order);
    perf::ParseSample(pl, attr, &parsed[e.index], nullptr, nullptr);
    e.time = parsed[e.index].time;
  }
  std::stable_sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.order < b.order;
  });
  std::map<int32_t, AddressSpace> spaces;
  // perf registers its libunwind accessors for a process at the first mapping
  // inserted whose file it can read (unwind__prepare_access: dso__type() must
  // know the ELF class); until then it unwinds nothing, not even the user ip.
  std::map<int32_t, bool> unwinds;
  uw::Unwinder unwinder(opt.unwind);
  for (const auto& e : evs) {
    if (e.is_map) {
      spaces[maps[e.index].pid].Add(maps[e.index].start, maps[e.index].end, e.index);
      if (modules[e.index] && (modules[e.index]->elf().ok || modules[e.index]->synthetic())) unwinds[maps[e.index].pid] = true;
      continue;
    }
    const perf::SampleData& d = parsed[e.index];
    const uint8_t* p;
    size_t n;
    if (!rb.Get(e.index, &p, &n)) continue;
    SampleOut so;
    so.row = static_cast<int32_t>(e.index);
    so.time = d.time;
    so.pid = static_cast<int32_t>(d.pid);
    so.ip = d.ip;
    for (uint64_t v : d.callchain)
      if (v < perf::kContextMax) so.kernel.push_back(v);
    if (so.kernel.size() > opt.unwind.max_frames) so.kernel.resize(opt.unwind.max_frames);
    uw::StackCopy stack;
    uint64_t record_base = res.records.kind[e.index] == static_cast<uint8_t>(RecordKind::kNested) ? 0 : res.records.offset[e.index];
    if (d.stack_user_size && d.stack_user_offset >= record_base && d.stack_user_offset - record_base + d.stack_user_size <= n) {
      stack.data = p + (d.stack_user_offset - record_base);
      stack.size = d.stack_user_size;
      stack.dyn_size = std::min(d.stack_user_dyn_size, d.stack_user_size);
      stack.file_offset = d.stack_user_offset;
      stack.order = order;
    }
    AddressSpace empty;
    auto sp = spaces.find(so.pid);
    Lookup lookup(sp == spaces.end() ? empty : sp->second, maps, modules);
    if (opt.unwind.perf_compatible && !unwinds[so.pid]) {
      so.result.stop = uw::StopReason::kMissingBinary;  // no binary of this process at all: perf takes no user frame
      r.samples.push_back(std::move(so));
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    unwinder.Unwind(machine, uw::RegisterAbi::kPerf, d.regs_user_abi, d.regs_user_mask, d.regs_user.data(),
                    d.regs_user.size(), stack, lookup, &so.result);
    r.unwind_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.samples.push_back(std::move(so));
  }
  r.stats = unwinder.stats();
  if (opt.expand_inlines) {
    // Every user frame's link-time address, per symbol file.
    std::map<std::string, std::set<uint64_t>> want;
    struct Where { std::string file; uint64_t vaddr; };
    std::vector<std::vector<Where>> where(r.samples.size());
    for (size_t si = 0; si < r.samples.size(); ++si) {
      for (const auto& f : r.samples[si].result.frames) {
        Where w;
        // (a jitted .so holds no inlining; the vdso no debug info)
        if (f.mapping >= 0 && modules[static_cast<size_t>(f.mapping)] && !modules[static_cast<size_t>(f.mapping)]->synthetic() &&
            maps[static_cast<size_t>(f.mapping)].path != "[vdso]") {
          const Mapping& m = maps[static_cast<size_t>(f.mapping)];
          uw::UnwindModule* mod = modules[static_cast<size_t>(f.mapping)];
          uint64_t bias;
          if (mod->Bias(m.start, m.pgoff, &bias)) {
            w.file = SymbolSource(mod->name(), mod->build_id());
            w.vaddr = f.address - bias;
            want[w.file].insert(w.vaddr);
          }
        }
        where[si].push_back(w);
      }
    }
    std::map<std::string, std::map<uint64_t, uint32_t>> counts;
    for (const auto& [file, addrs] : want) {
      counts[file] = InlineCounts(file, addrs);
      if (counts[file].empty()) r.error = "addr2line (binutils) failed on " + file;
      uint32_t extra = 0;
      for (const auto& [a, c] : counts[file]) extra += c - 1;
      r.inline_source += file + ": " + std::to_string(extra) + " inlined frames; ";
    }
    for (size_t si = 0; si < r.samples.size(); ++si) {
      auto& ic = r.samples[si].inline_count;
      for (const auto& w : where[si]) {
        uint32_t c = 1;
        if (!w.file.empty()) {
          auto it = counts[w.file].find(w.vaddr);
          if (it != counts[w.file].end()) c = it->second;
        }
        ic.push_back(c);
      }
    }
  }
  for (const auto& m : missing) r.missing_system_binaries += (r.missing_system_binaries.empty() ? "" : "; ") + m;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string f = e.path().filename().string();
    if (f.rfind(opt.prefix + "folded_addrs", 0) == 0 && f.find("nobin") == std::string::npos && f.find("_pprof") == std::string::npos &&
        f.size() > 4 && f.substr(f.size() - 4) == ".txt")
      r.references[f] = corpus::Lines(corpus::ReadText(e.path()));
  }
  r.ok = true;
  return r;
}

}  // namespace profscope::unwind_driver
