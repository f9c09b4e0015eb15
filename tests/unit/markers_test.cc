// Timeline markers (Profile::markers), in both byte orders:
//  - perf.data: one marker per MMAP/MMAP2/COMM/EXIT/FORK/LOST/LOST_SAMPLES/
//    THROTTLE/UNTHROTTLE/SWITCH/SWITCH_CPU_WIDE/KSYMBOL/BPF_EVENT/NAMESPACES/
//    CGROUP/TEXT_POKE/AUX/ITRACE_START record, with time/cpu from sample_id,
//    the thread of its tid, a one-line label and its record row (file and
//    pipe mode; without sample_id_all: time 0 unless the record has its own);
//  - a jit dump alone: code loads and moves on threads made from their tids;
//  - perf.data + jit dump: the dump's loads/moves on the perf timeline when
//    the clocks match, none when they do not;
//  - ARCH_TIMESTAMP dumps converted with TIME_CONV (old and extended forms),
//    and the clock_mismatch diagnostic when TIME_CONV is missing or unusable.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/jitdump/jitdump_format.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_jit.h"
#include "tests/unit/perf_test_writer.h"

namespace profscope::perf {
namespace {

constexpr uint64_t kSampleIdAll = 1ULL << 18;
constexpr uint64_t kUseClockid = 1ULL << 25;
constexpr uint64_t kSt = kSampleIp | kSampleTid | kSampleTime | kSampleCpu | kSamplePeriod;
constexpr int32_t kPid = 100, kTid = 101;

PerfEventAttr Attr(uint64_t flags, int32_t clockid = 0) {
  PerfEventAttr a;
  a.type = kTypeSoftware;
  a.sample_period_or_freq = 1000;
  a.sample_type = kSt;
  a.flags = flags;
  a.clockid = clockid;
  return a;
}

// Owns bytes, sources and session.
struct Decoded {
  std::vector<uint8_t> bytes;
  MemorySource src;
  std::vector<std::pair<std::vector<uint8_t>, std::string>> side_bytes;
  std::vector<std::unique_ptr<MemorySource>> side_src;
  Session s;
  bool ok = false;
  explicit Decoded(std::vector<uint8_t> b, std::vector<std::pair<std::vector<uint8_t>, std::string>> side = {})
      : bytes(std::move(b)), src(bytes), side_bytes(std::move(side)), s(src, "perf.data") {
    for (auto& f : side_bytes) {
      side_src.push_back(std::make_unique<MemorySource>(f.first));
      s.AddSideFile(*side_src.back(), f.second);
    }
    ok = s.Decode();
  }
  const Profile& p() const { return s.result().profile; }
  std::string Diags() const {
    std::string out;
    for (const auto& d : s.result().diags.items()) out += std::string(DiagCodeName(d.code)) + ": " + d.message + "\n";
    return out;
  }
  bool Has(DiagCode c, const std::string& text = "") const {
    for (const auto& d : s.result().diags.items())
      if (d.code == c && d.message.find(text) != std::string::npos) return true;
    return false;
  }
  // "KIND|label|time|cpu|tid|record offset" per marker.
  std::vector<std::string> Markers() const {
    const MarkerTable& m = p().markers;
    std::vector<std::string> out;
    for (size_t i = 0; i < m.size(); ++i) {
      std::string tid = m.thread[i] == kNone ? "-" : std::to_string(p().threads.tid[static_cast<size_t>(m.thread[i])]);
      std::string rec = m.record[i] == kNone ? "-" : std::to_string(s.result().records.offset[static_cast<size_t>(m.record[i])]);
      std::string cpu = m.cpu[i] == kNone ? "-" : std::to_string(m.cpu[i]);
      out.push_back(p().strings.Get(m.kind[i]) + "|" + p().strings.Get(m.label[i]) + "|" + std::to_string(m.time[i]) + "|" +
                    cpu + "|" + tid + "|" + rec);
    }
    return out;
  }
};

// Writes one record of each marker type (and a SAMPLE) to `w`; returns the
// expected markers (record offsets relative to `base`, the position where
// `w`'s bytes will sit in the file). With `trailer`, every record carries a
// sample_id {pid, tid, time, cpu}.
std::vector<std::string> WriteMarkerRecords(PerfWriter& w, uint64_t base, bool trailer) {
  std::vector<std::string> want;
  uint64_t t = 5000;
  auto tail = [&](uint32_t cpu) {
    if (!trailer) return;
    w.I32(kPid); w.I32(kTid); w.U64(t); w.U32(cpu); w.U32(0);
  };
  auto expect = [&](size_t at, const std::string& kind, const std::string& label, const std::string& tid,
                    uint64_t own_time = 0) {
    std::string time = trailer ? std::to_string(t) : std::to_string(own_time);
    std::string cpu = trailer ? "3" : "-";
    want.push_back(kind + "|" + label + "|" + time + "|" + cpu + "|" + tid + "|" + std::to_string(base + at));
  };
  const std::string tid = std::to_string(kTid);
  const std::string tid_or_none = trailer ? tid : "-";
  size_t at;

  at = w.BeginRecord(kComm, kMiscMmapData);  // COMM_EXEC
  w.I32(kPid); w.I32(kTid); w.String("bash");
  tail(3); w.EndRecord();
  expect(at, "COMM", "comm bash (exec)", tid);
  t += 10;

  at = w.BeginRecord(kMmap2, 2);
  w.I32(kPid); w.I32(kTid); w.U64(0x7f0000001000); w.U64(0x2000); w.U64(0);
  w.U32(8); w.U32(1); w.U64(1234); w.U64(0); w.U32(5); w.U32(2);
  w.String("/usr/lib/libc.so.6");
  tail(3); w.EndRecord();
  expect(at, "MMAP2", "/usr/lib/libc.so.6 7f0000001000-7f0000003000", tid);
  t += 10;

  at = w.BeginRecord(kMmap, 1);  // a kernel map: no thread
  w.I32(-1); w.I32(0); w.U64(0xffffffff81000000); w.U64(0x1000000); w.U64(0);
  w.String("[kernel.kallsyms]_text");
  tail(3); w.EndRecord();
  expect(at, "MMAP", "[kernel.kallsyms]_text ffffffff81000000-ffffffff82000000", "-");
  t += 10;

  at = w.BeginRecord(kSample, 2);
  w.U64(0x7f0000001100); w.I32(kPid); w.I32(kTid); w.U64(t); w.U32(3); w.U32(0); w.U64(1000);
  w.EndRecord();
  t += 10;

  at = w.BeginRecord(kFork, 0);
  w.I32(kPid); w.I32(kPid); w.I32(102); w.I32(kTid); w.U64(7777);
  tail(3); w.EndRecord();
  expect(at, "FORK", "fork 102 (parent 101)", "102", 7777);
  t += 10;

  at = w.BeginRecord(kLost, 0);
  w.U64(1); w.U64(17);
  tail(3); w.EndRecord();
  expect(at, "LOST", "lost 17 events", tid_or_none);
  t += 10;

  at = w.BeginRecord(kLostSamples, 0);
  w.U64(5);
  tail(3); w.EndRecord();
  expect(at, "LOST_SAMPLES", "lost 5 samples", tid_or_none);
  t += 10;

  at = w.BeginRecord(kThrottle, 0);
  w.U64(8888); w.U64(1); w.U64(1);
  tail(3); w.EndRecord();
  expect(at, "THROTTLE", "throttle", tid_or_none, 8888);
  t += 10;

  at = w.BeginRecord(kUnthrottle, 0);
  w.U64(8899); w.U64(1); w.U64(1);
  tail(3); w.EndRecord();
  expect(at, "UNTHROTTLE", "unthrottle", tid_or_none, 8899);
  t += 10;

  at = w.BeginRecord(kSwitch, kMiscSwitchOut | kMiscSwitchOutPreempt);
  tail(3); w.EndRecord();
  expect(at, "SWITCH", "switch out (preempt)", tid_or_none);
  t += 10;

  at = w.BeginRecord(kSwitch, 0);
  tail(3); w.EndRecord();
  expect(at, "SWITCH", "switch in", tid_or_none);
  t += 10;

  at = w.BeginRecord(kSwitchCpuWide, kMiscSwitchOut);
  w.I32(200); w.I32(201);
  tail(3); w.EndRecord();
  expect(at, "SWITCH_CPU_WIDE", "switch out to 200/201", tid_or_none);
  t += 10;

  at = w.BeginRecord(kKsymbol, 0);
  w.U64(0xffffffffc0001000); w.U32(0x80); w.U16(1); w.U16(0); w.String("bpf_prog_abc");
  tail(3); w.EndRecord();
  expect(at, "KSYMBOL", "ksymbol bpf_prog_abc ffffffffc0001000-ffffffffc0001080", tid_or_none);
  t += 10;

  at = w.BeginRecord(kBpfEvent, 0);
  w.U16(1); w.U16(0); w.U32(42); w.Zeros(8);
  tail(3); w.EndRecord();
  expect(at, "BPF_EVENT", "bpf prog load id 42", tid_or_none);
  t += 10;

  at = w.BeginRecord(kNamespaces, 0);
  w.I32(kPid); w.I32(kTid); w.U64(1); w.U64(4); w.U64(0xf0000001);
  tail(3); w.EndRecord();
  expect(at, "NAMESPACES", "namespaces 100/101", tid);
  t += 10;

  at = w.BeginRecord(kCgroup, 0);
  w.U64(9); w.String("/sys/fs/cgroup/app");
  tail(3); w.EndRecord();
  expect(at, "CGROUP", "cgroup /sys/fs/cgroup/app", tid_or_none);
  t += 10;

  at = w.BeginRecord(kTextPoke, 0);
  w.U64(0xffffffff81001000); w.U16(5); w.U16(5); w.Zeros(10); w.Align(8);
  tail(3); w.EndRecord();
  expect(at, "TEXT_POKE", "text poke ffffffff81001000 (5 -> 5 bytes)", tid_or_none);
  t += 10;

  at = w.BeginRecord(kAux, 0);
  w.U64(0x1000); w.U64(4096); w.U64(1);
  tail(3); w.EndRecord();
  expect(at, "AUX", "aux 4096 bytes at 1000 (truncated)", tid_or_none);
  t += 10;

  at = w.BeginRecord(kItraceStart, 0);
  w.I32(kPid); w.I32(kTid);
  tail(3); w.EndRecord();
  expect(at, "ITRACE_START", "itrace start 100/101", tid);
  t += 10;

  at = w.BeginRecord(kExit, 0);
  w.I32(kPid); w.I32(kPid); w.I32(kTid); w.I32(kTid); w.U64(9999);
  tail(3); w.EndRecord();
  expect(at, "EXIT", "exit 101", tid, 9999);
  return want;
}

class Markers : public ::testing::TestWithParam<ByteOrder> {
 protected:
  ByteOrder o() const { return GetParam(); }
};

TEST_P(Markers, OneMarkerPerRecordFileMode) {
  FileBuilder fb(o());
  fb.AddAttr(Attr(kSampleIdAll), {});
  // The data section's offset is known after Build(): the expected markers
  // come from writing the same records again with that base.
  WriteMarkerRecords(fb.data(), 0, true);
  std::vector<uint8_t> bytes = fb.Build();
  Decoded d(bytes);
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_EQ(d.Diags(), "");
  PerfWriter again(o());
  std::vector<std::string> want = WriteMarkerRecords(again, fb.data_offset(), true);
  EXPECT_EQ(d.Markers(), want);
  EXPECT_NE(d.s.InfoJson().find("\"markers\":" + std::to_string(want.size()) + ","), std::string::npos) << d.s.InfoJson();
}

TEST_P(Markers, OneMarkerPerRecordPipeMode) {
  PipeBuilder pb(o());
  pb.Attr(Attr(kSampleIdAll), {});
  uint64_t base = pb.w().Pos();
  PerfWriter recs(o());
  std::vector<std::string> want = WriteMarkerRecords(recs, base, true);
  pb.w().Bytes(recs.data());
  Decoded d(pb.Build());
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_EQ(d.Markers(), want);
}

TEST_P(Markers, WithoutSampleIdAllTimesAreZeroUnlessTheRecordHasItsOwn) {
  FileBuilder fb(o());
  fb.AddAttr(Attr(0), {});
  WriteMarkerRecords(fb.data(), 0, false);
  std::vector<uint8_t> bytes = fb.Build();
  Decoded d(bytes);
  ASSERT_TRUE(d.ok) << d.Diags();
  PerfWriter again(o());
  EXPECT_EQ(d.Markers(), WriteMarkerRecords(again, fb.data_offset(), false));
}

TEST_P(Markers, RepeatedLabelsShareOneString) {
  FileBuilder fb(o());
  fb.AddAttr(Attr(kSampleIdAll), {});
  PerfWriter& w = fb.data();
  for (int i = 0; i < 3; ++i) {
    w.BeginRecord(kSwitch, kMiscSwitchOut);
    w.I32(kPid); w.I32(kTid); w.U64(100 + i); w.U32(0); w.U32(0);
    w.EndRecord();
  }
  Decoded d(fb.Build());
  ASSERT_TRUE(d.ok);
  const MarkerTable& m = d.p().markers;
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.label[0], m.label[2]);
  EXPECT_EQ(m.kind[0], m.kind[1]);
  EXPECT_EQ(m.time[2], 102u);
}

// ---- jit dumps ---------------------------------------------------------------------------

class JitWriter {
 public:
  explicit JitWriter(bool big) : big_(big) {}
  void U32(uint32_t v) { for (int i = 0; i < 4; ++i) b_.push_back(static_cast<uint8_t>(big_ ? v >> (24 - 8 * i) : v >> (8 * i))); }
  void U64(uint64_t v) { for (int i = 0; i < 8; ++i) b_.push_back(static_cast<uint8_t>(big_ ? v >> (56 - 8 * i) : v >> (8 * i))); }
  void Str(const std::string& s) { b_.insert(b_.end(), s.begin(), s.end()); b_.push_back(0); }
  void Header(uint32_t pid, uint64_t flags) {
    U32(jitdump::kMagic); U32(1); U32(40); U32(62); U32(0); U32(pid); U64(1); U64(flags);
  }
  void Begin(uint32_t id, uint64_t ts) { start_ = b_.size(); U32(id); U32(0); U64(ts); }
  void End() {
    uint32_t total = static_cast<uint32_t>(b_.size() - start_);
    for (int i = 0; i < 4; ++i) b_[start_ + 4 + i] = static_cast<uint8_t>(big_ ? total >> (24 - 8 * i) : total >> (8 * i));
  }
  void Load(uint64_t ts, uint32_t pid, uint32_t tid, uint64_t addr, uint64_t size, uint64_t index, const std::string& name) {
    Begin(jitdump::kCodeLoad, ts);
    U32(pid); U32(tid); U64(addr); U64(addr); U64(size); U64(index); Str(name);
    b_.insert(b_.end(), size, 0xcc);
    End();
  }
  void Move(uint64_t ts, uint32_t pid, uint32_t tid, uint64_t from, uint64_t to, uint64_t size, uint64_t index) {
    Begin(jitdump::kCodeMove, ts);
    U32(pid); U32(tid); U64(to); U64(from); U64(to); U64(size); U64(index);
    End();
  }
  std::vector<uint8_t> bytes() const { return b_; }

 private:
  bool big_;
  std::vector<uint8_t> b_;
  size_t start_ = 0;
};

TEST_P(Markers, JitdumpAloneLoadsAndMovesOnTheirThreads) {
  bool big = o() == ByteOrder::kBig;
  JitWriter j(big);
  j.Header(4242, 0);
  j.Load(1000, 4242, 4243, 0x1000, 16, 1, "JS:foo");
  j.Load(1100, 4242, 4244, 0x2000, 32, 2, "JS:bar");
  j.Move(1200, 4242, 4243, 0x1000, 0x3000, 16, 1);
  std::vector<uint8_t> bytes = j.bytes();
  MemorySource src(bytes);
  Session s(src, "jit-4242.dump");
  ASSERT_TRUE(s.Decode());
  const Profile& p = s.result().profile;
  ASSERT_EQ(p.markers.size(), 3u);
  ASSERT_EQ(p.threads.size(), 2u);
  EXPECT_EQ(p.threads.tid[0], 4243);
  EXPECT_EQ(p.threads.pid[0], 4242);
  EXPECT_EQ(p.threads.tid[1], 4244);
  EXPECT_EQ(p.threads.start[0], 1000u);
  const char* kinds[] = {"code load", "code load", "code move"};
  const char* labels[] = {"JS:foo (16 bytes)", "JS:bar (32 bytes)", "JS:foo 1000 -> 3000"};
  uint64_t times[] = {1000, 1100, 1200};
  int32_t threads[] = {0, 1, 0};
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(p.strings.Get(p.markers.kind[i]), kinds[i]);
    EXPECT_EQ(p.strings.Get(p.markers.label[i]), labels[i]);
    EXPECT_EQ(p.markers.time[i], times[i]);
    EXPECT_EQ(p.markers.thread[i], threads[i]);
    EXPECT_EQ(p.markers.cpu[i], kNone);
    ASSERT_GE(p.markers.record[i], 0);
    EXPECT_EQ(s.result().records.type[static_cast<size_t>(p.markers.record[i])], i < 2 ? jitdump::kCodeLoad : jitdump::kCodeMove);
  }
  EXPECT_NE(s.InfoJson().find("\"markers\":3,"), std::string::npos);
}

// A perf.data of process kPid (COMM for kPid and kTid, an MMAP of
// jit-<kPid>.dump, samples in JIT code at `sample_time`), optionally with a
// TIME_CONV record (size 32: old form; 56: extended).
std::vector<uint8_t> PerfWithJit(ByteOrder o, uint64_t attr_flags, int32_t clockid, uint64_t sample_time,
                                 int timeconv_size = 0, bool cap_zero = true, bool cap_short = false) {
  FileBuilder fb(o);
  PerfEventAttr a = Attr(attr_flags | kSampleIdAll, clockid);
  fb.AddAttr(a, {});
  PerfWriter& w = fb.data();
  auto tail = [&](uint64_t t) { w.I32(kPid); w.I32(kPid); w.U64(t); w.U32(0); w.U32(0); };
  w.BeginRecord(kComm, 0);
  w.I32(kPid); w.I32(kPid); w.String("node");
  tail(10); w.EndRecord();
  w.BeginRecord(kComm, 0);
  w.I32(kPid); w.I32(kTid); w.String("worker");
  tail(11); w.EndRecord();
  w.BeginRecord(kMmap, 2);
  w.I32(kPid); w.I32(kPid); w.U64(0x40000000); w.U64(0x1000); w.U64(0);
  w.String("/tmp/jit-100.dump");
  tail(12); w.EndRecord();
  if (timeconv_size) {
    w.BeginRecord(kTimeConv, 0);
    w.U64(10); w.U64(512); w.U64(1000);  // ns = tsc / 2 + 1000
    if (timeconv_size > 32) {
      w.U64(0x100000); w.U64(0xfffff);   // time_cycles, time_mask (20 bits)
      w.U8(cap_zero); w.U8(cap_short); w.Zeros(6);
    }
    w.EndRecord();
  }
  w.BeginRecord(kSample, 2);
  w.U64(0x7000010); w.I32(kPid); w.I32(kTid); w.U64(sample_time); w.U32(0); w.U32(0); w.U64(1);
  w.EndRecord();
  return fb.Build();
}

std::vector<uint8_t> JitDump(bool big, uint64_t flags, uint64_t load_ts, uint64_t move_ts) {
  JitWriter j(big);
  j.Header(kPid, flags);
  j.Load(load_ts, kPid, kTid, 0x7000000, 0x40, 1, "JS:hot");
  j.Move(move_ts, kPid, 4321, 0x7000000, 0x7100000, 0x40, 1);
  return j.bytes();
}

std::string StackOf(const Decoded& d) { return d.s.StacksText(false, ""); }

TEST_P(Markers, PerfPlusMonotonicJitDumpPutsLoadsOnThePerfTimeline) {
  bool big = o() == ByteOrder::kBig;
  Decoded d(PerfWithJit(o(), kUseClockid, 1, 5000), {{JitDump(!big, 0, 2000, 9000), "jit-100.dump"}});
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_EQ(StackOf(d), "JS:hot 1\n") << d.Diags();
  std::vector<std::string> m = d.Markers();
  ASSERT_GE(m.size(), 2u);
  // The perf records' markers, then the dump's (no record row in perf.data;
  // the move's tid 4321 is no thread of the recording).
  EXPECT_EQ(m[m.size() - 2], "code load|JS:hot (64 bytes)|2000|-|101|-");
  EXPECT_EQ(m[m.size() - 1], "code move|JS:hot 7000000 -> 7100000|9000|-|-|-");
}

TEST_P(Markers, PerfPlusJitDumpWithMismatchingClocksAddsNoMarkers) {
  Decoded d(PerfWithJit(o(), 0, 0, 5000), {{JitDump(false, 0, 2000, 9000), "jit-100.dump"}});
  ASSERT_TRUE(d.ok);
  EXPECT_TRUE(d.Has(DiagCode::kClockMismatch));
  for (const auto& m : d.Markers()) EXPECT_EQ(m.find("code "), std::string::npos) << m;
}

TEST_P(Markers, ArchTimestampDumpWithoutTimeConvIsAClockMismatch) {
  Decoded d(PerfWithJit(o(), 0, 0, 5000), {{JitDump(false, jitdump::kFlagArchTimestamp, 2000, 9000), "jit-100.dump"}});
  ASSERT_TRUE(d.ok);
  EXPECT_TRUE(d.Has(DiagCode::kClockMismatch, "TIME_CONV is missing")) << d.Diags();
  EXPECT_EQ(StackOf(d), "[unknown] 1\n");
}

TEST_P(Markers, ArchTimestampDumpConvertedWithTimeConv) {
  bool big = o() == ByteOrder::kBig;
  // TSC 2000000 -> 2000000 / 2 + 1000 = 1001000 ns; the sample at 1500000 is after the load.
  // (No use_clockid: with ARCH_TIMESTAMP perf does not ask for CLOCK_MONOTONIC.)
  Decoded d(PerfWithJit(o(), 0, 0, 1500000, 32), {{JitDump(big, jitdump::kFlagArchTimestamp, 2000000, 4000000), "jit-100.dump"}});
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_FALSE(d.Has(DiagCode::kClockMismatch)) << d.Diags();
  EXPECT_EQ(StackOf(d), "JS:hot 1\n") << d.Diags();
  std::vector<std::string> m = d.Markers();
  ASSERT_GE(m.size(), 2u);
  EXPECT_EQ(m[m.size() - 2], "code load|JS:hot (64 bytes)|1001000|-|101|-");
  EXPECT_EQ(m[m.size() - 1], "code move|JS:hot 7000000 -> 7100000|2001000|-|-|-");
  // A sample before the converted load time stays unnamed.
  Decoded early(PerfWithJit(o(), 0, 0, 1000500, 32), {{JitDump(big, jitdump::kFlagArchTimestamp, 2000000, 4000000), "jit-100.dump"}});
  EXPECT_EQ(StackOf(early), "[unknown] 1\n");
}

TEST_P(Markers, ArchTimestampDumpWithExtendedTimeConv) {
  // cap_user_time_short: only the low 20 bits of the TSC count, on top of time_cycles.
  // TSC 0x7700000 -> 0x100000 + ((0x7700000 - 0x100000) & 0xfffff) = 0x100000 -> 0x80000 + 1000 ns.
  Decoded d(PerfWithJit(o(), 0, 0, 0x80000 + 1000 + 10, 56, true, true),
            {{JitDump(false, jitdump::kFlagArchTimestamp, 0x7700000, 0x7700000 + 200), "jit-100.dump"}});
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_EQ(StackOf(d), "JS:hot 1\n") << d.Diags();
  std::vector<std::string> m = d.Markers();
  ASSERT_GE(m.size(), 2u);
  EXPECT_EQ(m[m.size() - 2], "code load|JS:hot (64 bytes)|" + std::to_string(0x80000 + 1000) + "|-|101|-");
  // cap_user_time_zero 0: perf turns every time into 0; not used.
  Decoded z(PerfWithJit(o(), 0, 0, 5000, 56, false, false),
            {{JitDump(false, jitdump::kFlagArchTimestamp, 2000, 9000), "jit-100.dump"}});
  EXPECT_TRUE(z.Has(DiagCode::kClockMismatch, "cap_user_time_zero")) << z.Diags();
}

TEST(TscToPerfTime, MatchesPerfsArithmetic) {
  TimeConv tc;
  tc.time_shift = 31;
  tc.time_mult = 1398101333;  // a real x86 pair (~1.5 GHz)
  tc.time_zero = static_cast<uint64_t>(-123456789);
  uint64_t cyc = 0x123456789abcULL;
  uint64_t quot = cyc >> 31, rem = cyc & ((1ULL << 31) - 1);
  EXPECT_EQ(TscToPerfTime(cyc, tc), tc.time_zero + quot * tc.time_mult + ((rem * tc.time_mult) >> 31));
  // time_mult is a u32 for perf: the high bits of the record's u64 are dropped.
  tc.time_mult |= 1ULL << 40;
  EXPECT_EQ(TscToPerfTime(cyc, tc), tc.time_zero + quot * 1398101333ULL + ((rem * 1398101333ULL) >> 31));
  // Short counters are only used in extended records.
  tc.time_mult = 1;
  tc.time_shift = 0;
  tc.time_zero = 0;
  tc.time_cycles = 0x1000;
  tc.time_mask = 0xff;
  tc.cap_user_time_short = true;
  EXPECT_EQ(TscToPerfTime(0x12345, tc), 0x12345u);
  tc.extended = true;
  EXPECT_EQ(TscToPerfTime(0x12345, tc), 0x1000u + ((0x12345 - 0x1000) & 0xff));
  tc.time_shift = 70;  // nonsense shift: no undefined behaviour
  EXPECT_EQ(TscToPerfTime(0x12345, tc), 0u);
}

INSTANTIATE_TEST_SUITE_P(BothOrders, Markers, ::testing::Values(ByteOrder::kLittle, ByteOrder::kBig),
                         [](const ::testing::TestParamInfo<ByteOrder>& i) {
                           return std::string(i.param == ByteOrder::kLittle ? "Little" : "Big");
                         });

}  // namespace
}  // namespace profscope::perf
