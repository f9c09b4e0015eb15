// The perf decoder's --call-graph dwarf stacks (perf_unwind) against perf's
// own on every dwarf case of tests/data/perf: Session decodes the recording
// with the binaries given as side files (the case's program and this
// machine's Debian 12 libc6/libstdc++ files perf used, see
// unwind_corpus_test.cc), and `stacks --addresses` must equal perf's
// folded_addrs.txt. perf 6.1 repeats a frame once per inlined function
// addr2line finds at its address (machine.c append_inlines); profscope does
// not name inlined frames yet, so a reference line with adjacent repeated
// addresses is compared with its repeats folded (every other line exactly).
// Without binaries the stacks must equal perf's without them
// (folded_addrs_nobin.txt).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/api/session.h"
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

// A recording and its side files, decoded.
struct Decoded {
  std::vector<std::unique_ptr<std::vector<uint8_t>>> bytes;  // what the sources read
  std::vector<std::unique_ptr<MemorySource>> sources;
  MemorySource& Source(const std::string& file) {
    bytes.push_back(std::make_unique<std::vector<uint8_t>>(ReadFile(file)));
    sources.push_back(std::make_unique<MemorySource>(*bytes.back()));
    return *sources.back();
  }
  std::unique_ptr<Session> session;
};

std::unique_ptr<Decoded> Decode(const fs::path& dir, bool binaries, std::vector<std::string> only = {}) {
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
    if (!only.empty()) files = only;
    for (const auto& f : files) {
      d->session->AddSideFile(d->Source(f), f);
    }
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

// "a;a;b" -> "a;b"
std::string FoldRepeats(const std::string& stack, bool* had) {
  std::string out, prev;
  size_t at = 0;
  *had = false;
  while (at <= stack.size()) {
    size_t e = stack.find(';', at);
    if (e == std::string::npos) e = stack.size();
    std::string f = stack.substr(at, e - at);
    if (f == prev) *had = true;
    else out += (out.empty() ? "" : ";") + f;
    prev = f;
    at = e + 1;
  }
  return out;
}

class PerfUnwindCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(PerfUnwindCorpus, AddressStacksWithBinariesEqualPerf) {
  const fs::path dir = profscope::corpus::PerfData() / GetParam();
  for (const char* s : kSystemBinaries)
    ASSERT_TRUE(fs::exists(s)) << "this machine lacks " << s << ", which perf used (Debian 12's libc6/libstdc++6)";
  auto d = Decode(dir, true);
  auto got = Folded(d->session->StacksText(true, ""));
  auto want = Folded(ReadText(dir / "folded_addrs.txt"));
  ASSERT_FALSE(want.empty());
  // Exactly where perf has no inlined frames; with its repeats folded elsewhere.
  std::map<std::string, uint64_t> want_folded, got_folded;
  uint64_t exact = 0, folded = 0, samples = 0;
  for (const auto& [k, v] : want) {
    bool had;
    want_folded[FoldRepeats(k, &had)] += v;
    samples += v;
    if (had) { folded += v; continue; }
    auto it = got.find(k);
    EXPECT_TRUE(it != got.end() && it->second == v)
        << GetParam() << ": perf's " << k << " " << v << " -> ours " << (it == got.end() ? 0 : it->second);
    exact += v;
  }
  for (const auto& [k, v] : got) {
    bool had;
    got_folded[FoldRepeats(k, &had)] += v;
  }
  EXPECT_EQ(want_folded, got_folded) << GetParam();
  std::printf("[ %s ] %llu samples: %llu compared exactly, %llu with perf's inline repeats folded\n", GetParam().c_str(),
              static_cast<unsigned long long>(samples), static_cast<unsigned long long>(exact),
              static_cast<unsigned long long>(folded));
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
