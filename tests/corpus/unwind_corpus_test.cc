// The DWARF unwinder (core/unwind) against perf on real `perf record
// --call-graph dwarf` files: every dwarf case of tests/data/perf is decoded
// with Session/PerfDecoder, each SAMPLE row is parsed again (ParseSample) for
// its user registers and stack copy, the process's mappings at the sample's
// time are rebuilt from the profile's mapping table, and the user stack is
// unwound with the binaries perf used (the case's own program, this
// machine's Debian 12 libc.so.6 / ld-linux-x86-64.so.2 / node). perf's stack
// is then the sample's kernel callchain (perf records with
// exclude_callchain_user) followed by the unwound user frames; folded root
// first, it must equal perf's own folded_addrs*.txt. Without any binary
// perf keeps the user ip alone: folded_addrs_nobin.txt (made by produce.sh
// with `perf script --symfs` pointing at an empty folder) and the perfparser
// cases, whose binaries perf never had.
//
// This driver stands in for the decoder integration (next step): it is the
// reference for what PerfDecoder must give the unwinder per sample and per
// mapping.
#include <gtest/gtest.h>

#include "core/format/perf/perf_jit.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/perf/perf_attr.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_sample.h"
#include "core/unwind/unwinder.h"
#include "tests/corpus/corpus_util.h"
#include "tests/corpus/unwind_driver.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::Session;
using profscope::corpus::Lines;
using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;
namespace uw = profscope::unwind;
namespace drv = profscope::unwind_driver;

namespace {

// The --call-graph dwarf cases: sample_type has REGS_USER and STACK_USER. Not the
// perf archive ones: their binaries are in the tarball, which this driver (the
// unwinder alone) does not read; perf_unwind_corpus_test.cc checks them through the decoder.
std::vector<std::string> DwarfCases() {
  std::vector<std::string> out;
  for (const auto& c : profscope::corpus::PerfCases({"evlist.txt"})) {
    if (std::filesystem::exists(profscope::corpus::PerfData() / c / "perf.data.tar.bz2")) continue;
    // Processes that fork and exec: perf's maps cloned on FORK and kept after exec decide
    // where it looks for unwind tables; the decoder follows that (perf_unwind_corpus_test.cc),
    // this driver does not.
    if (c == "dwarf_fork_exec_nofp") continue;
    std::string ev = ReadText(profscope::corpus::PerfData() / c / "evlist.txt");
    if (ev.find("REGS_USER") != std::string::npos && ev.find("STACK_USER") != std::string::npos) out.push_back(c);
  }
  return out;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Lines of `want` missing from `got` and the other way round, for a readable failure.
std::string Diff(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  std::multiset<std::string> w(want.begin(), want.end()), g(got.begin(), got.end());
  std::string s;
  for (const auto& l : want)
    if (!g.count(l)) s += "  perf only: " + l + "\n";
  for (const auto& l : got)
    if (!w.count(l)) s += "  ours only: " + l + "\n";
  return s;
}

class UnwindCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(UnwindCorpus, StacksWithBinariesEqualPerfFoldedAddrs) {
  const fs::path dir = profscope::corpus::PerfData() / GetParam();
  drv::Options o;
  o.use_binaries = true;
  o.expand_inlines = true;
  drv::CaseResult r = drv::UnwindCase(dir, o);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_TRUE(r.error.empty()) << r.error;
  if (!r.missing_system_binaries.empty())
    FAIL() << "this machine lacks the binaries perf used: " << r.missing_system_binaries;
  if (!r.missing_vdso.empty()) GTEST_SKIP() << r.missing_vdso;
  for (const auto& [path, file] : r.binaries_used)
    if (fs::path(path).filename() == "libc.so.6" && r.inline_source.find("/usr/lib/debug/") == std::string::npos)
      FAIL() << "perf named libc's inlined frames from libc6-dbg's debug file: install libc6-dbg (scripts/setup.sh does)";
  for (const auto& [file, want_lines] : r.references) {
    auto want = Sorted(want_lines);
    auto got = Sorted(r.FoldedFor(file));
    EXPECT_EQ(want, got) << GetParam() << "/" << file << " differs:\n" << Diff(want, got) << r.Summary();
  }
  EXPECT_FALSE(r.references.empty()) << "no folded_addrs reference";
}

TEST_P(UnwindCorpus, StacksWithoutBinariesEqualPerfWithoutBinaries) {
  // perf with no file to read (--symfs and --buildid-dir at empty folders)
  // registers no unwinder for the process (unwind__prepare_access needs one
  // readable mapping): no user frame at all, not even the ip. Kernel samples
  // keep their kernel callchain; user samples, whose callchain is then empty,
  // fold to their sample ip.
  const fs::path dir = profscope::corpus::PerfData() / GetParam();
  drv::Options o;
  o.use_binaries = false;
  drv::CaseResult r = drv::UnwindCase(dir, o);
  ASSERT_TRUE(r.ok) << r.error;
  for (const auto& s : r.samples) {
    EXPECT_TRUE(s.result.frames.empty()) << "sample at row " << s.row;
    EXPECT_NE(s.result.stop, uw::StopReason::kOutermost) << "sample at row " << s.row;
  }
  fs::path nobin = dir / "folded_addrs_nobin.txt";
  ASSERT_TRUE(fs::exists(nobin)) << "no reference of perf without binaries (see the case's produce_nobin.sh)";
  auto want = Sorted(Lines(ReadText(nobin)));
  auto got = Sorted(r.FoldedFor("folded_addrs.txt"));
  EXPECT_EQ(want, got) << "differs from perf without binaries:\n" << Diff(want, got);
}

INSTANTIATE_TEST_SUITE_P(Dwarf, UnwindCorpus, ::testing::ValuesIn(DwarfCases()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

}  // namespace

namespace {

// perf inject --jit writes one jitted-PID-N.so per CODE_LOAD N (genelf.c):
// the code at GEN_ELF_TEXT_OFFSET (0x80, also the MMAP2's pgoff) and, when a
// JIT_CODE_UNWINDING_INFO record came before the load, its .eh_frame at the
// next 8-aligned address after the code and its .eh_frame_hdr right after
// (the record's data holds the .eh_frame first, the header last). The .so
// files were deleted once the references were made; they are rebuilt here as
// synthetic modules from the dump.
struct JitCode {
  uint64_t size = 0;
  std::vector<uint8_t> eh_frame, hdr;
};

std::map<uint64_t, JitCode> ReadJitCodes(const std::vector<uint8_t>& d) {
  std::map<uint64_t, JitCode> out;
  profscope::ByteReader h(d.data(), d.size(), 0, profscope::ByteOrder::kLittle);
  if (h.PeekU32(0) != 0x4A695444) return out;  // the corpus dump is little-endian
  uint64_t off = h.PeekU32(8);                  // header total_size
  std::vector<uint8_t> pending_eh, pending_hdr;
  while (off + 16 <= d.size()) {
    profscope::ByteReader r(d.data() + off, d.size() - off, off, profscope::ByteOrder::kLittle);
    uint32_t id = r.U32(), total = r.U32();
    r.U64();
    if (total < 16 || total > d.size() - off) break;
    profscope::ByteReader p = profscope::ByteReader(d.data() + off + 16, total - 16, off + 16, profscope::ByteOrder::kLittle);
    if (id == 4) {
      uint64_t size = p.U64(), hdr = p.U64();
      p.U64();  // mapped_size
      if (p.ok() && hdr <= size && size <= p.remaining()) {
        pending_eh.assign(p.cursor(), p.cursor() + (size - hdr));
        pending_hdr.assign(p.cursor() + (size - hdr), p.cursor() + size);
      }
    } else if (id == 0) {
      p.U32(); p.U32(); p.U64(); p.U64();
      uint64_t size = p.U64(), index = p.U64();
      JitCode c;
      c.size = size;
      c.eh_frame = std::move(pending_eh);
      c.hdr = std::move(pending_hdr);
      pending_eh.clear();
      pending_hdr.clear();
      out[index] = std::move(c);
    }
    off += total;
  }
  return out;
}

TEST(UnwindCorpusJit, NodeWithV8UnwindingInfoEqualsPerfInjectJit) {
  const fs::path dir = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "jitdump" / "perf_inject_jit_dwarf";
  const auto codes = ReadJitCodes(ReadFile(dir / "jit-12629.dump"));
  ASSERT_GT(codes.size(), 1000u);
  size_t with_cfi = 0;
  for (const auto& [i, c] : codes) with_cfi += !c.eh_frame.empty();
  EXPECT_GT(with_cfi, 0u) << "V8 --perf-prof-unwinding-info gives some code loads an .eh_frame";
  drv::Options o;
  o.use_binaries = true;
  o.expand_inlines = true;
  o.input = "perf.jit.data";
  o.prefix = "jit_";
  o.synthetic = [&](const std::string& path) -> std::unique_ptr<uw::UnwindModule> {
    static const std::regex re(R"(/jitted-\d+-(\d+)\.so$)");
    std::smatch m;
    if (!std::regex_search(path, m, re)) return nullptr;
    auto it = codes.find(std::stoull(m[1].str()));
    if (it == codes.end()) return nullptr;
    const JitCode& c = it->second;
    const uint64_t eh = profscope::perf::JitEhFrameAddress(c.size);
    return uw::UnwindModule::FromEhFrame(path, profscope::ByteOrder::kLittle, 8, c.eh_frame, eh, c.hdr,
                                         eh + c.eh_frame.size());
  };
  drv::CaseResult r = drv::UnwindCase(dir, o);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_TRUE(r.error.empty()) << r.error;
  if (!r.missing_system_binaries.empty())
    FAIL() << "this machine lacks the binaries perf used: " << r.missing_system_binaries;
  ASSERT_EQ(r.references.count("jit_folded_addrs.txt"), 1u);
  auto want = Sorted(r.references["jit_folded_addrs.txt"]);
  auto got = Sorted(r.FoldedFor("jit_folded_addrs.txt"));
  EXPECT_EQ(want, got) << "differs from perf inject --jit + perf script:\n" << Diff(want, got) << r.Summary();
}

}  // namespace

namespace {

drv::CaseResult WithBinaries(const std::string& name) {
  drv::Options o;
  o.use_binaries = true;
  return drv::UnwindCase(profscope::corpus::PerfData() / name, o);
}

// What the cases were made to exercise actually happens.
TEST(UnwindCorpusEdges, SignalFramesKeepTheInterruptedPc) {
  drv::CaseResult r = WithBinaries("dwarf_sig_plt_nofp");
  ASSERT_TRUE(r.ok) << r.error;
  size_t through_signal = 0, in_plt = 0;
  for (const auto& s : r.samples) {
    const auto& f = s.result.frames;
    for (size_t i = 1; i < f.size(); ++i) {
      // A caller's address is its return address - 1, except the frame a
      // signal interrupted: its address is the exact pc.
      if (f[i].address == f[i].pc) ++through_signal;
      else EXPECT_EQ(f[i].address, f[i].pc - 1);
    }
    if (!f.empty() && (f[0].address & 0xfff) >= 0x020 && (f[0].address & 0xfff) < 0x060 &&
        f[0].mapping >= 0 && f.size() > 2)
      ++in_plt;  // .plt is at 0x1020..0x1060 of sig_plt
  }
  EXPECT_GT(through_signal, 10u) << r.Summary();
  EXPECT_GT(in_plt, 0u) << "no sample in a PLT stub";
}

TEST(UnwindCorpusEdges, ShortStackCopiesAreReportedWithTheSizeNeeded) {
  drv::CaseResult r = WithBinaries("dwarf_cpp_nofp");
  ASSERT_TRUE(r.ok) << r.error;
  size_t short_copy = 0, outermost = 0;
  for (const auto& s : r.samples) {
    if (s.result.stop == uw::StopReason::kStackCopyEnd) {
      ++short_copy;
      EXPECT_GT(s.result.stack_needed, 4096u - 8) << "recorded with --call-graph dwarf,4096";
      EXPECT_LT(s.result.stack_needed, 1u << 20);
    }
    if (s.result.stop == uw::StopReason::kOutermost) ++outermost;
  }
  EXPECT_GT(short_copy, 0u) << r.Summary();
  EXPECT_GT(outermost, short_copy) << r.Summary();
  // Every frame read from the copy links to its bytes inside the record.
  for (const auto& s : r.samples)
    for (size_t i = 1; i < s.result.frames.size(); ++i)
      if (s.result.frames[i].ra_slot != uw::kNoSlot) EXPECT_GT(s.result.frames[i].ra_slot, 0u);
}

}  // namespace
