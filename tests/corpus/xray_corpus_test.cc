// Every XRay case of tests/data/xray (copied from shared/corpus/xray with
// llvm-xray-14's outputs) against llvm-xray:
//  - `profscope events` against `llvm-xray convert -f yaml` (convert_yaml.txt):
//    every function record, per thread in order, with kind, TSC and arguments;
//  - `profscope stacks` against `llvm-xray stack -all-stacks -stack-format=flame
//    -aggregation-type=count` (stack_flame_count.txt). llvm-xray ends every
//    stack with ';' before the space and prints nodes whose count is 0 (calls
//    that never returned); profscope prints "a;b N" and only stacks with
//    samples, in sorted order, so the comparison drops the ';', the 0 lines,
//    and sorts. Names come from the side file the reference used (the binary,
//    else instrmap.yaml);
//  - `profscope stacks --weight time` against `llvm-xray stack -all-stacks
//    -stack-format=flame` (its default -aggregation-type=time, TSC ticks:
//    stack_flame.txt), normalized the same way;
//  - the record table against `llvm-xray fdr-dump` (fdr_dump.txt): the kind of
//    every FDR record in file order, function ids and TSC deltas;
//  - Session::AccountJson against `llvm-xray account` (account.txt, else
//    account_keep_going.txt).
// fdr_threads / basic_threads are three-thread logs made here (produce.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/corpus/corpus_util.h"
#include "core/api/session.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::Session;

namespace {

using profscope::corpus::ReadFile;
using profscope::corpus::Lines;

const fs::path kData = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "xray";



std::vector<std::string> Cases() {
  std::vector<std::string> c;
  if (fs::exists(kData))
    for (const auto& e : fs::directory_iterator(kData))
      if (e.is_directory() && fs::exists(e.path() / "xray.log")) c.push_back(e.path().filename().string());
  std::sort(c.begin(), c.end());
  return c;
}

struct Opened {
  std::vector<uint8_t> log, side;
  std::unique_ptr<MemorySource> src, side_src;
  std::unique_ptr<Session> s;
};

// `with_names`: give the side file the references were made with.
std::unique_ptr<Opened> Open(const std::string& c, bool with_names) {
  auto o = std::make_unique<Opened>();
  o->log = ReadFile(kData / c / "xray.log");
  o->src = std::make_unique<MemorySource>(o->log.data(), o->log.size());
  o->s = std::make_unique<Session>(*o->src, "xray.log");
  if (with_names) {
    fs::path side;
    for (const auto& e : fs::directory_iterator(kData / c)) {
      auto name = e.path().filename().string();
      if (name.rfind("xray_", 0) == 0 && name != "xray.log") side = e.path();  // the instrumented binary
    }
    if (side.empty() && fs::exists(kData / c / "instrmap.yaml")) side = kData / c / "instrmap.yaml";
    if (!side.empty()) {
      o->side = ReadFile(side);
      o->side_src = std::make_unique<MemorySource>(o->side.data(), o->side.size());
      o->s->AddSideFile(*o->side_src, side.filename().string());
    }
  }
  o->s->Decode();
  return o;
}

class XRayCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(XRayCorpus, EventsMatchConvertYaml) {
  auto o = Open(GetParam(), false);
  std::ifstream f(kData / GetParam() / "convert_yaml.txt");
  std::map<std::string, std::vector<std::string>> want, got;
  std::regex re(R"(func-id: (-?\d+),.*thread: (\d+),.*kind: function-([a-z-]+), tsc: (\d+))");
  std::regex args(R"(args: \[ ([^\]]*) \])");
  size_t n = 0;
  for (std::string l; std::getline(f, l);) {
    std::smatch m, a;
    if (!std::regex_search(l, m, re)) continue;
    std::string line = m[2].str() + "\t" + m[4].str() + "\t" + m[3].str() + "\t" + m[1].str();
    if (std::regex_search(l, a, args)) {
      std::string v = a[1].str();
      v.erase(std::remove(v.begin(), v.end(), ' '), v.end());
      line += "\t" + v;
    }
    want[m[2].str()].push_back(line);
    ++n;
  }
  ASSERT_GT(n, 0u);
  for (const auto& l : Lines(o->s->EventsText())) got[l.substr(0, l.find('\t'))].push_back(l);
  EXPECT_EQ(got, want);
}

std::vector<std::string> Normalize(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (auto l : lines) {
    if (l.size() >= 3 && l.compare(l.size() - 3, 3, "; 0") == 0) continue;
    size_t sp = l.rfind(' ');
    if (sp != std::string::npos && sp > 0 && l[sp - 1] == ';') l.erase(sp - 1, 1);
    out.push_back(l);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_P(XRayCorpus, StacksMatchLlvmXrayStackCount) {
  auto o = Open(GetParam(), true);
  std::ifstream f(kData / GetParam() / "stack_flame_count.txt");
  std::stringstream ss;
  ss << f.rdbuf();
  auto want = Normalize(Lines(ss.str()));
  ASSERT_FALSE(want.empty());
  auto got = Lines(o->s->StacksText(false, ""));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
}

TEST_P(XRayCorpus, StacksByTimeMatchLlvmXrayStackTime) {
  auto o = Open(GetParam(), true);
  std::ifstream f(kData / GetParam() / "stack_flame.txt");
  std::stringstream ss;
  ss << f.rdbuf();
  auto want = Normalize(Lines(ss.str()));
  ASSERT_FALSE(want.empty());
  auto got = Lines(o->s->StacksText(false, "", true));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  // the time of a stack is not its count (a test that could not tell them apart would prove nothing)
  EXPECT_NE(o->s->StacksText(false, "", true), o->s->StacksText(false, "", false));
}

TEST_P(XRayCorpus, AccountMatchesLlvmXrayAccount) {
  // When plain `account` failed (multi-threaded logs: a record before the
  // first one's TSC), the case keeps `account -keep-going`, which skips such
  // records as profscope does.
  fs::path ref = kData / GetParam() / "account.txt";
  if (!fs::exists(ref)) ref = kData / GetParam() / "account_keep_going.txt";
  if (!fs::exists(ref)) GTEST_SKIP() << "llvm-xray account failed for this case";
  auto o = Open(GetParam(), true);
  std::ifstream f(ref);
  std::vector<std::string> want;
  std::regex row(R"(^\s*(-?\d+)\s+(\d+) \[\s*([\d.]+),\s*([\d.]+),\s*([\d.]+),\s*([\d.]+),\s*([\d.]+)\]\s+([\d.]+)  (.*)$)");
  for (std::string l; std::getline(f, l);) {
    std::smatch m;
    if (!std::regex_match(l, m, row)) continue;
    std::string name = m[9].str();
    size_t c = name.find(": ");
    if (c != std::string::npos) name = name.substr(c + 2);
    std::string s;
    for (int k = 1; k <= 8; ++k) s += m[k].str() + " ";
    want.push_back(s + name);
  }
  ASSERT_FALSE(want.empty());
  std::vector<std::string> got;
  std::regex obj(
      R"re(\{"funcid":(-?\d+),"count":(\d+),"min":([^,]+),"median":([^,]+),"p90":([^,]+),"p99":([^,]+),"max":([^,]+),"sum":([^,]+),"function":"((?:[^"\\]|\\.)*)"\})re");
  std::string json = o->s->AccountJson();
  for (std::sregex_iterator it(json.begin(), json.end(), obj), end; it != end; ++it) {
    const auto& m = *it;
    std::string s = m[1].str() + " " + m[2].str() + " ";
    for (int k = 3; k <= 8; ++k) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.6f ", std::stod(m[k].str()));
      s += buf;
    }
    want.size();
    got.push_back(s + m[9].str());
  }
  EXPECT_EQ(got, want);
}

// fdr_dump.txt lists every FDR record; compare kinds (and function ids/deltas)
// in file order. After a version-1 EndOfBuffer llvm-xray parses the unused
// rest of the buffer as (zero) function records; profscope shows it as one
// "padding" row, which must be exactly that many 8-byte records long.
TEST_P(XRayCorpus, RecordsMatchFdrDump) {
  fs::path ref = kData / GetParam() / "fdr_dump.txt";
  if (!fs::exists(ref)) GTEST_SKIP() << "basic-mode log: fdr-dump does not apply";
  auto o = Open(GetParam(), false);
  std::ifstream f(ref);
  std::vector<std::string> want;
  std::regex fn(R"(<Function (Enter|Exit|Tail Exit|Enter With Arg): #(\d+) delta = \+(\d+)>)");
  for (std::string l; std::getline(f, l);) {
    std::smatch m;
    if (std::regex_search(l, m, fn)) want.push_back("fn " + m[1].str() + " " + m[2].str() + " " + m[3].str());
    else if (l.rfind("<Buffer:", 0) == 0) want.push_back("BufferExtents");
    else if (l.rfind("<Thread ID:", 0) == 0) want.push_back("NewBuffer");
    else if (l.rfind("<Wall Time:", 0) == 0) want.push_back("WallTimeMarker");
    else if (l.rfind("<PID:", 0) == 0) want.push_back("PIDRecord");
    else if (l.rfind("<CPU:", 0) == 0) want.push_back("NewCPUId");
    else if (l.rfind("<TSC Wrap:", 0) == 0) want.push_back("TSCWrap");
    else if (l.rfind("<End of Buffer>", 0) == 0) want.push_back("EndOfBuffer");
    else if (l.rfind("<Call Argument:", 0) == 0) want.push_back("CallArgument");
    else if (l.rfind("<Custom Event", 0) == 0) want.push_back("CustomEventMarker");
    else if (l.rfind("<Typed Event", 0) == 0) want.push_back("TypedEventMarker");
    else if (!l.empty()) want.push_back("?" + l);
  }
  ASSERT_FALSE(want.empty());
  const auto& rt = o->s->result().records;
  std::vector<std::string> got;
  for (size_t i = 0; i < rt.rows(); ++i) {
    std::string label = o->s->RecordLabel(static_cast<int32_t>(i));
    if (label == "file header" || label == "event payload") continue;
    if (label == "padding") {
      for (uint64_t k = 0; k < rt.size[i] / 8; ++k) got.push_back("fn Enter 0 0");
      continue;
    }
    if (label.rfind("function ", 0) == 0) {
      const uint8_t* p = o->log.data() + rt.offset[i];
      uint32_t w = p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24;
      uint32_t d = p[4] | p[5] << 8 | p[6] << 16 | static_cast<uint32_t>(p[7]) << 24;
      static const char* k[] = {"Enter", "Exit", "Tail Exit", "Enter With Arg"};
      got.push_back(std::string("fn ") + k[(w >> 1) & 3] + " " + std::to_string(w >> 4) + " " + std::to_string(d));
      continue;
    }
    got.push_back(label);
  }
  EXPECT_EQ(got, want);
}

// Custom events: one "custom event" marker per `kind: custom-event` record of
// convert_yaml.txt, on its thread, at its TSC, labelled with its payload.
TEST_P(XRayCorpus, CustomEventMarkersMatchConvertYaml) {
  auto o = Open(GetParam(), false);
  std::ifstream f(kData / GetParam() / "convert_yaml.txt");
  std::regex re(R"re(thread: (\d+),.*kind: custom-event, tsc: (\d+), data: (?:"((?:[^"\\]|\\.)*)"|'([^']*)'))re");
  std::vector<std::string> want, got;
  for (std::string l; std::getline(f, l);) {
    std::smatch m;
    if (!std::regex_search(l, m, re)) continue;
    std::string raw = m[3].matched ? m[3].str() : m[4].str(), data;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '\\' || i + 1 >= raw.size() || !m[3].matched) { data += raw[i]; continue; }
      char c = raw[++i];
      if (c == 'x' && i + 2 < raw.size()) { data += static_cast<char>(std::stoi(raw.substr(i + 1, 2), nullptr, 16)); i += 2; }
      else if (c == 'n') data += '\n';
      else if (c == 't') data += '\t';
      else if (c == '0') data += '\0';
      else data += c;
    }
    std::string preview;
    for (size_t i = 0; i < data.size() && i < 48; ++i)
      preview += data[i] >= 0x20 && data[i] < 0x7f ? data[i] : '.';
    want.push_back(m[1].str() + " " + m[2].str() + " " + std::to_string(data.size()) + " bytes: " + preview +
                   (data.size() > 48 ? "..." : ""));
  }
  const auto& p = o->s->result().profile;
  for (size_t i = 0; i < p.markers.size(); ++i) {
    if (p.strings.Get(p.markers.kind[i]) != "custom event") continue;
    got.push_back(std::to_string(p.threads.tid[static_cast<size_t>(p.markers.thread[i])]) + " " +
                  std::to_string(p.markers.time[i]) + " " + p.strings.Get(p.markers.label[i]));
  }
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  if (GetParam() == "fdr_threads") EXPECT_EQ(got.size(), 12u);
}

TEST_P(XRayCorpus, NoDiagnosticsAboveInfoExceptRepairs) {
  auto o = Open(GetParam(), true);
  for (const auto& d : o->s->result().diags.items())
    EXPECT_TRUE(d.severity == profscope::Severity::kInfo || d.code == profscope::DiagCode::kStackRepaired) << d.message;
}

INSTANTIATE_TEST_SUITE_P(All, XRayCorpus, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param; });

TEST(XRayCorpusSet, HasEveryCase) { EXPECT_GE(Cases().size(), 11u); }

}  // namespace
