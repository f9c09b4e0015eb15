// Timeline markers of the real perf files (tests/data/perf/<case>) against
// `perf report -D` (report_D.txt): every record perf lists with one of the
// marker types (MMAP, MMAP2, COMM, EXIT, FORK, LOST, LOST_SAMPLES, THROTTLE,
// UNTHROTTLE, SWITCH, SWITCH_CPU_WIDE, KSYMBOL, BPF_EVENT, NAMESPACES, CGROUP,
// TEXT_POKE, AUX, ITRACE_START) is one marker of that kind, and where perf
// prints the record's sample_id (cpu, time) the marker has the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "tests/corpus/corpus_util.h"

namespace fs = std::filesystem;

namespace {

using profscope::MemorySource;
using profscope::Session;
using profscope::corpus::Lines;
using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;

const fs::path& kData = profscope::corpus::PerfData();

fs::path Input(const fs::path& dir) { return profscope::corpus::PerfInput(dir); }

std::vector<std::string> Cases() { return profscope::corpus::PerfCases({"report_D.txt"}); }

const std::set<std::string> kMarkerKinds = {
    "MMAP", "MMAP2", "COMM", "EXIT", "FORK", "LOST", "LOST_SAMPLES", "THROTTLE", "UNTHROTTLE", "SWITCH",
    "SWITCH_CPU_WIDE", "KSYMBOL", "BPF_EVENT", "NAMESPACES", "CGROUP", "TEXT_POKE", "AUX", "ITRACE_START"};

struct RefMarker {
  std::vector<std::string> stamps;  // the numbers perf prints before the offset ("-1 -1" without sample_id_all)
  uint64_t offset;
  std::string kind;
};

class MarkersCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(MarkersCorpus, OneMarkerPerRecordWithPerfsTimeAndCpu) {
  fs::path dir = kData / GetParam();
  std::string ref_text = ReadText(dir / "report_D.txt");
  static const std::regex line(R"(^((?:-?\d+ )*)0x([0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_([A-Z0-9_]+))");
  std::vector<RefMarker> ref;
  std::smatch m;
  for (const std::string& l : Lines(ref_text)) {
    if (!std::regex_search(l, m, line) || !kMarkerKinds.count(m[3].str())) continue;
    RefMarker r;
    std::string nums = m[1].str();
    for (size_t p = 0; p < nums.size();) {
      size_t q = nums.find(' ', p);
      r.stamps.push_back(nums.substr(p, q - p));
      p = q + 1;
    }
    r.offset = std::stoull(m[2].str(), nullptr, 16);
    r.kind = m[3].str();
    ref.push_back(r);
  }
  auto bytes = ReadFile(Input(dir));
  MemorySource src(bytes);
  Session s(src, GetParam());
  ASSERT_TRUE(s.Decode());
  const auto& res = s.result();
  const auto& p = res.profile;
  const auto& mk = p.markers;

  // Same number of markers of each kind as perf lists records.
  std::map<std::string, size_t> want, got;
  for (const auto& r : ref) ++want[r.kind];
  for (size_t i = 0; i < mk.size(); ++i) ++got[p.strings.Get(mk.kind[i])];
  // Damaged files: perf stops at the damage where profscope resynchronises
  // and reads on, so it lists at least what perf lists.
  bool damaged = false;
  for (const auto& d : res.diags.items()) damaged |= d.severity >= profscope::Severity::kError;
  if (!damaged) {
    EXPECT_EQ(got, want);
  } else {
    for (const auto& [k, n] : want) EXPECT_GE(got[k], n) << k;
  }
  EXPECT_NE(s.InfoJson().find("\"markers\":" + std::to_string(mk.size()) + ","), std::string::npos);

  // Top-level records: same kind, and the time (and cpu) perf prints.
  bool any_time = false;
  for (size_t i = 0; i < p.samples.size(); ++i) any_time |= p.samples.time[i] != 0;
  std::map<uint64_t, size_t> by_offset;
  for (size_t i = 0; i < mk.size(); ++i) {
    int32_t row = mk.record[i];
    ASSERT_GE(row, 0);
    ASSERT_LT(static_cast<size_t>(row), res.records.rows());
    if (res.records.kind[static_cast<size_t>(row)] == static_cast<uint8_t>(profscope::RecordKind::kRecord))
      by_offset[res.records.offset[static_cast<size_t>(row)]] = i;
    // Labels are one line of text.
    const std::string& label = p.strings.Get(mk.label[i]);
    EXPECT_FALSE(label.empty());
    EXPECT_EQ(label.find('\n'), std::string::npos) << label;
    // Threads are rows of the thread table.
    if (mk.thread[i] != profscope::kNone) {
      EXPECT_LT(static_cast<size_t>(mk.thread[i]), p.threads.size());
    }
  }
  size_t compared = 0;
  for (const auto& r : ref) {
    auto it = by_offset.find(r.offset);
    if (it == by_offset.end()) continue;  // nested in a COMPRESSED record
    size_t i = it->second;
    SCOPED_TRACE(r.kind + " at " + std::to_string(r.offset));
    EXPECT_EQ(p.strings.Get(mk.kind[i]), r.kind);
    ++compared;
    if (r.stamps.empty() || r.stamps[0] == "-1") continue;  // no sample_id_all: perf prints no time
    if (r.stamps.size() >= 2) {
      EXPECT_EQ(std::to_string(mk.cpu[i]), r.stamps[0]);
      EXPECT_EQ(std::to_string(mk.time[i]), r.stamps[1]);
    } else if (any_time) {
      EXPECT_EQ(std::to_string(mk.time[i]), r.stamps[0]);
    } else {
      EXPECT_EQ(std::to_string(mk.cpu[i]), r.stamps[0]);
    }
  }
  if (!ref.empty() && res.mode == "file" && GetParam().find("zstd") == std::string::npos) {
    EXPECT_GT(compared, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(All, MarkersCorpus, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
