// XRay decoder on synthetic logs written here byte by byte: basic mode
// (version 3) and FDR mode (version 5, and version 1 with EndOfBuffer) in
// both byte orders; every truncation of each must decode without crashing,
// keep what came before and report the damage. Then: markers (custom/typed
// events, wall time, cpu; FDR v3/v4 absolute event TSCs vs v5 deltas), FDR
// versions 1-5 and basic versions 1-3 in both byte orders with interleaved
// threads, and the header of every version/type in both orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <tuple>
#include <sstream>
#include <random>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/xray/xray_calls.h"
#include "core/format/xray/xray_decoder.h"
#include "core/model/interval_view.h"
#include "core/model/memory_budget.h"

using profscope::IntervalView;
using profscope::MemorySource;
using profscope::Session;

namespace {

struct W {
  bool big = false;
  std::vector<uint8_t> b;
  void N(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) {
      int sh = big ? (n - 1 - i) * 8 : i * 8;
      b.push_back(static_cast<uint8_t>(v >> sh));
    }
  }
  void U8(uint8_t v) { b.push_back(v); }
  void U16(uint16_t v) { N(v, 2); }
  void U32(uint32_t v) { N(v, 4); }
  void U64(uint64_t v) { N(v, 8); }
  void Pad(size_t n) { b.insert(b.end(), n, 0); }
  void Header(uint16_t version, uint16_t type, uint64_t freq, uint64_t bufsize = 0) {
    U16(version); U16(type); U32(3); U64(freq); U64(bufsize); U64(0);
  }
  // FDR metadata: kind byte then up to 15 body bytes.
  void Meta(uint8_t kind) { U8(static_cast<uint8_t>(kind << 1 | 1)); }
  void MetaEnd(size_t start) { Pad(start + 16 - b.size()); }
  void Fn(uint8_t action, uint32_t id, uint32_t delta) { U32(id << 4 | static_cast<uint32_t>(action) << 1); U32(delta); }
};

std::vector<uint8_t> Fdr5(bool big) {
  W w;
  w.big = big;
  w.Header(5, 1, 1000000000);
  size_t s = w.b.size();
  w.Meta(7); w.U64(0); w.MetaEnd(s);  // BufferExtents, patched below
  size_t ext = s + 1;
  size_t body = w.b.size();
  s = w.b.size(); w.Meta(0); w.U32(42); w.MetaEnd(s);                  // NewBuffer tid 42
  s = w.b.size(); w.Meta(4); w.U64(7); w.U32(5); w.MetaEnd(s);         // WallTimeMarker
  s = w.b.size(); w.Meta(9); w.U32(4242); w.MetaEnd(s);                // PID
  s = w.b.size(); w.Meta(2); w.U16(3); w.U64(1000); w.MetaEnd(s);      // NewCPUId cpu 3 tsc 1000
  w.Fn(0, 1, 10);                                                      // enter 1 @1010
  w.Fn(0, 2, 5);                                                       // enter 2 @1015
  s = w.b.size(); w.Meta(6); w.U64(99); w.MetaEnd(s);                  // CallArgument 99 -> enter-arg
  s = w.b.size(); w.Meta(5); w.U32(3); w.U32(1); w.MetaEnd(s);         // CustomEvent size 3 delta 1 @1016
  w.b.push_back('a'); w.b.push_back('b'); w.b.push_back('c');
  s = w.b.size(); w.Meta(8); w.U32(2); w.U32(1); w.U16(7); w.MetaEnd(s);  // TypedEvent size 2 @1017
  w.b.push_back('x'); w.b.push_back('y');
  w.Fn(2, 2, 3);                                                       // tail-exit 2 @1020
  s = w.b.size(); w.Meta(3); w.U64(2000); w.MetaEnd(s);                // TSCWrap
  w.Fn(1, 1, 20);                                                      // exit 1 @2020
  uint64_t size = w.b.size() - body;
  W e; e.big = big; e.U64(size);
  std::copy(e.b.begin(), e.b.end(), w.b.begin() + static_cast<long>(ext));
  return w.b;
}

std::vector<uint8_t> Basic3(bool big) {
  W w;
  w.big = big;
  w.Header(3, 0, 2000);
  auto rec = [&](uint8_t type, int32_t fn, uint64_t tsc) {
    w.U16(0); w.U8(1); w.U8(type); w.U32(static_cast<uint32_t>(fn)); w.U64(tsc); w.U32(7); w.U32(8); w.Pad(8);
  };
  rec(0, 1, 100);
  rec(3, 2, 110);
  w.U16(1); w.Pad(2); w.U32(2); w.U32(7); w.U32(8); w.U64(555); w.Pad(8);  // arg payload
  rec(1, 2, 130);
  rec(1, 1, 200);
  return w.b;
}

struct Decoded {
  std::vector<uint8_t> bytes;
  std::unique_ptr<MemorySource> src;
  std::unique_ptr<Session> s;
  bool ok = false;
};

std::unique_ptr<Decoded> Decode(std::vector<uint8_t> b) {
  auto d = std::make_unique<Decoded>();
  d->bytes = std::move(b);
  d->src = std::make_unique<MemorySource>(d->bytes.data(), d->bytes.size());
  d->s = std::make_unique<Session>(*d->src, "xray.log");
  d->ok = d->s->Decode();
  return d;
}

class XRayOrders : public ::testing::TestWithParam<bool> {};

TEST_P(XRayOrders, FdrVersion5AllRecordKinds) {
  auto d = Decode(Fdr5(GetParam()));
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->result().format, "xray");
  EXPECT_EQ(d->s->result().byte_order, GetParam() ? "big" : "little");
  EXPECT_EQ(d->s->EventsText(),
            "42\t1010\tenter\t1\n"
            "42\t1015\tenter-arg\t2\t99\n"
            "42\t1020\ttail-exit\t2\n"
            "42\t2020\texit\t1\n");
  EXPECT_EQ(d->s->RecordsText(),
            "0\t32\tfile_header\n"
            "32\t16\tBufferExtents\n"
            "48\t16\tNewBuffer\n"
            "64\t16\tWallTimeMarker\n"
            "80\t16\tPIDRecord\n"
            "96\t16\tNewCPUId\n"
            "112\t8\tfunction_enter\n"
            "120\t8\tfunction_enter\n"
            "128\t16\tCallArgument\n"
            "144\t16\tCustomEventMarker\n"
            "160\t3\tevent_payload\n"
            "163\t16\tTypedEventMarker\n"
            "179\t2\tevent_payload\n"
            "181\t8\tfunction_tail-exit\n"
            "189\t16\tTSCWrap\n"
            "205\t8\tfunction_exit\n");
  EXPECT_EQ(d->s->StacksText(false, ""), "thread_42;#1 1\nthread_42;#1;#2 1\n");
  const IntervalView iv(d->s->result().profile);
  ASSERT_EQ(iv.size(), 2u);
  EXPECT_EQ(iv.start(0), 1015u);
  EXPECT_EQ(iv.end(0), 1020u);
  EXPECT_EQ(iv.depth(0), 1);
  EXPECT_EQ(iv.start(1), 1010u);
  EXPECT_EQ(iv.end(1), 2020u);
  EXPECT_EQ(iv.depth(1), 0);
  // both calls exited: their intervals are read from their samples, not kept twice
  EXPECT_EQ(d->s->result().profile.intervals.from_samples, 2u);
  EXPECT_TRUE(d->s->result().profile.intervals.start.empty());
  const std::string& name = d->s->result().profile.strings.Get(d->s->result().profile.funcs.name[static_cast<size_t>(iv.func(0))]);
  EXPECT_EQ(name, "#2");
  EXPECT_EQ(iv.record(0), 7);  // the entry's row (function_enter at 120)
  EXPECT_EQ(iv.thread(0), iv.thread(1));
  EXPECT_NE(d->s->RecordFieldsJson(5).find("\"cpu\""), std::string::npos);
  EXPECT_NE(d->s->AccountJson().find("\"count\":1"), std::string::npos);
}

TEST_P(XRayOrders, BasicVersion3WithArgPayload) {
  auto d = Decode(Basic3(GetParam()));
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->result().mode, "basic");
  EXPECT_EQ(d->s->EventsText(),
            "7\t100\tenter\t1\n"
            "7\t110\tenter-arg\t2\t555\n"
            "7\t130\texit\t2\n"
            "7\t200\texit\t1\n");
  EXPECT_EQ(d->s->StacksText(false, ""), "thread_7;#1 1\nthread_7;#1;#2 1\n");
  EXPECT_EQ(d->s->result().diags.items().size(), 0u);
}

TEST_P(XRayOrders, EveryTruncationDecodesWhatCameBefore) {
  for (auto full : {Fdr5(GetParam()), Basic3(GetParam())}) {
    auto whole = Decode(full);
    std::string all = whole->s->EventsText();
    std::set<uint64_t> ends;  // record boundaries of the whole file
    const auto& rt = whole->s->result().records;
    for (size_t r = 0; r < rt.rows(); ++r) ends.insert(rt.offset[r] + rt.size[r]);
    for (size_t n = 0; n < full.size(); ++n) {
      std::vector<uint8_t> cut(full.begin(), full.begin() + static_cast<long>(n));
      auto d = Decode(cut);
      if (n < 32) {
        EXPECT_FALSE(d->ok) << n;
        continue;
      }
      // The events before the cut are a prefix of the full result (an argument
      // record after the cut turns "enter" into "enter-arg": compare without it).
      auto strip = [](const std::string& t) {
        std::string out;
        std::istringstream in(t);
        for (std::string l; std::getline(in, l);) {
          size_t k = l.find("\tenter-arg\t");
          if (k != std::string::npos) l.replace(k, 11, "\tenter\t");
          size_t tabs = 0, cut = l.size();
          for (size_t i = 0; i < l.size(); ++i)
            if (l[i] == '\t' && ++tabs == 4) { cut = i; break; }
          out += l.substr(0, cut) + "\n";
        }
        return out;
      };
      std::string ev = strip(d->s->EventsText()), whole_ev = strip(all);
      EXPECT_EQ(whole_ev.compare(0, ev.size(), ev), 0) << "cut at " << n;
      d->s->RecordsText();
      d->s->StacksText(false, "");
      for (size_t r = 0; r < d->s->result().records.rows(); ++r) d->s->RecordFieldsJson(static_cast<int32_t>(r));
      if (!ends.count(n)) EXPECT_FALSE(d->s->result().diags.items().empty()) << "cut at " << n;
    }
  }
}

// A BufferExtents that claims more bytes than the file holds (a count lie, or a log cut short):
// the buffer's records are read to the end of the file, as llvm-xray reads them, and it is said
// once, at the record's offset, with both sizes.
TEST_P(XRayOrders, BufferExtentsPastTheEndOfTheFileIsSaidAndTheRecordsStillRead) {
  std::vector<uint8_t> b = Fdr5(GetParam());
  const auto good = Decode(b);
  W e;
  e.big = GetParam();
  e.U64(uint64_t{1} << 60);
  std::copy(e.b.begin(), e.b.end(), b.begin() + 33);  // the first BufferExtents' size (record at 32)
  auto d = Decode(b);
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->EventsText(), good->s->EventsText());
  const auto& items = d->s->result().diags.items();
  ASSERT_EQ(items.size(), 1u) << d->s->DiagnosticsJson();
  EXPECT_EQ(items[0].code, profscope::DiagCode::kRecordTruncated);
  EXPECT_EQ(items[0].offset, 32u);
  EXPECT_NE(items[0].message.find("BufferExtents declares a buffer of 1152921504606846976 bytes but only " +
                                  std::to_string(b.size() - 48) + " bytes follow"),
            std::string::npos)
      << items[0].message;
}

INSTANTIATE_TEST_SUITE_P(ByteOrder, XRayOrders, ::testing::Values(false, true),
                         [](const auto& i) { return std::string(i.param ? "Big" : "Little"); });

TEST(XRay, UnbalancedExitsAreRepairedLikeLlvmXray) {
  W w;
  w.Header(3, 0, 0);
  auto rec = [&](uint8_t type, int32_t fn, uint64_t tsc) {
    w.U16(0); w.U8(0); w.U8(type); w.U32(static_cast<uint32_t>(fn)); w.U64(tsc); w.U32(1); w.U32(1); w.Pad(8);
  };
  rec(0, 1, 10);  // enter 1
  rec(0, 2, 20);  // enter 2 (its exit is lost)
  rec(1, 1, 30);  // exit 1 closes 2 as well
  rec(1, 9, 40);  // exit with nothing open
  auto d = Decode(w.b);
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->StacksText(false, ""), "thread_1;#1 1\nthread_1;#1;#2 1\n");
  int repaired = 0;
  for (const auto& g : d->s->result().diags.items())
    if (g.code == profscope::DiagCode::kStackRepaired) ++repaired;
  EXPECT_EQ(repaired, 2);
}

TEST(XRay, FdrVersion1SkipsTheRestOfTheBufferAfterEndOfBuffer) {
  W w;
  w.Header(1, 1, 100, 64);
  size_t s = w.b.size(); w.Meta(0); w.U32(5); w.MetaEnd(s);
  s = w.b.size(); w.Meta(2); w.U16(0); w.U64(50); w.MetaEnd(s);
  s = w.b.size(); w.Meta(1); w.MetaEnd(s);  // EndOfBuffer at 64; buffer ends at 32 + 64 = 96
  w.Pad(16);
  s = w.b.size(); w.Meta(0); w.U32(6); w.MetaEnd(s);
  s = w.b.size(); w.Meta(2); w.U16(0); w.U64(70); w.MetaEnd(s);
  w.Fn(0, 3, 1);
  w.Fn(1, 3, 1);
  auto d = Decode(w.b);
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->EventsText(), "6\t71\tenter\t3\n6\t72\texit\t3\n");
  EXPECT_NE(d->s->RecordsText().find("80\t16\tpadding\n"), std::string::npos);
}

}  // namespace

namespace {

struct MarkerRow {
  uint64_t time;
  std::string kind;
  int32_t thread, cpu;
  std::string label;
  int32_t record;
  bool operator==(const MarkerRow& o) const {
    return time == o.time && kind == o.kind && thread == o.thread && cpu == o.cpu && label == o.label && record == o.record;
  }
};
std::ostream& operator<<(std::ostream& os, const MarkerRow& m) {
  return os << "{" << m.time << "," << m.kind << ",t" << m.thread << ",c" << m.cpu << "," << m.label << ",r" << m.record << "}";
}

std::vector<MarkerRow> Markers(const Session& s) {
  const auto& p = s.result().profile;
  std::vector<MarkerRow> out;
  for (size_t i = 0; i < p.markers.size(); ++i)
    out.push_back(MarkerRow{p.markers.time[i], p.strings.Get(p.markers.kind[i]), p.markers.thread[i], p.markers.cpu[i],
                            p.strings.Get(p.markers.label[i]), p.markers.record[i]});
  return out;
}

TEST_P(XRayOrders, FdrVersion5Markers) {
  auto d = Decode(Fdr5(GetParam()));
  ASSERT_TRUE(d->ok);
  // Rows: 3 WallTimeMarker, 5 NewCPUId, 10 custom payload, 12 typed payload.
  std::vector<MarkerRow> want = {
      {1000, "wall time", 0, 3, "7.000005", 3},
      {1000, "cpu", 0, 3, "cpu 3", 5},
      {1016, "custom event", 0, 3, "3 bytes: abc", 10},
      {1017, "typed event", 0, 3, "type 7, 2 bytes: xy", 12},
  };
  EXPECT_EQ(Markers(*d->s), want);
  EXPECT_EQ(d->s->RecordLabel(10), "event payload");
  EXPECT_EQ(d->s->result().records.parent[10], 9);
  EXPECT_EQ(d->s->result().profile.threads.tid[0], 42);
  // Marker times are in the intervals' clock.
  EXPECT_EQ(IntervalView(d->s->result().profile).start(1), 1010u);
}

// Versions 3 and 4 store a custom event's full TSC (and v4 its CPU) instead
// of a delta; the event does not move the base TSC of the function records.
class XRayCustomEventVersions : public ::testing::TestWithParam<int> {};

TEST_P(XRayCustomEventVersions, AbsoluteTscAndPreview) {
  int v = GetParam();
  W w;
  w.Header(static_cast<uint16_t>(v), 1, 1000);
  size_t s = w.b.size();
  w.Meta(7); w.U64(0); w.MetaEnd(s);
  size_t ext = s + 1, body = w.b.size();
  s = w.b.size(); w.Meta(0); w.U32(9); w.MetaEnd(s);
  s = w.b.size(); w.Meta(4); w.U64(12); w.U32(345); w.MetaEnd(s);
  s = w.b.size(); w.Meta(9); w.U32(900); w.MetaEnd(s);
  s = w.b.size(); w.Meta(2); w.U16(1); w.U64(500); w.MetaEnd(s);
  w.Fn(0, 1, 10);  // enter @510
  s = w.b.size(); w.Meta(5); w.U32(60); w.U64(777); if (v >= 4) w.U16(6); w.MetaEnd(s);
  for (int i = 0; i < 60; ++i) w.U8(static_cast<uint8_t>(i % 2 ? 'A' + i % 26 : i));
  s = w.b.size(); w.Meta(2); w.U16(2); w.U64(600); w.MetaEnd(s);  // migration to cpu 2
  w.Fn(1, 1, 5);   // exit @605
  W e; e.U64(w.b.size() - body);
  std::copy(e.b.begin(), e.b.end(), w.b.begin() + static_cast<long>(ext));
  auto d = Decode(w.b);
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->EventsText(), "9\t510\tenter\t1\n9\t605\texit\t1\n");
  std::string preview;
  for (int i = 0; i < 48; ++i) preview += i % 2 ? static_cast<char>('A' + i % 26) : (i >= 32 && i < 127 ? static_cast<char>(i) : '.');
  std::vector<MarkerRow> want = {
      {500, "wall time", 0, 1, "12.000345", 3},
      {500, "cpu", 0, 1, "cpu 1", 5},
      {600, "cpu", 0, 2, "cpu 2", 9},
      {777, "custom event", 0, v >= 4 ? 6 : 1, "60 bytes: " + preview + "...", 8},
  };
  EXPECT_EQ(Markers(*d->s), want);
  EXPECT_EQ(d->s->result().profile.threads.pid[0], 900);
}

INSTANTIATE_TEST_SUITE_P(V, XRayCustomEventVersions, ::testing::Values(3, 4));

TEST(XRay, BasicModeHasNoMarkers) {
  auto d = Decode(Basic3(false));
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->result().profile.markers.size(), 0u);
}

}  // namespace

// FDR versions 1-5 with the same three buffers (thread 10, thread 20, thread
// 10 again), in both byte orders. What changes between versions:
//  v1: no BufferExtents; each buffer ends with EndOfBuffer and fills the
//      header's buffer_size; no PID (pid 0);
//  v2: BufferExtents first (not a bound yet), no EndOfBuffer, pid = tid;
//  v3+: BufferExtents bounds the buffer (bytes after it are skipped until the
//      next BufferExtents), PIDRecord gives the pid.
namespace {

struct FdrBuf {
  uint32_t tid, pid;
  uint16_t cpu;
  uint64_t tsc;
  std::vector<std::array<uint32_t, 3>> fns;  // action, id, delta
  size_t garbage = 0;                        // v3+: bytes after the buffer's extent
  uint8_t garbage_byte = 0x5a;               // what they are (even: they look like function records)
};

constexpr uint64_t kV1BufferSize = 160;

std::vector<uint8_t> FdrLog(int v, bool big, const std::vector<FdrBuf>& bufs) {
  W w;
  w.big = big;
  w.Header(static_cast<uint16_t>(v), 1, 1000, v == 1 ? kV1BufferSize : 0);
  for (const auto& b : bufs) {
    size_t start = w.b.size(), ext = 0, s;
    if (v >= 2) { s = w.b.size(); w.Meta(7); ext = w.b.size(); w.U64(0); w.MetaEnd(s); }
    size_t body = w.b.size();
    s = w.b.size(); w.Meta(0); w.U32(b.tid); w.MetaEnd(s);
    s = w.b.size(); w.Meta(4); w.U64(100 + b.tid); w.U32(b.tid); w.MetaEnd(s);
    if (v >= 3) { s = w.b.size(); w.Meta(9); w.U32(b.pid); w.MetaEnd(s); }
    s = w.b.size(); w.Meta(2); w.U16(b.cpu); w.U64(b.tsc); w.MetaEnd(s);
    for (const auto& f : b.fns) w.Fn(static_cast<uint8_t>(f[0]), f[1], f[2]);
    if (v == 1) {
      s = w.b.size(); w.Meta(1); w.MetaEnd(s);
      w.Pad(start + kV1BufferSize - w.b.size());
    } else {
      W e; e.big = big; e.U64(w.b.size() - body);
      std::copy(e.b.begin(), e.b.end(), w.b.begin() + static_cast<long>(ext));
      if (v >= 3) for (size_t i = 0; i < b.garbage; ++i) w.U8(b.garbage_byte);  // even bytes: would read as function records
    }
  }
  return w.b;
}

std::vector<FdrBuf> ThreeBuffers(size_t garbage = 0) {
  return {
      {10, 100, 1, 1000, {{{0, 1, 5}}, {{0, 2, 5}}}, garbage},
      {20, 200, 2, 1500, {{{0, 3, 1}}, {{1, 3, 2}}}, garbage},
      {10, 100, 3, 2000, {{{1, 2, 1}}, {{1, 1, 1}}}, 0},
  };
}

class XRayFdrVersions : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(XRayFdrVersions, ThreadsInterleavedAcrossBuffers) {
  auto [v, big] = GetParam();
  auto d = Decode(FdrLog(v, big, ThreeBuffers()));
  ASSERT_TRUE(d->ok);
  const auto& r = d->s->result();
  EXPECT_EQ(r.byte_order, big ? "big" : "little");
  EXPECT_EQ(r.mode, "fdr");
  for (const auto& g : r.diags.items()) EXPECT_EQ(g.severity, profscope::Severity::kInfo) << g.message;
  EXPECT_EQ(d->s->EventsText(),
            "10\t1005\tenter\t1\n"
            "10\t1010\tenter\t2\n"
            "20\t1501\tenter\t3\n"
            "20\t1503\texit\t3\n"
            "10\t2001\texit\t2\n"
            "10\t2002\texit\t1\n");
  EXPECT_EQ(d->s->StacksText(false, ""), "thread_10;#1 1\nthread_10;#1;#2 1\nthread_20;#3 1\n");
  const auto& p = r.profile;
  ASSERT_EQ(p.threads.size(), 2u);
  EXPECT_EQ(p.threads.tid[0], 10);
  EXPECT_EQ(p.threads.tid[1], 20);
  int32_t pid10 = v == 1 ? 0 : v == 2 ? 10 : 100, pid20 = v == 1 ? 0 : v == 2 ? 20 : 200;
  EXPECT_EQ(p.threads.pid[0], pid10);
  EXPECT_EQ(p.threads.pid[1], pid20);
  EXPECT_EQ(p.threads.start[0], 1005u);
  EXPECT_EQ(p.threads.end[0], 2002u);
  // Intervals per thread: (thread row, start, end, depth).
  std::set<std::tuple<int32_t, uint64_t, uint64_t, int32_t>> iv, want = {
      {1, 1501, 1503, 0}, {0, 1010, 2001, 1}, {0, 1005, 2002, 0}};
  const IntervalView view(p);
  for (size_t i = 0; i < view.size(); ++i) iv.insert({view.thread(i), view.start(i), view.end(i), view.depth(i)});
  EXPECT_EQ(iv, want);
  // Records: BufferExtents only from v2, EndOfBuffer (+ unused buffer) only in v1.
  std::string rec = d->s->RecordsText();
  EXPECT_EQ(rec.find("BufferExtents") != std::string::npos, v >= 2);
  EXPECT_EQ(rec.find("EndOfBuffer") != std::string::npos, v == 1);
  EXPECT_EQ(rec.find("PIDRecord") != std::string::npos, v >= 3);
  EXPECT_EQ(rec.find("padding") != std::string::npos, v == 1);
  // Wall-time and cpu markers, one per buffer, on their threads.
  size_t walls = 0, cpus = 0;
  for (size_t i = 0; i < p.markers.size(); ++i) {
    std::string k = p.strings.Get(p.markers.kind[i]);
    walls += k == "wall time";
    cpus += k == "cpu";
    EXPECT_EQ(p.threads.tid[static_cast<size_t>(p.markers.thread[i])],
              p.strings.Get(p.markers.label[i]).find("120.") == 0 || p.markers.cpu[i] == 2 ? 20 : 10);
  }
  EXPECT_EQ(walls, 3u);
  EXPECT_EQ(cpus, 3u);
  // llvm-xray account takes the records per (pid, tid) in its hash map's
  // order and drops any record older than the first one it sees: with pids 0
  // (v1) or = tid (v2) thread 10 comes first and every call counts; with pids
  // 100/200 (v3+) thread 20 comes first and thread 10's calls are dropped
  // (checked with llvm-xray-14 account -keep-going on these logs).
  std::string acc = d->s->AccountJson();
  EXPECT_NE(acc.find("\"funcid\":3,\"count\":1"), std::string::npos) << acc;
  EXPECT_EQ(acc.find("\"funcid\":1,\"count\":1") != std::string::npos, v <= 2) << acc;
  EXPECT_EQ(acc.find("\"funcid\":2,\"count\":1") != std::string::npos, v <= 2) << acc;
}

TEST_P(XRayFdrVersions, BytesAfterABufferExtentAreSkippedFromVersion3) {
  auto [v, big] = GetParam();
  if (v < 3) GTEST_SKIP() << "BufferExtents bounds buffers from version 3";
  auto d = Decode(FdrLog(v, big, ThreeBuffers(8)));
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->EventsText(), Decode(FdrLog(v, big, ThreeBuffers()))->s->EventsText());
  std::string rec = d->s->RecordsText();
  size_t n = 0;
  for (size_t k = rec.find("\t8\tpadding"); k != std::string::npos; k = rec.find("\t8\tpadding", k + 1)) ++n;
  EXPECT_EQ(n, 2u);
}

INSTANTIATE_TEST_SUITE_P(V, XRayFdrVersions, ::testing::Combine(::testing::Values(1, 2, 3, 4, 5), ::testing::Values(false, true)),
                         [](const auto& i) {
                           return "v" + std::to_string(std::get<0>(i.param)) + (std::get<1>(i.param) ? "Big" : "Little");
                         });

TEST(XRay, EndOfBufferIsRejectedFromVersion2) {
  for (int v : {2, 3}) {
    W w;
    w.Header(static_cast<uint16_t>(v), 1, 1000);
    size_t s = w.b.size(); w.Meta(7); w.U64(48); w.MetaEnd(s);
    s = w.b.size(); w.Meta(0); w.U32(1); w.MetaEnd(s);
    s = w.b.size(); w.Meta(2); w.U16(0); w.U64(10); w.MetaEnd(s);
    s = w.b.size(); w.Meta(1); w.MetaEnd(s);
    auto d = Decode(w.b);
    ASSERT_TRUE(d->ok);
    bool seen = false;
    for (const auto& g : d->s->result().diags.items()) seen |= g.message.find("EndOfBuffer") != std::string::npos;
    EXPECT_TRUE(seen) << v;
  }
}

// llvm-xray's loader orders the threads by its DenseMap's buckets, whose hash has no secret: a log can give
// thousands of threads (pid, tid) that all start probing at the same bucket. Emulating that order then costs a
// probe per thread already placed, for every thread; past a bound the emulation stops with a warning and the
// threads keep the order of their first buffers. Threads that do not collide are placed as LLVM places them.
TEST(XRay, ThreadsMadeToCollideInLlvmXRaysHashAreNotProbedWithoutEnd) {
  constexpr uint32_t kPid = 300;
  constexpr size_t kThreads = 3000;  // a table of 4096 buckets: 12 bits of the hash
  auto log_of = [&](const std::vector<uint32_t>& tids) {
    std::vector<FdrBuf> bufs;
    for (size_t i = 0; i < tids.size(); ++i)
      bufs.push_back({tids[i], kPid, 0, 1000 + 10 * i, {{{0, 1, 1}}, {{1, 1, 2}}}});
    return FdrLog(5, false, bufs);
  };
  std::vector<uint32_t> colliding;
  const uint32_t home = profscope::xray::LoaderKeyHash(kPid, 1) & 0xFFF;
  for (uint32_t tid = 1; colliding.size() < kThreads; ++tid)
    if ((profscope::xray::LoaderKeyHash(kPid, static_cast<int32_t>(tid)) & 0xFFF) == home) colliding.push_back(tid);
  std::vector<uint32_t> plain(kThreads);
  for (size_t i = 0; i < kThreads; ++i) plain[i] = static_cast<uint32_t>(1 + i);
  for (const bool collide : {true, false}) {
    auto d = Decode(log_of(collide ? colliding : plain));
    ASSERT_TRUE(d->ok);
    size_t warned = 0;
    for (const auto& g : d->s->result().diags.items())
      warned += g.message.find("collide in llvm-xray's hash table") != std::string::npos;
    EXPECT_EQ(warned, collide ? 1u : 0u);
    // In the order of first buffers, whose times go up, llvm-xray account would drop none of the calls (in
    // its bucket order it drops those older than the first it sees); every thread is stacked either way.
    EXPECT_EQ(d->s->AccountJson().find("\"funcid\":1,\"count\":3000") != std::string::npos, collide);
    const std::string stacks = d->s->StacksText(false, "");
    EXPECT_EQ(static_cast<size_t>(std::count(stacks.begin(), stacks.end(), '\n')), kThreads);
    const uint32_t first = collide ? colliding[0] : plain[0];
    EXPECT_NE(stacks.find("thread_" + std::to_string(first) + ";#1 1\n"), std::string::npos);
  }
}

// Basic mode versions 1-3: the same 32-byte records; only version 3 checks an
// argument payload's pid against its function record (llvm-xray's loader).
class XRayBasicVersions : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(XRayBasicVersions, RecordsThreadsAndArgPayloadPid) {
  auto [v, big] = GetParam();
  W w;
  w.big = big;
  w.Header(static_cast<uint16_t>(v), 0, 1000);
  auto rec = [&](uint8_t type, int32_t fn, uint64_t tsc, uint32_t tid, uint32_t pid) {
    w.U16(0); w.U8(0); w.U8(type); w.U32(static_cast<uint32_t>(fn)); w.U64(tsc); w.U32(tid); w.U32(pid); w.Pad(8);
  };
  rec(0, 1, 100, 5, 50);
  rec(3, 2, 105, 6, 60);
  w.U16(1); w.Pad(2); w.U32(2); w.U32(6); w.U32(61); w.U64(77); w.Pad(8);  // arg payload, other pid
  rec(1, 2, 110, 6, 60);
  rec(1, 1, 120, 5, 50);
  auto d = Decode(w.b);
  ASSERT_TRUE(d->ok);
  EXPECT_EQ(d->s->result().byte_order, big ? "big" : "little");
  EXPECT_EQ(d->s->result().mode, "basic");
  std::string arg = v >= 3 ? "" : "\t77";
  EXPECT_EQ(d->s->EventsText(), "5\t100\tenter\t1\n6\t105\tenter-arg\t2" + arg + "\n6\t110\texit\t2\n5\t120\texit\t1\n");
  EXPECT_EQ(d->s->result().diags.items().size(), v >= 3 ? 1u : 0u);
  EXPECT_EQ(d->s->StacksText(false, ""), "thread_5;#1 1\nthread_6;#2 1\n");
  const auto& p = d->s->result().profile;
  ASSERT_EQ(p.threads.size(), 2u);
  EXPECT_EQ(p.threads.pid[1], 60);
  EXPECT_EQ(p.markers.size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(V, XRayBasicVersions, ::testing::Combine(::testing::Values(1, 2, 3), ::testing::Values(false, true)),
                         [](const auto& i) {
                           return "v" + std::to_string(std::get<0>(i.param)) + (std::get<1>(i.param) ? "Big" : "Little");
                         });

// The header decides the byte order (LLVM reads it little-endian first, then
// big-endian); every version/type pair is recognised in both orders.
TEST(XRay, HeaderInBothByteOrdersForEveryVersion) {
  for (int type : {0, 1})
    for (int v = 1; v <= (type ? 5 : 3); ++v)
      for (bool big : {false, true}) {
        W w;
        w.big = big;
        w.Header(static_cast<uint16_t>(v), static_cast<uint16_t>(type), 123456789, type && v == 1 ? 64 : 0);
        auto d = Decode(w.b);
        EXPECT_TRUE(d->ok) << type << " v" << v << " big " << big;
        EXPECT_EQ(d->s->result().byte_order, big ? "big" : "little");
        EXPECT_NE(d->s->RecordFieldsJson(0).find("123456789"), std::string::npos);
        EXPECT_NE(d->s->InfoJson().find(big ? "\"big\"" : "\"little\""), std::string::npos);
      }
  W bad;
  bad.Header(6, 1, 0);  // no such version
  EXPECT_FALSE(Decode(bad.b)->ok);
}

}  // namespace

namespace {

// One FDR version-5 buffer per thread, each with `calls` enter/exit pairs of function 1 (16 bytes a call).
std::vector<uint8_t> ManyCalls(int threads, int calls) {
  std::vector<FdrBuf> bufs;
  for (int t = 0; t < threads; ++t) {
    FdrBuf b{static_cast<uint32_t>(10 + t), 100, 0, 1000, {}, 0};
    for (int c = 0; c < calls; ++c) {
      b.fns.push_back({0, 1, 2});
      b.fns.push_back({1, 1, 3});
    }
    bufs.push_back(std::move(b));
  }
  return FdrLog(5, false, bufs);
}

}  // namespace

TEST(XRay, MemoryBudgetStopsTheDecodeAndKeepsWhatWasDecoded) {
  // 2 x 60 000 calls (1.9 MB); a 1 MiB budget stops the reading part way, and the calls built after
  // it (samples, intervals) stay under the budget too.
  auto d = std::make_unique<Decoded>();
  d->bytes = ManyCalls(2, 60000);
  d->src = std::make_unique<MemorySource>(d->bytes.data(), d->bytes.size());
  d->s = std::make_unique<Session>(*d->src, "xray.log");
  d->s->SetMaxMemoryMiB(1);
  ASSERT_TRUE(d->s->Decode());
  const profscope::DecodeResult& r = d->s->result();
  const profscope::Diagnostic* budget = nullptr;
  for (const auto& g : r.diags.items())
    if (g.code == profscope::DiagCode::kMemoryBudget) budget = &g;
  ASSERT_NE(budget, nullptr) << d->s->DiagnosticsJson();
  EXPECT_EQ(budget->severity, profscope::Severity::kError);
  EXPECT_GT(budget->offset, 32u);
  EXPECT_LT(budget->offset, d->bytes.size());
  EXPECT_NE(budget->message.find("byte offset " + std::to_string(budget->offset)), std::string::npos) << budget->message;
  EXPECT_NE(budget->message.find("memory budget of 1 MB"), std::string::npos) << budget->message;
  // What was read before the offset is decoded: thread 10's calls (its buffer comes first), paired.
  EXPECT_GT(r.profile.samples.size(), 1000u);
  EXPECT_LT(r.profile.samples.size(), 60000u);
  EXPECT_GE(r.profile.intervals.size(), r.profile.samples.size());      // a last entry may be open
  EXPECT_LE(r.profile.intervals.size(), r.profile.samples.size() + 1);
  EXPECT_EQ(d->s->StacksText(false, ""), "thread_10;#1 " + std::to_string(r.profile.samples.size()) + "\n");
  uint64_t kept = profscope::MemoryBudget::Bytes(r.records) + profscope::MemoryBudget::Bytes(r.profile);
  EXPECT_LE(kept, uint64_t{1} << 20);
  // Without the budget the whole log decodes, with no diagnostic.
  auto all = Decode(ManyCalls(2, 60000));
  EXPECT_EQ(all->s->result().profile.samples.size(), 120000u);
  EXPECT_EQ(all->s->DiagnosticsJson(), "[]");
}

// What a session says of a log, decoded whole (runs of function records taken at once) or asked to pause
// before every record (one record at a time: a pause could come before any of them), never pausing;
// `mib`: a memory budget (0: the default).
std::string Said(const std::vector<uint8_t>& bytes, bool each_record, uint64_t mib) {
  MemorySource src(bytes.data(), bytes.size());
  Session s(src, "xray.log");
  if (mib) s.SetMaxMemoryMiB(mib);
  if (each_record) {
    EXPECT_EQ(s.DecodeStart(nullptr, [](uint64_t, uint8_t) { return false; }, 1), Session::DecodeState::kDone);
  } else {
    s.Decode();
  }
  return s.RecordsText() + "\n" + s.StacksText(false, "") + "\n" + s.InfoJson() + "\n" + s.DiagnosticsJson() + "\n" +
         std::to_string(s.result().records.rows());
}

// a == b, else where they first differ (not gtest's diff of two texts of megabytes)
testing::AssertionResult SameText(const std::string& a, const std::string& b) {
  if (a == b) return testing::AssertionSuccess();
  size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  const size_t from = at > 80 ? at - 80 : 0;
  return testing::AssertionFailure() << "sizes " << a.size() << " and " << b.size() << ", first differing at " << at << ":\n"
                                     << a.substr(from, 200) << "\n---\n" << b.substr(from, 200);
}

// An FDR log of version v with runs of function records of every action (and unknown ones, 1 in 50) in
// buffers of two threads; after the second buffer's extent (v3+), bytes that read as function records of
// a known action.
std::vector<uint8_t> MixedFdrLog(int v, bool big, std::mt19937_64& rng) {
  std::vector<FdrBuf> bufs;
  for (int t = 0; t < (v == 1 ? 40 : 3); ++t) {  // (version 1's buffers hold 160 bytes: a few records each)
    FdrBuf b{static_cast<uint32_t>(10 + t % 2), 100, static_cast<uint16_t>(t), 1000u + static_cast<uint64_t>(t), {}, v >= 3 && t == 1 ? 24u : 0u, 0x02};
    const size_t n = v == 1 ? 1 + rng() % 10 : 1 + rng() % 2000;
    for (size_t c = 0; c < n; ++c) {
      const uint32_t action = rng() % 50 == 0 ? 5 + static_cast<uint32_t>(rng() % 3) : static_cast<uint32_t>(rng() % 4);
      b.fns.push_back({action, static_cast<uint32_t>(1 + rng() % 9), static_cast<uint32_t>(rng() % 40)});
    }
    bufs.push_back(std::move(b));
  }
  return FdrLog(v, big, bufs);
}

// FDR logs of every version and byte order with function records of every action (and unknown ones),
// buffers cut short or followed by garbage: taking a run of function records at once decodes what one
// record at a time does; and a memory budget stops at the same record.
TEST(XRay, FunctionRecordsTakenTogetherDecodeAsOneByOne) {
  std::mt19937_64 rng(21);
  for (const int v : {1, 2, 3, 5}) {
    for (const bool big : {false, true}) {
      std::vector<uint8_t> log = MixedFdrLog(v, big, rng);
      SCOPED_TRACE(testing::Message() << "version " << v << (big ? " big" : " little"));
      EXPECT_TRUE(SameText(Said(log, false, 0), Said(log, true, 0)));
      log.resize(log.size() - 13);  // (cut inside a record)
      EXPECT_TRUE(SameText(Said(log, false, 0), Said(log, true, 0)));
    }
  }
  // (a budget reached while the records are read: 800 000 of them in 16 buffers of 4 threads)
  std::vector<FdrBuf> bufs;
  for (int t = 0; t < 16; ++t) {
    FdrBuf b{static_cast<uint32_t>(10 + t % 4), 100, static_cast<uint16_t>(t % 3), 1000u + static_cast<uint64_t>(t), {}, 0, 0x5a};
    for (int c = 0; c < 50000; ++c) b.fns.push_back({static_cast<uint32_t>(rng() % 3), static_cast<uint32_t>(1 + rng() % 200), static_cast<uint32_t>(rng() % 4000)});
    bufs.push_back(std::move(b));
  }
  const std::vector<uint8_t> many = FdrLog(5, false, bufs);
  const std::string budgeted = Said(many, false, 1);
  EXPECT_NE(budgeted.find("memory_budget"), std::string::npos);
  EXPECT_LT(std::stoul(budgeted.substr(budgeted.rfind('\n') + 1)), 400000u);
  EXPECT_TRUE(SameText(budgeted, Said(many, true, 1)));
}

// The offsets a decode asks its pause function at, pausing where `pause_at` says and resuming, every
// `every` bytes; what it says of the log at the end.
std::vector<uint64_t> AskedAt(const std::vector<uint8_t>& bytes, uint64_t every, const std::function<bool(size_t)>& pause_at, std::string* said) {
  MemorySource src(bytes.data(), bytes.size());
  Session s(src, "xray.log");
  std::vector<uint64_t> asked;
  auto state = s.DecodeStart(nullptr, [&](uint64_t off, uint8_t) { asked.push_back(off); return pause_at(asked.size()); }, every);
  while (state == Session::DecodeState::kPaused) state = s.DecodeResume();
  *said = s.RecordsText() + "\n" + s.StacksText(false, "") + "\n" + s.DiagnosticsJson();
  return asked;
}

// A decode asked to pause at most once per `every` bytes asks before the first record at least `every`
// bytes past the one it last asked at, also inside a run of function records it takes at once: the
// offsets asked at are those of a decode that asks before every record, thinned that way; pausing there
// (always, or now and then) changes nothing it decodes.
TEST(XRay, PausesComeBeforeTheSameRecordsWhenFunctionRecordsAreTakenTogether) {
  std::mt19937_64 rng(22);
  for (const int v : {1, 3, 5}) {
    for (const bool big : {false, true}) {
      SCOPED_TRACE(testing::Message() << "version " << v << (big ? " big" : " little"));
      const std::vector<uint8_t> log = MixedFdrLog(v, big, rng);
      std::string whole, said;
      const std::vector<uint64_t> every_record = AskedAt(log, 1, [](size_t) { return false; }, &whole);
      ASSERT_GT(every_record.size(), v == 1 ? 100u : 1000u);
      for (const uint64_t every : {8u, 12u, 24u, 100u, 1000u, 4096u, 8192u}) {
        std::vector<uint64_t> want;
        uint64_t last = 0;
        for (const uint64_t off : every_record) {
          if (off - last < every) continue;
          want.push_back(off);
          last = off;
        }
        SCOPED_TRACE(testing::Message() << "every " << every);
        EXPECT_EQ(AskedAt(log, every, [](size_t) { return true; }, &said), want);
        EXPECT_TRUE(SameText(said, whole));
        EXPECT_EQ(AskedAt(log, every, [](size_t k) { return k % 3 == 0; }, &said), want);
        EXPECT_TRUE(SameText(said, whole));
      }
    }
  }
}

// The order TimeMerge yields a call log of these times in (thread 1's enters of function i), checking
// that each record comes with its own time and action.
std::vector<uint32_t> MergedOrder(const std::vector<uint64_t>& t) {
  profscope::CallLog log;
  for (size_t i = 0; i < t.size(); ++i)
    log.Add(1, 2, profscope::kNone, i % 3 ? profscope::CallAction::kEnter : profscope::CallAction::kExit, static_cast<int32_t>(i), t[i], static_cast<int32_t>(i));
  std::vector<uint32_t> merged;
  profscope::xray::TimeMerge m(log);
  for (profscope::xray::TimeMerge::Item it; m.Next(&it);) {
    EXPECT_EQ(it.tsc, t[it.index]);
    EXPECT_EQ(it.action, it.index % 3 ? profscope::CallAction::kEnter : profscope::CallAction::kExit);
    merged.push_back(it.index);
  }
  return merged;
}

// TimeOrder is a stable sort by time: runs already in order (an FDR log's buffers), ties in file order, any
// number of runs, against std::stable_sort.
TEST(XRayTimeOrder, IsAStableSortByTime) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    const size_t n = rng() % 3000;
    std::vector<uint64_t> t(n);
    // runs of ascending times with many ties, starting anywhere
    uint64_t at = 0;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % (1 + round % 50) == 0) at = rng() % 1000;
      at += rng() % 3;
      t[i] = at;
    }
    std::vector<uint32_t> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = static_cast<uint32_t>(i);
    std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) { return t[a] < t[b]; });
    ASSERT_EQ(profscope::xray::TimeOrder(t), want) << "round " << round;
    // TimeMerge yields the same order (merging few runs, or falling back to TimeOrder for many)
    ASSERT_EQ(MergedOrder(t), want) << "round " << round;
  }
}

// TimeMerge over a log's shape: a few long runs (buffers) that overlap in time, with ties across runs.
TEST(XRayTimeOrder, MergesFewLongRunsInPlace) {
  std::mt19937_64 rng(11);
  for (size_t runs : {1u, 2u, 3u, 7u, 64u, 200u}) {
    std::vector<uint64_t> t;
    for (size_t r = 0; r < runs; ++r) {
      uint64_t at = rng() % 50;
      for (size_t k = 0, len = 1 + rng() % 5000; k < len; ++k) t.push_back(at += rng() % 4);
    }
    std::vector<uint32_t> want(t.size());
    for (size_t i = 0; i < t.size(); ++i) want[i] = static_cast<uint32_t>(i);
    std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) { return t[a] < t[b]; });
    ASSERT_EQ(MergedOrder(t), want) << runs << " runs";
  }
}

// A log's shape at scale: each thread's buffers follow each other in time (the merge chains them: a
// cursor a thread, not a buffer), the threads' buffers interleave in the file, and a buffer may start at
// its predecessor's last time or at another thread's; every record comes in the stable time order with its
// own call-log run and row.
TEST(XRayTimeOrder, ChainsEachThreadsBuffersAndKeepsTheirRuns) {
  std::mt19937_64 rng(23);
  for (int round = 0; round < 60; ++round) {
    const uint32_t threads = 1 + static_cast<uint32_t>(rng() % 6);
    std::vector<uint64_t> clock(threads, rng() % 20);
    profscope::CallLog log;
    std::vector<uint64_t> t;
    std::vector<uint32_t> tid_of;
    for (int buffer = 0, buffers = 1 + static_cast<int>(rng() % 40); buffer < buffers; ++buffer) {
      const uint32_t th = static_cast<uint32_t>(rng() % threads);
      // (a buffer begins at its thread's last time, or a little later; threads' clocks cross)
      if (rng() % 3) clock[th] += rng() % 30;
      for (size_t k = 0, len = 1 + rng() % 300; k < len; ++k) {
        if (k) clock[th] += rng() % 3;
        const size_t i = t.size();
        log.Add(100 + th, 7, buffer, i % 2 ? profscope::CallAction::kExit : profscope::CallAction::kEnter, static_cast<int32_t>(i % 50),
                clock[th], static_cast<int32_t>(i));
        t.push_back(clock[th]);
        tid_of.push_back(100 + th);
      }
    }
    std::vector<uint32_t> want(t.size());
    for (size_t i = 0; i < t.size(); ++i) want[i] = static_cast<uint32_t>(i);
    std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) { return t[a] < t[b]; });
    std::vector<uint32_t> got;
    profscope::xray::TimeMerge m(log);
    for (profscope::xray::TimeMerge::Item it; m.Next(&it);) {
      ASSERT_LT(it.index, t.size());
      EXPECT_EQ(it.tsc, t[it.index]);
      EXPECT_EQ(it.action, it.index % 2 ? profscope::CallAction::kExit : profscope::CallAction::kEnter);
      EXPECT_EQ(it.run, log.RunOf(it.index));
      EXPECT_EQ(log.runs[it.run].tid, tid_of[it.index]);
      EXPECT_EQ(it.row, static_cast<int32_t>(it.index));
      got.push_back(it.index);
    }
    ASSERT_EQ(got, want) << "round " << round << ", " << threads << " threads";
  }
}

TEST(XRayTimeOrder, AnEmptyLogYieldsNothing) {
  const profscope::CallLog empty;
  profscope::xray::TimeMerge none(empty);
  profscope::xray::TimeMerge::Item item;
  EXPECT_FALSE(none.Next(&item));
}
