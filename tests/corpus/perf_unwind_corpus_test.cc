// The perf decoder's --call-graph dwarf stacks (perf_unwind) against perf's
// own on every dwarf case of tests/data/perf: Session decodes the recording
// with the binaries given as side files (the case's program and this
// machine's Debian 12 libc6/libstdc++ files perf used, see
// unwind_corpus_test.cc), and `stacks --addresses` must equal perf's
// folded_addrs.txt exactly: perf 6.1 repeats a frame once per inlined
// function addr2line finds at its address (machine.c append_inlines), and so
// does profscope (perf_inlines.h), from the DWARF of the case's program and
// of libc6-dbg's debug files for libc/ld.so (what perf read). With names,
// `stacks` must equal folded_sym.txt. Without binaries the stacks must equal
// perf's without them (folded_addrs_nobin.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/elf/elf_reader.h"
#include "tests/corpus/corpus_util.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::Session;
using profscope::corpus::Lines;
using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;

namespace {

const char* const kSystemBinaries[] = {
    "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2",
    "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30", "/lib/x86_64-linux-gnu/libm.so.6"};

std::vector<std::string> DwarfCases() {
  std::vector<std::string> out;
  for (const auto& c : profscope::corpus::PerfCases({"evlist.txt"})) {
    std::string ev = ReadText(profscope::corpus::PerfData() / c / "evlist.txt");
    if (ev.find("REGS_USER") != std::string::npos && ev.find("STACK_USER") != std::string::npos) out.push_back(c);
  }
  return out;
}

// libc6-dbg's separate debug files of the system binaries (perf named their
// frames and read their inlined functions from them).
std::vector<std::string> DebugFiles() {
  std::vector<std::string> out;
  for (const auto& dbg : profscope::corpus::DebugFilesOf({std::begin(kSystemBinaries), std::end(kSystemBinaries)}))
    out.push_back(dbg.string());
  return out;
}

// A recording and its side files, decoded.
struct Decoded {
  std::vector<std::unique_ptr<std::vector<uint8_t>>> bytes;  // what the sources read
  std::vector<std::unique_ptr<MemorySource>> sources;
  MemorySource& Source(const std::string& file) {
    bytes.push_back(std::make_unique<std::vector<uint8_t>>(ReadFile(file)));
    sources.push_back(std::make_unique<MemorySource>(*bytes.back()));
    return *sources.back();
  }
  profscope::corpus::HostFiles host;  // with binaries: the host's vdso, as the command line has it
  std::unique_ptr<Session> session;
};

std::unique_ptr<Decoded> Decode(const fs::path& dir, bool binaries, std::vector<std::string> only = {},
                                const std::vector<std::string>& extra = {}) {
  auto d = std::make_unique<Decoded>();
  d->session = std::make_unique<Session>(d->Source(profscope::corpus::PerfInput(dir).string()), dir.filename().string());
  if (binaries) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) {
      std::vector<uint8_t> b = ReadFile(e.path());
      if (b.size() > 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') files.push_back(e.path().string());
    }
    for (const char* s : kSystemBinaries)
      if (fs::exists(s)) files.push_back(s);
    for (const auto& dbg : DebugFiles()) files.push_back(dbg);
    // A perf archive case: its binaries are in the tarball.
    if (fs::exists(dir / "perf.data.tar.bz2")) files.push_back((dir / "perf.data.tar.bz2").string());
    if (!only.empty()) files = only;
    files.insert(files.end(), extra.begin(), extra.end());
    for (const auto& f : files) {
      d->session->AddSideFile(d->Source(f), f);
    }
    d->session->SetFileAccess(&d->host);
  }
  d->session->Decode();
  return d;
}

std::map<std::string, uint64_t> Folded(const std::string& text) {
  std::map<std::string, uint64_t> out;
  for (const auto& l : Lines(text)) {
    size_t sp = l.rfind(' ');
    if (sp == std::string::npos) continue;
    out[l.substr(0, sp)] += std::stoull(l.substr(sp + 1));
  }
  return out;
}

class PerfUnwindCorpus : public ::testing::TestWithParam<std::string> {};

// Distinct stacks (lines) of `want` that `got` has with the same count.
uint64_t SameLines(const std::map<std::string, uint64_t>& want, const std::map<std::string, uint64_t>& got) {
  uint64_t n = 0;
  for (const auto& [k, v] : want) {
    auto it = got.find(k);
    if (it != got.end() && it->second == v) ++n;
  }
  return n;
}

std::string Differences(const std::map<std::string, uint64_t>& want, const std::map<std::string, uint64_t>& got) {
  std::string out;
  int shown = 0;
  for (const auto& [k, v] : want) {
    auto it = got.find(k);
    if ((it == got.end() || it->second != v) && shown++ < 8)
      out += "  perf: " + k + " " + std::to_string(v) + " -> ours " + std::to_string(it == got.end() ? 0 : it->second) + "\n";
  }
  for (const auto& [k, v] : got)
    if (!want.count(k) && shown++ < 16) out += "  ours only: " + k + " " + std::to_string(v) + "\n";
  return out;
}

TEST_P(PerfUnwindCorpus, AddressStacksWithBinariesEqualPerf) {
  const fs::path dir = profscope::corpus::PerfData() / GetParam();
  for (const char* s : kSystemBinaries)
    ASSERT_TRUE(fs::exists(s)) << "this machine lacks " << s << ", which perf used (Debian 12's libc6/libstdc++6)";
  ASSERT_GE(DebugFiles().size(), 2u) << "this machine lacks libc6-dbg's debug files of libc.so.6 and ld.so (scripts/setup.sh)";
  auto d = Decode(dir, true);
  // perf unwound [vdso] frames with the vdso of the kernel it recorded on; on another kernel that vdso is
  // missing here as it would be to perf there (the "missing" report names it, build-id and all).
  for (const auto& m : d->session->result().missing.mappings)
    if (m.dso == "[vdso]" && (m.samples > 0 || m.unwind_cut > 0))
      GTEST_SKIP() << "this machine runs another kernel than the recording's: its [vdso] (build-id " << m.build_id
                   << ") is missing, and " << m.samples << " samples have a frame there without a name";
  auto got = Folded(d->session->StacksText(true, ""));
  auto want = Folded(ReadText(dir / "folded_addrs.txt"));
  ASSERT_FALSE(want.empty());
  uint64_t samples = 0, same_samples = 0;
  for (const auto& [k, v] : want) {
    samples += v;
    auto it = got.find(k);
    if (it != got.end() && it->second == v) same_samples += v;
  }
  std::printf("[ %s ] %llu of %llu samples, %llu of %llu distinct stacks equal perf's\n", GetParam().c_str(),
              static_cast<unsigned long long>(same_samples), static_cast<unsigned long long>(samples),
              static_cast<unsigned long long>(SameLines(want, got)), static_cast<unsigned long long>(want.size()));
  // Every stack, inlined frames included (before them: dwarf_cpp_nofp 26 of 209 samples).
  EXPECT_TRUE(want == got) << Differences(want, got);
}

TEST_P(PerfUnwindCorpus, AddressStacksWithoutBinariesEqualPerfWithoutThem) {
  const fs::path dir = profscope::corpus::PerfData() / GetParam();
  ASSERT_TRUE(fs::exists(dir / "folded_addrs_nobin.txt"));
  auto d = Decode(dir, false);
  EXPECT_EQ(Folded(ReadText(dir / "folded_addrs_nobin.txt")), Folded(d->session->StacksText(true, "")));
}

INSTANTIATE_TEST_SUITE_P(Dwarf, PerfUnwindCorpus, ::testing::ValuesIn(DwarfCases()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

std::vector<std::string> DiagsOf(const Session& s, const std::string& code) {
  std::vector<std::string> out;
  for (const auto& d : s.result().diags.items())
    if (profscope::DiagCodeName(d.code) == code) out.push_back(d.message);
  return out;
}

TEST(PerfUnwindNames, StaticProgramNamesEqualPerf) {
  const fs::path dir = profscope::corpus::PerfData() / "dwarf_static_nofp";
  auto d = Decode(dir, true, {(dir / "calltree_static_nofp").string()});
  EXPECT_EQ(Folded(ReadText(dir / "folded_sym.txt")), Folded(d->session->StacksText(false, "")));
}

// perf's names with its inlined frames: the C++ program (templates inlined
// into templates, demangled without parameters), libc and ld.so through
// libc6-dbg's debug files.
TEST(PerfUnwindNames, CppProgramNamesWithInlinedFramesEqualPerf) {
  const fs::path dir = profscope::corpus::PerfData() / "dwarf_cpp_nofp";
  // The kernel's symbols: archive_kernel_fp's perf archive was made on the same boot.
  auto d = Decode(dir, true, {}, {(dir / ".." / "archive_kernel_fp" / "perf.data.tar.bz2").string()});
  auto want = Folded(ReadText(dir / "folded_sym.txt"));
  // A libstdc++ frame without a symbol there is "[unknown]", as perf says.
  const auto got = Folded(d->session->StacksText(false, ""));
  const uint64_t same = SameLines(want, got);
  std::printf("[ dwarf_cpp_nofp ] names: %llu of %llu distinct stacks equal perf's\n",
              static_cast<unsigned long long>(same), static_cast<unsigned long long>(want.size()));
  EXPECT_TRUE(want == got) << Differences(want, got);
  // A few of perf's inlined frames, by name, under the function they are inlined into.
  std::string text = d->session->StacksText(false, "");
  EXPECT_NE(text.find(";shapes;std::make_unique<Square, double>;operator new;__GI___libc_malloc"), std::string::npos);
  EXPECT_NE(text.find("_dl_start;_dl_start_final;_dl_sysdep_start;dl_main"), std::string::npos);
}

// The field view of a --call-graph dwarf SAMPLE lists its unwound user frames,
// each at the bytes that gave it: the ip register in regs_user, then the
// stack-copy slot that held each return address (its value: the frame's
// address + 1, perf's return address - 1), within the record's stack copy.
TEST(PerfUnwindFields, EachUnwoundFrameLinksToItsReturnAddressSlot) {
  const fs::path dir = profscope::corpus::PerfData() / "archive_dwarf_lib";
  auto d = Decode(dir, true);
  const auto file = ReadFile(dir / "perf.data");
  const auto& rt = d->session->result().records;
  int checked = 0, slots = 0;
  for (size_t row = 0; row < rt.rows() && checked < 40; ++row) {
    if (d->session->RecordTypeName(static_cast<int32_t>(row)) != "SAMPLE") continue;
    const std::string json = d->session->RecordFieldsJson(static_cast<int32_t>(row));
    const size_t at = json.find("\"name\":\"unwound\"");
    ASSERT_NE(at, std::string::npos) << "row " << row << ": " << json.substr(0, 400);
    ++checked;
    // frame[k] (k >= 1): {"name":"frame[k]","offset":O,"size":8,"value":"0xADDR (return address 0xPC at sp+0x..)"}
    static const std::string kFrame = "\"name\":\"frame[";
    for (size_t p = json.find(kFrame, at); p != std::string::npos; p = json.find(kFrame, p + 1)) {
      const size_t o = json.find("\"offset\":", p), v = json.find("\"value\":\"", p);
      ASSERT_NE(o, std::string::npos);
      ASSERT_NE(v, std::string::npos);
      const uint64_t offset = std::stoull(json.substr(o + 9));
      const uint64_t address = std::stoull(json.substr(v + 9), nullptr, 16);
      ASSERT_LE(offset + 8, file.size());
      uint64_t word = 0;
      for (int b = 7; b >= 0; --b) word = word << 8 | file[offset + static_cast<size_t>(b)];
      if (json.compare(p + kFrame.size(), 2, "0]") == 0) {
        EXPECT_EQ(word, address) << "the sampled ip, row " << row;  // the ip register
      } else {
        EXPECT_EQ(word, address + 1) << "row " << row << " at offset " << offset;
        ++slots;
      }
    }
  }
  EXPECT_EQ(checked, 40);
  EXPECT_GT(slots, 80);
}

// simpleperf unwinds while recording; a file made with `simpleperf record
// --no-unwind` keeps each sample's registers and stack copy, and profscope
// unwinds it as perf does (simpleperf's register numbering). Here a real
// --call-graph dwarf recording whose command line says simpleperf (argv[0]
// rewritten in its CMDLINE feature: the decoder then reads it as a simpleperf
// file) gives the same stacks as perf unwound.
TEST(PerfUnwindSimpleperf, NoUnwindRecordingsAreUnwound) {
  const fs::path dir = profscope::corpus::PerfData() / "dwarf_static_nofp";
  std::vector<uint8_t> data = ReadFile(dir / "perf.data");
  // CMDLINE: u32 count, then {u32 len (padded to 64), "/usr/bin/perf\0"...}.
  const std::string from = std::string("@\0\0\0/usr/bin/perf", 17) + '\0';
  auto it = std::search(data.begin(), data.end(), from.begin(), from.end());
  ASSERT_NE(it, data.end());
  const std::string to = "/usr/bin/simpleperf";
  std::copy(to.begin(), to.end(), it + 4);
  *(it + 4 + static_cast<long>(to.size())) = 0;
  std::vector<uint8_t> bin = ReadFile(dir / "calltree_static_nofp");
  MemorySource src(data), bsrc(bin);
  Session s(src, "perf.data");
  s.AddSideFile(bsrc, "calltree_static_nofp");
  ASSERT_TRUE(s.Decode());
  ASSERT_TRUE(s.result().stacks_thread_root) << "read as a simpleperf file";
  // Every stack, root first, by address, as perf's folded_addrs.txt has them.
  const profscope::Profile& p = s.result().profile;
  std::map<std::string, uint64_t> got;
  for (size_t i = 0; i < p.samples.size(); ++i) {
    std::vector<std::string> frames;
    for (int32_t n = p.samples.stack[i]; n != profscope::kNone; n = p.stacks.prefix[static_cast<size_t>(n)])
      frames.push_back(profscope::Hex(p.frames.address[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(n)])]));
    std::string line;
    for (size_t k = frames.size(); k-- > 0;) line += (line.empty() ? "" : ";") + frames[k];
    ++got[line];
  }
  const auto want = Folded(ReadText(dir / "folded_addrs.txt"));
  EXPECT_TRUE(want == got) << Differences(want, got);
}

// A C program sampled in its PLT stubs: its .symtab's `_init` (size 0, just
// before .plt) is stretched over .plt before perf inserts the `name@plt`
// entries, and in perf 6.1's rb-tree `_init` is the ancestor of every entry,
// so perf names each PLT frame `_init` (perf_symbol_tree.h). The case has no
// kallsyms: a kernel frame is `[kernel.kallsyms]…` here, perf's own name
// there, so those stacks are compared up to their first kernel frame.
TEST(PerfUnwindNames, PltFramesOfACProgramAreInitAsPerfNamesThem) {
  const fs::path dir = profscope::corpus::PerfData() / "dwarf_sig_plt_nofp";
  auto d = Decode(dir, true);
  const auto want = Folded(ReadText(dir / "folded_sym.txt"));
  const auto got = Folded(d->session->StacksText(false, ""));
  std::map<std::string, uint64_t> left = want;  // perf's stacks not yet met
  uint64_t init = 0;
  for (const auto& [k, v] : got) {
    if (k.find(";plt_loop;_init") != std::string::npos) init += v;
    EXPECT_EQ(k.find("@plt"), std::string::npos) << k;
    if (k.find("[kernel.kallsyms]") != std::string::npos) continue;
    auto it = left.find(k);
    EXPECT_TRUE(it != left.end() && it->second == v) << "ours only: " << k << " " << v;
    if (it != left.end()) left.erase(it);
  }
  // Then the stacks with kernel frames: perf's with the same user frames and
  // count, followed by kernel names.
  for (const auto& [k, v] : got) {
    const size_t kernel = k.find("[kernel.kallsyms]");
    if (kernel == std::string::npos) continue;
    auto it = left.begin();
    while (it != left.end() && !(it->first.size() > kernel && it->first.compare(0, kernel, k, 0, kernel) == 0 && it->second == v))
      ++it;
    EXPECT_TRUE(it != left.end()) << "ours only: " << k << " " << v;
    if (it != left.end()) left.erase(it);
  }
  EXPECT_TRUE(left.empty()) << Differences(left, {});
  EXPECT_EQ(init, 33u + 7u + 4u);  // perf: plt_loop;_init 33, ...;_init;[unknown];on_prof;handler_work 7, ...;labs 4
}

// Samples in clock_gettime's [vdso] code: perf names and unwinds them with its
// own copy of the vdso (this machine's kernel); the command line's hosts offer
// theirs the same way (FileAccess::RunningVdso), used where the build-id matches.
TEST(PerfUnwindNames, VdsoFramesAreUnwoundWithTheRunningKernelsVdso) {
  const fs::path dir = profscope::corpus::PerfData() / "dwarf_vdso_nofp";
  auto d = Decode(dir, true);
  if (profscope::RunningVdsoBytes().empty()) GTEST_SKIP() << "no [vdso] in this process";
  const std::string want = ReadText(dir / "folded_sym.txt");
  if (want.find("__vdso_clock_gettime") == std::string::npos) GTEST_SKIP();
  // The same kernel perf recorded on: every stack, names and all.
  const std::string got = d->session->StacksText(false, "");
  if (got.find("__vdso_clock_gettime") == std::string::npos)
    GTEST_SKIP() << "this machine runs another kernel than the recording's: its vdso's build-id differs";
  EXPECT_EQ(want, got);
  std::string script;
  {
    profscope::StringSink sink(script);
    d->session->WriteScript(sink);
  }
  EXPECT_EQ(ReadText(dir / "script_default.txt"), script);
}

TEST(PerfUnwindNames, ThreadsUnwoundThroughLibcHaveTheProgramsNames) {
  const fs::path dir = profscope::corpus::PerfData() / "dwarf_mt_nofp_pipe";
  auto d = Decode(dir, true);
  auto got = Folded(d->session->StacksText(false, ""));
  // perf: "clone3;start_thread;worker_a;work_a;spin_a 61" (libc's names come
  // from libc6-dbg's debug file, which this test does not give)
  uint64_t wa = 0, b = 0;
  for (const auto& [k, v] : got) {
    if (k.find(";worker_a;work_a;spin_a") != std::string::npos) wa += v;
    if (k.find(";worker_b;work_b;spin_b") != std::string::npos) b += v;
  }
  EXPECT_EQ(wa, 61u);
  EXPECT_EQ(b, 122u);
}

TEST(PerfUnwindDiagnostics, MissingBinariesAreRankedWithTheirSamples) {
  const fs::path dir = profscope::corpus::PerfData() / "dwarf_mt_nofp_pipe";
  // Nothing given: perf unwinds nothing; the program's binary would start it.
  auto none = Decode(dir, false);
  auto m = DiagsOf(*none->session, "unwind_missing_binary");
  ASSERT_GE(m.size(), 1u);
  EXPECT_EQ(m[0].rfind("drop mt_nofp to unwind 184 samples: their user stacks stop at "
                       "/opt/demo/run/dwarf_mt_nofp_pipe/mt_nofp; no binary was given",
                       0),
            0u)
      << m[0];
  // The program alone: every sample stops in libc.
  auto prog = Decode(dir, true, {(dir / "mt_nofp").string()});
  m = DiagsOf(*prog->session, "unwind_missing_binary");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "drop libc.so.6 to unwind 185 samples: their user stacks stop at /usr/lib/x86_64-linux-gnu/libc.so.6, "
                  "whose binary was not given");
  // Everything: nothing to ask for.
  auto all = Decode(dir, true);
  EXPECT_TRUE(DiagsOf(*all->session, "unwind_missing_binary").empty());
}

TEST(PerfUnwindDiagnostics, ShortStackCopiesSayWhichSizeFixesThem) {
  const fs::path dir = profscope::corpus::PerfData() / "dwarf_cpp_nofp";  // recorded with dwarf,4096
  auto d = Decode(dir, true);
  auto m = DiagsOf(*d->session, "unwind_stack_too_small");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_NE(m[0].find("stack copies (4,096 bytes) ended before the root"), std::string::npos) << m[0];
  EXPECT_NE(m[0].find("perf record --call-graph dwarf,8192"), std::string::npos) << m[0];
  // A build-id is named when the file recorded it (file mode).
  auto prog = Decode(dir, true, {(dir / "cpp_nofp").string()});
  m = DiagsOf(*prog->session, "unwind_missing_binary");
  ASSERT_GE(m.size(), 2u);
  EXPECT_EQ(m[0].rfind("drop ", 0), 0u);
  EXPECT_NE(m[0].find("(build-id "), std::string::npos) << m[0];
}

}  // namespace

namespace {

// node --perf-prof --perf-prof-unwinding-info recorded with --call-graph dwarf
// (tests/data/jitdump/perf_inject_jit_dwarf): perf unwound through the JIT
// frames only after perf inject --jit, from the jitted-*.so files it wrote
// from the dump's UNWINDING_INFO records. profscope unwinds from the dump
// itself, given with either the recorded perf.data or perf inject's output.
const fs::path JitDir() { return fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "jitdump" / "perf_inject_jit_dwarf"; }

std::unique_ptr<Decoded> DecodeJit(const std::string& input, bool with_dump) {
  auto d = std::make_unique<Decoded>();
  d->session = std::make_unique<Session>(d->Source((JitDir() / input).string()), input);
  std::vector<std::string> files = {"/usr/bin/node"};
  for (const char* s : kSystemBinaries)
    if (fs::exists(s)) files.push_back(s);
  for (const auto& dbg : DebugFiles()) files.push_back(dbg);
  if (with_dump) files.push_back((JitDir() / "jit-12629.dump").string());
  for (const auto& f : files) d->session->AddSideFile(d->Source(f), f);
  d->session->Decode();
  return d;
}

std::vector<std::string> Frames(const std::string& stack) {
  std::vector<std::string> out;
  size_t at = 0;
  for (size_t semi; (semi = stack.find(';', at)) != std::string::npos; at = semi + 1) out.push_back(stack.substr(at, semi - at));
  out.push_back(stack.substr(at));
  return out;
}

// perf named the kernel frames from the recording machine's kallsyms, which
// the case does not carry (profscope: [kernel.kallsyms]_text+0x...). Each of
// our stacks that ends in kernel frames takes them from perf's stack with the
// same user frames and as many frames; then the whole texts are compared.
std::map<std::string, uint64_t> KernelNamesFromPerf(const std::map<std::string, uint64_t>& ours,
                                                    const std::map<std::string, uint64_t>& perf) {
  std::map<std::string, uint64_t> out;
  for (const auto& [k, v] : ours) {
    std::vector<std::string> f = Frames(k);
    size_t user = f.size();
    while (user > 0 && f[user - 1].rfind("[kernel.kallsyms]", 0) == 0) --user;
    std::string key = k;
    if (user < f.size()) {
      for (const auto& [pk, pv] : perf) {
        std::vector<std::string> g = Frames(pk);
        if (g.size() == f.size() && std::equal(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(user), g.begin())) {
          key = pk;
          break;
        }
      }
    }
    out[key] += v;
  }
  return out;
}

class PerfUnwindJit : public ::testing::TestWithParam<std::string> {};

TEST_P(PerfUnwindJit, AddressStacksThroughJitCodeEqualPerfInjectJit) {
  ASSERT_TRUE(fs::exists("/usr/bin/node")) << "this machine lacks /usr/bin/node, which perf unwound through";
  auto d = DecodeJit(GetParam(), true);
  auto want = Folded(ReadText(JitDir() / "jit_folded_addrs.txt"));
  auto got = Folded(d->session->StacksText(true, ""));
  std::printf("[ %s ] %llu of %llu distinct stacks equal perf's\n", GetParam().c_str(),
              static_cast<unsigned long long>(SameLines(want, got)), static_cast<unsigned long long>(want.size()));
  EXPECT_TRUE(want == got) << Differences(want, got);
}

// The names: V8's (CODE_LOAD names, "JS:*fib /path/jswork.js:3:13",
// "Builtin:JSEntry"), node's and libc's, as perf inject --jit + perf script.
TEST_P(PerfUnwindJit, NamedStacksThroughJitCodeEqualPerfInjectJit) {
  auto d = DecodeJit(GetParam(), true);
  auto want = Folded(ReadText(JitDir() / "jit_folded_sym.txt"));
  auto got = KernelNamesFromPerf(Folded(d->session->StacksText(false, "")), want);
  EXPECT_TRUE(want == got) << Differences(want, got);
  // JS frames under the interpreter's, below node's own: the stack perf shows.
  const std::string text = d->session->StacksText(false, "");
  EXPECT_NE(text.find(";Builtin:JSEntry;Builtin:JSEntryTrampoline;Builtin:InterpreterEntryTrampoline;"), std::string::npos);
  EXPECT_NE(text.find("Builtin:InterpreterEntryTrampoline;JS:*fib /opt/demo/run/perf_inject_jit_dwarf/jswork.js:3:13;"
                      "JS:*fib /opt/demo/run/perf_inject_jit_dwarf/jswork.js:3:13"),
            std::string::npos);
  for (const auto& [k, v] : Folded(text)) EXPECT_NE(k.rfind("JS:", 0), 0u) << "a JS frame left as a stack's root: " << k;
}

TEST(PerfUnwindJitDiagnostics, WithoutTheDumpItIsAskedFor) {
  // perf inject's output alone: its jitted-*.so files are gone; the dump they came from is what to drop.
  auto d = DecodeJit("perf.jit.data", false);
  auto m = DiagsOf(*d->session, "unwind_missing_binary");
  ASSERT_EQ(m.size(), 1u) << (m.empty() ? "" : m[0]);
  EXPECT_EQ(m[0].rfind("drop jit-12629.dump to unwind ", 0), 0u) << m[0];
  EXPECT_NE(m[0].find("in JIT code of process 12629 (/opt/demo/run/perf_inject_jit_dwarf/jitted-12629-*.so, the files "
                      "perf inject --jit made from that jit dump"),
            std::string::npos)
      << m[0];
  const std::string info = d->session->InfoJson();
  EXPECT_NE(info.find("\"path\":\"/opt/demo/run/perf_inject_jit_dwarf/jitted-12629-*.so\""), std::string::npos);
  EXPECT_NE(info.find("\"drop\":\"drop jit-12629.dump, the jit dump perf inject --jit made these files from\""),
            std::string::npos);
  // With it: nothing is asked for.
  auto with = DecodeJit("perf.jit.data", true);
  EXPECT_TRUE(DiagsOf(*with->session, "unwind_missing_binary").empty());
}

INSTANTIATE_TEST_SUITE_P(RecordedAndInjected, PerfUnwindJit, ::testing::Values("perf.data", "perf.jit.data"),
                         [](const auto& info) { return info.param == "perf.data" ? "Recorded" : "Injected"; });

}  // namespace
