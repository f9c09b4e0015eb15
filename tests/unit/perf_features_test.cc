// Tests of the perf.data feature-section decoder (core/format/perf/perf_features).
//
// Synthetic sections are built in both byte orders with a tiny local writer;
// real sections come from tests/data/perf/*/perf.data|pipe.data and are
// checked against perf's own decode (header.txt = perf report --header-only -I).
#include "core/format/perf/perf_features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/format/perf/perf_format.h"

#ifndef PROFSCOPE_SOURCE_DIR
#define PROFSCOPE_SOURCE_DIR "."
#endif

namespace profscope::perf {
namespace {

// ---- helpers ------------------------------------------------------------------------

// Appends integers in a chosen byte order.
class W {
 public:
  explicit W(ByteOrder o) : o_(o) {}
  W& u8(uint8_t v) { b_.push_back(v); return *this; }
  W& u16(uint16_t v) { return Put(v, 2); }
  W& u32(uint32_t v) { return Put(v, 4); }
  W& u64(uint64_t v) { return Put(v, 8); }
  W& bytes(const void* p, size_t n) {
    const uint8_t* c = static_cast<const uint8_t*>(p);
    b_.insert(b_.end(), c, c + n);
    return *this;
  }
  W& bytes(const std::string& s) { return bytes(s.data(), s.size()); }
  W& zeros(size_t n) { b_.insert(b_.end(), n, 0); return *this; }
  // perf_header_string as perf writes it: length padded to 64 incl. the NUL.
  W& str(const std::string& s) {
    uint32_t len = static_cast<uint32_t>((s.size() + 1 + 63) / 64 * 64);
    u32(len);
    bytes(s);
    return zeros(len - s.size());
  }
  W& cstr(const std::string& s) { bytes(s); return u8(0); }
  size_t size() const { return b_.size(); }
  const std::vector<uint8_t>& data() const { return b_; }

 private:
  W& Put(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) {
      int shift = o_ == ByteOrder::kBig ? 8 * (n - 1 - i) : 8 * i;
      b_.push_back(static_cast<uint8_t>(v >> shift));
    }
    return *this;
  }
  ByteOrder o_;
  std::vector<uint8_t> b_;
};

constexpr uint64_t kBase = 0x1000;

struct Result {
  FeatureContext ctx;
  FieldList out;
  Diagnostics diags;
  const Field& top() const { return out.items().back(); }
};

// Decodes `bytes` as feature `id` from an exactly-sized heap copy (so a
// sanitizer build catches any read past the section).
Result Decode(uint32_t id, const std::vector<uint8_t>& bytes, ByteOrder o,
              FeatureContext ctx = {}, uint64_t base = kBase) {
  Result res;
  res.ctx = std::move(ctx);
  std::unique_ptr<uint8_t[]> copy(new uint8_t[bytes.size() ? bytes.size() : 1]);
  if (!bytes.empty()) std::memcpy(copy.get(), bytes.data(), bytes.size());
  DecodeFeature(id, ByteReader(copy.get(), bytes.size(), base, o), res.ctx, res.out, res.diags);
  return res;
}

// Child by path "cache[0]/level".
const Field* Find(const Field& f, const std::string& path) {
  const Field* cur = &f;
  std::stringstream ss(path);
  std::string part;
  while (std::getline(ss, part, '/')) {
    const Field* next = nullptr;
    for (const Field& c : cur->children) {
      if (c.name == part) { next = &c; break; }
    }
    if (!next) return nullptr;
    cur = next;
  }
  return cur;
}

std::string Value(const Field& f, const std::string& path) {
  const Field* c = Find(f, path);
  return c ? c->value : "<missing " + path + ">";
}

bool HasCode(const Diagnostics& d, DiagCode code) {
  for (const auto& x : d.items()) if (x.code == code) return true;
  return false;
}

bool Clean(const Diagnostics& d) {
  for (const auto& x : d.items()) {
    if (x.severity != Severity::kInfo) return false;
  }
  return true;
}

std::string DiagText(const Diagnostics& d) {
  std::string s;
  for (const auto& x : d.items()) s += std::string(DiagCodeName(x.code)) + ": " + x.message + "\n";
  return s;
}

// Every field lies inside [lo, hi) and inside its parent.
void ExpectNested(const Field& f, uint64_t lo, uint64_t hi, const std::string& where) {
  EXPECT_GE(f.offset, lo) << where << "/" << f.name;
  EXPECT_LE(f.offset + f.size, hi) << where << "/" << f.name;
  for (const Field& c : f.children) ExpectNested(c, f.offset, f.offset + f.size, where + "/" + f.name);
}

class FeatureLayout : public ::testing::TestWithParam<ByteOrder> {
 protected:
  ByteOrder o() const { return GetParam(); }
  W w() const { return W(GetParam()); }
};

INSTANTIATE_TEST_SUITE_P(ByteOrders, FeatureLayout,
                         ::testing::Values(ByteOrder::kLittle, ByteOrder::kBig),
                         [](const ::testing::TestParamInfo<ByteOrder>& i) {
                           return i.param == ByteOrder::kLittle ? "Little" : "Big";
                         });

// ---- strings and scalars ---------------------------------------------------------------

TEST_P(FeatureLayout, StringFeatures) {
  struct Case { uint32_t id; std::string FeatureContext::*field; const char* text; };
  const Case cases[] = {
      {kFeatHostname, &FeatureContext::hostname, "vm"},
      {kFeatOsRelease, &FeatureContext::os_release, "6.18.44-fc-v657"},
      {kFeatVersion, &FeatureContext::version, "6.1.192"},
      {kFeatArch, &FeatureContext::arch, "x86_64"},
      {kFeatCpuDesc, &FeatureContext::cpudesc, "AMD EPYC"},
      {kFeatCpuId, &FeatureContext::cpuid, "AuthenticAMD,26,2,1"},
  };
  for (const Case& c : cases) {
    Result r = Decode(c.id, w().str(c.text).data(), o());
    EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
    EXPECT_EQ(r.ctx.*(c.field), c.text);
    const Field& top = r.top();
    EXPECT_EQ(top.name, FeatureName(c.id));
    EXPECT_EQ(top.offset, kBase);
    EXPECT_EQ(top.size, 68u);
    EXPECT_EQ(top.value, QuoteString(c.text));
    ASSERT_EQ(top.children.size(), 1u);
    const Field& s = top.children[0];
    EXPECT_EQ(Value(s, "len"), "64");
    EXPECT_EQ(Find(s, "text")->offset, kBase + 4);
    EXPECT_EQ(Find(s, "text")->size, 64u);
    EXPECT_EQ(Value(s, "text"), QuoteString(c.text));
  }
}

TEST_P(FeatureLayout, StringLengthPastSectionEnd) {
  W b = w();
  b.u32(4096).bytes("somehost").zeros(52);  // 60 bytes after the length
  Result r = Decode(kFeatHostname, b.data(), o());
  ASSERT_TRUE(HasCode(r.diags, DiagCode::kBadString));
  const Diagnostic& d = r.diags.items()[0];
  EXPECT_EQ(d.offset, kBase);
  EXPECT_NE(d.message.find("HOSTNAME"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("declares length 4096 but only 60 bytes remain"), std::string::npos)
      << d.message;
  EXPECT_TRUE(r.ctx.hostname.empty());
  EXPECT_EQ(r.top().name, "HOSTNAME");
}

TEST_P(FeatureLayout, StringWithoutNulIsWarned) {
  W b = w();
  b.u32(4).bytes("abcd");
  Result r = Decode(kFeatArch, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadString));
  EXPECT_EQ(r.ctx.arch, "abcd");
}

TEST_P(FeatureLayout, NrCpusAvailableComesFirst) {
  Result r = Decode(kFeatNrCpus, w().u32(8).u32(6).data(), o());
  EXPECT_TRUE(Clean(r.diags));
  EXPECT_EQ(r.ctx.nr_cpus_available, 8u);
  EXPECT_EQ(r.ctx.nr_cpus_online, 6u);
  EXPECT_EQ(Value(r.top(), "nr_cpus_available"), "8");
  EXPECT_EQ(Find(r.top(), "nr_cpus_online")->offset, kBase + 4);
}

TEST_P(FeatureLayout, TotalMem) {
  Result r = Decode(kFeatTotalMem, w().u64(24684092).data(), o());
  EXPECT_TRUE(Clean(r.diags));
  EXPECT_EQ(r.ctx.total_mem, 24684092u);
  EXPECT_EQ(r.top().value, "24684092 kB");
}

TEST_P(FeatureLayout, Cmdline) {
  W b = w();
  b.u32(3).str("/usr/bin/perf").str("record").str("./a b");
  Result r = Decode(kFeatCmdline, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_EQ(r.ctx.cmdline, "/usr/bin/perf record ./a b");
  ASSERT_EQ(r.ctx.cmdline_argv.size(), 3u);
  EXPECT_EQ(r.ctx.cmdline_argv[2], "./a b");
  EXPECT_EQ(Value(r.top(), "argv[1]"), "\"record\"");
  EXPECT_EQ(Find(r.top(), "argv[1]")->offset, kBase + 4 + 68);
}

TEST_P(FeatureLayout, CmdlineCountLargerThanSection) {
  W b = w();
  b.u32(0xffffffffu).str("perf");
  Result r = Decode(kFeatCmdline, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_EQ(r.ctx.cmdline_argv.size(), 1u);
}

// ---- EVENT_DESC ----------------------------------------------------------------------------

void WriteAttr(W& b, uint32_t type, uint64_t config, uint64_t sample_type, uint32_t size = 128) {
  b.u32(type).u32(size).u64(config).u64(4000).u64(sample_type).u64(4 /*read_format ID*/);
  b.u64(0);  // flags (bitfields; not checked here)
  b.zeros(size - 48);
}

TEST_P(FeatureLayout, EventDesc) {
  W b = w();
  b.u32(2).u32(128);
  WriteAttr(b, 0, 0, 0x107);
  b.u32(2).str("cycles").u64(29).u64(30);
  WriteAttr(b, 1, 9, 0x7);
  b.u32(0).str("dummy:HG");
  Result r = Decode(kFeatEventDesc, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.event_desc.size(), 2u);
  const auto& e0 = r.ctx.event_desc[0];
  EXPECT_EQ(e0.name, "cycles");
  EXPECT_EQ(e0.ids, (std::vector<uint64_t>{29, 30}));
  EXPECT_EQ(e0.attr.type, 0u);
  EXPECT_EQ(e0.attr.size, 128u);
  EXPECT_EQ(e0.attr.sample_type, 0x107u);
  const auto& e1 = r.ctx.event_desc[1];
  EXPECT_EQ(e1.name, "dummy:HG");
  EXPECT_TRUE(e1.ids.empty());
  EXPECT_EQ(e1.attr.type, 1u);
  EXPECT_EQ(e1.attr.config, 9u);
  const Field* attr = Find(r.top(), "event[0]/attr");
  ASSERT_NE(attr, nullptr);
  EXPECT_EQ(attr->offset, kBase + 8);
  EXPECT_EQ(attr->size, 128u);
  EXPECT_FALSE(attr->children.empty());
  EXPECT_EQ(Value(r.top(), "event[0]/ids"), "{ 29, 30 }");
  EXPECT_EQ(Find(r.top(), "event[0]/ids/id[1]")->offset, kBase + 8 + 128 + 4 + 68 + 8);
  ExpectNested(r.top(), kBase, kBase + b.size(), "");
}

TEST_P(FeatureLayout, EventDescAttrSizeTooSmall) {
  W b = w();
  b.u32(1).u32(12).zeros(40);
  Result r = Decode(kFeatEventDesc, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_TRUE(r.ctx.event_desc.empty());
}

// ---- BUILD_ID -----------------------------------------------------------------------------

void WriteBuildId(W& b, uint16_t misc, int32_t pid, const std::vector<uint8_t>& id,
                  const std::string& name, bool with_size) {
  size_t name_len = (name.size() + 1 + 63) / 64 * 64;
  b.u32(0).u16(misc | (with_size ? 0x8000 : 0)).u16(static_cast<uint16_t>(36 + name_len));
  b.u32(static_cast<uint32_t>(pid));
  uint8_t area[24] = {};
  std::memcpy(area, id.data(), std::min<size_t>(id.size(), 20));
  if (with_size) area[20] = static_cast<uint8_t>(id.size());
  b.bytes(area, 24);
  b.bytes(name).zeros(name_len - name.size());
}

TEST_P(FeatureLayout, BuildId) {
  std::vector<uint8_t> sha1(20), md5(16);
  for (int i = 0; i < 20; ++i) sha1[i] = static_cast<uint8_t>(0xa0 + i);
  for (int i = 0; i < 16; ++i) md5[i] = static_cast<uint8_t>(i);
  W b = w();
  WriteBuildId(b, 1, -1, sha1, "[kernel.kallsyms]", false);
  WriteBuildId(b, 2, 1234, md5, "/usr/lib/libfoo.so", true);
  Result r = Decode(kFeatBuildId, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.build_ids.size(), 2u);
  EXPECT_EQ(r.ctx.build_ids[0].pid, -1);
  EXPECT_EQ(r.ctx.build_ids[0].build_id_hex, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3");
  EXPECT_EQ(r.ctx.build_ids[0].filename, "[kernel.kallsyms]");
  EXPECT_EQ(r.ctx.build_ids[0].misc, 1);
  EXPECT_EQ(r.ctx.build_ids[1].pid, 1234);
  EXPECT_EQ(r.ctx.build_ids[1].build_id_hex, "000102030405060708090a0b0c0d0e0f");
  EXPECT_EQ(r.ctx.build_ids[1].filename, "/usr/lib/libfoo.so");
  EXPECT_EQ(r.ctx.build_ids[1].misc, 0x8002);
  EXPECT_EQ(Find(r.top(), "build_id[1]")->offset, kBase + 100);
  EXPECT_EQ(Value(r.top(), "build_id[1]/build_id/size"), "16");
  EXPECT_EQ(Value(r.top(), "build_id[1]/pid"), "1234");
  ExpectNested(r.top(), kBase, kBase + b.size(), "");
}

TEST_P(FeatureLayout, BuildIdOldLayoutWithoutPid) {
  W b = w();
  uint8_t id[24] = {0xde, 0xad, 0xbe, 0xef};
  const std::string names[] = {"[kernel.kallsyms]", "/bin/true"};
  for (const std::string& n : names) {
    b.u32(0).u16(1).u16(static_cast<uint16_t>(32 + 64));
    b.bytes(id, 24).bytes(n).zeros(64 - n.size());
  }
  Result r = Decode(kFeatBuildId, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.build_ids.size(), 2u);
  EXPECT_EQ(r.ctx.build_ids[0].filename, "[kernel.kallsyms]");
  EXPECT_EQ(r.ctx.build_ids[0].pid, -1);
  EXPECT_EQ(r.ctx.build_ids[1].filename, "/bin/true");
  EXPECT_EQ(r.ctx.build_ids[1].build_id_hex.substr(0, 8), "deadbeef");
}

TEST_P(FeatureLayout, BuildIdRecordSizeBelowMinimum) {
  W b = w();
  b.u32(0).u16(1).u16(12).u32(0);
  Result r = Decode(kFeatBuildId, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_TRUE(r.ctx.build_ids.empty());
}

// ---- topology --------------------------------------------------------------------------------

W TopologyLists(ByteOrder o) {
  W b(o);
  b.u32(1).str("0-1");
  b.u32(2).str("0").str("1");
  return b;
}

TEST_P(FeatureLayout, CpuTopologyOldPerfHasOnlyLists) {
  FeatureContext ctx;
  ctx.nr_cpus_available = 2;
  Result r = Decode(kFeatCpuTopology, TopologyLists(o()).data(), o(), ctx);
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_EQ(r.ctx.sibling_sockets, (std::vector<std::string>{"0-1"}));
  EXPECT_EQ(r.ctx.sibling_threads, (std::vector<std::string>{"0", "1"}));
  EXPECT_TRUE(r.ctx.cpus.empty());
  EXPECT_TRUE(r.ctx.sibling_dies.empty());
}

TEST_P(FeatureLayout, CpuTopologyWithCoreAndSocketIds) {
  W b = TopologyLists(o());
  b.u32(0).u32(0).u32(1).u32(0);
  FeatureContext ctx;
  ctx.nr_cpus_available = 2;
  Result r = Decode(kFeatCpuTopology, b.data(), o(), ctx);
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.cpus.size(), 2u);
  EXPECT_EQ(r.ctx.cpus[1].core_id, 1u);
  EXPECT_FALSE(r.ctx.has_die_ids);
  EXPECT_EQ(Value(r.top(), "cpu_ids/cpu[1]/core_id"), "1");
}

TEST_P(FeatureLayout, CpuTopologyWithDies) {
  W b = TopologyLists(o());
  b.u32(4).u32(0).u32(5).u32(1);  // core/socket of CPU 0 and 1
  b.u32(1).str("0-1");            // die list
  b.u32(0).u32(3);                // die ids
  FeatureContext ctx;
  ctx.nr_cpus_available = 2;
  Result r = Decode(kFeatCpuTopology, b.data(), o(), ctx);
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.cpus.size(), 2u);
  EXPECT_EQ(r.ctx.cpus[0].core_id, 4u);
  EXPECT_EQ(r.ctx.cpus[1].socket_id, 1u);
  EXPECT_EQ(r.ctx.cpus[1].die_id, 3u);
  EXPECT_TRUE(r.ctx.has_die_ids);
  EXPECT_EQ(r.ctx.sibling_dies, (std::vector<std::string>{"0-1"}));
  ExpectNested(r.top(), kBase, kBase + b.size(), "");
}

TEST_P(FeatureLayout, CpuTopologyInfersCpuCountWithoutNrCpus) {
  W b = TopologyLists(o());
  b.u32(0).u32(0).u32(1).u32(0).u32(1).str("0-1").u32(0).u32(0);
  Result r = Decode(kFeatCpuTopology, b.data(), o());
  EXPECT_EQ(r.ctx.cpus.size(), 2u);
  EXPECT_TRUE(r.ctx.has_die_ids);
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));  // a warning that the count was guessed
}

TEST_P(FeatureLayout, CpuTopologyShortCoreIds) {
  W b = TopologyLists(o());
  b.u32(0).u32(0).u32(1);  // CPU 1's socket id is missing
  FeatureContext ctx;
  ctx.nr_cpus_available = 2;
  Result r = Decode(kFeatCpuTopology, b.data(), o(), ctx);
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_EQ(r.ctx.cpus.size(), 1u);
}

TEST_P(FeatureLayout, NumaTopology) {
  W b = w();
  b.u32(2);
  b.u32(0).u64(33479172).u64(1868840).str("0-7,16-23");
  b.u32(1).u64(33554432).u64(1043360).str("8-15,24-31");
  Result r = Decode(kFeatNumaTopology, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.numa_nodes.size(), 2u);
  EXPECT_EQ(r.ctx.numa_nodes[1].node, 1u);
  EXPECT_EQ(r.ctx.numa_nodes[1].mem_total_kb, 33554432u);
  EXPECT_EQ(r.ctx.numa_nodes[1].mem_free_kb, 1043360u);
  EXPECT_EQ(r.ctx.numa_nodes[1].cpus, "8-15,24-31");
  EXPECT_EQ(Find(r.top(), "node[1]")->offset, kBase + 4 + 88);
}

TEST_P(FeatureLayout, HybridTopology) {
  W b = w();
  b.u32(2).str("cpu_core").str("0-3").str("cpu_atom").str("4-11");
  Result r = Decode(kFeatHybridTopology, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.hybrid_nodes.size(), 2u);
  EXPECT_EQ(r.ctx.hybrid_nodes[1].pmu, "cpu_atom");
  EXPECT_EQ(r.ctx.hybrid_nodes[1].cpus, "4-11");
}

TEST_P(FeatureLayout, MemTopology) {
  W b = w();
  b.u64(1).u64(0x8000000).u64(2);
  b.u64(0).u64(70).u64(70).u64(0x0fULL | (1ULL << 63)).u64(0x3f);  // 0-3,63-69
  b.u64(1).u64(3).u64(3).u64(0x5);                                   // 0,2
  Result r = Decode(kFeatMemTopology, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_EQ(r.ctx.memory_block_size, 0x8000000u);
  ASSERT_EQ(r.ctx.memory_nodes.size(), 2u);
  EXPECT_EQ(r.ctx.memory_nodes[0].blocks, "0-3,63-69");
  EXPECT_EQ(r.ctx.memory_nodes[0].size_bits, 70u);
  EXPECT_EQ(r.ctx.memory_nodes[1].node, 1u);
  EXPECT_EQ(r.ctx.memory_nodes[1].blocks, "0,2");
}

TEST_P(FeatureLayout, MemTopologyHugeBitmapIsRejected) {
  W b = w();
  b.u64(1).u64(0x8000000).u64(1).u64(0).u64(~0ULL).u64(~0ULL).u64(0);
  Result r = Decode(kFeatMemTopology, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_TRUE(r.ctx.memory_nodes.empty());
}

// ---- PMUs, groups, caps --------------------------------------------------------------------

TEST_P(FeatureLayout, PmuMappings) {
  W b = w();
  b.u32(3).u32(1).str("software").u32(4).str("cpu").u32(2).str("tracepoint");
  Result r = Decode(kFeatPmuMappings, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.pmu_mappings.size(), 3u);
  EXPECT_EQ(r.ctx.pmu_mappings[1].first, 4u);
  EXPECT_EQ(r.ctx.pmu_mappings[1].second, "cpu");
  EXPECT_EQ(r.top().value, "software = 1, cpu = 4, tracepoint = 2");
}

TEST_P(FeatureLayout, GroupDesc) {
  W b = w();
  b.u32(2).str("{anon_group}").u32(0).u32(2).str("mygroup").u32(2).u32(3);
  Result r = Decode(kFeatGroupDesc, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.groups.size(), 2u);
  EXPECT_EQ(r.ctx.groups[1].name, "mygroup");
  EXPECT_EQ(r.ctx.groups[1].leader_idx, 2u);
  EXPECT_EQ(r.ctx.groups[1].nr_members, 3u);
}

TEST_P(FeatureLayout, CpuPmuCaps) {
  W b = w();
  b.u32(2).str("branches").str("32").str("max_precise").str("3");
  Result r = Decode(kFeatCpuPmuCaps, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_EQ(r.ctx.cpu_pmu_caps, (std::vector<std::string>{"branches=32", "max_precise=3"}));
}

TEST_P(FeatureLayout, PmuCaps) {
  W b = w();
  b.u32(2);
  b.u32(1).str("branches").str("32").str("cpu_core");
  b.u32(0).str("cpu_atom");
  Result r = Decode(kFeatPmuCaps, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.pmu_caps.size(), 2u);
  EXPECT_EQ(r.ctx.pmu_caps[0].pmu, "cpu_core");
  EXPECT_EQ(r.ctx.pmu_caps[0].caps, (std::vector<std::string>{"branches=32"}));
  EXPECT_EQ(r.ctx.pmu_caps[1].pmu, "cpu_atom");
  EXPECT_TRUE(r.ctx.pmu_caps[1].caps.empty());
}

// ---- AUXTRACE, CACHE, times, clocks ---------------------------------------------------------

TEST_P(FeatureLayout, Auxtrace) {
  W b = w();
  b.u64(2).u64(0x29c0).u64(48).u64(0x7788).u64(64);
  Result r = Decode(kFeatAuxtrace, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.auxtrace_index.size(), 2u);
  EXPECT_EQ(r.ctx.auxtrace_index[1].file_offset, 0x7788u);
  EXPECT_EQ(r.ctx.auxtrace_index[1].size, 64u);
  EXPECT_EQ(Value(r.top(), "entry[0]/file_offset"), "0x29c0");
}

TEST_P(FeatureLayout, AuxtraceCountTooLarge) {
  W b = w();
  b.u64(1000).u64(0x29c0).u64(48);
  Result r = Decode(kFeatAuxtrace, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_EQ(r.ctx.auxtrace_index.size(), 1u);  // what fits is kept
}

TEST_P(FeatureLayout, Cache) {
  W b = w();
  b.u32(1).u32(2);
  b.u32(1).u32(64).u32(64).u32(12).str("Data").str("48K").str("0");
  b.u32(3).u32(64).u32(32768).u32(16).str("Unified").str("32768K").str("0-1");
  Result r = Decode(kFeatCache, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  ASSERT_EQ(r.ctx.caches.size(), 2u);
  const auto& c = r.ctx.caches[1];
  EXPECT_EQ(c.level, 3u);
  EXPECT_EQ(c.line_size, 64u);
  EXPECT_EQ(c.sets, 32768u);
  EXPECT_EQ(c.ways, 16u);
  EXPECT_EQ(c.type, "Unified");
  EXPECT_EQ(c.size, "32768K");
  EXPECT_EQ(c.map, "0-1");
  EXPECT_EQ(Value(r.top(), "cache[1]"), "L3 Unified 32768K [0-1]");
  EXPECT_EQ(Find(r.top(), "cache[1]/level")->offset, kBase + 8 + 16 + 3 * 68);
}

TEST_P(FeatureLayout, CacheUnknownVersionIsKeptAsBlob) {
  W b = w();
  b.u32(2).u32(1).zeros(20);
  Result r = Decode(kFeatCache, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_TRUE(r.ctx.caches.empty());
  ASSERT_NE(Find(r.top(), "data"), nullptr);
  EXPECT_EQ(Find(r.top(), "data")->size, 24u);
}

TEST_P(FeatureLayout, CacheHugeCountStopsQuickly) {
  W b = w();
  b.u32(1).u32(0xffffffffu).u32(1).u32(64);
  Result r = Decode(kFeatCache, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_LE(r.diags.items().size(), 2u);
  EXPECT_TRUE(r.ctx.caches.empty());
}

TEST_P(FeatureLayout, SampleTime) {
  Result r = Decode(kFeatSampleTime, w().u64(3254323920881).u64(3254633021558).data(), o());
  EXPECT_TRUE(Clean(r.diags));
  EXPECT_TRUE(r.ctx.has_sample_time);
  EXPECT_EQ(r.ctx.sample_time_first, 3254323920881u);
  EXPECT_EQ(r.ctx.sample_time_last, 3254633021558u);
  EXPECT_NE(r.top().value.find("3254.323920"), std::string::npos) << r.top().value;
  EXPECT_NE(r.top().value.find("309.101 ms"), std::string::npos) << r.top().value;
}

TEST_P(FeatureLayout, ClockId) {
  Result r = Decode(kFeatClockId, w().u64(1).data(), o());
  EXPECT_TRUE(Clean(r.diags));
  EXPECT_EQ(r.ctx.clock_ns_res, 1u);
}

TEST_P(FeatureLayout, ClockData) {
  Result r = Decode(kFeatClockData,
                    w().u32(1).u32(1).u64(1795305347643866000ULL).u64(280918077471ULL).data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_TRUE(r.ctx.has_clock_data);
  EXPECT_EQ(r.ctx.clockid, 1);
  EXPECT_EQ(r.ctx.clock_tod_ns, 1795305347643866000ULL);
  EXPECT_EQ(r.ctx.clock_clockid_ns, 280918077471ULL);
  EXPECT_NE(Value(r.top(), "clockid").find("monotonic"), std::string::npos);
}

TEST_P(FeatureLayout, ClockDataUnknownVersion) {
  Result r = Decode(kFeatClockData, w().u32(2).u32(1).u64(1).u64(2).data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_FALSE(r.ctx.has_clock_data);
}

TEST_P(FeatureLayout, DirFormat) {
  Result r = Decode(kFeatDirFormat, w().u64(1).data(), o());
  EXPECT_TRUE(Clean(r.diags));
  EXPECT_EQ(r.ctx.dir_format_version, 1u);
}

TEST_P(FeatureLayout, Compressed) {
  Result r = Decode(kFeatCompressed, w().u32(1).u32(1).u32(3).u32(58).u32(528384).data(), o());
  EXPECT_TRUE(Clean(r.diags));
  EXPECT_TRUE(r.ctx.has_compressed);
  EXPECT_EQ(r.ctx.comp_ver, 1u);
  EXPECT_EQ(r.ctx.comp_type, 1u);
  EXPECT_EQ(r.ctx.comp_level, 3u);
  EXPECT_EQ(r.ctx.comp_ratio, 58u);
  EXPECT_EQ(r.ctx.comp_mmap_len, 528384u);
  EXPECT_EQ(r.top().value, "zstd, level 3, ratio 58");
}

TEST_P(FeatureLayout, EmptyFlagFeatures) {
  Result s = Decode(kFeatStat, {}, o());
  EXPECT_TRUE(Clean(s.diags));
  EXPECT_TRUE(s.ctx.has_stat);
  EXPECT_EQ(s.top().name, "STAT");
  EXPECT_EQ(s.top().size, 0u);
  Result b = Decode(kFeatBranchStack, {}, o());
  EXPECT_TRUE(Clean(b.diags));
  EXPECT_TRUE(b.ctx.has_branch_stack);
}

// ---- BPF ----------------------------------------------------------------------------------------

TEST_P(FeatureLayout, BpfProgInfo) {
  W b = w();
  b.u32(1);
  b.u32(136).u32(16).u64(0x3c);
  // struct bpf_prog_info (the leading fields the decoder shows)
  const uint8_t tag[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  b.u32(2).u32(42).bytes(tag, 8).u32(100).u32(200).u64(0).u64(0).u64(123456789).u32(0).u32(0).u64(0);
  char name[16] = "my_prog";
  b.bytes(name, 16);
  b.zeros(128 - 80).u32(9).u32(0);  // btf_id at 128, pad to 136
  b.zeros(16);                      // data
  ASSERT_EQ(b.size(), 4u + 16 + 136 + 16);
  Result r = Decode(kFeatBpfProgInfo, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_EQ(r.ctx.bpf_prog_count, 1u);
  EXPECT_EQ(Value(r.top(), "prog[0]/info/id"), "42");
  EXPECT_EQ(Value(r.top(), "prog[0]/info/type"), "2");
  EXPECT_EQ(Value(r.top(), "prog[0]/info/tag"), "0102030405060708");
  EXPECT_EQ(Value(r.top(), "prog[0]/info/name"), "\"my_prog\"");
  EXPECT_EQ(Value(r.top(), "prog[0]/info/load_time"), "123456789");
  EXPECT_EQ(Value(r.top(), "prog[0]/info/btf_id"), "9");
  EXPECT_EQ(Find(r.top(), "prog[0]/data")->size, 16u);
}

TEST_P(FeatureLayout, BpfBtf) {
  W b = w();
  b.u32(2).u32(7).u32(10).zeros(10).u32(8).u32(0);
  Result r = Decode(kFeatBpfBtf, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_EQ(r.ctx.bpf_btf_count, 2u);
  EXPECT_EQ(Value(r.top(), "btf[0]/id"), "7");
  EXPECT_EQ(Find(r.top(), "btf[0]/data")->size, 10u);
}

TEST_P(FeatureLayout, BpfProgInfoDataPastEnd) {
  W b = w();
  b.u32(1).u32(8).u32(1000).u64(0).u32(2).u32(42);
  Result r = Decode(kFeatBpfProgInfo, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_EQ(r.ctx.bpf_prog_count, 0u);
}

// ---- TRACING_DATA ----------------------------------------------------------------------------

const char kSwitchFormat[] =
    "name: sched_switch\nID: 316\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n";

W TracingData(ByteOrder o, const std::string& version) {
  W b(o);
  b.u8(0x17).u8(0x08).u8(0x44).bytes("tracing");
  b.cstr(version);
  b.u8(o == ByteOrder::kBig ? 1 : 0).u8(8).u32(4096);
  std::string hp = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
  b.cstr("header_page").u64(hp.size()).bytes(hp);
  std::string he = "# compressed entry header\n";
  b.cstr("header_event").u64(he.size()).bytes(he);
  std::string ff = "name: function\nID: 1\nformat:\n";
  b.u32(1).u64(ff.size()).bytes(ff);
  b.u32(2);
  b.cstr("sched").u32(1).u64(sizeof kSwitchFormat - 1).bytes(kSwitchFormat, sizeof kSwitchFormat - 1);
  std::string probe = "name: main\nID: 1329\nformat:\n";
  std::string probe2 = "name: exit\nID: 1330\nformat:\n";
  b.cstr("probe_app").u32(2).u64(probe.size()).bytes(probe).u64(probe2.size()).bytes(probe2);
  b.u32(0);                       // kallsyms
  std::string printk = "0xffffffff81000000 : \"hello\"\n";
  b.u32(static_cast<uint32_t>(printk.size())).bytes(printk);
  if (version == "0.6") {
    std::string cmdlines = "1 init\n";
    b.u64(cmdlines.size()).bytes(cmdlines);
  }
  return b;
}

TEST_P(FeatureLayout, TracingData) {
  W b = TracingData(o(), "0.6");
  Result r = Decode(kFeatTracingData, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_TRUE(r.ctx.has_tracing_data);
  EXPECT_EQ(r.ctx.tracing_version, "0.6");
  EXPECT_EQ(r.ctx.tracepoint_formats,
            (std::vector<std::string>{"ftrace:function", "sched:sched_switch", "probe_app:main",
                                      "probe_app:exit"}));
  const Field& t = r.top();
  EXPECT_EQ(Find(t, "magic")->size, 10u);
  EXPECT_EQ(Value(t, "version"), "\"0.6\"");
  EXPECT_EQ(Value(t, "long_size"), "8");
  EXPECT_EQ(Value(t, "page_size"), "4096");
  EXPECT_EQ(Value(t, "header_page/tag"), "\"header_page\"");
  EXPECT_EQ(Value(t, "event_systems/system[0]/name"), "\"sched\"");
  EXPECT_NE(Value(t, "event_systems/system[0]/format[0]").find("sched:sched_switch (ID 316)"),
            std::string::npos);
  EXPECT_EQ(Find(t, "event_systems/system[0]/format[0]/text")->size, sizeof kSwitchFormat - 1);
  ASSERT_NE(Find(t, "printk"), nullptr);
  ASSERT_NE(Find(t, "saved_cmdlines"), nullptr);
  EXPECT_EQ(Find(t, "saved_cmdlines")->offset + Find(t, "saved_cmdlines")->size, kBase + b.size());
  ExpectNested(t, kBase, kBase + b.size(), "");
}

TEST_P(FeatureLayout, TracingDataVersion05HasNoSavedCmdlines) {
  W b = TracingData(o(), "0.5");
  Result r = Decode(kFeatTracingData, b.data(), o());
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_TRUE(r.ctx.has_tracing_data);
  EXPECT_EQ(Find(r.top(), "saved_cmdlines"), nullptr);
}

TEST_P(FeatureLayout, TracingDataBadMagic) {
  W b = w();
  b.bytes("\x17\x08\x44tracinX").cstr("0.6").zeros(20);
  Result r = Decode(kFeatTracingData, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_FALSE(r.ctx.has_tracing_data);
}

TEST_P(FeatureLayout, TracingDataHugeFormatSize) {
  W b(o());
  b.u8(0x17).u8(0x08).u8(0x44).bytes("tracing").cstr("0.6");
  b.u8(o() == ByteOrder::kBig ? 1 : 0).u8(8).u32(4096);
  b.cstr("header_page").u64(~0ULL).zeros(16);
  Result r = Decode(kFeatTracingData, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_FALSE(r.ctx.has_tracing_data);
}

// ---- CPU_DOMAIN_INFO / end marker, unknown and simpleperf ids, trailing bytes -----------------

TEST_P(FeatureLayout, CpuDomainInfo) {
  W b = w();
  b.u32(17).u32(2);
  b.u32(0).u32(1).u32(0).str("SMT").str("00000003").str("0-1");
  b.u32(1).u32(1).u32(0).str("SMT").str("00000003").str("0-1");
  FeatureContext ctx;
  ctx.nr_cpus_online = 2;
  Result r = Decode(kCpuDomainInfoFeatureId, b.data(), o(), ctx);
  EXPECT_TRUE(Clean(r.diags)) << DiagText(r.diags);
  EXPECT_EQ(r.top().name, "CPU_DOMAIN_INFO");
  EXPECT_EQ(Value(r.top(), "cpu[1]/domain[0]/cpulist"), "\"0-1\"");
}

TEST_P(FeatureLayout, EmptyId32IsThePipeEndMarker) {
  Result r = Decode(kCpuDomainInfoFeatureId, {}, o());
  EXPECT_TRUE(r.diags.items().empty()) << DiagText(r.diags);
  EXPECT_EQ(r.top().name, "LAST_FEATURE");
}

TEST_P(FeatureLayout, UnknownFeatureIsABlobWithWarning) {
  std::vector<uint8_t> blob = {1, 2, 3, 4, 5};
  Result r = Decode(77, blob, o());
  ASSERT_TRUE(HasCode(r.diags, DiagCode::kUnknownFeature));
  EXPECT_EQ(r.diags.items()[0].severity, Severity::kWarning);
  EXPECT_EQ(r.top().name, "FEATURE_77");
  EXPECT_EQ(r.top().size, 5u);
  ASSERT_EQ(r.top().children.size(), 1u);
  EXPECT_EQ(r.top().children[0].size, 5u);
  EXPECT_EQ(r.ctx.unknown_features, (std::vector<uint32_t>{77}));
}

// simpleperf's ids (128+) are decoded by simpleperf_features (see
// simpleperf_test.cc); here only that the hook is taken: META_INFO pairs.
TEST_P(FeatureLayout, SimpleperfFeatureIsDecoded) {
  std::vector<uint8_t> blob = {'k', 0, 'v', 0};
  Result r = Decode(129, blob, o());
  EXPECT_TRUE(r.diags.items().empty()) << DiagText(r.diags);
  EXPECT_EQ(r.top().name, FeatureName(129));
  ASSERT_EQ(r.top().children.size(), 1u);
  EXPECT_EQ(r.top().children[0].name, "k");
  EXPECT_EQ(r.top().children[0].offset, kBase);
  EXPECT_EQ(r.top().children[0].size, 4u);
  ASSERT_EQ(r.ctx.simpleperf.meta_info.size(), 1u);
  EXPECT_EQ(r.ctx.simpleperf.meta_info[0].second, "v");
}

TEST_P(FeatureLayout, AlignmentPaddingIsNotAProblem) {
  W b = w();
  b.str("host").zeros(4);  // pipe-mode records padded to 8 bytes
  Result r = Decode(kFeatHostname, b.data(), o());
  EXPECT_TRUE(r.diags.items().empty()) << DiagText(r.diags);
  EXPECT_EQ(Value(r.top(), "padding"), "4 bytes");
  EXPECT_EQ(r.ctx.hostname, "host");
}

TEST_P(FeatureLayout, TrailingGarbageIsWarned) {
  W b = w();
  b.u64(5).u32(0xdeadbeef);
  Result r = Decode(kFeatTotalMem, b.data(), o());
  EXPECT_TRUE(HasCode(r.diags, DiagCode::kBadFeature));
  EXPECT_EQ(r.ctx.total_mem, 5u);
  EXPECT_NE(Find(r.top(), "unparsed"), nullptr);
}

// A reader whose cursor is not at the start still decodes the whole slice.
TEST_P(FeatureLayout, ReaderCursorIsIgnored) {
  W b = w();
  b.u32(8).u32(6);
  ByteReader rd(b.data().data(), b.size(), kBase, o());
  rd.Skip(4);
  FeatureContext ctx;
  FieldList out;
  Diagnostics d;
  DecodeFeature(kFeatNrCpus, rd, ctx, out, d);
  EXPECT_EQ(ctx.nr_cpus_available, 8u);
  EXPECT_EQ(ctx.nr_cpus_online, 6u);
}

// ---- truncation and damage of synthetic sections ---------------------------------------------------

struct Synthetic {
  uint32_t id;
  std::vector<uint8_t> bytes;
  FeatureContext ctx;
};

// One section of each structured layout the corpus lacks or has only one of.
std::vector<Synthetic> SyntheticSections(ByteOrder o) {
  std::vector<Synthetic> v;
  FeatureContext two_cpus;
  two_cpus.nr_cpus_available = 2;
  two_cpus.nr_cpus_online = 2;
  v.push_back({kFeatTracingData, TracingData(o, "0.6").data(), {}});
  v.push_back({kFeatTracingData, TracingData(o, "0.5").data(), {}});
  {
    W b(o);
    std::vector<uint8_t> id(20, 0x11);
    WriteBuildId(b, 1, -1, id, "[kernel.kallsyms]", true);
    WriteBuildId(b, 2, 7, id, "/bin/ls", false);
    v.push_back({kFeatBuildId, b.data(), {}});
  }
  {
    W b(o);
    b.u32(2).u32(128);
    WriteAttr(b, 0, 0, 0x107);
    b.u32(2).str("cycles").u64(1).u64(2);
    WriteAttr(b, 1, 9, 0x7);
    b.u32(1).str("dummy").u64(3);
    v.push_back({kFeatEventDesc, b.data(), {}});
  }
  {
    W b = TopologyLists(o);
    b.u32(4).u32(0).u32(5).u32(1).u32(1).str("0-1").u32(0).u32(3);
    v.push_back({kFeatCpuTopology, b.data(), two_cpus});
  }
  {
    W b(o);
    b.u32(1).u32(0).u64(100).u64(50).str("0-1");
    v.push_back({kFeatNumaTopology, b.data(), {}});
  }
  {
    W b(o);
    b.u32(2).str("{anon_group}").u32(0).u32(2).str("g").u32(2).u32(2);
    v.push_back({kFeatGroupDesc, b.data(), {}});
  }
  v.push_back({kFeatAuxtrace, W(o).u64(2).u64(0x100).u64(48).u64(0x200).u64(64).data(), {}});
  {
    W b(o);
    b.u64(1).u64(0x8000000).u64(2).u64(0).u64(70).u64(70).u64(0xf).u64(0x3f).u64(1).u64(3).u64(3).u64(5);
    v.push_back({kFeatMemTopology, b.data(), {}});
  }
  v.push_back({kFeatSampleTime, W(o).u64(1).u64(2).data(), {}});
  v.push_back({kFeatClockId, W(o).u64(1).data(), {}});
  v.push_back({kFeatClockData, W(o).u32(1).u32(1).u64(5).u64(6).data(), {}});
  v.push_back({kFeatDirFormat, W(o).u64(1).data(), {}});
  v.push_back({kFeatCompressed, W(o).u32(1).u32(1).u32(3).u32(58).u32(4096).data(), {}});
  v.push_back({kFeatBpfProgInfo, W(o).u32(1).u32(24).u32(8).u64(0).u32(2).u32(42).zeros(16).zeros(8).data(), {}});
  v.push_back({kFeatBpfBtf, W(o).u32(2).u32(5).u32(3).zeros(3).u32(6).u32(1).zeros(1).data(), {}});
  v.push_back({kFeatCpuPmuCaps, W(o).u32(1).str("branches").str("32").data(), {}});
  v.push_back({kFeatPmuCaps, W(o).u32(2).u32(1).str("a").str("1").str("cpu_core").u32(0).str("cpu_atom").data(), {}});
  v.push_back({kFeatHybridTopology, W(o).u32(1).str("cpu_core").str("0-3").data(), {}});
  {
    W b(o);
    b.u32(17).u32(2);
    b.u32(0).u32(1).u32(0).str("SMT").str("3").str("0-1");
    b.u32(1).u32(1).u32(0).str("SMT").str("3").str("0-1");
    v.push_back({kCpuDomainInfoFeatureId, b.data(), two_cpus});
  }
  return v;
}

TEST_P(FeatureLayout, SyntheticSectionsTruncatedAtEveryLength) {
  for (const Synthetic& s : SyntheticSections(o())) {
    Result full = Decode(s.id, s.bytes, o(), s.ctx);
    ASSERT_TRUE(Clean(full.diags)) << full.top().name << ": " << DiagText(full.diags);
    std::set<uint64_t> ok_ends;
    if (s.id == kCpuDomainInfoFeatureId) ok_ends.insert(0);  // the empty pipe-mode end marker
    if (s.id == kFeatBuildId) {
      ok_ends.insert(0);
      for (const Field& c : full.top().children) ok_ends.insert(c.offset + c.size - kBase);
    }
    if (s.id == kFeatCpuTopology) {
      ok_ends.insert(Find(full.top(), "sibling_threads")->offset + Find(full.top(), "sibling_threads")->size - kBase);
      ok_ends.insert(Find(full.top(), "cpu_ids")->offset + Find(full.top(), "cpu_ids")->size - kBase);
    }
    for (size_t cut = 0; cut < s.bytes.size(); ++cut) {
      SCOPED_TRACE(full.top().name + " cut at " + std::to_string(cut));
      std::vector<uint8_t> part(s.bytes.begin(), s.bytes.begin() + static_cast<std::ptrdiff_t>(cut));
      Result r = Decode(s.id, part, o(), s.ctx);
      ExpectNested(r.top(), kBase, kBase + cut, "");
      if (ok_ends.count(cut) == 0) {
        EXPECT_FALSE(r.diags.items().empty()) << "no diagnostic for an incomplete section";
      }
      if (HasFailure()) return;
    }
  }
}

// Random damage (overwritten bytes, often in length and count fields) never
// crashes, never reads outside the section and keeps every field inside it.
TEST_P(FeatureLayout, RandomDamageIsSurvived) {
  std::vector<Synthetic> inputs = SyntheticSections(o());
  uint32_t seed = 12345;
  auto next = [&seed]() {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  };
  for (const Synthetic& s : inputs) {
    for (int iter = 0; iter < 300; ++iter) {
      std::vector<uint8_t> bytes = s.bytes;
      int edits = 1 + static_cast<int>(next() % 4);
      for (int e = 0; e < edits && !bytes.empty(); ++e) {
        size_t at = next() % bytes.size();
        switch (next() % 3) {
          case 0: bytes[at] = static_cast<uint8_t>(next()); break;
          case 1: bytes[at] = 0xff; break;
          default: bytes[at] ^= static_cast<uint8_t>(1u << (next() % 8)); break;
        }
      }
      Result r = Decode(s.id, bytes, o(), s.ctx);
      ExpectNested(r.top(), kBase, kBase + bytes.size(), "");
      for (const auto& d : r.diags.items()) {
        EXPECT_GE(d.offset, kBase);
        EXPECT_LE(d.offset, kBase + bytes.size());
      }
      if (HasFailure()) return;
    }
  }
  // Any id, random bytes.
  for (uint32_t id = 0; id < 40; ++id) {
    for (int iter = 0; iter < 50; ++iter) {
      std::vector<uint8_t> bytes(next() % 200);
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(next() % 4 == 0 ? next() : next() % 3);
      Result r = Decode(id, bytes, o());
      ExpectNested(r.top(), kBase, kBase + bytes.size(), "");
      if (HasFailure()) return;
    }
  }
}

// ---- real files ------------------------------------------------------------------------------------

std::string DataDir() { return std::string(PROFSCOPE_SOURCE_DIR) + "/tests/data/perf"; }

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Section { uint32_t id; uint64_t offset, size; };
struct PerfFile {
  std::vector<uint8_t> bytes;
  ByteOrder order = ByteOrder::kLittle;
  bool pipe = false;
  std::vector<Section> sections;
  ByteReader Reader(const Section& s) const {
    return ByteReader(bytes.data() + s.offset, static_cast<size_t>(s.size), s.offset, order);
  }
};

// Locates the feature sections: in a file, the {offset,size} table at
// data.offset+data.size, one entry per set bit of the 256-bit bitmap; in a
// pipe, the payloads of HEADER_FEATURE records (and HEADER_TRACING_DATA's
// trailing blob, which has the TRACING_DATA layout).
std::optional<PerfFile> LoadPerf(const std::string& path) {
  PerfFile f;
  f.bytes = ReadFile(path);
  if (f.bytes.size() < 16) return std::nullopt;
  if (std::memcmp(f.bytes.data(), "PERFILE2", 8) == 0) f.order = ByteOrder::kLittle;
  else if (std::memcmp(f.bytes.data(), "2ELIFREP", 8) == 0) f.order = ByteOrder::kBig;
  else return std::nullopt;
  ByteReader h(f.bytes.data(), f.bytes.size(), 0, f.order);
  h.Skip(8);
  uint64_t header_size = h.U64();
  if (header_size == 16) {
    f.pipe = true;
    uint64_t off = 16;
    while (off + 8 <= f.bytes.size()) {
      ByteReader r(f.bytes.data() + off, f.bytes.size() - off, off, f.order);
      uint32_t type = r.U32();
      r.U16();
      uint16_t size = r.U16();
      if (size < 8 || size > f.bytes.size() - off) break;
      if (type == kHeaderFeature && size >= 16) {
        uint64_t id = r.U64();
        f.sections.push_back(Section{static_cast<uint32_t>(id), off + 16, size - 16u});
      }
      if (type == kHeaderTracingData && size >= 12) {
        uint32_t tsize = r.U32();
        if (tsize > f.bytes.size() - off - size) break;
        f.sections.push_back(Section{kFeatTracingData, off + size, tsize});
        off += tsize;
      }
      off += size;
    }
    return f;
  }
  if (f.bytes.size() < 104) return std::nullopt;
  h.U64();                          // attr_size
  h.U64(); h.U64();                 // attrs
  uint64_t data_off = h.U64(), data_size = h.U64();
  h.U64(); h.U64();                 // event_types
  uint64_t flags[4];
  for (uint64_t& x : flags) x = h.U64();
  uint64_t table = data_off + data_size;
  for (uint32_t bit = 0; bit < 256; ++bit) {
    if (!((flags[bit / 64] >> (bit % 64)) & 1)) continue;
    if (!RangeFits(table, 16, f.bytes.size())) break;
    ByteReader e(f.bytes.data() + table, 16, table, f.order);
    uint64_t so = e.U64(), ss = e.U64();
    table += 16;
    if (!RangeFits(so, ss, f.bytes.size())) continue;
    f.sections.push_back(Section{bit, so, ss});
  }
  return f;
}

struct Decoded {
  FeatureContext ctx;
  FieldList out;
  Diagnostics diags;
  std::set<uint32_t> ids;
};

void DecodeAll(const PerfFile& f, Decoded* d) {
  for (const Section& s : f.sections) {
    DecodeFeature(s.id, f.Reader(s), d->ctx, d->out, d->diags);
    d->ids.insert(s.id);
  }
}

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string l;
  while (std::getline(in, l)) lines.push_back(l);
  return lines;
}

std::string Fmt(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Fmt(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

std::string Usec(uint64_t ns) {
  return Fmt("%llu.%06llu", static_cast<unsigned long long>(ns / 1000000000ULL),
             static_cast<unsigned long long>(ns % 1000000000ULL / 1000));
}

// perf's unit_number__scnprintf.
std::string UnitNumber(uint64_t n) {
  static const char kUnit[] = "BKMGTPEZY";
  int i = 0;
  while (n / 1024 > 1 && i < 8) { n /= 1024; ++i; }
  return Fmt("%llu%c", static_cast<unsigned long long>(n), kUnit[i]);
}

// Lines `perf report --header-only -I` prints for what was decoded (the
// subset that does not need the data section).
std::vector<std::string> PerfLikeLines(const Decoded& d) {
  const FeatureContext& c = d.ctx;
  std::vector<std::string> v;
  auto has = [&](uint32_t id) { return d.ids.count(id) != 0; };
  if (has(kFeatHostname)) v.push_back("# hostname : " + c.hostname);
  if (has(kFeatOsRelease)) v.push_back("# os release : " + c.os_release);
  if (has(kFeatVersion)) v.push_back("# perf version : " + c.version);
  if (has(kFeatArch)) v.push_back("# arch : " + c.arch);
  if (has(kFeatNrCpus)) {
    v.push_back(Fmt("# nrcpus online : %u", c.nr_cpus_online));
    v.push_back(Fmt("# nrcpus avail : %u", c.nr_cpus_available));
  }
  if (has(kFeatCpuDesc)) v.push_back("# cpudesc : " + c.cpudesc);
  if (has(kFeatCpuId)) v.push_back("# cpuid : " + c.cpuid);
  if (has(kFeatTotalMem)) v.push_back(Fmt("# total memory : %llu kB", static_cast<unsigned long long>(c.total_mem)));
  if (has(kFeatCmdline)) {
    std::string l = "# cmdline : ";
    for (const std::string& a : c.cmdline_argv) {
      for (char ch : a) l += ch == '\'' ? std::string("\\'") : std::string(1, ch);
      l += ' ';
    }
    v.push_back(l);
  }
  if (has(kFeatCpuTopology)) {
    for (const auto& s : c.sibling_sockets) v.push_back("# sibling sockets : " + s);
    for (const auto& s : c.sibling_dies) v.push_back("# sibling dies    : " + s);
    for (const auto& s : c.sibling_threads) v.push_back("# sibling threads : " + s);
    for (size_t i = 0; i < c.cpus.size(); ++i) {
      const auto& t = c.cpus[i];
      if (!c.sibling_dies.empty()) {
        v.push_back(Fmt("# CPU %zu: Core ID %u, Die ID %u, Socket ID %u", i, t.core_id, t.die_id, t.socket_id));
      } else {
        v.push_back(Fmt("# CPU %zu: Core ID %u, Socket ID %u", i, t.core_id, t.socket_id));
      }
    }
  }
  for (const auto& n : c.numa_nodes) {
    v.push_back(Fmt("# node%u meminfo  : total = %llu kB, free = %llu kB", n.node,
                    static_cast<unsigned long long>(n.mem_total_kb),
                    static_cast<unsigned long long>(n.mem_free_kb)));
  }
  if (has(kFeatPmuMappings) && !c.pmu_mappings.empty()) {
    std::string l = "# pmu mappings: ";
    for (size_t i = 0; i < c.pmu_mappings.size(); ++i) {
      l += (i ? ", " : "") + c.pmu_mappings[i].second + " = " + std::to_string(c.pmu_mappings[i].first);
    }
    v.push_back(l);
  }
  if (has(kFeatGroupDesc)) {
    for (const auto& g : c.groups) {
      std::string l = "# group: " + (g.name == "{anon_group}" ? std::string() : g.name) + "{";
      for (uint32_t i = 0; i < g.nr_members && g.leader_idx + i < c.event_desc.size(); ++i) {
        l += (i ? "," : "") + c.event_desc[g.leader_idx + i].name;
      }
      v.push_back(l + "}");
    }
  }
  if (has(kFeatAuxtrace)) v.push_back("# contains AUX area data (e.g. instruction trace)");
  if (has(kFeatStat)) v.push_back("# contains stat data");
  if (has(kFeatCache)) {
    v.push_back("# CPU cache info:");
    for (const auto& k : c.caches) {
      v.push_back(Fmt("#  L%u %-15s %8s [%s]", k.level, k.type.c_str(), k.size.c_str(), k.map.c_str()));
    }
  }
  if (c.has_sample_time) {
    v.push_back("# time of first sample : " + Usec(c.sample_time_first));
    v.push_back("# time of last sample : " + Usec(c.sample_time_last));
  }
  if (has(kFeatMemTopology)) {
    v.push_back(Fmt("# memory nodes (nr %zu, block size 0x%llx):", c.memory_nodes.size(),
                    static_cast<unsigned long long>(c.memory_block_size)));
    for (const auto& n : c.memory_nodes) {
      uint64_t blocks = 0;
      // count the set bits from the rendered ranges
      std::stringstream ss(n.blocks);
      std::string part;
      while (std::getline(ss, part, ',')) {
        size_t dash = part.find('-');
        uint64_t a = std::stoull(part.substr(0, dash));
        uint64_t b = dash == std::string::npos ? a : std::stoull(part.substr(dash + 1));
        blocks += b - a + 1;
      }
      v.push_back(Fmt("#  %3llu [%s]: %s", static_cast<unsigned long long>(n.node),
                      UnitNumber(blocks * c.memory_block_size).c_str(), n.blocks.c_str()));
    }
  }
  if (has(kFeatClockId)) {
    v.push_back(Fmt("# clockid frequency: %llu MHz", static_cast<unsigned long long>(c.clock_ns_res * 1000)));
  }
  if (has(kFeatDirFormat)) {
    v.push_back(Fmt("# directory data version : %llu", static_cast<unsigned long long>(c.dir_format_version)));
  }
  if (has(kFeatCompressed)) {
    v.push_back(Fmt("# compressed : %s, level = %u, ratio = %u", c.comp_type == 1 ? "Zstd" : "Unknown",
                    c.comp_level, c.comp_ratio));
  }
  if (has(kFeatCpuPmuCaps)) {
    std::string l = "# cpu pmu capabilities: ";
    for (size_t i = 0; i < c.cpu_pmu_caps.size(); ++i) l += (i ? ", " : "") + c.cpu_pmu_caps[i];
    v.push_back(c.cpu_pmu_caps.empty() ? "# cpu pmu capabilities: not available" : l);
  }
  if (has(kFeatHybridTopology)) {
    v.push_back("# hybrid cpu system:");
    for (const auto& n : c.hybrid_nodes) v.push_back("# " + n.pmu + " cpu list : " + n.cpus);
  }
  for (const auto& p : c.pmu_caps) {
    std::string l = "# " + p.pmu + " pmu capabilities: ";
    for (size_t i = 0; i < p.caps.size(); ++i) l += (i ? ", " : "") + p.caps[i];
    v.push_back(p.caps.empty() ? "# " + p.pmu + " pmu capabilities: not available" : l);
  }
  return v;
}

std::vector<std::string> CaseDirs() {
  std::vector<std::string> dirs;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(DataDir(), ec)) {
    if (e.is_directory()) dirs.push_back(e.path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::string DataFileOf(const std::string& dir) {
  for (const char* n : {"/perf.data", "/pipe.data"}) {
    if (std::filesystem::is_regular_file(dir + n)) return dir + n;
  }
  return "";
}

std::optional<PerfFile> LoadCase(const std::string& name) {
  std::string file = DataFileOf(DataDir() + "/" + name);
  if (file.empty()) return std::nullopt;
  return LoadPerf(file);
}

const Section* FindSection(const PerfFile& f, uint32_t id) {
  for (const Section& s : f.sections) if (s.id == id) return &s;
  return nullptr;
}

TEST(PerfFeaturesRealFiles, DefaultEventMatchesHeaderTxt) {
  auto f = LoadCase("default_event");
  if (!f) GTEST_SKIP() << "tests/data/perf/default_event/perf.data not found";
  Decoded d;
  DecodeAll(*f, &d);
  EXPECT_TRUE(Clean(d.diags)) << DiagText(d.diags);
  const FeatureContext& c = d.ctx;
  EXPECT_EQ(c.hostname, "vm");
  EXPECT_EQ(c.arch, "x86_64");
  EXPECT_EQ(c.nr_cpus_online, 2u);
  EXPECT_EQ(c.nr_cpus_available, 2u);
  EXPECT_EQ(c.cmdline, "/usr/bin/perf record -o perf.data ./calltree");
  ASSERT_EQ(c.event_desc.size(), 1u);
  EXPECT_EQ(c.event_desc[0].name, "cpu-clock:ppp");
  EXPECT_EQ(c.event_desc[0].ids.size(), 2u);
  EXPECT_EQ(c.event_desc[0].attr.type, 1u);  // software
  EXPECT_EQ(c.event_desc[0].attr.size, 128u);
  EXPECT_EQ(c.sibling_sockets, (std::vector<std::string>{"0-1"}));
  EXPECT_EQ(c.sibling_dies, (std::vector<std::string>{"0-1"}));
  EXPECT_EQ(c.sibling_threads, (std::vector<std::string>{"0", "1"}));
  ASSERT_EQ(c.cpus.size(), 2u);
  EXPECT_EQ(c.cpus[1].core_id, 1u);
  ASSERT_EQ(c.caches.size(), 7u);
  EXPECT_EQ(c.caches[0].level, 1u);
  EXPECT_EQ(c.caches[0].type, "Data");
  EXPECT_EQ(c.caches[0].size, "48K");
  EXPECT_EQ(c.caches[6].map, "0-1");
  ASSERT_EQ(c.memory_nodes.size(), 1u);
  EXPECT_EQ(c.memory_nodes[0].blocks, "0-23,32-199");
  EXPECT_EQ(c.bpf_prog_count, 0u);
  EXPECT_TRUE(c.pmu_caps.empty());
  // Build ids (perf buildid-list): kernel first, then the workload.
  ASSERT_EQ(c.build_ids.size(), 4u);
  EXPECT_EQ(c.build_ids[0].filename, "[kernel.kallsyms]");
  EXPECT_EQ(c.build_ids[0].pid, -1);
  EXPECT_EQ(c.build_ids[0].build_id_hex.size(), 40u);
  EXPECT_NE(c.build_ids[1].filename.find("calltree"), std::string::npos);

  // Every value perf prints from these sections appears in header.txt.
  std::vector<std::string> header = Lines(DataDir() + "/default_event/header.txt");
  for (const std::string& l : PerfLikeLines(d)) {
    EXPECT_NE(std::find(header.begin(), header.end(), l), header.end()) << "missing: " << l;
  }
  // Event names as perf prints them.
  for (const auto& e : c.event_desc) {
    std::string prefix = "# event : name = " + e.name + ", ";
    EXPECT_TRUE(std::any_of(header.begin(), header.end(),
                            [&](const std::string& l) { return l.rfind(prefix, 0) == 0; }))
        << prefix;
  }
  // Field tree: one top-level field per section, in order, each covering it.
  ASSERT_EQ(d.out.items().size(), f->sections.size());
  for (size_t i = 0; i < f->sections.size(); ++i) {
    const Field& top = d.out.items()[i];
    EXPECT_EQ(top.name, FeatureName(f->sections[i].id));
    EXPECT_EQ(top.offset, f->sections[i].offset);
    EXPECT_EQ(top.size, f->sections[i].size);
    ExpectNested(top, top.offset, top.offset + top.size, "");
  }
  // Spot-check absolute offsets: the HOSTNAME text starts 4 bytes into its section.
  const Section* hs = FindSection(*f, kFeatHostname);
  ASSERT_NE(hs, nullptr);
  for (const Field& top : d.out.items()) {
    if (top.name != "HOSTNAME") continue;
    EXPECT_EQ(Find(top, "hostname/text")->offset, hs->offset + 4);
  }
}

// Every corpus file: the decode is clean, fields nest inside their sections,
// and the lines perf prints from the feature sections are in header.txt.
TEST(PerfFeaturesRealFiles, AllCorpusFilesMatchHeaderTxt) {
  int checked = 0;
  for (const std::string& dir : CaseDirs()) {
    std::string file = DataFileOf(dir);
    if (file.empty()) continue;
    auto f = LoadPerf(file);
    if (!f) continue;
    SCOPED_TRACE(file);
    Decoded d;
    DecodeAll(*f, &d);
    EXPECT_TRUE(Clean(d.diags)) << DiagText(d.diags);
    for (size_t i = 0; i < d.out.items().size(); ++i) {
      const Field& top = d.out.items()[i];
      ExpectNested(top, top.offset, top.offset + top.size, "");
    }
    if (d.ids.count(kFeatHostname) == 0) continue;  // no features (old pipe files)
    std::vector<std::string> header = Lines(dir + "/header.txt");
    if (header.empty()) continue;  // perf could not read this file
    for (const std::string& l : PerfLikeLines(d)) {
      EXPECT_NE(std::find(header.begin(), header.end(), l), header.end()) << "missing: " << l;
    }
    for (const auto& e : d.ctx.event_desc) {
      std::string prefix = "# event : name = " + e.name + ", ";
      EXPECT_TRUE(std::any_of(header.begin(), header.end(),
                              [&](const std::string& l) { return l.rfind(prefix, 0) == 0; }))
          << prefix;
    }
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

TEST(PerfFeaturesRealFiles, SpecialSections) {
  // HYBRID_TOPOLOGY and PMU_CAPS (perf 5.15's HYBRID_CPU_PMU_CAPS shares the layout).
  if (auto f = LoadCase("quipper_hybrid_topology")) {
    Decoded d;
    DecodeAll(*f, &d);
    EXPECT_TRUE(Clean(d.diags)) << DiagText(d.diags);
    ASSERT_EQ(d.ctx.hybrid_nodes.size(), 2u);
    EXPECT_EQ(d.ctx.hybrid_nodes[0].pmu, "cpu_core");
    EXPECT_EQ(d.ctx.hybrid_nodes[0].cpus, "0-3");
    EXPECT_EQ(d.ctx.hybrid_nodes[1].cpus, "4-11");
    ASSERT_EQ(d.ctx.pmu_caps.size(), 2u);
    EXPECT_EQ(d.ctx.pmu_caps[1].pmu, "cpu_atom");
    EXPECT_EQ(d.ctx.pmu_caps[1].caps.size(), 3u);
  }
  // GROUP_DESC.
  if (auto f = LoadCase("quipper_group_desc_perf4.14")) {
    Decoded d;
    DecodeAll(*f, &d);
    ASSERT_EQ(d.ctx.groups.size(), 1u);
    EXPECT_EQ(d.ctx.groups[0].name, "{anon_group}");
    EXPECT_EQ(d.ctx.groups[0].leader_idx, 0u);
    EXPECT_EQ(d.ctx.groups[0].nr_members, 2u);
  }
  // AUXTRACE index.
  if (auto f = LoadCase("quipper_intel_pt_perf4.14")) {
    Decoded d;
    DecodeAll(*f, &d);
    EXPECT_TRUE(d.ctx.has_auxtrace);
    ASSERT_EQ(d.ctx.auxtrace_index.size(), 2u);
    for (const auto& e : d.ctx.auxtrace_index) {
      EXPECT_TRUE(RangeFits(e.file_offset, e.size, f->bytes.size()));
      // Each entry points at a PERF_RECORD_AUXTRACE (type 71) record.
      ByteReader r(f->bytes.data() + e.file_offset, 8, e.file_offset, f->order);
      EXPECT_EQ(r.U32(), static_cast<uint32_t>(kAuxtrace));
    }
  }
  // COMPRESSED and CPU_PMU_CAPS.
  if (auto f = LoadCase("perfparser_vector_static_gcc_zstd")) {
    Decoded d;
    DecodeAll(*f, &d);
    EXPECT_TRUE(d.ctx.has_compressed);
    EXPECT_EQ(d.ctx.comp_type, 1u);
    EXPECT_EQ(d.ctx.comp_level, 1u);
    EXPECT_EQ(d.ctx.comp_ratio, 58u);
    EXPECT_EQ(d.ctx.cpu_pmu_caps, (std::vector<std::string>{"max_precise=0"}));
  }
  // Old perf: no CPUID, CPU_TOPOLOGY without per-CPU ids.
  if (auto f = LoadCase("quipper_armv7_perf3.4")) {
    Decoded d;
    DecodeAll(*f, &d);
    EXPECT_TRUE(Clean(d.diags)) << DiagText(d.diags);
    EXPECT_EQ(d.ids.count(kFeatCpuId), 0u);
    EXPECT_TRUE(d.ctx.cpus.empty());
    EXPECT_EQ(d.ctx.event_desc.size(), 6u);
    EXPECT_EQ(d.ctx.event_desc[0].attr.size, 80u);
  }
  // TRACING_DATA of a probe event (perf 4.9, version 0.6).
  if (auto f = LoadCase("perfparser_probe_file")) {
    Decoded d;
    DecodeAll(*f, &d);
    EXPECT_TRUE(Clean(d.diags)) << DiagText(d.diags);
    EXPECT_TRUE(d.ctx.has_tracing_data);
    EXPECT_EQ(d.ctx.tracepoint_formats, (std::vector<std::string>{"probe_untitled1:main"}));
  }
  // Pipe mode, records padded to 8 bytes, and the empty id-32 end marker.
  if (auto f = LoadCase("quipper_piped_features_aligned_perf6.12")) {
    Decoded d;
    DecodeAll(*f, &d);
    EXPECT_TRUE(d.diags.items().empty()) << DiagText(d.diags);
    EXPECT_EQ(d.ctx.nr_cpus_online, 12u);
    ASSERT_FALSE(d.out.items().empty());
    EXPECT_EQ(d.out.items().back().name, "LAST_FEATURE");
    const Field& host = d.out.items().front();
    EXPECT_EQ(host.name, "HOSTNAME");
    EXPECT_EQ(host.size, 72u);
    EXPECT_EQ(Value(host, "padding"), "4 bytes");
  }
}

// Allowed "complete" lengths of a section cut short: where the section may
// legitimately end (BUILD_ID record boundaries, CPU_TOPOLOGY's optional
// tails, anything from the start of alignment padding on).
std::set<uint64_t> LegitimateEnds(const Field& top) {
  std::set<uint64_t> ends;
  uint64_t base = top.offset;
  if (top.name == "BUILD_ID") {
    ends.insert(0);
    for (const Field& c : top.children) ends.insert(c.offset + c.size - base);
  }
  if (top.name == "CPU_TOPOLOGY") {
    for (const Field& c : top.children) {
      if (c.name == "sibling_threads" || c.name == "cpu_ids") ends.insert(c.offset + c.size - base);
    }
  }
  for (const Field& c : top.children) {
    if (c.name == "padding") {
      for (uint64_t i = c.offset; i <= c.offset + c.size; ++i) ends.insert(i - base);
    }
  }
  return ends;
}

// Every feature section cut at every length: no crash, no read outside the
// (exactly allocated) cut, every field inside it, and a diagnostic whenever
// the cut is not a place the section could end.
TEST(PerfFeaturesRealFiles, TruncatedAtEveryLength) {
  const char* cases[] = {"default_event", "perfparser_probe_file", "quipper_hybrid_topology",
                         "quipper_intel_pt_perf4.14", "quipper_group_desc_perf4.14",
                         "perfparser_vector_static_gcc_zstd", "quipper_armv7_perf3.4",
                         "quipper_piped_features_aligned_perf6.12"};
  int sections = 0;
  for (const char* name : cases) {
    auto f = LoadCase(name);
    if (!f) continue;
    // The context the earlier sections give (NRCPUS before CPU_TOPOLOGY).
    Decoded full;
    DecodeAll(*f, &full);
    for (size_t si = 0; si < f->sections.size(); ++si) {
      const Section& s = f->sections[si];
      const Field& whole = full.out.items()[si];
      std::set<uint64_t> ok_ends = LegitimateEnds(whole);
      // simpleperf/unknown blobs have no structure to check; none here.
      const bool structured = s.id != kFeatStat && s.id != kFeatBranchStack;
      ++sections;
      for (uint64_t cut = 0; cut < s.size; ++cut) {
        SCOPED_TRACE(std::string(name) + " " + whole.name + " cut at " + std::to_string(cut));
        std::unique_ptr<uint8_t[]> buf(new uint8_t[cut ? cut : 1]);
        std::memcpy(buf.get(), f->bytes.data() + s.offset, cut);
        FeatureContext ctx = full.ctx;  // as if the earlier sections were read
        FieldList out;
        Diagnostics diags;
        DecodeFeature(s.id, ByteReader(buf.get(), cut, s.offset, f->order), ctx, out, diags);
        ASSERT_EQ(out.items().size(), 1u);
        const Field& top = out.items()[0];
        EXPECT_EQ(top.offset, s.offset);
        EXPECT_EQ(top.size, cut);
        ExpectNested(top, s.offset, s.offset + cut, "");
        for (const auto& dg : diags.items()) {
          EXPECT_GE(dg.offset, s.offset);
          EXPECT_LE(dg.offset, s.offset + cut);
          EXPECT_FALSE(dg.message.empty());
        }
        if (structured && ok_ends.count(cut) == 0) {
          EXPECT_FALSE(diags.items().empty()) << "no diagnostic for an incomplete section";
        }
        if (::testing::Test::HasFailure()) return;  // one report is enough
      }
    }
  }
  EXPECT_GT(sections, 50);
}

}  // namespace
}  // namespace profscope::perf
