// perf's naming rules: kallsyms parsing, symbol ends and aliases, kernel
// relocation and module splitting, PLT entries, demangling, build-id
// matching, and `perf script`'s line format.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/api/script_writer.h"
#include "core/archive/tar_reader.h"
#include "core/format/elf/elf_reader.h"
#include "core/symbols/demangle.h"
#include "core/symbols/elf_symbols.h"
#include "core/symbols/kallsyms.h"
#include "core/symbols/perf_map.h"
#include "core/symbols/symbol_store.h"
#include "core/symbols/symbol_table.h"
#include "tests/unit/cut_source.h"

using namespace profscope;
using namespace profscope::symbols;

namespace {

std::vector<uint8_t> Bytes(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

std::vector<uint8_t> ReadAll(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST(Kallsyms, ParsesPerfsWay) {
  Kallsyms k = ParseKallsyms(
      "ffffffff81000000 T _text\n"
      "ffffffff81000000 T _stext\n"
      "ffffffff81001000 t helper\n"
      "ffffffff81002000 W weak_one\n"
      "ffffffff82000000 D some_data\n"
      "ffffffff82000100 r rodata_skipped\n"
      "ffffffff82000200 A abs_skipped\n"
      "ffffffff82000300 t $x\n"
      "not a line\n"
      "ffffffffc0000000 t mod_fn\t[ext4]\n"
      "0000000000000000 T zero_addr");
  ASSERT_EQ(k.symbols.size(), 7u);
  EXPECT_EQ(k.symbols[0].name, "_text");
  EXPECT_EQ(k.symbols[2].type, 't');
  EXPECT_EQ(k.symbols[4].name, "some_data");
  EXPECT_EQ(k.symbols[5].name, "mod_fn");
  EXPECT_EQ(k.symbols[5].module, "[ext4]");
  EXPECT_EQ(k.symbols[6].addr, 0u);
  EXPECT_EQ(k.skipped, 1u);
  uint64_t a = 0;
  EXPECT_TRUE(k.Lookup("_stext", &a));
  EXPECT_EQ(a, 0xffffffff81000000u);
  EXPECT_FALSE(k.Lookup("mod_fn", &a));  // module symbols are not the kernel's
}

TEST(Kallsyms, SniffedByContent) {
  std::string t = "ffffffff81000000 T _text\nffffffff81000010 t x\nffffffff81000020 t y\n";
  EXPECT_TRUE(LooksLikeKallsyms(reinterpret_cast<const uint8_t*>(t.data()), t.size()));
  std::string e = "\x7f" "ELF....";
  EXPECT_FALSE(LooksLikeKallsyms(reinterpret_cast<const uint8_t*>(e.data()), e.size()));
  std::string h = "# comment\nffffffff81000000 T _text\n";
  EXPECT_FALSE(LooksLikeKallsyms(reinterpret_cast<const uint8_t*>(h.data()), h.size()));
}

TEST(SymbolRules, FixupEndExtendsZeroSizeToTheNextSymbolAndLastToAPage) {
  SymbolTable t;
  t.Add(0x1000, 0, kStbGlobal, kSttFunc, "a");
  t.Add(0x1100, 0x10, kStbGlobal, kSttFunc, "b");
  t.Add(0x1200, 0, kStbGlobal, kSttFunc, "c");
  t.Finish(false);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.all()[0].end, 0x1100u);
  EXPECT_EQ(t.all()[1].end, 0x1110u);  // a size is kept
  EXPECT_EQ(t.all()[2].end, 0x3000u);  // roundup(0x1200, 4096) + 4096
  EXPECT_EQ(t.Find(0x10ff)->name, "a");
  EXPECT_EQ(t.Find(0x1110), nullptr);  // the gap after b
  EXPECT_EQ(t.Find(0x2fff)->name, "c");
  EXPECT_EQ(t.Find(0xfff), nullptr);
}

TEST(SymbolRules, KallsymsEndsAtAPageBetweenKernelAndModules) {
  SymbolTable t;
  t.Add(0xffffffff81000000, 0, kStbGlobal, kSttFunc, "last_kernel");
  t.Add(0xffffffffc0000000, 0, kStbLocal, kSttFunc, "mod_fn\t[ext4]");
  t.Finish(true);
  EXPECT_EQ(t.all()[0].end, 0xffffffff81001000u);
}

TEST(SymbolRules, ChooseBestSymbolAmongAliases) {
  auto pick = [](std::vector<Symbol> v) {
    SymbolTable t;
    for (auto& s : v) t.Add(s.start, s.end - s.start, s.binding, s.type, s.name);
    t.Add(0x9000, 0x10, kStbGlobal, kSttFunc, "next");
    t.Finish(false);
    return t.all()[0].name;
  };
  // a size beats no size (even a weak, underscored one)
  EXPECT_EQ(pick({{0x100, 0x100, kStbGlobal, kSttFunc, "nosize"}, {0x100, 0x110, kStbWeak, kSttFunc, "__sized"}}), "__sized");
  // not weak beats weak
  EXPECT_EQ(pick({{0x100, 0x110, kStbWeak, kSttFunc, "weak"}, {0x100, 0x110, kStbLocal, kSttFunc, "__local"}}), "__local");
  // global beats local
  EXPECT_EQ(pick({{0x100, 0x110, kStbLocal, kSttFunc, "local"}, {0x100, 0x110, kStbGlobal, kSttFunc, "__global"}}), "__global");
  // fewer leading underscores
  EXPECT_EQ(pick({{0x100, 0x110, kStbGlobal, kSttFunc, "__memcpy"}, {0x100, 0x110, kStbGlobal, kSttFunc, "memcpy"}}), "memcpy");
  // then the longer name, then the first
  EXPECT_EQ(pick({{0x100, 0x110, kStbGlobal, kSttFunc, "ab"}, {0x100, 0x110, kStbGlobal, kSttFunc, "abc"}}), "abc");
  EXPECT_EQ(pick({{0x100, 0x110, kStbGlobal, kSttFunc, "xy"}, {0x100, 0x110, kStbGlobal, kSttFunc, "ab"}}), "xy");
}

TEST(SymbolRules, ZeroSizeAliasesKeepTheLastOneWhichGotTheEnd) {
  // kallsyms: _text, _stext at one address; fixup_end gives only the last
  // one a length, so it wins (as perf prints "_stext" there).
  SymbolTable t;
  t.Add(0xffffffff81000000, 0, kStbGlobal, kSttFunc, "_text");
  t.Add(0xffffffff81000000, 0, kStbGlobal, kSttFunc, "_stext");
  t.Add(0xffffffff81000100, 0, kStbGlobal, kSttFunc, "after");
  t.Finish(true);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.Find(0xffffffff81000010)->name, "_stext");
}

TEST(Demangle, AsPerf61PrintsCxxNames) {
  EXPECT_EQ(PerfDemangle("_ZNK6shapes4GridIdE3sumEv"), "shapes::Grid<double>::sum");
  EXPECT_EQ(PerfDemangle("_Z5fib_tILi3EEll"), "fib_t<3>");
  EXPECT_EQ(PerfDemangle("_ZN12_GLOBAL__N_19spin_anonEi"), "(anonymous namespace)::spin_anon");
  EXPECT_EQ(PerfDemangle("_ZN6shapes4GridIiEpLEi"), "shapes::Grid<int>::operator+=");
  EXPECT_EQ(PerfDemangle("main"), "main");
  EXPECT_EQ(PerfDemangle("_Zjunk"), "_Zjunk");
}

TEST(KernelNames, KallsymsRelocatedByTheRecordedTextAddress) {
  // kallsyms read on a boot where the kernel sits 0x200000 higher than
  // when perf recorded (KASLR): perf's kallsyms__delta moves it back.
  std::string ks =
      "ffffffff81200000 T _text\n"
      "ffffffff81201000 T do_syscall_64\n"
      "ffffffff81202000 t helper\n"
      "ffffffffc0100000 t ext4_fn\t[ext4]\n"
      "ffffffffc0100400 t ext4_other\t[ext4]\n";
  SymbolStore st;
  auto b = Bytes(ks);
  MemorySource src(b);
  st.AddFile("kallsyms", src);
  int32_t k = st.Dso("[kernel.kallsyms]", "", true);
  int32_t m = st.Dso("/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko", "", true);
  EXPECT_EQ(st.DsoName(m), "[ext4]");
  st.SetKernelMap("[kernel.kallsyms]_text", 0xffffffff81000000, 0xffffffffffffffff, 0xffffffff81000000);
  st.SetModuleMap(m, 0xffffffffc0100000);
  const Symbol* s = st.Find(k, 0xffffffff81001010);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "do_syscall_64");
  EXPECT_EQ(0xffffffff81001010 - s->start, 0x10u);
  EXPECT_EQ(st.DsoName(k), "[kernel.kallsyms]");
  // module symbols are relative to the module map's start
  const Symbol* ms = st.Find(m, 0x404);
  ASSERT_TRUE(ms);
  EXPECT_EQ(ms->name, "ext4_other");
  uint64_t lo, hi;
  ASSERT_TRUE(st.KernelMapRange(&lo, &hi));
  EXPECT_EQ(lo, 0xffffffff81000000u);
  EXPECT_EQ(hi, 0xffffffff81003000u);  // the last kernel symbol ends a page past its start (next is a module)
}

TEST(KernelNames, KallsymsOfAnotherKernelIsRefused) {
  SymbolStore st;
  auto b = Bytes("ffffffff81000000 T _text\nffffffff81000100 T f\n");
  MemorySource src(b);
  st.AddFile("[kernel.kallsyms]/1111111111111111111111111111111111111111/kallsyms", src, "perf.data.tar.bz2");
  int32_t k = st.Dso("[kernel.kallsyms]", "2222222222222222222222222222222222222222", true);
  EXPECT_EQ(st.Find(k, 0xffffffff81000100), nullptr);
  st.Finish();
  ASSERT_FALSE(st.problems().empty());
  EXPECT_NE(st.problems()[0].message.find("not of the recorded kernel"), std::string::npos);
}

namespace {

// The program of the archive_mt_fp case, out of its perf archive tarball.
std::vector<uint8_t> MtBinary() {
  auto tar = ReadAll(std::filesystem::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf/archive_mt_fp/perf.data.tar.bz2");
  MemorySource src(tar);
  Window w(src);
  archive::TarResult r = archive::ReadTarFile(w, {});
  for (auto& e : r.entries)
    if (e.path.size() > 4 && e.path.compare(e.path.size() - 4, 4, "/elf") == 0) return e.data;
  return {};
}

}  // namespace

TEST(ElfNames, PltEntriesAreNamedAtPltFileOffsets) {
  auto bin = MtBinary();
  ASSERT_FALSE(bin.empty());
  elf::ElfFile f = elf::ReadElfBytes(bin.data(), bin.size());
  ASSERT_TRUE(f.ok);
  SymbolTable t;
  ElfImage im{bin.data(), bin.size(), &f};
  LoadElfSymbols(im, im, ElfRole::kUser, t);
  const elf::Section* plt = f.FindSection(".plt");
  ASSERT_TRUE(plt);
  std::vector<std::string> plts;
  for (const auto& s : t.all())
    if (s.name.size() > 4 && s.name.compare(s.name.size() - 4, 4, "@plt") == 0) {
      plts.push_back(s.name);
      EXPECT_GE(s.start, plt->offset + plt->entsize);
      EXPECT_EQ(s.end - s.start, plt->entsize);
    }
  EXPECT_NE(std::find(plts.begin(), plts.end(), "pthread_create@plt"), plts.end());
  // and the program's own functions, at file offsets (perf script's "spin_b+0x19" at 0x11e7)
  const Symbol* s = t.Find(0x11e7);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "spin_b");
  EXPECT_EQ(0x11e7 - s->start, 0x19u);
}

TEST(ElfNames, MatchedByBuildIdNotByName) {
  auto bin = MtBinary();
  elf::ElfFile f = elf::ReadElfBytes(bin.data(), bin.size());
  SymbolStore st;
  MemorySource src(bin);
  st.AddFile("renamed_program", src);
  int32_t d = st.Dso("/opt/demo/run/archive_mt_fp/mt", f.build_id, false);
  ASSERT_TRUE(st.Find(d, 0x11e7));
  EXPECT_EQ(st.Find(d, 0x11e7)->name, "spin_b");
  EXPECT_EQ(st.DsoName(d), "/opt/demo/run/archive_mt_fp/mt");
  st.Finish();
  EXPECT_TRUE(st.problems().empty());
}

TEST(ElfNames, SameNameOtherBuildIdIsReportedNeverUsed) {
  auto bin = MtBinary();
  SymbolStore st;
  MemorySource src(bin);
  st.AddFile("mt", src);
  int32_t d = st.Dso("/opt/demo/run/archive_mt_fp/mt", "00112233445566778899aabbccddeeff00112233", false);
  EXPECT_EQ(st.Find(d, 0x11e7), nullptr);
  st.Finish();
  ASSERT_EQ(st.problems().size(), 1u);
  EXPECT_NE(st.problems()[0].message.find("build-id"), std::string::npos);
}

// A side file cut (or changed) since it was opened: said, with where it ended, whether it is read when added
// or when a DSO first needs it; what was read is still tried.
TEST(ElfNames, ASideFileCutSinceItWasOpenedIsSaid) {
  auto bin = MtBinary();
  const size_t cut = bin.size() / 2;
  for (const bool lazily : {false, true}) {
    SymbolStore st;
    CutSource src(bin, cut);
    if (lazily)
      st.AddFileLazily("mt", src);
    else
      st.AddFile("mt", src);
    st.Dso("/opt/demo/run/archive_mt_fp/mt", elf::ReadElfBytes(bin.data(), bin.size()).build_id, false);
    st.Finish();
    bool said = false;
    for (const auto& p : st.problems())
      if (p.message.rfind("mt ended at byte offset " + std::to_string(cut) + " while it was read, though it had " + std::to_string(bin.size()) + " bytes", 0) == 0) {
        said = true;
        EXPECT_TRUE(p.ended);
        EXPECT_EQ(p.offset, 0u);  // (not an offset of the main file)
      }
    EXPECT_TRUE(said) << (lazily ? "lazily: " : "") << (st.problems().empty() ? "no problem" : st.problems()[0].message);
  }
}

// A program binary given beside an XRay log or a gperftools profile (read whole through elf::ReadElf), cut
// since it was opened: where it ended, not "cannot read the file".
TEST(ElfNames, ABinaryCutSinceItWasOpenedSaysWhereItEnded) {
  auto bin = MtBinary();
  CutSource src(bin, 1000);
  Window w(src);
  const elf::ElfFile f = elf::ReadElf(w);
  EXPECT_FALSE(f.ok);
  ASSERT_FALSE(f.problems.empty());
  EXPECT_EQ(f.problems[0], "the file ended at byte offset 1000 while it was read, though it had " + std::to_string(bin.size()) +
                               " bytes when it was opened (cut or changed since, or a read failed)");
}

TEST(ElfNames, ASideFileMatchingNothingIsReported) {
  auto bin = MtBinary();
  SymbolStore st;
  MemorySource src(bin);
  st.AddFile("unrelated", src);
  st.Dso("/usr/bin/other", "", false);
  st.Finish();
  ASSERT_EQ(st.problems().size(), 1u);
  EXPECT_NE(st.problems()[0].message.find("matches no DSO"), std::string::npos);
}

// A binary whose .symtab or its string table claims more bytes than the file holds: nothing
// is read from the lying table (libelf refuses it, perf names nothing from it), no frame gets
// an empty name, and the damage is said once, with the table and its claimed extent.
TEST(ElfNames, SymbolTableSizeLiesAreSaidAndNothingIsReadFromThem) {
  auto bin = MtBinary();
  ASSERT_FALSE(bin.empty());
  elf::ElfFile f = elf::ReadElfBytes(bin.data(), bin.size());
  const elf::Section* symtab = f.FindSection(".symtab");
  ASSERT_TRUE(symtab);
  ASSERT_TRUE(f.ok && f.is64 && f.order == ByteOrder::kLittle);
  uint64_t shoff = 0;
  std::memcpy(&shoff, bin.data() + 0x28, 8);
  uint16_t shentsize = 0;
  std::memcpy(&shentsize, bin.data() + 0x3a, 2);
  const size_t tab_index = static_cast<size_t>(symtab - f.sections.data());
  for (size_t which : {tab_index, static_cast<size_t>(symtab->link)}) {
    std::vector<uint8_t> lie = bin;
    const uint64_t huge = uint64_t{1} << 50;
    std::memcpy(lie.data() + shoff + which * shentsize + 32, &huge, 8);  // sh_size
    SymbolStore st;
    MemorySource src(lie);
    st.AddFile("mt", src);
    int32_t d = st.Dso("/opt/demo/run/archive_mt_fp/mt", f.build_id, false);
    const Symbol* s = st.Find(d, 0x11e7);
    EXPECT_TRUE(s == nullptr || !s->name.empty()) << which;
    if (s) EXPECT_NE(s->name, "spin_b") << which;  // .dynsym is not used when a .symtab exists, as in perf
    st.Finish();
    ASSERT_EQ(st.problems().size(), 1u) << which;
    EXPECT_NE(st.problems()[0].message.find("damaged ELF file (.symtab"), std::string::npos) << st.problems()[0].message;
    EXPECT_NE(st.problems()[0].message.find(", +1125899906842624) lies outside the file"), std::string::npos)
        << st.problems()[0].message;
  }
}

TEST(ElfNames, PerfArchiveTarballByContent) {
  auto tar = ReadAll(std::filesystem::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf/archive_mt_fp/perf.data.tar.bz2");
  SymbolStore st;
  MemorySource src(tar);
  st.AddFile("anything.bin", src);
  int32_t d = st.Dso("/opt/demo/run/archive_mt_fp/mt", "0406d1fdeca0551075d37638183cd0cae417a01c", false);
  ASSERT_TRUE(st.Find(d, 0x1321));
  EXPECT_EQ(st.Find(d, 0x1321)->name, "worker_b");
  EXPECT_EQ(st.SourceOf(d), "opt/demo/run/archive_mt_fp/mt/0406d1fdeca0551075d37638183cd0cae417a01c/elf");
}

TEST(DsoNames, AsPerfPrintsThem) {
  EXPECT_EQ(ModuleName("/lib/modules/6.1.0-18-amd64/kernel/drivers/net/virtio-net.ko.xz"), "[virtio_net]");
  EXPECT_EQ(ModuleName("[xfs]"), "[xfs]");
  EXPECT_EQ(KindOfPath("[kernel.kallsyms]_text", true), DsoKind::kKernel);
  EXPECT_EQ(KindOfPath("[vdso]", false), DsoKind::kVdso);
  EXPECT_EQ(KindOfPath("//anon", false), DsoKind::kAnon);
  EXPECT_EQ(KindOfPath("/usr/lib/x86_64-linux-gnu/libc.so.6", false), DsoKind::kUser);
}

TEST(ScriptLines, SampleWithCallchain) {
  script::Fields f = script::DefaultFields(1, 0x127 /* IP|TID|TIME|CALLCHAIN|PERIOD */, true);
  script::Sample s;
  s.comm = "worker-b";
  s.tid = 6776;
  s.time = 9217674104000ull;
  s.period = 1000000;
  s.event = "cpu-clock:ppp";
  s.callchain = true;
  script::Frame user;
  user.ip = 0x55cf9d1911e7;
  user.has_map = true;
  user.map_addr = 0x11e7;
  user.has_sym = true;
  user.sym = "spin_b";
  user.sym_offset = 0x19;
  user.dso = "/opt/demo/run/archive_mt_fp/mt";
  script::Frame kern;
  kern.ip = 0xffffffff81001010;
  kern.has_map = kern.kernel_dso = true;
  kern.map_addr = kern.ip;
  kern.has_sym = true;
  kern.sym = "do_syscall_64";
  kern.sym_offset = 0x10;
  kern.dso = "[kernel.kallsyms]";
  script::Frame unknown;
  unknown.ip = 0x7f0000001234;
  s.frames = {kern, user, unknown};
  std::string out;
  script::AppendSample(f, s, 13, out);
  EXPECT_EQ(out,
            "worker-b  6776  9217.674104:    1000000 cpu-clock:ppp: \n"
            "\tffffffff81001010 do_syscall_64+0x10 ([kernel.kallsyms])\n"
            "\t            11e7 spin_b+0x19 (/opt/demo/run/archive_mt_fp/mt)\n"
            "\t    7f0000001234 [unknown] ([unknown])\n"
            "\n");
}

TEST(ScriptLines, SampleWithoutCallchainCpuAndPaddedNames) {
  script::Fields f = script::DefaultFields(0, 0x187 /* IP|TID|TIME|CPU|PERIOD */, false);
  script::Sample s;
  s.comm = "perf-exec";
  s.tid = 42;
  s.cpu = 1;
  s.time = 5000001999ull;
  s.period = 7;
  s.event = "cycles";
  script::Frame fr;
  fr.ip = 0xffffffff81001010;
  fr.has_map = fr.kernel_dso = true;
  fr.map_addr = fr.ip;
  fr.has_sym = true;
  fr.sym = "x";
  fr.sym_offset = 0;
  fr.dso = "[kernel.kallsyms]";
  s.frames = {fr};
  std::string out;
  script::AppendSample(f, s, 12, out);
  EXPECT_EQ(out, "       perf-exec    42 [001]     5.000001:          7       cycles:  ffffffff81001010 x+0x0 ([kernel.kallsyms])\n");
}

TEST(ScriptLines, TracepointText) {
  script::Fields f = script::DefaultFields(2, 0x587 /* IP|TID|TIME|CPU|PERIOD|RAW */, false);
  script::Sample s;
  s.comm = "swapper";
  s.tid = 0;
  s.cpu = 0;
  s.time = 1000000;
  s.event = "sched:sched_switch";
  s.trace = "prev_comm=swapper/0 prev_pid=0";
  std::string out;
  script::AppendSample(f, s, 18, out);
  EXPECT_EQ(out, "         swapper     0 [000]     0.001000: sched:sched_switch: prev_comm=swapper/0 prev_pid=0\n");
}

// ---- tracepoint formats -------------------------------------------------------

#include "core/trace/tracing_data.h"

TEST(TraceFormat, FieldsByNameFromTheFormatText) {
  std::string text =
      "name: sched_switch\nID: 316\nformat:\n"
      "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
      "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
      "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
      "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
      "\tfield:__data_loc char[] name;\toffset:28;\tsize:4;\tsigned:0;\n"
      "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\n"
      "print fmt: \"prev_comm=%s\", REC->prev_comm\n";
  trace::EventFormat f = trace::ParseFormat(text, "sched");
  EXPECT_EQ(f.name, "sched_switch");
  EXPECT_EQ(f.id, 316u);
  ASSERT_EQ(f.fields.size(), 7u);
  EXPECT_TRUE(f.fields[2].common);
  EXPECT_FALSE(f.fields[3].common);
  EXPECT_EQ(f.fields[3].name, "prev_comm");
  EXPECT_EQ(f.fields[3].type, "char[16]");
  EXPECT_EQ(f.fields[5].type, "__data_loc char[]");
  EXPECT_EQ(f.print_fmt, "\"prev_comm=%s\", REC->prev_comm");
  std::vector<uint8_t> raw(48, 0);
  raw[0] = 0x3c; raw[1] = 0x01;
  std::memcpy(raw.data() + 8, "ksys", 4);
  raw[24] = 0xff; raw[25] = 0xff; raw[26] = 0xff; raw[27] = 0xff;  // -1
  raw[28] = 40; raw[30] = 3;                                        // __data_loc: offset 40, length 3
  std::memcpy(raw.data() + 40, "ab", 3);
  raw[32] = 2;
  auto v = trace::DecodeFields(f, raw.data(), raw.size(), false);
  ASSERT_EQ(v.size(), 7u);
  EXPECT_EQ(v[0].value, "316");
  EXPECT_EQ(v[3].value, "ksys");
  EXPECT_EQ(v[4].value, "-1");
  EXPECT_EQ(v[5].value, "ab");
  EXPECT_EQ(v[5].offset, 40u);
  EXPECT_EQ(v[6].value, "2");
  Field view = trace::TraceFieldsForView(f, raw.data(), 30, false, 1000);  // cut: the last two fields are left out
  ASSERT_EQ(view.children.size(), 5u);
  EXPECT_EQ(view.children[3].value, "\"ksys\"");
  EXPECT_EQ(view.children[3].offset, 1008u);
}

// /tmp/perf-PID.map as perf 6.1's dso__load_perf_map reads it.
TEST(PerfMapText, LinesAsPerfReadsThem) {
  const std::string text =
      "18c4000 300 Builtin:DeoptimizationEntry_Eager\n"
      "7fc07400479c dc JS:~patchProcessObject node:internal/process/pre_execution:223:28\n"
      "zz 10 bad start\n"        // perf's hex2u64 stops at once: start 0, size 0, name " 10 bad start"
      "1000 10\n"                // no room for a name: skipped
      "2000 0 zero size\n"
      "3000 8 last line without newline!";
  auto syms = symbols::ParsePerfMap(text);
  ASSERT_EQ(syms.size(), 5u);
  EXPECT_EQ(syms[0].start, 0x18c4000u);
  EXPECT_EQ(syms[0].size, 0x300u);
  EXPECT_EQ(syms[0].name, "Builtin:DeoptimizationEntry_Eager");
  EXPECT_EQ(syms[1].name, "JS:~patchProcessObject node:internal/process/pre_execution:223:28");  // spaces kept
  EXPECT_EQ(syms[2].start, 0u);
  EXPECT_EQ(syms[2].name, " 10 bad start");
  EXPECT_EQ(syms[3].start, 0x2000u);
  EXPECT_EQ(syms[3].size, 0u);
  EXPECT_EQ(syms[4].name, "last line without newline");  // perf drops the last character of a line
  const std::string two = text.substr(0, text.find("zz"));  // the first two lines: what runtimes write
  EXPECT_TRUE(symbols::LooksLikePerfMap(reinterpret_cast<const uint8_t*>(two.data()), two.size()));
  EXPECT_FALSE(symbols::LooksLikePerfMap(reinterpret_cast<const uint8_t*>(text.data()), text.size()));  // sniffing is strict
  const std::string kallsyms = "ffffffff81000000 T _text\nffffffff81000040 T startup_64\n";
  EXPECT_FALSE(symbols::LooksLikePerfMap(reinterpret_cast<const uint8_t*>(kallsyms.data()), kallsyms.size()));
  const std::string prose = "hello world this is text\n";
  EXPECT_FALSE(symbols::LooksLikePerfMap(reinterpret_cast<const uint8_t*>(prose.data()), prose.size()));
  EXPECT_EQ(symbols::PerfMapPid("/tmp/perf-22503.map"), 22503);
  EXPECT_EQ(symbols::PerfMapPid("perf-1.map"), 1);
  EXPECT_EQ(symbols::PerfMapPid("perf-x.map"), -1);
  EXPECT_EQ(symbols::PerfMapPid("perf.data"), -1);
}

// Its symbols at absolute addresses, in perf's tree without repairs: of two at
// one start perf's descent meets the one its rebalancing put higher (here the
// second: the third insert rotates it to the root); a zero-size one holds
// just its address.
TEST(PerfMapText, StoreNamesThePerfMapDso) {
  const std::string text = "7f0000001000 100 JS:*first\n7f0000001000 80 JS:*again\n7f0000002000 0 Stub\n";
  std::vector<uint8_t> bytes(text.begin(), text.end());
  MemorySource src(bytes.data(), bytes.size());
  SymbolStore store;
  store.AddFileLazily("perf-4242.map", src);
  const int32_t dso = store.Dso("/tmp/perf-4242.map", "", false);
  EXPECT_EQ(store.Kind(dso), DsoKind::kPerfMap);
  const Symbol* s = store.Find(dso, 0x7f0000001050);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "JS:*again");
  // past "again"'s end the descent goes right, away from "first": perf's [unknown]
  EXPECT_FALSE(store.Find(dso, 0x7f0000001090));
  EXPECT_FALSE(store.Find(dso, 0x7f0000001100));
  ASSERT_TRUE(store.Find(dso, 0x7f0000002000));
  EXPECT_EQ(store.Find(dso, 0x7f0000002000)->name, "Stub");
  EXPECT_FALSE(store.Find(dso, 0x7f0000002001));
  // Another process's map does not name it.
  const int32_t other = store.Dso("/tmp/perf-1.map", "", false);
  EXPECT_FALSE(store.Find(other, 0x7f0000001050));
}

// One memory budget bounds the decode, side files included: a binary whose bytes would
// take the side files read past it is not read (a problem says so), never an abort.
TEST(SymbolStoreBudget, AFileThatWouldPassTheBudgetIsNotRead) {
  auto bin = MtBinary();
  ASSERT_FALSE(bin.empty());
  elf::ElfFile f = elf::ReadElfBytes(bin.data(), bin.size());
  ASSERT_TRUE(f.ok);
  for (bool fits : {true, false}) {
    SCOPED_TRACE(fits);
    MemorySource src(bin.data(), bin.size());
    SymbolStore store;
    store.set_memory_limit(fits ? bin.size() : bin.size() - 1);
    store.AddFileLazily("mt", src);
    const int32_t d = store.Dso("/opt/demo/run/archive_mt_fp/mt", f.build_id, false);
    EXPECT_EQ(store.Find(d, 0x11e7) != nullptr, fits);
    store.Finish();
    bool said = false;
    for (const auto& p : store.problems()) said = said || p.message.find("past the memory budget") != std::string::npos;
    EXPECT_EQ(said, !fits);
  }
}
