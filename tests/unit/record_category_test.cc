// Every decoder gives every row it adds a format-neutral category and a type
// name (Session::RecordCategory / RecordTypeName), so the page needs no
// format's type table: perf.data (file and pipe mode, simpleperf, payloads),
// XRay (a TSCWrap is "TSCWrap", metadata, never perf's CGROUP), gperftools
// and jitdump.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/api/session.h"

namespace profscope {
namespace {

namespace fs = std::filesystem;
const fs::path kData = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data";

std::vector<uint8_t> ReadFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

struct Opened {
  std::vector<uint8_t> bytes;
  std::unique_ptr<MemorySource> src;
  std::unique_ptr<Session> s;
};

std::unique_ptr<Opened> Open(std::vector<uint8_t> bytes) {
  auto o = std::make_unique<Opened>();
  o->bytes = std::move(bytes);
  o->src = std::make_unique<MemorySource>(o->bytes);
  o->s = std::make_unique<Session>(*o->src, "test");
  o->s->Decode();
  return o;
}

// type name -> the categories rows of that name got.
std::map<std::string, std::set<std::string>> Categories(const Session& s) {
  std::map<std::string, std::set<std::string>> out;
  for (size_t i = 0; i < s.result().records.rows(); ++i) {
    const int32_t row = static_cast<int32_t>(i);
    out[s.RecordTypeName(row)].insert(RecordCategoryName(s.RecordCategory(row)));
  }
  return out;
}

using Set = std::set<std::string>;

TEST(RecordCategory, Names) {
  EXPECT_STREQ(RecordCategoryName(RecordCategory::kMetadata), "metadata");
  EXPECT_STREQ(RecordCategoryName(RecordCategory::kSample), "sample");
  EXPECT_STREQ(RecordCategoryName(RecordCategory::kTask), "task/mmap");
  EXPECT_STREQ(RecordCategoryName(RecordCategory::kKernelEvent), "kernel event");
  EXPECT_STREQ(RecordCategoryName(RecordCategory::kUserEvent), "user/synthesized");
  EXPECT_STREQ(RecordCategoryName(RecordCategory::kPayload), "payload");
  EXPECT_STREQ(RecordCategoryName(RecordCategory::kUnparsed), "unparsed");
}

TEST(RecordCategory, PerfFileMode) {
  auto o = Open(ReadFile(kData / "perf/default_event/perf.data"));
  auto c = Categories(*o->s);
  EXPECT_EQ(c["file header"], Set{"metadata"});
  EXPECT_EQ(c["attr"], Set{"metadata"});
  EXPECT_EQ(c["data section"], Set{"metadata"});
  EXPECT_EQ(c["feature HOSTNAME"], Set{"metadata"});
  EXPECT_EQ(c["SAMPLE"], Set{"sample"});
  EXPECT_EQ(c["MMAP2"], Set{"task/mmap"});
  EXPECT_EQ(c["COMM"], Set{"task/mmap"});
  EXPECT_EQ(c["FINISHED_ROUND"], Set{"user/synthesized"});
  EXPECT_EQ(o->s->RecordTypeName(-1), "");
  EXPECT_EQ(o->s->RecordCategory(1 << 30), RecordCategory::kUnparsed);
}

TEST(RecordCategory, PerfEveryRowOfEveryCase) {
  // Kernel records other than the task ones are kernel events; perf's own
  // records user/synthesized; payloads and unparsed bytes their own.
  const std::set<std::string> task = {"MMAP", "MMAP2", "COMM", "FORK", "EXIT", "NAMESPACES", "CGROUP"};
  const std::set<std::string> kernel = {"LOST", "THROTTLE", "UNTHROTTLE", "READ", "AUX", "ITRACE_START",
                                        "LOST_SAMPLES", "SWITCH", "SWITCH_CPU_WIDE", "KSYMBOL", "BPF_EVENT",
                                        "TEXT_POKE", "AUX_OUTPUT_HW_ID"};
  size_t cases = 0;
  std::set<std::string> seen;
  for (const auto& e : fs::directory_iterator(kData / "perf")) {
    fs::path in = e.path() / "perf.data";
    if (!fs::exists(in)) in = e.path() / "pipe.data";
    if (!fs::exists(in)) continue;
    ++cases;
    auto o = Open(ReadFile(in));
    const RecordTable& t = o->s->result().records;
    ASSERT_EQ(t.category.size(), t.rows()) << in;
    for (size_t i = 0; i < t.rows(); ++i) {
      const int32_t row = static_cast<int32_t>(i);
      const std::string name = o->s->RecordTypeName(row);
      const std::string cat = RecordCategoryName(o->s->RecordCategory(row));
      const auto kind = static_cast<RecordKind>(t.kind[i]);
      seen.insert(cat);
      if (kind == RecordKind::kPayload) EXPECT_EQ(cat, "payload") << in << " row " << i;
      else if (kind == RecordKind::kUnparsed) EXPECT_EQ(cat, "unparsed") << in << " row " << i;
      else if (kind != RecordKind::kRecord && kind != RecordKind::kNested) EXPECT_EQ(cat, "metadata") << in << " " << name;
      else if (name == "SAMPLE") EXPECT_EQ(cat, "sample") << in;
      else if (task.count(name)) EXPECT_EQ(cat, "task/mmap") << in << " " << name;
      else if (kernel.count(name)) EXPECT_EQ(cat, "kernel event") << in << " " << name;
      else if (t.type[i] >= 64) EXPECT_EQ(cat, "user/synthesized") << in << " " << name;
      else EXPECT_EQ(cat, "kernel event") << in << " " << name;  // an unknown kernel type
    }
  }
  EXPECT_GE(cases, 20u);
  // The corpus has every category but metadata-free files: all seven show up.
  EXPECT_EQ(seen, (Set{"metadata", "sample", "task/mmap", "kernel event", "user/synthesized", "payload", "unparsed"}));
}

TEST(RecordCategory, PerfPipeMode) {
  auto o = Open(ReadFile(kData / "perf/pipe_mode/pipe.data"));
  auto c = Categories(*o->s);
  EXPECT_EQ(c["pipe header"], Set{"metadata"});
  EXPECT_EQ(c["HEADER_ATTR"], Set{"user/synthesized"});
  EXPECT_EQ(c["SAMPLE"], Set{"sample"});
}

TEST(RecordCategory, Simpleperf) {
  auto o = Open(ReadFile(kData / "simpleperf/perf_with_callchain_record/perf.data"));
  auto c = Categories(*o->s);
  EXPECT_EQ(c["SAMPLE"], Set{"sample"});
  bool any = false;
  for (const auto& [name, cats] : c) {
    if (name.rfind("SIMPLEPERF_", 0) != 0) continue;  // simpleperf's 32769.. records
    EXPECT_EQ(cats, Set{"user/synthesized"}) << name;
    any = true;
  }
  EXPECT_TRUE(any);
}

// A version-5 FDR log with a TSCWrap (type 19, perf's CGROUP number), a
// custom event with its payload, and a function enter/exit.
std::vector<uint8_t> XRayLogWithTscWrap() {
  std::vector<uint8_t> b;
  auto n = [&](uint64_t v, int k) { for (int i = 0; i < k; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i))); };
  auto meta = [&](uint8_t kind) { b.push_back(static_cast<uint8_t>(kind << 1 | 1)); };
  auto end = [&](size_t start) { b.resize(start + 16, 0); };
  n(5, 2); n(1, 2); n(3, 4); n(1000000000, 8); n(0, 16);  // header: version 5, FDR
  size_t s = b.size(); meta(7); n(0, 8); end(s);          // BufferExtents (size patched below)
  const size_t ext = s + 1, body = b.size();
  s = b.size(); meta(0); n(42, 4); end(s);                // NewBuffer tid 42
  s = b.size(); meta(2); n(0, 2); n(1000, 8); end(s);     // NewCPUId
  s = b.size(); meta(3); n(5000, 8); end(s);              // TSCWrap
  n(1u << 4 | 0u << 1, 4); n(10, 4);                      // enter function 1
  s = b.size(); meta(5); n(3, 4); n(1, 4); end(s);        // CustomEventMarker, 3 bytes
  b.push_back('a'); b.push_back('b'); b.push_back('c');
  n(1u << 4 | 1u << 1, 4); n(10, 4);                      // exit function 1
  const uint64_t size = b.size() - body;
  for (int i = 0; i < 8; ++i) b[ext + static_cast<size_t>(i)] = static_cast<uint8_t>(size >> (8 * i));
  return b;
}

TEST(RecordCategory, XRayTscWrapIsNeverCgroup) {
  auto o = Open(XRayLogWithTscWrap());
  const Session& s = *o->s;
  ASSERT_FALSE(s.result().diags.has_fatal());
  auto c = Categories(s);
  EXPECT_EQ(c["TSCWrap"], Set{"metadata"});
  EXPECT_EQ(c.count("CGROUP"), 0u);
  EXPECT_EQ(c["file header"], Set{"metadata"});
  EXPECT_EQ(c["BufferExtents"], Set{"metadata"});
  EXPECT_EQ(c["NewBuffer"], Set{"metadata"});
  EXPECT_EQ(c["NewCPUId"], Set{"metadata"});
  EXPECT_EQ(c["CustomEventMarker"], Set{"user/synthesized"});
  EXPECT_EQ(c["event payload"], Set{"payload"});
  EXPECT_EQ(c["function enter"], Set{"sample"});
  EXPECT_EQ(c["function exit"], Set{"sample"});
  // The TSCWrap row's type number is perf's CGROUP's; its name is not.
  for (size_t i = 0; i < s.result().records.rows(); ++i) {
    if (s.RecordTypeName(static_cast<int32_t>(i)) == "TSCWrap") {
      EXPECT_EQ(s.result().records.type[i], 19u);
    }
  }
}

TEST(RecordCategory, XRayBasicMode) {
  auto o = Open(ReadFile(kData / "xray/basic_threads/xray.log"));
  auto c = Categories(*o->s);
  EXPECT_EQ(c["file header"], Set{"metadata"});
  EXPECT_EQ(c["basic enter"], Set{"sample"});
  EXPECT_EQ(c["basic exit"], Set{"sample"});
}

TEST(RecordCategory, Gperftools) {
  auto o = Open(ReadFile(kData / "gperf/calltree_1000hz/cpu.prof"));
  auto c = Categories(*o->s);
  EXPECT_EQ(c["header"], Set{"metadata"});
  EXPECT_EQ(c["sample"], Set{"sample"});
  EXPECT_EQ(c["trailer"], Set{"metadata"});
  EXPECT_EQ(c["maps"], Set{"metadata"});
}

TEST(RecordCategory, Jitdump) {
  auto o = Open(ReadFile(kData / "jitdump/ddprof_llvm_1560413/jit-1560413.dump"));
  auto c = Categories(*o->s);
  EXPECT_EQ(c["jitdump header"], Set{"metadata"});
  EXPECT_EQ(c["CODE_LOAD"], Set{"task/mmap"});
  for (const auto& [name, cats] : c) {
    if (name == "DEBUG_INFO" || name == "CODE_CLOSE" || name == "UNWINDING_INFO") {
      EXPECT_EQ(cats, Set{"user/synthesized"}) << name;
    }
  }
  // The label keeps the instance detail; the type name does not.
  const Session& s = *o->s;
  for (size_t i = 0; i < s.result().records.rows(); ++i) {
    if (s.RecordTypeName(static_cast<int32_t>(i)) != "CODE_LOAD") continue;
    EXPECT_NE(s.RecordLabel(static_cast<int32_t>(i)), "CODE_LOAD");
    break;
  }
}

}  // namespace
}  // namespace profscope
