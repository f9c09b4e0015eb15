// XRay decoder on synthetic logs written here byte by byte: basic mode
// (version 3) and FDR mode (version 5, and version 1 with EndOfBuffer) in
// both byte orders; every truncation of each must decode without crashing,
// keep what came before and report the damage.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/xray/xray_decoder.h"

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
  const auto& iv = d->s->result().profile.intervals;
  ASSERT_EQ(iv.size(), 2u);
  EXPECT_EQ(iv.start[0], 1015u);
  EXPECT_EQ(iv.end[0], 1020u);
  EXPECT_EQ(iv.depth[0], 1);
  EXPECT_EQ(iv.start[1], 1010u);
  EXPECT_EQ(iv.end[1], 2020u);
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
