// The perf decode's fast paths give what the general ones give (issue 16):
// - ParseSample reads the usual SAMPLE (fixed members and a callchain, host byte order, no field
//   list) straight from its bytes: the same members and the same answer as the general parser
//   (used with a field list, or in the other byte order), for every sample_type of those members
//   and every length the record is cut to;
// - FindMissing counts samples and frames per stack node: the same counts as walking each
//   sample's stack, with few DSOs (mask of 8, 32, 64 bits) and with more (the walk).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_missing.h"
#include "core/format/perf/perf_sample.h"
#include "core/model/fields.h"
#include "tests/unit/perf_test_writer.h"

using namespace profscope;
using namespace profscope::perf;

namespace {

uint64_t Next(uint64_t& seed) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return seed >> 17;
}

// A SAMPLE payload for `st` (kernel order) with values from `seed`; `nr` callchain entries.
std::vector<uint8_t> Payload(ByteOrder o, uint64_t st, uint64_t& seed, uint64_t nr) {
  PerfWriter w(o);
  if (st & kSampleIdentifier) w.U64(Next(seed));
  if (st & kSampleIp) w.U64(Next(seed));
  if (st & kSampleTid) { w.U32(static_cast<uint32_t>(Next(seed))); w.U32(static_cast<uint32_t>(Next(seed))); }
  if (st & kSampleTime) w.U64(Next(seed));
  if (st & kSampleAddr) w.U64(Next(seed));
  if (st & kSampleId) w.U64(Next(seed));
  if (st & kSampleStreamId) w.U64(Next(seed));
  if (st & kSampleCpu) { w.U32(static_cast<uint32_t>(Next(seed))); w.U32(0); }
  if (st & kSamplePeriod) w.U64(Next(seed));
  if (st & kSampleCallchain) {
    w.U64(nr);
    for (uint64_t i = 0; i < nr; ++i) w.U64(i == 0 ? kContextUser : Next(seed));
  }
  for (uint64_t bit : {kSampleWeight, kSampleDataSrc, kSampleTransaction, kSamplePhysAddr, kSampleCgroup,
                       kSampleDataPageSize, kSampleCodePageSize})
    if (st & bit) w.U64(Next(seed));
  return w.data();
}

// Every member ParseSample fills, as text.
std::string Members(bool ok, const SampleData& s) {
  std::string out = ok ? "ok" : "failed";
  for (uint64_t v : {s.sample_type, s.id, s.ip, s.time, s.addr, s.stream_id, s.period, uint64_t{s.pid}, uint64_t{s.tid},
                     uint64_t{s.cpu}, s.weight, s.data_src, s.transaction, s.phys_addr, s.cgroup, s.data_page_size,
                     s.code_page_size, s.callchain_offset, s.regs_user_abi, s.stack_user_size, s.stack_user_dyn_size})
    out += " " + std::to_string(v);
  out += " [";
  for (uint64_t v : s.callchain) out += std::to_string(v) + ",";
  out += "] lbr " + std::to_string(s.lbr_from.size()) + " read " + std::to_string(s.read_values.size()) + " regs " +
         std::to_string(s.regs_user.size());
  return out;
}

TEST(PerfHotPath, FastSampleParseEqualsTheGeneralOne) {
  const uint64_t members[] = {kSampleIdentifier, kSampleIp,     kSampleTid,         kSampleTime,     kSampleAddr,
                              kSampleId,         kSampleStreamId, kSampleCpu,       kSamplePeriod,   kSampleCallchain,
                              kSampleWeight,     kSampleDataSrc, kSampleTransaction, kSamplePhysAddr, kSampleCgroup,
                              kSampleDataPageSize, kSampleCodePageSize};
  uint64_t seed = 7;
  for (int trial = 0; trial < 400; ++trial) {
    uint64_t st = 0;
    for (uint64_t m : members)
      if (Next(seed) % 3 == 0) st |= m;
    if (trial % 2) st |= kSampleCallchain;
    PerfEventAttr a;
    a.sample_type = st;
    for (ByteOrder o : {ByteOrder::kLittle, ByteOrder::kBig}) {
      const uint64_t nr = Next(seed) % 40;
      const std::vector<uint8_t> p = Payload(o, st, seed, nr);
      SCOPED_TRACE("sample_type " + SampleTypeString(st) + (o == ByteOrder::kBig ? " big" : " little") +
                   " nr " + std::to_string(nr));
      // Whole, and cut at every length; a scratch SampleData reused as the parser reuses it.
      SampleData fast, general;
      for (size_t len = p.size() + 1; len-- > 0;) {
        const ByteReader r(p.data(), len, 4096, o);
        const bool a_ok = ParseSample(r, a, &fast, nullptr, nullptr);
        FieldList fields;
        const bool b_ok = ParseSample(r, a, &general, &fields, nullptr);
        ASSERT_EQ(Members(a_ok, fast), Members(b_ok, general)) << "cut to " << len << " of " << p.size();
        if (len == p.size()) ASSERT_TRUE(a_ok);
      }
    }
  }
}

// A profile of `dsos` files mapped in one process, frames at random offsets in them (named
// `path+0x...`: unnamed, what FindMissing counts), and samples on random stacks over them.
Profile RandomProfile(int dsos, uint64_t seed, int samples) {
  Profile p;
  for (int m = 0; m < dsos; ++m) {
    const int32_t path = p.strings.Intern("/lib/dso" + std::to_string(m) + ".so");
    p.mappings.pid.push_back(100);
    p.mappings.start.push_back(0x100000ull * static_cast<uint64_t>(m + 1));
    p.mappings.end.push_back(0x100000ull * static_cast<uint64_t>(m + 2));
    p.mappings.pgoff.push_back(0);
    p.mappings.path.push_back(path);
    p.mappings.build_id.push_back(kNone);
    p.mappings.time.push_back(0);
    p.mappings.record.push_back(0);
  }
  StackBuilder sb(p);
  const int frames = dsos * 4 + 3;
  for (int f = 0; f < frames; ++f) {
    const int32_t m = static_cast<int32_t>(Next(seed) % static_cast<uint64_t>(dsos + 1)) - 1;  // -1: no mapping
    const uint64_t addr = m < 0 ? 0x10 + static_cast<uint64_t>(f) : p.mappings.start[static_cast<size_t>(m)] + 0x10 * static_cast<uint64_t>(f);
    const std::string name = m < 0 ? "[unknown]" : p.strings.Get(p.mappings.path[static_cast<size_t>(m)]) + "+0x" + std::to_string(f);
    sb.NewFrame(addr, sb.NewFunc(p.strings.Intern(name), m), m);
  }
  for (int i = 0; i < samples; ++i) {
    int32_t stack = kNone;
    const int depth = static_cast<int>(Next(seed) % 12);
    for (int k = 0; k < depth; ++k) stack = sb.Stack(stack, static_cast<int32_t>(Next(seed) % static_cast<uint64_t>(frames)));
    p.samples.stack.push_back(stack);
    p.samples.time.push_back(0);
  }
  return p;
}

TEST(PerfHotPath, MissingCountsPerStackNodeEqualTheWalkOfEachSample) {
  for (int dsos : {3, 8, 9, 20, 32, 33, 50, 64, 65, 90}) {
    SCOPED_TRACE(dsos);
    const Profile p = RandomProfile(dsos, 1000 + static_cast<uint64_t>(dsos), 3000);
    const MissingReport r = FindMissing(p, MissingInputs{});
    // The walk: per DSO path, the samples with one of its frames and its frames over all stacks.
    std::vector<uint64_t> samples(static_cast<size_t>(dsos)), frames(static_cast<size_t>(dsos));
    for (int32_t st : p.samples.stack.ToVector()) {
      std::vector<bool> seen(static_cast<size_t>(dsos));
      for (int32_t k = st; k != kNone; k = p.stacks.prefix[static_cast<size_t>(k)]) {
        const int32_t m = p.frames.mapping[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(k)])];
        if (m == kNone) continue;
        ++frames[static_cast<size_t>(m)];
        if (!seen[static_cast<size_t>(m)]) ++samples[static_cast<size_t>(m)];
        seen[static_cast<size_t>(m)] = true;
      }
    }
    size_t listed = 0;
    for (int m = 0; m < dsos; ++m) {
      if (!samples[static_cast<size_t>(m)]) continue;
      ++listed;
      const std::string path = "/lib/dso" + std::to_string(m) + ".so";
      const MissingMapping* got = nullptr;
      for (const MissingMapping& x : r.mappings)
        if (x.path == path) got = &x;
      ASSERT_NE(got, nullptr) << path;
      EXPECT_EQ(got->samples, samples[static_cast<size_t>(m)]) << path;
      EXPECT_EQ(got->frames, frames[static_cast<size_t>(m)]) << path;
    }
    EXPECT_EQ(r.mappings.size(), listed);
  }
}

}  // namespace
