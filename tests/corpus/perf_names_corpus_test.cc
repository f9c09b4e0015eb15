// Frame NAMES and `perf script` TEXT against perf's own, on the perf cases
// where profscope has the files perf had: the case's side files (a perf
// archive tarball, the recorded program) plus this machine's Debian 12
// libc6 and ld.so with libc6-dbg's debug files (what perf used for them).
// The driver (perf_names_driver.h) replays the samples independently of the
// decoder (an oracle for the order and the names); PerfNamesSession checks
// what the decoder itself gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <filesystem>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/elf/elf_reader.h"
#include "tests/corpus/corpus_util.h"
#include "tests/corpus/perf_names_driver.h"

namespace fs = std::filesystem;

namespace {

using profscope::MemorySource;
using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;

// The system files perf named libc/ld.so frames from, and their debug files.
std::vector<fs::path> SystemSymbolFiles() {
  std::vector<fs::path> out;
  for (const char* p : {"/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2"}) {
    if (!fs::exists(p)) continue;
    out.push_back(p);
    for (const auto& dbg : profscope::corpus::DebugFilesOf({p})) out.push_back(dbg);
  }
  return out;
}

bool IsReference(const std::string& f) {
  for (const char* ext : {".txt", ".json", ".sh", ".gz", ".stderr", ".rc", ".log", ".stdout", ".md", ".py", ".c", ".cc"})
    if (f.size() >= std::strlen(ext) && f.compare(f.size() - std::strlen(ext), std::strlen(ext), ext) == 0) return true;
  return f == "perf.data" || f == "pipe.data";
}

struct Replayed {
  std::vector<std::vector<uint8_t>> keep;
  profscope::symbols::SymbolStore store;
  std::unique_ptr<profscope::testing::PerfReplay> replay;
};

std::unique_ptr<Replayed> Replay(const std::string& name) {
  auto r = std::make_unique<Replayed>();
  fs::path dir = profscope::corpus::PerfData() / name;
  std::vector<fs::path> side;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && !IsReference(e.path().filename().string())) side.push_back(e.path());
  for (const auto& p : SystemSymbolFiles()) side.push_back(p);
  // tracepoint_sched_g recorded the same program on the same boot as archive_kernel_fp.
  if (name == "tracepoint_sched_g") side.push_back(dir / ".." / "archive_kernel_fp" / "perf.data.tar.bz2");
  for (const auto& p : side) {
    r->keep.push_back(ReadFile(p));
    MemorySource src(r->keep.back());
    r->store.AddFile(p.filename().string(), src);
  }
  r->keep.push_back(ReadFile(profscope::corpus::PerfInput(dir)));
  r->replay = std::make_unique<profscope::testing::PerfReplay>(r->keep.back(), r->store);
  if (!r->replay->Run()) return nullptr;
  r->store.Finish();
  return r;
}

// Cases where perf named every frame from files profscope has too.
const std::vector<std::string> kComplete = {"archive_kernel_fp", "archive_mt_fp", "tracepoint_sched_g"};
// More, checked through the Session only (the replay driver neither unwinds
// --call-graph dwarf stacks nor marks perf's "[unknown]"): archive_dwarf_lib
// (the DWARF unwinder reads the program and its library from the tarball),
// archive_stripped_fp (a stripped program in the tarball: perf prints
// "[unknown]" for its frames although it has the file).
const std::vector<std::string> kCompleteSession = {"archive_kernel_fp", "archive_mt_fp", "tracepoint_sched_g",
                                                   "archive_dwarf_lib", "archive_stripped_fp"};

class PerfNames : public ::testing::TestWithParam<std::string> {};

TEST_P(PerfNames, FoldedNamesEqualPerf) {
  auto r = Replay(GetParam());
  ASSERT_TRUE(r);
  fs::path dir = profscope::corpus::PerfData() / GetParam();
  std::string want = ReadText(dir / "folded_sym.txt");
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(want, r->replay->Folded(""));
  // The case's own side files must all be used (the system libraries are
  // offered to every case and may have no DSO in a static program's recording).
  for (const auto& p : r->store.problems())
    if (p.input.find(".so") == std::string::npos && p.input.find(".debug") == std::string::npos)
      ADD_FAILURE() << p.input << ": " << p.message;
}

TEST_P(PerfNames, ScriptEqualsPerfScript) {
  auto r = Replay(GetParam());
  ASSERT_TRUE(r);
  fs::path dir = profscope::corpus::PerfData() / GetParam();
  std::string want = ReadText(dir / "script_default.txt");
  ASSERT_FALSE(want.empty());
  std::string got = r->replay->Script();
  if (got != want) {
    auto a = profscope::corpus::Lines(want), b = profscope::corpus::Lines(got);
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      std::string x = i < a.size() ? a[i] : "<end>", y = i < b.size() ? b[i] : "<end>";
      if (x != y) { ADD_FAILURE() << "line " << i + 1 << "\n perf: " << x << "\n ours: " << y; break; }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Complete, PerfNames, ::testing::ValuesIn(kComplete),
                         [](const auto& info) { return info.param; });

}  // namespace

namespace {

// Through the Session (what `profscope stacks FILE --symbols ...` prints):
// the decoder interprets records in perf's time order (perf_ordered_events.h),
// so every frame perf named is named, and the addresses stay perf's.
class PerfNamesSession : public ::testing::TestWithParam<std::string> {};

struct Opened {
  std::vector<uint8_t> data;
  std::unique_ptr<MemorySource> src;
  std::unique_ptr<profscope::Session> s;
  std::vector<std::vector<uint8_t>> keep;
  std::vector<std::unique_ptr<MemorySource>> srcs;
};

// The case's perf.data with the tarball perf archive made for it and the system libraries.
std::unique_ptr<Opened> Open(const std::string& name) {
  auto o = std::make_unique<Opened>();
  fs::path dir = profscope::corpus::PerfData() / name;
  o->data = ReadFile(dir / "perf.data");
  o->src = std::make_unique<MemorySource>(o->data);
  o->s = std::make_unique<profscope::Session>(*o->src, "perf.data");
  std::vector<fs::path> side = SystemSymbolFiles();
  side.insert(side.begin(), name == "tracepoint_sched_g" ? dir / ".." / "archive_kernel_fp" / "perf.data.tar.bz2"
                                                         : dir / "perf.data.tar.bz2");
  // A program perf archive left out (its frames are only in callchains).
  if (fs::exists(dir / "ksys")) side.push_back(dir / "ksys");
  o->keep.reserve(side.size());
  for (const auto& p : side) {
    o->keep.push_back(ReadFile(p));
    o->srcs.push_back(std::make_unique<MemorySource>(o->keep.back()));
    o->s->AddSideFile(*o->srcs.back(), p.string());
  }
  return o;
}

// `profscope script FILE --symbols ...` against perf script's default output.
TEST_P(PerfNamesSession, ScriptEqualsPerfScript) {
  auto o = Open(GetParam());
  ASSERT_TRUE(o->s->Decode());
  fs::path dir = profscope::corpus::PerfData() / GetParam();
  std::string want = ReadText(dir / "script_default.txt");
  ASSERT_FALSE(want.empty());
  std::string got;
  {
    profscope::StringSink sink(got);
    ASSERT_TRUE(o->s->WriteScript(sink));
  }
  if (GetParam() == "tracepoint_sched_g" && !profscope::trace::TracePrinter::Available())
    GTEST_SKIP() << "tracepoint payloads need libtraceevent (not in this build)";
  if (got != want) {
    auto a = profscope::corpus::Lines(want), b = profscope::corpus::Lines(got);
    size_t same = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) same += a[i] == b[i];
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      std::string x = i < a.size() ? a[i] : "<end>", y = i < b.size() ? b[i] : "<end>";
      if (x != y) { ADD_FAILURE() << same << " of " << a.size() << " lines equal; first difference, line " << i + 1 << "\n perf: " << x << "\n ours: " << y; break; }
    }
  }
}

// Kernel addresses inside tracepoint payloads (%pS: a kmalloc's call_site,
// %ps: a timer's function) are named from the session's kernel symbols, here
// the archive's kallsyms, as perf script names them; without them perf and
// profscope print the bare address.
TEST(PerfNamesTracepoint, PayloadKernelAddressesNamedAsPerfNamesThem) {
  if (!profscope::trace::TracePrinter::Available()) GTEST_SKIP() << "needs libtraceevent";
  const std::string name = "tracepoint_kmem_timer";
  fs::path dir = profscope::corpus::PerfData() / name;
  std::string want = ReadText(dir / "script_default.txt");
  ASSERT_FALSE(want.empty());
  auto o = Open(name);
  ASSERT_TRUE(o->s->Decode());
  std::string got;
  {
    profscope::StringSink sink(got);
    ASSERT_TRUE(o->s->WriteScript(sink));
  }
  EXPECT_NE(got.find("kmem:kmalloc: call_site=perf_event_mmap+0x155 ptr="), std::string::npos);
  EXPECT_NE(got.find("timer:hrtimer_start: hrtimer=0x"), std::string::npos);
  EXPECT_EQ(got.find("call_site=0xffffffff"), std::string::npos);
  auto a = profscope::corpus::Lines(want), b = profscope::corpus::Lines(got);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << "line " << i + 1;

  // Without the tarball there is no kernel symbol: the payloads keep the address.
  auto data = ReadFile(dir / "perf.data");
  MemorySource src(data);
  profscope::Session bare(src, "perf.data");
  ASSERT_TRUE(bare.Decode());
  std::string plain;
  {
    profscope::StringSink sink(plain);
    ASSERT_TRUE(bare.WriteScript(sink));
  }
  EXPECT_NE(plain.find("kmem:kmalloc: call_site=0xffffffff"), std::string::npos);
  EXPECT_EQ(plain.find("call_site=perf_event_mmap"), std::string::npos);
}

// A format whose quoted string never closes would make libtraceevent (and perf) read forever: the decode
// warns where the string opens, prints that event's samples by their fields and every other event as perf.
TEST(PerfNamesTracepoint, AFormatWithAnUnclosedQuoteIsWarnedAboutAndItsSamplesShownByField) {
  fs::path dir = profscope::corpus::PerfData() / "tracepoint_kmem_timer";
  auto data = ReadFile(dir / "perf.data");
  const std::string head = "name: kmalloc\n";
  auto at = std::search(data.begin(), data.end(), head.begin(), head.end());
  ASSERT_NE(at, data.end());
  const std::string pf = "print fmt:";
  auto fmt = std::search(at, data.end(), pf.begin(), pf.end());
  auto eol = std::find(fmt, data.end(), static_cast<uint8_t>('\n'));
  ASSERT_NE(eol, data.end());
  // The print fmt line's last quote becomes a space: its last string (opened at `open`) never closes.
  auto last = std::find(std::make_reverse_iterator(eol), std::make_reverse_iterator(fmt), static_cast<uint8_t>('"'));
  auto open = std::find(std::make_reverse_iterator(last.base() - 1), std::make_reverse_iterator(fmt),
                        static_cast<uint8_t>('"'));
  const size_t open_at = static_cast<size_t>(open.base() - 1 - data.begin());
  *(last.base() - 1) = ' ';
  MemorySource src(data);
  profscope::Session s(src, "perf.data");
  ASSERT_TRUE(s.Decode());
  const std::string diags = s.DiagnosticsJson();
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%zx", open_at);
  EXPECT_NE(diags.find(std::string("TRACING_DATA: the format of kmem:kmalloc has a quoted string that never closes at ") +
                       hex),
            std::string::npos)
      << diags;
  EXPECT_NE(diags.find("\"offset\":" + std::to_string(open_at)), std::string::npos) << diags;
  std::string got;
  {
    profscope::StringSink sink(got);
    ASSERT_TRUE(s.WriteScript(sink));
  }
  // (perf: "kmem:kmalloc: call_site=0xffffffff81... ptr=0xffff88810994f000 bytes_req=4096 ... gfp_flags=GFP_KERNEL")
  EXPECT_NE(got.find("kmem:kmalloc: call_site=18446744071584599253 ptr=18446612686525755392 bytes_req=4096 "
                     "bytes_alloc=4096 gfp_flags=3264 node=-1"),
            std::string::npos);
  if (profscope::trace::TracePrinter::Available()) {
    EXPECT_NE(got.find("timer:hrtimer_start: hrtimer=0x"), std::string::npos);
    EXPECT_EQ(got.find("gfp_flags=GFP_KERNEL"), std::string::npos);
  }
}

TEST_P(PerfNamesSession, StacksWithSideFilesEqualPerfFoldedNames) {
  fs::path dir = profscope::corpus::PerfData() / GetParam();
  auto data = ReadFile(dir / "perf.data");
  MemorySource src(data);
  profscope::Session s(src, "perf.data");
  std::vector<std::vector<uint8_t>> keep;
  std::vector<std::unique_ptr<MemorySource>> srcs;
  std::vector<fs::path> side = SystemSymbolFiles();
  // tracepoint_sched_g recorded the same program on the same boot as archive_kernel_fp.
  side.insert(side.begin(), GetParam() == "tracepoint_sched_g" ? dir / ".." / "archive_kernel_fp" / "perf.data.tar.bz2"
                                                              : dir / "perf.data.tar.bz2");
  keep.reserve(side.size());
  for (const auto& p : side) {
    keep.push_back(ReadFile(p));
    srcs.push_back(std::make_unique<MemorySource>(keep.back()));
    s.AddSideFile(*srcs.back(), p.string());
  }
  ASSERT_TRUE(s.Decode());
  EXPECT_EQ(s.StacksText(false, ""), ReadText(dir / "folded_sym.txt"));
  EXPECT_EQ(s.StacksText(true, ""), ReadText(dir / "folded_addrs.txt"));
  for (const auto& d : s.result().diags.items())
    if (d.message.find(".so") == std::string::npos && d.message.find(".debug") == std::string::npos)
      ADD_FAILURE() << d.message;
}

INSTANTIATE_TEST_SUITE_P(Complete, PerfNamesSession, ::testing::ValuesIn(kCompleteSession),
                         [](const auto& info) { return info.param; });

}  // namespace

namespace {


// Given only what a person has (perf.data, the tarball, the stripped libc.so.6
// and ld.so), the session finds libc6-dbg's debug files where perf does and
// names every frame as perf does; without file access (the page) the libc
// frames stay unnamed.
class PerfNamesFindsDebugFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(PerfNamesFindsDebugFiles, StacksAndScriptEqualPerf) {
  const std::string libc = "/lib/x86_64-linux-gnu/libc.so.6", ldso = "/lib64/ld-linux-x86-64.so.2";
  if (!fs::exists(libc) || !fs::exists(ldso) || !fs::exists("/usr/lib/debug/.build-id"))
    GTEST_SKIP() << "needs Debian 12's libc6 and libc6-dbg (scripts/setup.sh)";
  fs::path dir = profscope::corpus::PerfData() / GetParam();
  fs::path tarball = GetParam() == "tracepoint_sched_g" ? dir / ".." / "archive_kernel_fp" / "perf.data.tar.bz2"
                                                        : dir / "perf.data.tar.bz2";
  for (bool with_access : {true, false}) {
    auto data = ReadFile(dir / "perf.data");
    MemorySource src(data);
    profscope::Session s(src, "perf.data");
    profscope::corpus::HostFiles files;
    std::vector<std::vector<uint8_t>> keep;
    std::vector<std::unique_ptr<MemorySource>> srcs;
    for (const fs::path& p : {tarball, fs::path(libc), fs::path(ldso)}) {
      keep.push_back(ReadFile(p));
      srcs.push_back(std::make_unique<MemorySource>(keep.back()));
      s.AddSideFile(*srcs.back(), p.string());
    }
    if (with_access) s.SetFileAccess(&files);
    ASSERT_TRUE(s.Decode());
    std::string folded = s.StacksText(false, "");
    if (with_access) {
      EXPECT_EQ(folded, ReadText(dir / "folded_sym.txt"));
      EXPECT_EQ(s.StacksText(true, ""), ReadText(dir / "folded_addrs.txt"));
      bool found = false;
      for (const auto& d : s.result().diags.items())
        found = found || d.message == "debug file of " + libc +
                                          " found at /usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug "
                                          "(perf's build-id place)";
      EXPECT_TRUE(found) << s.DiagnosticsJson();
      if (GetParam() == "archive_mt_fp") {
        EXPECT_NE(folded.find("__libc_start_call_main"), std::string::npos);
        EXPECT_NE(folded.find("start_thread;worker_b;work_b;spin_b"), std::string::npos);
      }
      std::string script;
      {
        profscope::StringSink sink(script);
        ASSERT_TRUE(s.WriteScript(sink));
      }
      if (GetParam() != "tracepoint_sched_g" || profscope::trace::TracePrinter::Available())
        EXPECT_EQ(script, ReadText(dir / "script_default.txt"));
    } else if (GetParam() == "archive_mt_fp") {
      EXPECT_EQ(folded.find("__libc_start_call_main"), std::string::npos);
      EXPECT_NE(folded, ReadText(dir / "folded_sym.txt"));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Complete, PerfNamesFindsDebugFiles, ::testing::ValuesIn(kComplete),
                         [](const auto& info) { return info.param; });

}  // namespace

// A tracepoint sample's raw data in the record view: each field of its event's
// format (TRACING_DATA) by name, at its bytes, as perf script -F trace reads them.
TEST(PerfTracepointFields, RawDataShowsTheFormatsFieldsByName) {
  fs::path dir = profscope::corpus::PerfData() / "tracepoint_sched_g";
  auto data = ReadFile(dir / "perf.data");
  MemorySource src(data);
  profscope::Session s(src, "perf.data");
  ASSERT_TRUE(s.Decode());
  // The first sample in file order and perf script's line for it (its time).
  const auto& rt = s.result().records;
  int32_t row = -1;
  for (size_t i = 0; i < rt.rows() && row < 0; ++i)
    if (s.RecordTypeName(static_cast<int32_t>(i)) == "SAMPLE") row = static_cast<int32_t>(i);
  ASSERT_GE(row, 0);
  const std::string json = s.RecordFieldsJson(row);
  EXPECT_NE(json.find("\"value\":\"sched:sched_switch, 68 bytes\""), std::string::npos) << json;
  for (const char* f : {"\"name\":\"prev_comm\"", "\"name\":\"prev_pid\"", "\"name\":\"prev_state\"", "\"name\":\"next_comm\"",
                        "\"name\":\"next_pid\"", "\"name\":\"common_pid\""})
    EXPECT_NE(json.find(f), std::string::npos) << f << " in " << json;
  // Its values are perf's (perf script -F trace: "prev_comm=ksys prev_pid=8024 ... next_comm=cc1plus next_pid=7873").
  const std::string trace = ReadText(dir / "script_trace.txt");
  ASSERT_NE(trace.find("prev_comm=ksys prev_pid=8024 prev_prio=120 prev_state=R ==> next_comm=cc1plus next_pid=7873"),
            std::string::npos);
  EXPECT_NE(json.find("\"name\":\"prev_comm\",\"offset\":964,\"size\":16,\"value\":\"\\\"ksys\\\"\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\":\"prev_pid\",\"offset\":980,\"size\":4,\"value\":\"8024\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\":\"next_comm\",\"offset\":996,\"size\":16,\"value\":\"\\\"cc1plus\\\"\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\":\"next_pid\",\"offset\":1012,\"size\":4,\"value\":\"7873\""), std::string::npos) << json;
}
