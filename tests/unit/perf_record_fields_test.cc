// Tests of DecodeRecordFields / RecordSummary: every record type written in
// both byte orders, truncation at every length, and real records of
// tests/data/perf/{pipe_mode,default_event} checked against perf report -D.
#include "core/format/perf/perf_record_fields.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/format/perf/perf_attr.h"
#include "core/format/perf/perf_features.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_sample.h"
#include "tests/unit/perf_test_writer.h"

namespace profscope::perf {
namespace {

constexpr uint64_t kBase = 0x1000;  // absolute offset given to the record slices
constexpr uint64_t kSampleIdAll = 1ULL << 18;
constexpr uint64_t kPreciseIp3 = 3ULL << 15;

const char* OrderName(ByteOrder o) { return o == ByteOrder::kLittle ? "Little" : "Big"; }

// ---------------------------------------------------------------------------
// Decoding + lookup helpers

struct Decoded {
  std::vector<uint8_t> bytes;
  FieldList fields;
  Diagnostics diags;
  std::string summary;
  const std::vector<Field>& items() const { return fields.items(); }
};

void ExpectInside(const std::vector<Field>& fs, uint64_t lo, uint64_t hi, const std::string& where) {
  for (const Field& f : fs) {
    EXPECT_GE(f.offset, lo) << where << ": field " << f.name << " starts before the record";
    EXPECT_LE(f.offset, hi) << where << ": field " << f.name << " starts past the record";
    EXPECT_LE(f.size, hi - (f.offset < hi ? f.offset : hi))
        << where << ": field " << f.name << " at " << f.offset << " size " << f.size
        << " ends past the record end " << hi;
    ExpectInside(f.children, lo, hi, where + "/" + f.name);
  }
}

Decoded Decode(const std::vector<uint8_t>& rec, const PerfEventAttr* attr, ByteOrder o,
               size_t len = SIZE_MAX) {
  Decoded d;
  d.bytes.assign(rec.begin(), rec.begin() + static_cast<std::ptrdiff_t>(std::min(len, rec.size())));
  ByteReader r(d.bytes.data(), d.bytes.size(), kBase, o);
  DecodeRecordFields(r, attr, d.fields, &d.diags);
  d.summary = RecordSummary(r, attr);
  ExpectInside(d.items(), kBase, kBase + d.bytes.size(), "record");
  return d;
}

const Field* FindIn(const std::vector<Field>& fs, const std::string& name) {
  for (const Field& f : fs) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// "a/b/c": a top-level field, then children by name.
const Field* Find(const Decoded& d, const std::string& path) {
  const std::vector<Field>* level = &d.items();
  const Field* f = nullptr;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    f = FindIn(*level, part);
    if (!f) return nullptr;
    level = &f->children;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return f;
}

void ExpectField(const Decoded& d, const std::string& path, uint64_t rel_offset, uint64_t size,
                 const std::string& value) {
  const Field* f = Find(d, path);
  ASSERT_NE(f, nullptr) << "no field " << path;
  EXPECT_EQ(f->offset, kBase + rel_offset) << path;
  EXPECT_EQ(f->size, size) << path;
  EXPECT_EQ(f->value, value) << path;
}
#define EXPECT_FIELD(d, path, off, size, value)  \
  do {                                           \
    SCOPED_TRACE(std::string("field ") + path);  \
    ExpectField(d, path, off, size, value);      \
  } while (0)

std::vector<std::string> Names(const std::vector<Field>& fs) {
  std::vector<std::string> n;
  for (const Field& f : fs) n.push_back(f.name);
  return n;
}

bool HasDiag(const Diagnostics& d, DiagCode c) {
  for (const Diagnostic& x : d.items()) {
    if (x.code == c) return true;
  }
  return false;
}

std::string DiagText(const Diagnostics& d) {
  std::string s;
  for (const Diagnostic& x : d.items()) s += std::string(DiagCodeName(x.code)) + ": " + x.message + "\n";
  return s;
}

void ExpectClean(const Decoded& d) { EXPECT_TRUE(d.diags.items().empty()) << DiagText(d.diags); }

void ExpectHeader(const Decoded& d, const std::string& type, const std::string& misc, uint16_t size) {
  const Field* h = Find(d, "header");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->offset, kBase);
  EXPECT_EQ(h->size, 8u);
  EXPECT_FIELD(d, "header/type", 0, 4, type);
  EXPECT_FIELD(d, "header/misc", 4, 2, misc);
  EXPECT_FIELD(d, "header/size", 6, 2, std::to_string(size));
}

// ---------------------------------------------------------------------------
// Record builders (shared by the per-type tests and the truncation sweep)

// An attr whose sample_id trailer is pid,tid | time | id | cpu,res | identifier (40 bytes).
PerfEventAttr TrailerAttr() {
  PerfEventAttr a;
  a.type = kTypeSoftware;
  a.size = 128;
  a.sample_period_or_freq = 4000;
  a.sample_type = kSampleIp | kSampleTid | kSampleTime | kSampleId | kSampleCpu | kSamplePeriod |
                  kSampleIdentifier;
  a.flags = kSampleIdAll | (1ULL << 10);
  return a;
}
constexpr uint32_t kTrailerSize = 40;

void WriteTrailer(PerfWriter& w, uint32_t pid, uint32_t tid, uint64_t time, uint64_t id, uint32_t cpu) {
  w.U32(pid);
  w.U32(tid);
  w.U64(time);
  w.U64(id);
  w.U32(cpu);
  w.U32(0);
  w.U64(id);
}

void ExpectTrailer(const Decoded& d, uint64_t at, const std::string& pid, const std::string& tid,
                   const std::string& time, const std::string& id, const std::string& cpu) {
  EXPECT_FIELD(d, "sample_id.pid", at, 4, pid);
  EXPECT_FIELD(d, "sample_id.tid", at + 4, 4, tid);
  EXPECT_FIELD(d, "sample_id.time", at + 8, 8, time);
  EXPECT_FIELD(d, "sample_id.id", at + 16, 8, id);
  EXPECT_FIELD(d, "sample_id.cpu", at + 24, 4, cpu);
  EXPECT_FIELD(d, "sample_id.reserved", at + 28, 4, "0");
  EXPECT_FIELD(d, "sample_id.identifier", at + 32, 8, id);
}

std::vector<uint8_t> MakeMmap(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kMmap, 0x2002);
  w.U32(1234);
  w.U32(1235);
  w.U64(0x400000);
  w.U64(0x1000);
  w.U64(0);
  w.String("/bin/true", 16);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeKernelMmapWithTrailer(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kMmap, 1);
  w.I32(-1);
  w.U32(0);
  w.U64(0xffffffff81000000ULL);
  w.U64(0x1209988);
  w.U64(0xffffffff81000000ULL);
  w.String("[kernel.kallsyms]_text");  // 24 bytes
  WriteTrailer(w, 0xffffffff, 0xffffffff, 0, 0, 0);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeLost(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kLost, 0);
  w.U64(7);
  w.U64(42);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeCommExec(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kComm, kMiscMmapData);  // COMM_EXEC
  w.U32(21809);
  w.U32(21809);
  w.String("calltree", 16);
  WriteTrailer(w, 21809, 21809, 3269235910400ULL, 3367, 1);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeTask(ByteOrder o, uint32_t type, uint16_t misc) {
  PerfWriter w(o);
  w.BeginRecord(type, misc);
  w.U32(5);   // pid
  w.U32(4);   // ppid
  w.U32(6);   // tid
  w.U32(4);   // ptid
  w.U64(999);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeThrottle(ByteOrder o, uint32_t type) {
  PerfWriter w(o);
  w.BeginRecord(type, 0);
  w.U64(100);
  w.U64(3);
  w.U64(4);
  w.EndRecord();
  return w.data();
}

PerfEventAttr ReadAttr(bool group) {
  PerfEventAttr a;
  a.type = kTypeHardware;
  a.size = 128;
  a.read_format = group ? (kReadGroup | kReadId | kReadTotalTimeEnabled)
                        : (kReadTotalTimeEnabled | kReadTotalTimeRunning | kReadId);
  return a;
}

std::vector<uint8_t> MakeRead(ByteOrder o, bool group) {
  PerfWriter w(o);
  w.BeginRecord(kRead, 0);
  w.U32(10);
  w.U32(11);
  if (group) {
    w.U64(2);      // nr
    w.U64(1000);   // time_enabled
    w.U64(500);    // value
    w.U64(77);     // id
    w.U64(600);
    w.U64(78);
  } else {
    w.U64(500);    // value
    w.U64(1000);   // time_enabled
    w.U64(900);    // time_running
    w.U64(77);     // id
  }
  w.EndRecord();
  return w.data();
}

PerfEventAttr SampleAttr(bool with_addr) {
  PerfEventAttr a;
  a.type = kTypeSoftware;
  a.size = 128;
  a.sample_period_or_freq = 1000;
  a.sample_type = kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleCallchain |
                  (with_addr ? uint64_t{kSampleAddr} : uint64_t{0});
  a.flags = (1ULL << 10) | kSampleIdAll;
  return a;
}

std::vector<uint8_t> MakeSample(ByteOrder o, bool with_addr) {
  PerfWriter w(o);
  w.BeginRecord(kSample, 2);
  w.U64(0x55743e196164ULL);         // ip
  w.U32(21809);                     // pid
  w.U32(21810);                     // tid
  w.U64(3269237929911ULL);          // time
  if (with_addr) w.U64(0xdead000);  // addr
  w.U64(1000000);                   // period
  w.U64(3);                         // callchain nr
  w.U64(kContextUser);
  w.U64(0x55743e196164ULL);
  w.U64(0x55743e1961a0ULL);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeMmap2(ByteOrder o, bool build_id, uint8_t build_id_size = 20) {
  PerfWriter w(o);
  w.BeginRecord(kMmap2, static_cast<uint16_t>(2 | (build_id ? kMiscMmapBuildId : 0)));
  w.U32(21809);
  w.U32(21809);
  w.U64(0x55743e196000ULL);
  w.U64(0x1000);
  w.U64(0x1000);
  if (build_id) {
    w.U8(build_id_size);
    w.U8(0);
    w.U16(0);
    for (uint8_t i = 1; i <= 20; ++i) w.U8(i);
  } else {
    w.U32(0xfe);
    w.U32(0);
    w.U64(1384455);
    w.U64(3549031507ULL);
  }
  w.U32(5);  // r-x
  w.U32(2);  // MAP_PRIVATE
  w.String("/opt/demo/run/pipe_mode/calltree");  // 33 -> 40
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeAux(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kAux, 0);
  w.U64(0x3370);
  w.U64(0x3c0);
  w.U64(5);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeItraceStart(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kItraceStart, 0);
  w.U32(3174);
  w.U32(3175);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeLostSamples(ByteOrder o, uint16_t misc) {
  PerfWriter w(o);
  w.BeginRecord(kLostSamples, misc);
  w.U64(1);
  WriteTrailer(w, 100, 101, 3325070188905ULL, 289, 2);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeSwitch(ByteOrder o, uint16_t misc, bool trailer) {
  PerfWriter w(o);
  w.BeginRecord(kSwitch, misc);
  if (trailer) WriteTrailer(w, 7, 8, 1056482247756146ULL, 3, 0);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeSwitchCpuWide(ByteOrder o, uint16_t misc) {
  PerfWriter w(o);
  w.BeginRecord(kSwitchCpuWide, misc);
  w.U32(3174);
  w.U32(3176);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeNamespaces(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kNamespaces, 0);
  w.U32(5969);
  w.U32(5970);
  w.U64(2);
  w.U64(3);
  w.U64(0xf00000a0);
  w.U64(3);
  w.U64(0xeffffffe);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeKsymbol(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kKsymbol, 1);
  w.U64(0xffffffffc0001000ULL);
  w.U32(256);
  w.U16(1);
  w.U16(0);
  w.String("bpf_prog_abc");  // 16
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeBpfEvent(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kBpfEvent, 0);
  w.U16(1);
  w.U16(0);
  w.U32(42);
  for (uint8_t i = 1; i <= 8; ++i) w.U8(i);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeCgroup(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kCgroup, 0);
  w.U64(1);
  w.String("/");
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeTextPoke(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kTextPoke, 1);
  w.U64(0xffffffff81001000ULL);
  w.U16(2);
  w.U16(5);
  const uint8_t bytes[] = {0x66, 0x90, 0xe8, 0x12, 0x34, 0x56, 0x78};
  w.Bytes(bytes, sizeof bytes);
  w.Align(8);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeAuxOutputHwId(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kAuxOutputHwId, 0);
  w.U64(0x1f);
  w.EndRecord();
  return w.data();
}

PerfEventAttr PipeAttr() {  // the attr of tests/data/perf/pipe_mode
  PerfEventAttr a;
  a.type = kTypeSoftware;
  a.size = 128;
  a.config = 0;
  a.sample_period_or_freq = 1000;
  a.sample_type = 0x167;
  a.flags = 0x6185b703ULL;
  a.sample_max_stack = 127;
  return a;
}

std::vector<uint8_t> MakeHeaderAttr(ByteOrder o, uint32_t attr_size, std::vector<uint64_t> ids,
                                    std::optional<uint32_t> size_field = std::nullopt) {
  PerfWriter w(o);
  w.BeginRecord(kHeaderAttr, 0);
  w.Attr(PipeAttr(), attr_size, size_field);
  for (uint64_t id : ids) w.U64(id);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeEventType(ByteOrder o, size_t name_len) {
  PerfWriter w(o);
  w.BeginRecord(kHeaderEventType, 0);
  w.U64(0);
  w.String("cycles", name_len);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeTracingData(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kHeaderTracingData, 0);
  w.U32(0x1234);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeBuildId(ByteOrder o, bool with_size) {
  PerfWriter w(o);
  w.BeginRecord(kHeaderBuildId, static_cast<uint16_t>(1 | (with_size ? 0x8000 : 0)));
  w.I32(-1);
  for (uint8_t i = 1; i <= 20; ++i) w.U8(i);
  if (with_size) {
    w.U8(20);
    w.U8(0);
    w.U16(0);
  } else {
    w.Zeros(4);
  }
  w.String("[kernel.kallsyms]", 64);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeEmpty(ByteOrder o, uint32_t type) {
  PerfWriter w(o);
  w.BeginRecord(type, 0);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeIdIndex(ByteOrder o, bool with_entries2) {
  PerfWriter w(o);
  w.BeginRecord(kIdIndex, 0);
  w.U64(2);
  w.U64(3367); w.U64(0); w.U64(0); w.U64(21809);
  w.U64(3368); w.U64(1); w.I64(-1); w.I64(-1);
  if (with_entries2) {
    w.I64(-1); w.U64(0);
    w.U64(4242); w.U64(3);
  }
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeAuxtraceInfo(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kAuxtraceInfo, 0);
  w.U32(1);
  w.U32(0);
  w.U64(6);
  w.U64(31);
  w.U64(0x6aaaaaaa);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeAuxtrace(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kAuxtrace, 0);
  w.U64(0x2fd0);
  w.U64(0);
  w.U64(0xbc4cd519a6ULL);
  w.U32(0);
  w.U32(3174);
  w.U32(0);
  w.U32(0);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeAuxtraceError(ByteOrder o, uint32_t fmt) {
  PerfWriter w(o);
  w.BeginRecord(kAuxtraceError, 0);
  w.U32(1);    // type
  w.U32(5);    // code
  w.U32(2);    // cpu
  w.U32(100);  // pid
  w.U32(101);  // tid
  w.U32(fmt);
  w.U64(0x401000);
  if (fmt >= 1) w.U64(1500000000ULL);
  if (fmt >= 2) {
    w.String("overflow", 64);
    w.U32(4000);
    w.U32(3);
  } else {
    w.String("overflow");  // 16
  }
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeThreadMap(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kThreadMap, 0);
  w.U64(2);
  w.U64(21809);
  w.String("calltree", 16);
  w.U64(21810);
  w.String("worker", 16);
  w.EndRecord();
  return w.data();
}

enum class CpuEnc { kCpus, kCpusAny, kMask32, kMask64, kRange, kRangeAny };

void WriteCpuMapData(PerfWriter& w, CpuEnc e) {
  switch (e) {
    case CpuEnc::kCpus:
      w.U16(0); w.U16(4); w.U16(0); w.U16(1); w.U16(2); w.U16(5);
      break;
    case CpuEnc::kCpusAny:
      w.U16(0); w.U16(1); w.U16(0xffff);
      break;
    case CpuEnc::kMask32:
      w.U16(1); w.U16(1); w.U16(4); w.U32(0xb);
      break;
    case CpuEnc::kMask64:
      w.U16(1); w.U16(2); w.U16(8); w.Zeros(4); w.U64(1); w.U64(1);
      break;
    case CpuEnc::kRange:
      w.U16(2); w.U8(0); w.U8(0); w.U16(0); w.U16(1);
      break;
    case CpuEnc::kRangeAny:
      w.U16(2); w.U8(1); w.U8(0); w.U16(2); w.U16(3);
      break;
  }
}

std::vector<uint8_t> MakeCpuMap(ByteOrder o, CpuEnc e) {
  PerfWriter w(o);
  w.BeginRecord(kCpuMap, 0);
  WriteCpuMapData(w, e);
  w.Align(8);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeStatConfig(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kStatConfig, 0);
  w.U64(3);
  w.U64(0); w.U64(1);
  w.U64(2); w.U64(1);
  w.U64(1); w.U64(0);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeStat(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kStat, 0);
  w.U64(5);
  w.U32(0);
  w.I32(-1);
  w.U64(100);
  w.U64(200);
  w.U64(150);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeStatRound(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kStatRound, 0);
  w.U64(1);
  w.U64(1234);
  w.EndRecord();
  return w.data();
}

enum class Upd { kUnit, kScale, kName, kCpus };

std::vector<uint8_t> MakeEventUpdate(ByteOrder o, Upd u) {
  PerfWriter w(o);
  w.BeginRecord(kEventUpdate, 0);
  w.U64(static_cast<uint64_t>(u));
  w.U64(u == Upd::kName ? 3367 : 29);
  switch (u) {
    case Upd::kUnit: w.String("MiB"); break;
    case Upd::kScale: w.F64(0.5); break;
    case Upd::kName: w.String("cpu-clock:ppp", 24); break;
    case Upd::kCpus: WriteCpuMapData(w, CpuEnc::kRange); break;
  }
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeTimeConv(ByteOrder o, bool long_form) {
  PerfWriter w(o);
  w.BeginRecord(kTimeConv, 0);
  w.U64(31);
  w.U64(633060125);
  w.U64(18446744053011285436ULL);
  if (long_form) {
    w.U64(123456789);
    w.U64(0xffffffffffffffULL);
    w.U8(1);
    w.U8(0);
    w.Zeros(6);
  }
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeFeature(ByteOrder o, uint32_t id, const std::string& text) {
  PerfWriter w(o);
  w.BeginRecord(kHeaderFeature, 0);
  w.U64(id);
  if (!text.empty()) w.HeaderString(text, 64);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeCompressed(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kCompressed, 0);
  for (int i = 0; i < 20; ++i) w.U8(static_cast<uint8_t>(0x28 + i));
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeCompressed2(ByteOrder o) {
  PerfWriter w(o);
  w.BeginRecord(kCompressed2, 0);
  w.U64(13);
  for (int i = 0; i < 13; ++i) w.U8(static_cast<uint8_t>(0x28 + i));
  w.Align(8);
  w.EndRecord();
  return w.data();
}

std::vector<uint8_t> MakeUnknown(ByteOrder o, uint32_t type) {
  PerfWriter w(o);
  w.BeginRecord(type, 0);
  w.U64(0x0102030405060708ULL);
  w.EndRecord();
  return w.data();
}

// ---------------------------------------------------------------------------

class RecordFieldsTest : public ::testing::TestWithParam<ByteOrder> {
 protected:
  ByteOrder o() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(BothOrders, RecordFieldsTest,
                         ::testing::Values(ByteOrder::kLittle, ByteOrder::kBig),
                         [](const ::testing::TestParamInfo<ByteOrder>& i) { return OrderName(i.param); });

TEST_P(RecordFieldsTest, Mmap) {
  Decoded d = Decode(MakeMmap(o()), nullptr, o());
  ExpectClean(d);
  EXPECT_EQ(Names(d.items()), (std::vector<std::string>{"header", "pid", "tid", "start", "len", "pgoff", "filename"}));
  ExpectHeader(d, "1 (MMAP)", "0x2002 USER|MMAP_DATA", 56);
  EXPECT_EQ(Find(d, "header")->value, "MMAP, misc 0x2002 USER|MMAP_DATA, size 56");
  EXPECT_FIELD(d, "pid", 8, 4, "1234");
  EXPECT_FIELD(d, "tid", 12, 4, "1235");
  EXPECT_FIELD(d, "start", 16, 8, "0x400000");
  EXPECT_FIELD(d, "len", 24, 8, "0x1000");
  EXPECT_FIELD(d, "pgoff", 32, 8, "0x0");
  EXPECT_FIELD(d, "filename", 40, 16, "\"/bin/true\"");
  EXPECT_EQ(d.summary, "1234/1235: [0x400000(0x1000) @ 0]: r /bin/true");
}

TEST_P(RecordFieldsTest, MmapWithSampleIdTrailer) {
  PerfEventAttr a = TrailerAttr();
  Decoded d = Decode(MakeKernelMmapWithTrailer(o()), &a, o());
  ExpectClean(d);
  EXPECT_EQ(Names(d.items()),
            (std::vector<std::string>{"header", "pid", "tid", "start", "len", "pgoff", "filename",
                                      "sample_id.pid", "sample_id.tid", "sample_id.time",
                                      "sample_id.id", "sample_id.cpu", "sample_id.reserved",
                                      "sample_id.identifier"}));
  ExpectHeader(d, "1 (MMAP)", "0x1 KERNEL", 104);
  EXPECT_FIELD(d, "pid", 8, 4, "-1");
  EXPECT_FIELD(d, "filename", 40, 24, "\"[kernel.kallsyms]_text\"");
  EXPECT_FIELD(d, "sample_id.pid", 64, 4, "4294967295");
  EXPECT_FIELD(d, "sample_id.identifier", 96, 8, "0");
  EXPECT_EQ(d.summary, "-1/0: [0xffffffff81000000(0x1209988) @ 0xffffffff81000000]: x [kernel.kallsyms]_text");
  // Without the attr the trailer is not known: shown as bytes of the string area.
  Decoded n = Decode(MakeKernelMmapWithTrailer(o()), nullptr, o());
  EXPECT_FIELD(n, "filename", 40, 64, "\"[kernel.kallsyms]_text\"");
}

TEST_P(RecordFieldsTest, Lost) {
  Decoded d = Decode(MakeLost(o()), nullptr, o());
  ExpectClean(d);
  ExpectHeader(d, "2 (LOST)", "0x0 CPUMODE_UNKNOWN", 24);
  EXPECT_FIELD(d, "id", 8, 8, "7");
  EXPECT_FIELD(d, "lost", 16, 8, "42");
  EXPECT_EQ(d.summary, "id:7: lost:42");
}

TEST_P(RecordFieldsTest, CommExec) {
  PerfEventAttr a = TrailerAttr();
  Decoded d = Decode(MakeCommExec(o()), &a, o());
  ExpectClean(d);
  ExpectHeader(d, "3 (COMM)", "0x2000 CPUMODE_UNKNOWN|COMM_EXEC", 72);
  EXPECT_FIELD(d, "pid", 8, 4, "21809");
  EXPECT_FIELD(d, "tid", 12, 4, "21809");
  EXPECT_FIELD(d, "comm", 16, 16, "\"calltree\"");
  ExpectTrailer(d, 32, "21809", "21809", "3269235910400", "3367", "1");
  EXPECT_EQ(d.summary, "exec: calltree:21809/21809");
  // Without the exec bit.
  std::vector<uint8_t> b = MakeCommExec(o());
  PerfWriter p(o());
  p.data() = b;
  p.PatchU16(4, 0);
  Decoded n = Decode(p.data(), &a, o());
  EXPECT_EQ(n.summary, "calltree:21809/21809");
  EXPECT_FIELD(n, "header/misc", 4, 2, "0x0 CPUMODE_UNKNOWN");
}

TEST_P(RecordFieldsTest, ExitAndFork) {
  Decoded d = Decode(MakeTask(o(), kExit, 0), nullptr, o());
  ExpectClean(d);
  EXPECT_EQ(Names(d.items()), (std::vector<std::string>{"header", "pid", "ppid", "tid", "ptid", "time"}));
  ExpectHeader(d, "4 (EXIT)", "0x0 CPUMODE_UNKNOWN", 32);
  EXPECT_FIELD(d, "pid", 8, 4, "5");
  EXPECT_FIELD(d, "ppid", 12, 4, "4");
  EXPECT_FIELD(d, "tid", 16, 4, "6");
  EXPECT_FIELD(d, "ptid", 20, 4, "4");
  EXPECT_FIELD(d, "time", 24, 8, "999");
  EXPECT_EQ(d.summary, "(5:6):(4:4)");
  Decoded f = Decode(MakeTask(o(), kFork, kMiscMmapData), nullptr, o());
  ExpectClean(f);
  ExpectHeader(f, "7 (FORK)", "0x2000 CPUMODE_UNKNOWN|FORK_EXEC", 32);
  EXPECT_EQ(f.summary, "(5:6):(4:4)");
}

TEST_P(RecordFieldsTest, ThrottleAndUnthrottle) {
  for (uint32_t t : {uint32_t{kThrottle}, uint32_t{kUnthrottle}}) {
    Decoded d = Decode(MakeThrottle(o(), t), nullptr, o());
    ExpectClean(d);
    ExpectHeader(d, std::to_string(t) + (t == kThrottle ? " (THROTTLE)" : " (UNTHROTTLE)"),
                 "0x0 CPUMODE_UNKNOWN", 32);
    EXPECT_FIELD(d, "time", 8, 8, "100");
    EXPECT_FIELD(d, "id", 16, 8, "3");
    EXPECT_FIELD(d, "stream_id", 24, 8, "4");
    EXPECT_EQ(d.summary, "time 100 id 3 stream_id 4");
  }
}

TEST_P(RecordFieldsTest, Read) {
  PerfEventAttr a = ReadAttr(false);
  Decoded d = Decode(MakeRead(o(), false), &a, o());
  ExpectClean(d);
  EXPECT_EQ(Names(d.items()),
            (std::vector<std::string>{"header", "pid", "tid", "value", "time_enabled", "time_running", "id"}));
  EXPECT_FIELD(d, "pid", 8, 4, "10");
  EXPECT_FIELD(d, "value", 16, 8, "500");
  EXPECT_FIELD(d, "time_enabled", 24, 8, "1000");
  EXPECT_FIELD(d, "time_running", 32, 8, "900");
  EXPECT_FIELD(d, "id", 40, 8, "77");
  EXPECT_EQ(d.summary, "10 11 " + EventName(a, "") + " 500");

  PerfEventAttr g = ReadAttr(true);
  Decoded gd = Decode(MakeRead(o(), true), &g, o());
  ExpectClean(gd);
  EXPECT_FIELD(gd, "nr", 16, 8, "2");
  EXPECT_FIELD(gd, "time_enabled", 24, 8, "1000");
  EXPECT_FIELD(gd, "values", 32, 32, "2 entries");
  EXPECT_FIELD(gd, "values/[0].value", 32, 8, "500");
  EXPECT_FIELD(gd, "values/[0].id", 40, 8, "77");
  EXPECT_FIELD(gd, "values/[1].value", 48, 8, "600");
  EXPECT_FIELD(gd, "values/[1].id", 56, 8, "78");

  // Without the attr the read_format is unknown.
  Decoded n = Decode(MakeRead(o(), false), nullptr, o());
  ExpectClean(n);
  EXPECT_FIELD(n, "value", 16, 8, "500");
  EXPECT_FIELD(n, "unparsed", 24, 24, "24 bytes (read_format unknown: attr not known)");
}

TEST_P(RecordFieldsTest, Sample) {
  PerfEventAttr a = SampleAttr(false);
  Decoded d = Decode(MakeSample(o(), false), &a, o());
  ExpectClean(d);
  EXPECT_EQ(Names(d.items()),
            (std::vector<std::string>{"header", "ip", "pid", "tid", "time", "period", "callchain"}));
  ExpectHeader(d, "9 (SAMPLE)", "0x2 USER", 72);
  EXPECT_FIELD(d, "ip", 8, 8, "0x55743e196164");
  EXPECT_FIELD(d, "pid", 16, 4, "21809");
  EXPECT_FIELD(d, "tid", 20, 4, "21810");
  EXPECT_FIELD(d, "time", 24, 8, "3269237929911");
  EXPECT_FIELD(d, "period", 32, 8, "1000000");
  const Field* cc = Find(d, "callchain");
  ASSERT_NE(cc, nullptr);
  EXPECT_EQ(cc->offset, kBase + 40);
  EXPECT_EQ(cc->size, 32u);
  ASSERT_EQ(cc->children.size(), 3u);
  EXPECT_EQ(cc->children[1].offset, kBase + 56);
  EXPECT_EQ(cc->children[1].value, "0x55743e196164");
  EXPECT_EQ(d.summary, "21809/21810: 0x55743e196164 period: 1000000");

  PerfEventAttr aa = SampleAttr(true);
  Decoded da = Decode(MakeSample(o(), true), &aa, o());
  ExpectClean(da);
  EXPECT_FIELD(da, "addr", 32, 8, "0xdead000");
  EXPECT_EQ(da.summary, "21809/21810: 0x55743e196164 period: 1000000 addr: 0xdead000");

  // No attr: one opaque blob.
  Decoded n = Decode(MakeSample(o(), false), nullptr, o());
  ExpectClean(n);
  EXPECT_EQ(Names(n.items()), (std::vector<std::string>{"header", "payload"}));
  EXPECT_FIELD(n, "payload", 8, 64, "64 bytes (sample_type unknown: no attr)");
  // EXACT_IP misc bit.
  std::vector<uint8_t> b = MakeSample(o(), false);
  PerfWriter p(o());
  p.data() = b;
  p.PatchU16(4, 0x4001);
  EXPECT_FIELD(Decode(p.data(), &a, o()), "header/misc", 4, 2, "0x4001 KERNEL|EXACT_IP");
}

TEST_P(RecordFieldsTest, Mmap2InodeForm) {
  Decoded d = Decode(MakeMmap2(o(), false), nullptr, o());
  ExpectClean(d);
  EXPECT_EQ(Names(d.items()),
            (std::vector<std::string>{"header", "pid", "tid", "start", "len", "pgoff", "maj", "min",
                                      "ino", "ino_generation", "prot", "flags", "filename"}));
  ExpectHeader(d, "10 (MMAP2)", "0x2 USER", 112);
  EXPECT_FIELD(d, "start", 16, 8, "0x55743e196000");
  EXPECT_FIELD(d, "pgoff", 32, 8, "0x1000");
  EXPECT_FIELD(d, "maj", 40, 4, "254");
  EXPECT_FIELD(d, "min", 44, 4, "0");
  EXPECT_FIELD(d, "ino", 48, 8, "1384455");
  EXPECT_FIELD(d, "ino_generation", 56, 8, "3549031507");
  EXPECT_FIELD(d, "prot", 64, 4, "0x5 r-x");
  EXPECT_FIELD(d, "flags", 68, 4, "0x2 MAP_PRIVATE");
  EXPECT_FIELD(d, "filename", 72, 40, "\"/opt/demo/run/pipe_mode/calltree\"");
  EXPECT_EQ(d.summary,
            "21809/21809: [0x55743e196000(0x1000) @ 0x1000 fe:00 1384455 3549031507]: r-xp "
            "/opt/demo/run/pipe_mode/calltree");
}

TEST_P(RecordFieldsTest, Mmap2BuildIdForm) {
  Decoded d = Decode(MakeMmap2(o(), true), nullptr, o());
  ExpectClean(d);
  EXPECT_EQ(Names(d.items()),
            (std::vector<std::string>{"header", "pid", "tid", "start", "len", "pgoff", "build_id_size",
                                      "reserved1", "reserved2", "build_id", "prot", "flags", "filename"}));
  ExpectHeader(d, "10 (MMAP2)", "0x4002 USER|MMAP_BUILD_ID", 112);
  EXPECT_FIELD(d, "build_id_size", 40, 1, "20");
  EXPECT_FIELD(d, "reserved1", 41, 1, "0");
  EXPECT_FIELD(d, "reserved2", 42, 2, "0");
  EXPECT_FIELD(d, "build_id", 44, 20, "0102030405060708090a0b0c0d0e0f1011121314");
  EXPECT_FIELD(d, "prot", 64, 4, "0x5 r-x");
  EXPECT_EQ(d.summary,
            "21809/21809: [0x55743e196000(0x1000) @ 0x1000 <0102030405060708090a0b0c0d0e0f1011121314>]: "
            "r-xp /opt/demo/run/pipe_mode/calltree");
  // A shorter build id (build_id_size 7): only those bytes are the id.
  Decoded s = Decode(MakeMmap2(o(), true, 7), nullptr, o());
  EXPECT_FIELD(s, "build_id", 44, 20, "01020304050607");
}

TEST_P(RecordFieldsTest, AuxAndItraceStart) {
  Decoded d = Decode(MakeAux(o()), nullptr, o());
  ExpectClean(d);
  EXPECT_FIELD(d, "aux_offset", 8, 8, "0x3370");
  EXPECT_FIELD(d, "aux_size", 16, 8, "0x3c0");
  EXPECT_FIELD(d, "flags", 24, 8, "0x5 TRUNCATED|PARTIAL");
  EXPECT_EQ(d.summary, "offset: 0x3370 size: 0x3c0 flags: 0x5 [TP]");
  Decoded i = Decode(MakeItraceStart(o()), nullptr, o());
  ExpectClean(i);
  ExpectHeader(i, "12 (ITRACE_START)", "0x0 CPUMODE_UNKNOWN", 16);
  EXPECT_FIELD(i, "pid", 8, 4, "3174");
  EXPECT_FIELD(i, "tid", 12, 4, "3175");
  EXPECT_EQ(i.summary, "pid: 3174 tid: 3175");
}

TEST_P(RecordFieldsTest, LostSamples) {
  PerfEventAttr a = TrailerAttr();
  Decoded d = Decode(MakeLostSamples(o(), 0), &a, o());
  ExpectClean(d);
  EXPECT_FIELD(d, "lost", 8, 8, "1");
  ExpectTrailer(d, 16, "100", "101", "3325070188905", "289", "2");
  EXPECT_EQ(d.summary, "id:289: lost samples :1");
  Decoded b = Decode(MakeLostSamples(o(), 0x8000), &a, o());
  ExpectHeader(b, "13 (LOST_SAMPLES)", "0x8000 CPUMODE_UNKNOWN|LOST_SAMPLES_BPF", 56);
  EXPECT_EQ(b.summary, "id:289: lost samples :1 (BPF)");
  Decoded n = Decode(MakeLostSamples(o(), 0), nullptr, o());
  EXPECT_EQ(n.summary, "lost samples :1");
}

TEST_P(RecordFieldsTest, Switch) {
  PerfEventAttr a = TrailerAttr();
  Decoded out = Decode(MakeSwitch(o(), kMiscSwitchOut, true), &a, o());
  ExpectClean(out);
  EXPECT_EQ(Names(out.items()),
            (std::vector<std::string>{"header", "sample_id.pid", "sample_id.tid", "sample_id.time",
                                      "sample_id.id", "sample_id.cpu", "sample_id.reserved",
                                      "sample_id.identifier"}));
  ExpectHeader(out, "14 (SWITCH)", "0x2000 CPUMODE_UNKNOWN|SWITCH_OUT", 48);
  ExpectTrailer(out, 8, "7", "8", "1056482247756146", "3", "0");
  EXPECT_EQ(out.summary, "OUT");
  Decoded pre = Decode(MakeSwitch(o(), 0x6000, false), nullptr, o());
  ExpectClean(pre);
  EXPECT_FIELD(pre, "header/misc", 4, 2, "0x6000 CPUMODE_UNKNOWN|SWITCH_OUT|SWITCH_OUT_PREEMPT");
  EXPECT_EQ(pre.summary, "OUT preempt");
  EXPECT_EQ(Decode(MakeSwitch(o(), 0, false), nullptr, o()).summary, "IN");
}

TEST_P(RecordFieldsTest, SwitchCpuWide) {
  Decoded d = Decode(MakeSwitchCpuWide(o(), kMiscSwitchOut), nullptr, o());
  ExpectClean(d);
  EXPECT_FIELD(d, "next_prev_pid", 8, 4, "3174");
  EXPECT_FIELD(d, "next_prev_tid", 12, 4, "3176");
  EXPECT_EQ(d.summary, "OUT next pid/tid: 3174/3176");
  EXPECT_EQ(Decode(MakeSwitchCpuWide(o(), 0), nullptr, o()).summary, "IN prev pid/tid: 3174/3176");
}

TEST_P(RecordFieldsTest, Namespaces) {
  Decoded d = Decode(MakeNamespaces(o()), nullptr, o());
  ExpectClean(d);
  EXPECT_FIELD(d, "pid", 8, 4, "5969");
  EXPECT_FIELD(d, "tid", 12, 4, "5970");
  EXPECT_FIELD(d, "nr_namespaces", 16, 8, "2");
  EXPECT_FIELD(d, "link_info", 24, 32, "2 namespaces");
  EXPECT_FIELD(d, "link_info/[0] net", 24, 16, "dev 3 ino 0xf00000a0");
  EXPECT_FIELD(d, "link_info/[0] net/dev", 24, 8, "3");
  EXPECT_FIELD(d, "link_info/[0] net/ino", 32, 8, "0xf00000a0");
  EXPECT_FIELD(d, "link_info/[1] uts", 40, 16, "dev 3 ino 0xeffffffe");
  EXPECT_EQ(d.summary, "5969/5970 - nr_namespaces: 2 [0/net: 3/0xf00000a0, 1/uts: 3/0xeffffffe]");
}

TEST_P(RecordFieldsTest, KsymbolBpfCgroup) {
  Decoded k = Decode(MakeKsymbol(o()), nullptr, o());
  ExpectClean(k);
  EXPECT_FIELD(k, "addr", 8, 8, "0xffffffffc0001000");
  EXPECT_FIELD(k, "len", 16, 4, "256");
  EXPECT_FIELD(k, "ksym_type", 20, 2, "1 BPF");
  EXPECT_FIELD(k, "flags", 22, 2, "0x0");
  EXPECT_FIELD(k, "name", 24, 16, "\"bpf_prog_abc\"");
  EXPECT_EQ(k.summary, "addr ffffffffc0001000 len 256 type 1 flags 0x0 name bpf_prog_abc");

  Decoded b = Decode(MakeBpfEvent(o()), nullptr, o());
  ExpectClean(b);
  EXPECT_FIELD(b, "type", 8, 2, "1 PROG_LOAD");
  EXPECT_FIELD(b, "flags", 10, 2, "0x0");
  EXPECT_FIELD(b, "id", 12, 4, "42");
  EXPECT_FIELD(b, "tag", 16, 8, "0102030405060708");
  EXPECT_EQ(b.summary, "type 1, flags 0, id 42");

  Decoded c = Decode(MakeCgroup(o()), nullptr, o());
  ExpectClean(c);
  EXPECT_FIELD(c, "id", 8, 8, "1");
  EXPECT_FIELD(c, "path", 16, 8, "\"/\"");
  EXPECT_EQ(c.summary, "cgroup: 1 /");
}

TEST_P(RecordFieldsTest, TextPokeAndAuxOutputHwId) {
  Decoded d = Decode(MakeTextPoke(o()), nullptr, o());
  ExpectClean(d);
  EXPECT_FIELD(d, "addr", 8, 8, "0xffffffff81001000");
  EXPECT_FIELD(d, "old_len", 16, 2, "2");
  EXPECT_FIELD(d, "new_len", 18, 2, "5");
  EXPECT_FIELD(d, "old_bytes", 20, 2, "6690");
  EXPECT_FIELD(d, "new_bytes", 22, 5, "e812345678");
  EXPECT_FIELD(d, "padding", 27, 5, "5 bytes");
  EXPECT_EQ(d.summary, "ffffffff81001000 old len 2 new len 5");
  Decoded h = Decode(MakeAuxOutputHwId(o()), nullptr, o());
  ExpectClean(h);
  ExpectHeader(h, "21 (AUX_OUTPUT_HW_ID)", "0x0 CPUMODE_UNKNOWN", 16);
  EXPECT_FIELD(h, "hw_id", 8, 8, "0x1f");
  EXPECT_EQ(h.summary, "hw_id: 0x1f");
}

TEST_P(RecordFieldsTest, HeaderAttr) {
  const PerfEventAttr pa = PipeAttr();
  for (uint32_t size : {64u, 72u, 80u, 96u, 104u, 112u, 120u, 128u, 136u}) {
    SCOPED_TRACE("attr size " + std::to_string(size));
    Decoded d = Decode(MakeHeaderAttr(o(), size, {3367, 3368}), nullptr, o());
    ExpectClean(d);
    EXPECT_EQ(Names(d.items()), (std::vector<std::string>{"header", "attr", "ids"}));
    ExpectHeader(d, "64 (HEADER_ATTR)", "0x0", static_cast<uint16_t>(8 + size + 16));
    EXPECT_FIELD(d, "attr/type", 8, 4, "1");
    EXPECT_FIELD(d, "attr/size", 12, 4, std::to_string(size));
    EXPECT_FIELD(d, "attr/sample_type", 32, 8, "0x167 IP|TID|TIME|CALLCHAIN|ID|PERIOD");
    const Field* flags = Find(d, "attr/flags");
    ASSERT_NE(flags, nullptr);
    EXPECT_EQ(flags->offset, kBase + 48);
    EXPECT_EQ(flags->value.substr(0, 11), "0x6185b703 ");  // same bits in both byte orders
    const Field* attr = Find(d, "attr");
    EXPECT_EQ(attr->offset, kBase + 8);
    EXPECT_EQ(attr->size, size);
    PerfEventAttr expect = pa;
    expect.size = size;
    EXPECT_EQ(attr->value, EventName(expect, "") + ", size " + std::to_string(size));
    EXPECT_FIELD(d, "ids", 8 + size, 16, "2 ids");
    EXPECT_FIELD(d, "ids/[0]", 8 + size, 8, "3367");
    EXPECT_FIELD(d, "ids/[1]", 16 + size, 8, "3368");
    EXPECT_EQ(d.summary, EventName(expect, "") + ", attr size " + std::to_string(size) + ", 2 ids: 3367, 3368");
  }
  // attr.size 0 means PERF_ATTR_SIZE_VER0 (64).
  Decoded z = Decode(MakeHeaderAttr(o(), 64, {9}, 0u), nullptr, o());
  ExpectClean(z);
  EXPECT_FIELD(z, "attr/size", 12, 4, "0");
  EXPECT_FIELD(z, "ids/[0]", 72, 8, "9");
  // attr.size larger than the record.
  Decoded big = Decode(MakeHeaderAttr(o(), 64, {9}, 200u), nullptr, o());
  EXPECT_TRUE(HasDiag(big.diags, DiagCode::kRecordFieldOverrun));
  EXPECT_FIELD(big, "attr", 8, 72, "truncated: 72 of 200 bytes");
}

TEST_P(RecordFieldsTest, EventTypeTracingDataBuildId) {
  Decoded e = Decode(MakeEventType(o(), 8), nullptr, o());  // perf 3.x cut the name
  ExpectClean(e);
  ExpectHeader(e, "65 (HEADER_EVENT_TYPE)", "0x0", 24);
  EXPECT_FIELD(e, "event_id", 8, 8, "0");
  EXPECT_FIELD(e, "name", 16, 8, "\"cycles\"");
  EXPECT_EQ(e.summary, "0: cycles");
  Decoded ef = Decode(MakeEventType(o(), 64), nullptr, o());
  ExpectClean(ef);
  EXPECT_FIELD(ef, "name", 16, 64, "\"cycles\"");

  Decoded t = Decode(MakeTracingData(o()), nullptr, o());
  ExpectClean(t);
  ExpectHeader(t, "66 (HEADER_TRACING_DATA)", "0x0", 12);
  EXPECT_FIELD(t, "size", 8, 4, "4660 (tracing data follow the record)");
  EXPECT_EQ(t.summary, "size: 4660");

  Decoded b = Decode(MakeBuildId(o(), true), nullptr, o());
  ExpectClean(b);
  ExpectHeader(b, "67 (HEADER_BUILD_ID)", "0x8001 KERNEL|BUILD_ID_SIZE", 100);
  EXPECT_FIELD(b, "pid", 8, 4, "-1");
  EXPECT_FIELD(b, "build_id", 12, 20, "0102030405060708090a0b0c0d0e0f1011121314");
  EXPECT_FIELD(b, "build_id_size", 32, 1, "20");
  EXPECT_FIELD(b, "reserved1", 33, 1, "0");
  EXPECT_FIELD(b, "reserved2", 34, 2, "0");
  EXPECT_FIELD(b, "filename", 36, 64, "\"[kernel.kallsyms]\"");
  EXPECT_EQ(b.summary, "pid -1 <0102030405060708090a0b0c0d0e0f1011121314>: [kernel.kallsyms]");
  Decoded old = Decode(MakeBuildId(o(), false), nullptr, o());
  ExpectClean(old);
  ExpectHeader(old, "67 (HEADER_BUILD_ID)", "0x1 KERNEL", 100);
  EXPECT_FIELD(old, "build_id", 12, 24, "0102030405060708090a0b0c0d0e0f1011121314");
  EXPECT_FIELD(old, "filename", 36, 64, "\"[kernel.kallsyms]\"");
}

TEST_P(RecordFieldsTest, RecordsWithoutPayload) {
  for (uint32_t t : {uint32_t{kFinishedRound}, uint32_t{kFinishedInit}}) {
    Decoded d = Decode(MakeEmpty(o(), t), nullptr, o());
    ExpectClean(d);
    EXPECT_EQ(Names(d.items()), (std::vector<std::string>{"header"}));
    EXPECT_EQ(d.summary, "");
  }
  Decoded d = Decode(MakeEmpty(o(), kFinishedRound), nullptr, o());
  ExpectHeader(d, "68 (FINISHED_ROUND)", "0x0", 8);
  EXPECT_EQ(Find(d, "header")->value, "FINISHED_ROUND, misc 0x0, size 8");
}

TEST_P(RecordFieldsTest, IdIndex) {
  Decoded d = Decode(MakeIdIndex(o(), false), nullptr, o());
  ExpectClean(d);
  EXPECT_EQ(Names(d.items()), (std::vector<std::string>{"header", "nr", "entries"}));
  EXPECT_FIELD(d, "nr", 8, 8, "2");
  EXPECT_FIELD(d, "entries", 16, 64, "2 entries");
  EXPECT_FIELD(d, "entries/[0]", 16, 32, "id: 3367 idx: 0 cpu: 0 tid: 21809");
  EXPECT_FIELD(d, "entries/[0]/id", 16, 8, "3367");
  EXPECT_FIELD(d, "entries/[0]/idx", 24, 8, "0");
  EXPECT_FIELD(d, "entries/[0]/cpu", 32, 8, "0");
  EXPECT_FIELD(d, "entries/[0]/tid", 40, 8, "21809");
  EXPECT_FIELD(d, "entries/[1]", 48, 32, "id: 3368 idx: 1 cpu: -1 tid: -1");
  EXPECT_FIELD(d, "entries/[1]/cpu", 64, 8, "-1");
  EXPECT_EQ(d.summary, "nr: 2 [id: 3367 idx: 0 cpu: 0 tid: 21809; id: 3368 idx: 1 cpu: -1 tid: -1]");
  Decoded e = Decode(MakeIdIndex(o(), true), nullptr, o());
  ExpectClean(e);
  EXPECT_FIELD(e, "entries_2", 80, 32, "2 entries");
  EXPECT_FIELD(e, "entries_2/[0]", 80, 16, "machine_pid: -1 vcpu: 0");
  EXPECT_FIELD(e, "entries_2/[1]/machine_pid", 96, 8, "4242");
  EXPECT_FIELD(e, "entries_2/[1]/vcpu", 104, 8, "3");
}

TEST_P(RecordFieldsTest, Auxtrace) {
  Decoded i = Decode(MakeAuxtraceInfo(o()), nullptr, o());
  ExpectClean(i);
  ExpectHeader(i, "70 (AUXTRACE_INFO)", "0x0", 40);
  EXPECT_FIELD(i, "type", 8, 4, "1 INTEL_PT");
  EXPECT_FIELD(i, "reserved", 12, 4, "0");
  EXPECT_FIELD(i, "priv", 16, 24, "3 u64");
  EXPECT_FIELD(i, "priv/[0]", 16, 8, "0x6");
  EXPECT_FIELD(i, "priv/[2]", 32, 8, "0x6aaaaaaa");
  EXPECT_EQ(i.summary, "type: 1");

  Decoded a = Decode(MakeAuxtrace(o()), nullptr, o());
  ExpectClean(a);
  EXPECT_FIELD(a, "size", 8, 8, "0x2fd0 (12240 bytes of trace data follow the record)");
  EXPECT_FIELD(a, "offset", 16, 8, "0x0");
  EXPECT_FIELD(a, "reference", 24, 8, "0xbc4cd519a6");
  EXPECT_FIELD(a, "idx", 32, 4, "0");
  EXPECT_FIELD(a, "tid", 36, 4, "3174");
  EXPECT_FIELD(a, "cpu", 40, 4, "0");
  EXPECT_FIELD(a, "reserved", 44, 4, "0");
  EXPECT_EQ(a.summary, "size: 0x2fd0 offset: 0 ref: 0xbc4cd519a6 idx: 0 tid: 3174 cpu: 0");
}

TEST_P(RecordFieldsTest, AuxtraceError) {
  Decoded f0 = Decode(MakeAuxtraceError(o(), 0), nullptr, o());
  ExpectClean(f0);
  EXPECT_EQ(Names(f0.items()),
            (std::vector<std::string>{"header", "type", "code", "cpu", "pid", "tid", "fmt", "ip", "msg"}));
  EXPECT_FIELD(f0, "type", 8, 4, "1 ITRACE");
  EXPECT_FIELD(f0, "code", 12, 4, "5");
  EXPECT_FIELD(f0, "fmt", 28, 4, "0");
  EXPECT_FIELD(f0, "ip", 32, 8, "0x401000");
  EXPECT_FIELD(f0, "msg", 40, 16, "\"overflow\"");
  EXPECT_EQ(f0.summary, "instruction trace error type 1 cpu 2 pid 100 tid 101 ip 0x401000 code 5: overflow");

  Decoded f1 = Decode(MakeAuxtraceError(o(), 1), nullptr, o());
  ExpectClean(f1);
  EXPECT_FIELD(f1, "time", 40, 8, "1500000000");
  EXPECT_FIELD(f1, "msg", 48, 16, "\"overflow\"");
  EXPECT_EQ(f1.summary,
            "instruction trace error type 1 time 1.500000000 cpu 2 pid 100 tid 101 ip 0x401000 code 5: overflow");

  Decoded f2 = Decode(MakeAuxtraceError(o(), 2), nullptr, o());
  ExpectClean(f2);
  EXPECT_FIELD(f2, "msg", 48, 64, "\"overflow\"");
  EXPECT_FIELD(f2, "machine_pid", 112, 4, "4000");
  EXPECT_FIELD(f2, "vcpu", 116, 4, "3");
  EXPECT_EQ(f2.summary,
            "instruction trace error type 1 time 1.500000000 machine_pid 4000 vcpu 3 cpu 2 pid 100 "
            "tid 101 ip 0x401000 code 5: overflow");
}

TEST_P(RecordFieldsTest, ThreadMap) {
  Decoded d = Decode(MakeThreadMap(o()), nullptr, o());
  ExpectClean(d);
  EXPECT_FIELD(d, "nr", 8, 8, "2");
  EXPECT_FIELD(d, "entries", 16, 48, "2 threads");
  EXPECT_FIELD(d, "entries/[0]", 16, 24, "21809 \"calltree\"");
  EXPECT_FIELD(d, "entries/[0]/pid", 16, 8, "21809");
  EXPECT_FIELD(d, "entries/[0]/comm", 24, 16, "\"calltree\"");
  EXPECT_FIELD(d, "entries/[1]/comm", 48, 16, "\"worker\"");
  EXPECT_EQ(d.summary, "nr: 2 threads: 21809, 21810");
}

TEST_P(RecordFieldsTest, CpuMapEncodings) {
  {
    Decoded d = Decode(MakeCpuMap(o(), CpuEnc::kCpus), nullptr, o());
    ExpectClean(d);
    ExpectHeader(d, "74 (CPU_MAP)", "0x0", 24);
    EXPECT_FIELD(d, "type", 8, 2, "0 CPUS");
    EXPECT_FIELD(d, "nr", 10, 2, "4");
    EXPECT_FIELD(d, "cpu", 12, 8, "4 CPUs");
    EXPECT_FIELD(d, "cpu/[0]", 12, 2, "0");
    EXPECT_FIELD(d, "cpu/[3]", 18, 2, "5");
    EXPECT_FIELD(d, "padding", 20, 4, "4 bytes");
    EXPECT_EQ(d.summary, "0-2,5");
  }
  {
    Decoded d = Decode(MakeCpuMap(o(), CpuEnc::kCpusAny), nullptr, o());
    ExpectClean(d);
    EXPECT_FIELD(d, "cpu/[0]", 12, 2, "-1 (any)");
    EXPECT_EQ(d.summary, "-1");
  }
  {
    Decoded d = Decode(MakeCpuMap(o(), CpuEnc::kMask32), nullptr, o());
    ExpectClean(d);
    EXPECT_FIELD(d, "type", 8, 2, "1 MASK");
    EXPECT_FIELD(d, "nr", 10, 2, "1");
    EXPECT_FIELD(d, "long_size", 12, 2, "4");
    EXPECT_FIELD(d, "mask", 14, 4, "1 x 32 bits");
    EXPECT_FIELD(d, "mask/[0]", 14, 4, "0xb");
    EXPECT_EQ(d.summary, "0-1,3");
  }
  {
    Decoded d = Decode(MakeCpuMap(o(), CpuEnc::kMask64), nullptr, o());
    ExpectClean(d);
    EXPECT_FIELD(d, "long_size", 12, 2, "8");
    EXPECT_FIELD(d, "pad", 14, 4, "4 bytes");
    EXPECT_FIELD(d, "mask", 18, 16, "2 x 64 bits");
    EXPECT_FIELD(d, "mask/[0]", 18, 8, "0x1");
    EXPECT_FIELD(d, "mask/[1]", 26, 8, "0x1");
    EXPECT_EQ(d.summary, "0,64");
  }
  {
    Decoded d = Decode(MakeCpuMap(o(), CpuEnc::kRange), nullptr, o());
    ExpectClean(d);
    ExpectHeader(d, "74 (CPU_MAP)", "0x0", 16);
    EXPECT_FIELD(d, "type", 8, 2, "2 RANGE_CPUS");
    EXPECT_FIELD(d, "any_cpu", 10, 1, "0");
    EXPECT_FIELD(d, "pad", 11, 1, "0");
    EXPECT_FIELD(d, "start_cpu", 12, 2, "0");
    EXPECT_FIELD(d, "end_cpu", 14, 2, "1");
    EXPECT_EQ(d.summary, "0-1");
  }
  {
    Decoded d = Decode(MakeCpuMap(o(), CpuEnc::kRangeAny), nullptr, o());
    ExpectClean(d);
    EXPECT_FIELD(d, "any_cpu", 10, 1, "1");
    EXPECT_EQ(d.summary, "-1,2-3");
  }
}

TEST_P(RecordFieldsTest, Stat) {
  Decoded c = Decode(MakeStatConfig(o()), nullptr, o());
  ExpectClean(c);
  EXPECT_FIELD(c, "nr", 8, 8, "3");
  EXPECT_FIELD(c, "data", 16, 48, "3 entries");
  EXPECT_FIELD(c, "data/[0]", 16, 16, "aggr_mode 1");
  EXPECT_FIELD(c, "data/[0]/tag", 16, 8, "0 aggr_mode");
  EXPECT_FIELD(c, "data/[0]/val", 24, 8, "1");
  EXPECT_FIELD(c, "data/[1]", 32, 16, "scale 1");
  EXPECT_FIELD(c, "data/[2]", 48, 16, "interval 0");
  EXPECT_EQ(c.summary, "aggr_mode 1, scale 1, interval 0");

  Decoded s = Decode(MakeStat(o()), nullptr, o());
  ExpectClean(s);
  EXPECT_FIELD(s, "id", 8, 8, "5");
  EXPECT_FIELD(s, "cpu", 16, 4, "0");
  EXPECT_FIELD(s, "thread", 20, 4, "-1");
  EXPECT_FIELD(s, "val", 24, 8, "100");
  EXPECT_FIELD(s, "ena", 32, 8, "200");
  EXPECT_FIELD(s, "run", 40, 8, "150");
  EXPECT_EQ(s.summary, "id 5, cpu 0, thread -1, value 100, enabled 200, running 150");

  Decoded r = Decode(MakeStatRound(o()), nullptr, o());
  ExpectClean(r);
  EXPECT_FIELD(r, "type", 8, 8, "1 FINAL");
  EXPECT_FIELD(r, "time", 16, 8, "1234");
  EXPECT_EQ(r.summary, "time 1234, type FINAL");
}

TEST_P(RecordFieldsTest, EventUpdate) {
  Decoded u = Decode(MakeEventUpdate(o(), Upd::kUnit), nullptr, o());
  ExpectClean(u);
  EXPECT_FIELD(u, "type", 8, 8, "0 UNIT");
  EXPECT_FIELD(u, "id", 16, 8, "29");
  EXPECT_FIELD(u, "unit", 24, 8, "\"MiB\"");
  EXPECT_EQ(u.summary, "id: 29 unit: MiB");

  Decoded s = Decode(MakeEventUpdate(o(), Upd::kScale), nullptr, o());
  ExpectClean(s);
  EXPECT_FIELD(s, "type", 8, 8, "1 SCALE");
  EXPECT_FIELD(s, "scale", 24, 8, "0.500000");
  EXPECT_EQ(s.summary, "id: 29 scale: 0.500000");

  Decoded n = Decode(MakeEventUpdate(o(), Upd::kName), nullptr, o());
  ExpectClean(n);
  EXPECT_FIELD(n, "type", 8, 8, "2 NAME");
  EXPECT_FIELD(n, "name", 24, 24, "\"cpu-clock:ppp\"");
  EXPECT_EQ(n.summary, "id: 3367 name: cpu-clock:ppp");

  Decoded c = Decode(MakeEventUpdate(o(), Upd::kCpus), nullptr, o());
  ExpectClean(c);
  EXPECT_FIELD(c, "type", 8, 8, "3 CPUS");
  EXPECT_FIELD(c, "cpus", 24, 8, "0-1");
  EXPECT_FIELD(c, "cpus/type", 24, 2, "2 RANGE_CPUS");
  EXPECT_FIELD(c, "cpus/end_cpu", 30, 2, "1");
  EXPECT_EQ(c.summary, "id: 29 cpus: 0-1");
}

TEST_P(RecordFieldsTest, TimeConvShortAndLong) {
  Decoded s = Decode(MakeTimeConv(o(), false), nullptr, o());
  ExpectClean(s);
  EXPECT_EQ(Names(s.items()), (std::vector<std::string>{"header", "time_shift", "time_mult", "time_zero"}));
  EXPECT_FIELD(s, "time_shift", 8, 8, "31");
  EXPECT_FIELD(s, "time_mult", 16, 8, "633060125");
  EXPECT_FIELD(s, "time_zero", 24, 8, "18446744053011285436");
  EXPECT_EQ(s.summary, "time_shift 31 time_mult 633060125 time_zero 18446744053011285436");
  Decoded l = Decode(MakeTimeConv(o(), true), nullptr, o());
  ExpectClean(l);
  ExpectHeader(l, "79 (TIME_CONV)", "0x0", 56);
  EXPECT_FIELD(l, "time_cycles", 32, 8, "123456789");
  EXPECT_FIELD(l, "time_mask", 40, 8, "0xffffffffffffff");
  EXPECT_FIELD(l, "cap_user_time_zero", 48, 1, "1");
  EXPECT_FIELD(l, "cap_user_time_short", 49, 1, "0");
  EXPECT_FIELD(l, "reserved", 50, 6, "6 bytes");
  EXPECT_EQ(l.summary,
            "time_shift 31 time_mult 633060125 time_zero 18446744053011285436 time_cycles 123456789 "
            "time_mask 0xffffffffffffff cap_user_time_zero 1 cap_user_time_short 0");
}

TEST_P(RecordFieldsTest, HeaderFeature) {
  Decoded d = Decode(MakeFeature(o(), kFeatHostname, "vm"), nullptr, o());
  ExpectClean(d);
  ExpectHeader(d, "80 (HEADER_FEATURE)", "0x0", 84);
  EXPECT_FIELD(d, "feat_id", 8, 8, "3 HOSTNAME");
  const Field* f = Find(d, "HOSTNAME");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->offset, kBase + 16);
  EXPECT_EQ(f->size, 68u);
  EXPECT_EQ(f->value, "\"vm\"");
  EXPECT_EQ(d.summary, "HOSTNAME: \"vm\"");
  // perf 6.x ends the pipe-mode features with an empty record of id 32.
  Decoded end = Decode(MakeFeature(o(), 32, ""), nullptr, o());
  ExpectClean(end);
  EXPECT_EQ(Find(end, "feat_id")->offset, kBase + 8);
  EXPECT_EQ(Find(end, "feat_id")->value.substr(0, 3), "32 ");
  EXPECT_EQ(end.items().size(), 3u);
}

TEST_P(RecordFieldsTest, Compressed) {
  Decoded c = Decode(MakeCompressed(o()), nullptr, o());
  ExpectClean(c);
  ExpectHeader(c, "81 (COMPRESSED)", "0x0", 28);
  EXPECT_FIELD(c, "data", 8, 20, "20 bytes of compressed records (zstd)");
  EXPECT_EQ(c.summary, "20 bytes");
  Decoded c2 = Decode(MakeCompressed2(o()), nullptr, o());
  ExpectClean(c2);
  ExpectHeader(c2, "83 (COMPRESSED2)", "0x0", 32);
  EXPECT_FIELD(c2, "data_size", 8, 8, "13");
  EXPECT_FIELD(c2, "data", 16, 13, "13 bytes of compressed records (zstd)");
  EXPECT_FIELD(c2, "padding", 29, 3, "3 bytes");
  EXPECT_EQ(c2.summary, "data_size: 13");
}

TEST_P(RecordFieldsTest, UnknownTypes) {
  for (uint32_t t : {0u, 22u, 40u, 63u, 84u, 99u, 0xffffffffu}) {
    SCOPED_TRACE("type " + std::to_string(t));
    Decoded d = Decode(MakeUnknown(o(), t), nullptr, o());
    ExpectClean(d);
    EXPECT_EQ(Names(d.items()), (std::vector<std::string>{"header", "payload"}));
    EXPECT_FIELD(d, "header/type", 0, 4, std::to_string(t) + " (unknown)");
    EXPECT_FIELD(d, "payload", 8, 8, "8 bytes (unknown record type)");
  }
}

// ---------------------------------------------------------------------------
// Truncation: every record, every length.

struct Case {
  std::string name;
  std::vector<uint8_t> bytes;
  std::optional<PerfEventAttr> attr;
  // Whether a record cut to L bytes (header.size = L) must report an overrun.
  std::function<bool(size_t)> overrun;
  bool sample = false;
};

std::function<bool(size_t)> Below(size_t min) {
  return [min](size_t l) { return l < min; };
}

std::vector<Case> Catalogue(ByteOrder o) {
  const PerfEventAttr tr = TrailerAttr();
  std::vector<Case> c;
  c.push_back({"MMAP", MakeMmap(o), std::nullopt, Below(41)});
  c.push_back({"MMAP+trailer", MakeKernelMmapWithTrailer(o), tr, Below(41 + kTrailerSize)});
  c.push_back({"LOST", MakeLost(o), std::nullopt, Below(24)});
  c.push_back({"COMM+trailer", MakeCommExec(o), tr, Below(17 + kTrailerSize)});
  c.push_back({"EXIT", MakeTask(o, kExit, 0), std::nullopt, Below(32)});
  c.push_back({"FORK", MakeTask(o, kFork, 0), std::nullopt, Below(32)});
  c.push_back({"THROTTLE", MakeThrottle(o, kThrottle), std::nullopt, Below(32)});
  c.push_back({"UNTHROTTLE", MakeThrottle(o, kUnthrottle), std::nullopt, Below(32)});
  c.push_back({"READ", MakeRead(o, false), ReadAttr(false), Below(48)});
  c.push_back({"READ group", MakeRead(o, true), ReadAttr(true), Below(64)});
  c.push_back({"READ no attr", MakeRead(o, false), std::nullopt, Below(24)});
  c.push_back({"SAMPLE", MakeSample(o, false), SampleAttr(false), Below(72), true});
  c.push_back({"SAMPLE addr", MakeSample(o, true), SampleAttr(true), Below(80), true});
  c.push_back({"SAMPLE no attr", MakeSample(o, false), std::nullopt, Below(8)});
  c.push_back({"MMAP2", MakeMmap2(o, false), std::nullopt, Below(73)});
  c.push_back({"MMAP2 build id", MakeMmap2(o, true), std::nullopt, Below(73)});
  c.push_back({"AUX", MakeAux(o), std::nullopt, Below(32)});
  c.push_back({"ITRACE_START", MakeItraceStart(o), std::nullopt, Below(16)});
  c.push_back({"LOST_SAMPLES+trailer", MakeLostSamples(o, 0), tr, Below(16 + kTrailerSize)});
  c.push_back({"SWITCH", MakeSwitch(o, kMiscSwitchOut, false), std::nullopt, Below(8)});
  c.push_back({"SWITCH+trailer", MakeSwitch(o, kMiscSwitchOut, true), tr, Below(8 + kTrailerSize)});
  c.push_back({"SWITCH_CPU_WIDE", MakeSwitchCpuWide(o, 0), std::nullopt, Below(16)});
  c.push_back({"NAMESPACES", MakeNamespaces(o), std::nullopt, Below(56)});
  c.push_back({"KSYMBOL", MakeKsymbol(o), std::nullopt, Below(25)});
  c.push_back({"BPF_EVENT", MakeBpfEvent(o), std::nullopt, Below(24)});
  c.push_back({"CGROUP", MakeCgroup(o), std::nullopt, Below(17)});
  c.push_back({"TEXT_POKE", MakeTextPoke(o), std::nullopt, Below(27)});
  c.push_back({"AUX_OUTPUT_HW_ID", MakeAuxOutputHwId(o), std::nullopt, Below(16)});
  c.push_back({"HEADER_ATTR", MakeHeaderAttr(o, 128, {1, 2}), std::nullopt, Below(136)});
  c.push_back({"HEADER_ATTR v0", MakeHeaderAttr(o, 64, {1}, 0u), std::nullopt, Below(72)});
  c.push_back({"HEADER_EVENT_TYPE", MakeEventType(o, 64), std::nullopt, Below(17)});
  c.push_back({"HEADER_TRACING_DATA", MakeTracingData(o), std::nullopt, Below(12)});
  c.push_back({"HEADER_BUILD_ID", MakeBuildId(o, true), std::nullopt, Below(37)});
  c.push_back({"HEADER_BUILD_ID old", MakeBuildId(o, false), std::nullopt, Below(37)});
  c.push_back({"FINISHED_ROUND", MakeEmpty(o, kFinishedRound), std::nullopt, Below(8)});
  c.push_back({"FINISHED_INIT", MakeEmpty(o, kFinishedInit), std::nullopt, Below(8)});
  c.push_back({"ID_INDEX", MakeIdIndex(o, false), std::nullopt, Below(80)});
  c.push_back({"ID_INDEX entries_2", MakeIdIndex(o, true), std::nullopt, Below(80)});
  c.push_back({"AUXTRACE_INFO", MakeAuxtraceInfo(o), std::nullopt, Below(16)});
  c.push_back({"AUXTRACE", MakeAuxtrace(o), std::nullopt, Below(48)});
  c.push_back({"AUXTRACE_ERROR fmt0", MakeAuxtraceError(o, 0), std::nullopt, Below(41)});
  c.push_back({"AUXTRACE_ERROR fmt1", MakeAuxtraceError(o, 1), std::nullopt, Below(49)});
  c.push_back({"AUXTRACE_ERROR fmt2", MakeAuxtraceError(o, 2), std::nullopt, Below(120)});
  c.push_back({"THREAD_MAP", MakeThreadMap(o), std::nullopt, Below(64)});
  c.push_back({"CPU_MAP cpus", MakeCpuMap(o, CpuEnc::kCpus), std::nullopt, Below(20)});
  c.push_back({"CPU_MAP mask32", MakeCpuMap(o, CpuEnc::kMask32), std::nullopt, Below(18)});
  c.push_back({"CPU_MAP mask64", MakeCpuMap(o, CpuEnc::kMask64), std::nullopt, Below(34)});
  c.push_back({"CPU_MAP range", MakeCpuMap(o, CpuEnc::kRange), std::nullopt, Below(16)});
  c.push_back({"STAT_CONFIG", MakeStatConfig(o), std::nullopt, Below(64)});
  c.push_back({"STAT", MakeStat(o), std::nullopt, Below(48)});
  c.push_back({"STAT_ROUND", MakeStatRound(o), std::nullopt, Below(24)});
  c.push_back({"EVENT_UPDATE unit", MakeEventUpdate(o, Upd::kUnit), std::nullopt, Below(25)});
  c.push_back({"EVENT_UPDATE scale", MakeEventUpdate(o, Upd::kScale), std::nullopt, Below(32)});
  c.push_back({"EVENT_UPDATE name", MakeEventUpdate(o, Upd::kName), std::nullopt, Below(25)});
  c.push_back({"EVENT_UPDATE cpus", MakeEventUpdate(o, Upd::kCpus), std::nullopt, Below(32)});
  c.push_back({"TIME_CONV short", MakeTimeConv(o, false), std::nullopt, Below(32)});
  // Long form: exactly 32 bytes is the complete short form.
  c.push_back({"TIME_CONV long", MakeTimeConv(o, true), std::nullopt,
               [](size_t l) { return l < 32 || (l > 32 && l < 56); }});
  c.push_back({"HEADER_FEATURE", MakeFeature(o, kFeatHostname, "vm"), std::nullopt, Below(16)});
  c.push_back({"COMPRESSED", MakeCompressed(o), std::nullopt, Below(8)});
  c.push_back({"COMPRESSED2", MakeCompressed2(o), std::nullopt, Below(29)});
  c.push_back({"unknown", MakeUnknown(o, 99), std::nullopt, Below(8)});
  return c;
}

TEST_P(RecordFieldsTest, CatalogueIsComplete) {
  // Every known record type appears in the truncation catalogue.
  std::vector<bool> seen(kUserMax, false);
  for (const Case& c : Catalogue(o())) {
    uint32_t t = ByteReader(c.bytes.data(), c.bytes.size(), 0, o()).PeekU32(0);
    if (t < kUserMax) seen[t] = true;
  }
  for (uint32_t t = 1; t < kUserMax; ++t) {
    if (*RecordTypeName(t)) {
      EXPECT_TRUE(seen[t]) << RecordTypeName(t) << " not in the catalogue";
    }
  }
}

TEST_P(RecordFieldsTest, FullRecordsDecodeCleanly) {
  for (const Case& c : Catalogue(o())) {
    SCOPED_TRACE(c.name);
    Decoded d = Decode(c.bytes, c.attr ? &*c.attr : nullptr, o());
    ExpectClean(d);
    EXPECT_FALSE(c.overrun(c.bytes.size()));
    // No gaps or overlaps: the top-level fields tile the record (trailer included).
    uint64_t at = kBase;
    for (const Field& f : d.items()) {
      EXPECT_EQ(f.offset, at) << f.name;
      at = f.offset + f.size;
    }
    EXPECT_EQ(at, kBase + c.bytes.size());
  }
}

TEST_P(RecordFieldsTest, TruncatedAtEveryLength) {
  for (const Case& c : Catalogue(o())) {
    const PerfEventAttr* a = c.attr ? &*c.attr : nullptr;
    for (size_t len = 0; len < c.bytes.size(); ++len) {
      SCOPED_TRACE(c.name + " cut to " + std::to_string(len) + " bytes");
      // The record declares the shorter size (header.size = len).
      std::vector<uint8_t> b(c.bytes.begin(), c.bytes.begin() + static_cast<std::ptrdiff_t>(len));
      if (len >= 8) {
        PerfWriter p(o());
        p.data() = b;
        p.PatchU16(6, static_cast<uint16_t>(len));
        b = p.data();
      }
      Decoded d = Decode(b, a, o());  // also checks every field lies inside the slice
      bool overrun = HasDiag(d.diags, DiagCode::kRecordFieldOverrun) ||
                     (c.sample && HasDiag(d.diags, DiagCode::kCallchainTooDeep));
      if (len < 8) {
        EXPECT_TRUE(overrun) << DiagText(d.diags);
      } else {
        EXPECT_EQ(overrun, c.overrun(len)) << DiagText(d.diags);
      }
      EXPECT_FALSE(HasDiag(d.diags, DiagCode::kRecordTruncated));
      ASSERT_FALSE(d.items().empty());
      EXPECT_EQ(d.items()[0].name, "header");
      // A slice shorter than the declared size (header.size left intact).
      Decoded s = Decode(c.bytes, a, o(), len);
      if (len >= 8) {
        EXPECT_TRUE(HasDiag(s.diags, DiagCode::kRecordTruncated)) << DiagText(s.diags);
      }
    }
  }
}

TEST_P(RecordFieldsTest, DeclaredSizeBelowHeader) {
  std::vector<uint8_t> b = MakeLost(o());
  PerfWriter p(o());
  p.data() = b;
  p.PatchU16(6, 4);
  Decoded d = Decode(p.data(), nullptr, o());
  EXPECT_TRUE(HasDiag(d.diags, DiagCode::kRecordTooSmall));
  EXPECT_TRUE(HasDiag(d.diags, DiagCode::kRecordFieldOverrun));
  for (const Field& f : d.items()) EXPECT_LE(f.offset + f.size, kBase + 8) << f.name;
}

TEST_P(RecordFieldsTest, HugeCountsDoNotAllocateOrLoop) {
  // nr fields far beyond what the record holds.
  for (uint32_t type : {uint32_t{kIdIndex}, uint32_t{kThreadMap}, uint32_t{kStatConfig}, uint32_t{kNamespaces}}) {
    PerfWriter w(o());
    w.BeginRecord(type, 0);
    if (type == kNamespaces) { w.U32(1); w.U32(1); }
    w.U64(~0ULL);
    w.U64(1);
    w.EndRecord();
    Decoded d = Decode(w.data(), nullptr, o());
    EXPECT_TRUE(HasDiag(d.diags, DiagCode::kRecordFieldOverrun)) << RecordTypeName(type);
  }
  PerfEventAttr g = ReadAttr(true);
  PerfWriter w(o());
  w.BeginRecord(kRead, 0);
  w.U32(1); w.U32(1); w.U64(~0ULL / 2); w.U64(0);
  w.EndRecord();
  EXPECT_TRUE(HasDiag(Decode(w.data(), &g, o()).diags, DiagCode::kRecordFieldOverrun));
  PerfWriter c(o());
  c.BeginRecord(kCompressed2, 0);
  c.U64(~0ULL);
  c.EndRecord();
  EXPECT_TRUE(HasDiag(Decode(c.data(), nullptr, o()).diags, DiagCode::kRecordFieldOverrun));
}

TEST_P(RecordFieldsTest, UnterminatedString) {
  PerfWriter w(o());
  w.BeginRecord(kComm, 0);
  w.U32(1);
  w.U32(1);
  w.Bytes(std::string_view("abcdefgh"));
  w.EndRecord();
  Decoded d = Decode(w.data(), nullptr, o());
  EXPECT_TRUE(HasDiag(d.diags, DiagCode::kBadString));
  EXPECT_FIELD(d, "comm", 16, 8, "\"abcdefgh\"");
}

// ---------------------------------------------------------------------------
// The writer itself.

TEST_P(RecordFieldsTest, WriterByteOrderAndBitfield) {
  PerfWriter w(o());
  w.Magic();
  const bool big = o() == ByteOrder::kBig;
  EXPECT_EQ(std::string(w.data().begin(), w.data().end()), big ? "2ELIFREP" : "PERFILE2");
  PerfWriter f(o());
  f.Flags(1);  // disabled
  EXPECT_EQ(f.data()[0], big ? 0x80 : 0x01);
  PerfEventAttr a = PipeAttr();
  for (uint32_t size : {64u, 100u, 136u, 160u}) {
    PerfWriter aw(o());
    aw.Attr(a, size);
    EXPECT_EQ(aw.data().size(), size);
    PerfEventAttr back;
    ASSERT_TRUE(ParseAttr(ByteReader(aw.data().data(), aw.data().size(), 0, o()), &back, nullptr));
    EXPECT_EQ(back.size, size);
    EXPECT_EQ(back.flags, a.flags);
    EXPECT_EQ(back.sample_type, a.sample_type);
    EXPECT_TRUE(back.sample_id_all());
    EXPECT_EQ(back.precise_ip(), 3);
  }
}

TEST_P(RecordFieldsTest, FileBuilderLayout) {
  FileBuilder fb(o());
  PerfEventAttr a = PipeAttr();
  fb.AddAttr(a, {11, 12});
  fb.data().BeginRecord(kFinishedRound, 0);
  fb.data().EndRecord();
  PerfWriter hp(o());
  hp.HeaderString("vm", 64);
  fb.AddFeature(kFeatHostname, hp.data());
  std::vector<uint8_t> file = fb.Build();
  ByteReader r(file.data(), file.size(), 0, o());
  EXPECT_EQ(r.PeekU64(0), kMagic2);
  EXPECT_EQ(r.PeekU64(8), 104u);
  EXPECT_EQ(r.PeekU64(16), 128u + 16u);
  uint64_t attrs_off = r.PeekU64(24), attrs_size = r.PeekU64(32);
  EXPECT_EQ(attrs_off, fb.attrs_offset());
  EXPECT_EQ(attrs_size, 144u);
  EXPECT_EQ(attrs_off, 104u + 16u);  // after the ids array
  uint64_t ids_off = r.PeekU64(attrs_off + 128), ids_size = r.PeekU64(attrs_off + 136);
  EXPECT_EQ(ids_off, 104u);
  EXPECT_EQ(ids_size, 16u);
  EXPECT_EQ(r.PeekU64(ids_off + 8), 12u);
  uint64_t data_off = r.PeekU64(40), data_size = r.PeekU64(48);
  EXPECT_EQ(data_off, fb.data_offset());
  EXPECT_EQ(data_size, 8u);
  EXPECT_EQ(r.PeekU32(data_off), uint32_t{kFinishedRound});
  EXPECT_EQ(r.PeekU64(72), 1ULL << kFeatHostname);  // feature bitmap word 0
  uint64_t table = data_off + data_size;
  EXPECT_EQ(table, fb.feature_table_offset());
  EXPECT_EQ(r.PeekU64(table), table + 16);
  EXPECT_EQ(r.PeekU64(table + 8), 68u);
  EXPECT_EQ(fb.feature_offset(kFeatHostname), table + 16);
  EXPECT_EQ(file.size(), table + 16 + 68);
  PerfEventAttr back;
  ASSERT_TRUE(ParseAttr(r.Slice(attrs_off, 128), &back, nullptr));
  EXPECT_EQ(back.flags, a.flags);
}

TEST_P(RecordFieldsTest, PipeBuilderLayout) {
  PipeBuilder pb(o());
  size_t at = pb.Attr(PipeAttr(), {3367, 3368});
  PerfWriter hp(o());
  hp.HeaderString("vm", 64);
  size_t ft = pb.Feature(kFeatHostname, hp.data());
  std::vector<uint8_t> s = pb.Build();
  ByteReader r(s.data(), s.size(), 0, o());
  EXPECT_EQ(r.PeekU64(0), kMagic2);
  EXPECT_EQ(r.PeekU64(8), 16u);
  EXPECT_EQ(at, 16u);
  EXPECT_EQ(r.PeekU32(16), uint32_t{kHeaderAttr});
  EXPECT_EQ(r.PeekU16(22), 8u + 128u + 16u);
  EXPECT_EQ(ft, 16u + 152u);
  Decoded d = Decode(std::vector<uint8_t>(s.begin() + 16, s.begin() + 168), nullptr, o());
  ExpectClean(d);
  EXPECT_FIELD(d, "ids/[1]", 144, 8, "3368");
  Decoded f = Decode(std::vector<uint8_t>(s.begin() + 168, s.end()), nullptr, o());
  ExpectClean(f);
  EXPECT_EQ(f.summary, "HOSTNAME: \"vm\"");
}

// ---------------------------------------------------------------------------
// Real records against perf report -D (perf 6.1).

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string Squeeze(const std::string& s) {  // collapse blank runs, trim
  std::string out;
  bool blank = false;
  for (char ch : s) {
    if (ch == ' ' || ch == '\t') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += ch;
  }
  return out;
}

struct ReportRecord {
  uint64_t offset = 0;  // as printed (pipe mode: from the end of the pipe header)
  uint64_t size = 0;
  std::string name;     // perf's name: "MMAP2", "ATTR", "FEATURE", ...
  std::string rest;     // text after PERF_RECORD_<name> on that line
  std::vector<uint64_t> chain;  // "... FP chain" entries that follow a SAMPLE
};

std::vector<ReportRecord> ParseReport(const std::string& path) {
  std::ifstream in(path);
  std::vector<ReportRecord> out;
  std::regex line_re(R"(^(?:\S+ )*(0x[0-9a-f]+|0) \[(0x[0-9a-f]+)\]: PERF_RECORD_([A-Z0-9_]+)(.*)$)");
  std::regex chain_re(R"(^\.\.\.\.\. +[0-9]+: ([0-9a-f]+)$)");
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, line_re)) {
      ReportRecord r;
      r.offset = std::stoull(m[1].str(), nullptr, 0);
      r.size = std::stoull(m[2].str(), nullptr, 0);
      r.name = m[3].str();
      r.rest = m[4].str();
      out.push_back(std::move(r));
    } else if (!out.empty() && std::regex_match(line, m, chain_re)) {
      out.back().chain.push_back(std::stoull(m[1].str(), nullptr, 16));
    }
  }
  return out;
}

// perf's names for perf's own records differ from ours.
std::string PerfName(uint32_t type) {
  switch (type) {
    case kHeaderAttr: return "ATTR";
    case kHeaderEventType: return "EVENT_TYPE";
    case kHeaderTracingData: return "TRACING_DATA";
    case kHeaderBuildId: return "BUILD_ID";
    case kHeaderFeature: return "FEATURE";
    default: return RecordTypeName(type);
  }
}

// What our summary must equal, derived from perf's line; empty = not compared.
std::string ExpectedSummary(const ReportRecord& r, const PerfEventAttr& attr) {
  std::string rest = r.rest;
  if (r.name == "SAMPLE") {
    // "(IP, 0x2): 21809/21809: 0x55743e196197 period: 1000000 addr: 0"
    size_t p = rest.find("): ");
    rest = rest.substr(p + 3);
    if (!(attr.sample_type & kSampleAddr)) rest = rest.substr(0, rest.find(" addr: "));
    return rest;
  }
  if (r.name == "MMAP" || r.name == "MMAP2" || r.name == "EXIT" || r.name == "FORK" ||
      r.name == "THREAD_MAP" || r.name == "CGROUP" || r.name == "SWITCH" ||
      r.name == "SWITCH_CPU_WIDE" || r.name == "AUX" || r.name == "ITRACE_START" ||
      r.name == "AUXTRACE" || r.name == "LOST_SAMPLES" || r.name == "CPU_MAP" || r.name == "COMM") {
    if (rest.rfind(":", 0) == 0) rest = rest.substr(1);  // COMM ": x:1/1", CPU_MAP ": 0-1"
    return Squeeze(rest);
  }
  if (r.name == "ID_INDEX") return Squeeze(rest);  // "nr: 2" (prefix of ours)
  return {};
}

struct RealFile {
  std::vector<uint8_t> bytes;
  bool pipe = false;
  uint64_t data_base = 0;  // added to report offsets
  PerfEventAttr attr;
};

RealFile LoadReal(const std::string& dir) {
  RealFile f;
  const std::string root = std::string(PROFSCOPE_SOURCE_DIR) + "/tests/data/perf/" + dir;
  f.bytes = ReadFile(root + (dir == "pipe_mode" ? "/pipe.data" : "/perf.data"));
  if (f.bytes.size() < 16) return f;
  ByteReader r(f.bytes.data(), f.bytes.size(), 0, ByteOrder::kLittle);
  f.pipe = r.PeekU64(8) == kPipeHeaderSize;
  if (f.pipe) {
    f.data_base = kPipeHeaderSize;
    // The first record is HEADER_ATTR.
    uint32_t asize = r.PeekU32(16 + 8 + 4);
    ParseAttr(r.Slice(16 + 8, asize), &f.attr, nullptr);
  } else {
    uint64_t attr_size = r.PeekU64(16), attrs_off = r.PeekU64(24);
    ParseAttr(r.Slice(attrs_off, attr_size - 16), &f.attr, nullptr);
  }
  return f;
}

void CheckAgainstReport(const std::string& dir, size_t min_records) {
  RealFile f = LoadReal(dir);
  ASSERT_GT(f.bytes.size(), 16u) << dir;
  std::vector<ReportRecord> report =
      ParseReport(std::string(PROFSCOPE_SOURCE_DIR) + "/tests/data/perf/" + dir + "/report_D.txt");
  ASSERT_GE(report.size(), min_records) << dir;
  size_t compared = 0, samples = 0;
  FeatureContext features;
  for (const ReportRecord& rr : report) {
    if (rr.name == "ATTR") continue;  // perf prints 0 for its offset
    uint64_t at = f.data_base + rr.offset;
    SCOPED_TRACE(dir + " PERF_RECORD_" + rr.name + " at " + Hex(at));
    ASSERT_LE(at + rr.size, f.bytes.size());
    ByteReader rec(f.bytes.data() + at, rr.size, at, ByteOrder::kLittle);
    uint32_t type = rec.PeekU32(0);
    ASSERT_EQ(PerfName(type), rr.name);
    ASSERT_EQ(rec.PeekU16(6), rr.size);
    FieldList fields;
    Diagnostics diags;
    DecodeRecordFields(rec, &f.attr, fields, &diags, &features);
    EXPECT_TRUE(diags.items().empty()) << DiagText(diags);
    if (type == kHeaderFeature) {  // what the decoder learns from the features seen so far
      FieldList unused;
      Diagnostics ignored;
      DecodeFeature(rec.PeekU32(8), rec.Slice(16, rr.size - 16), features, unused, ignored);
    }
    ExpectInside(fields.items(), at, at + rr.size, rr.name);
    std::string expect = ExpectedSummary(rr, f.attr);
    std::string got = RecordSummary(rec, &f.attr);
    if (rr.name == "SAMPLE") ++samples;
    if (!expect.empty()) {
      if (rr.name == "ID_INDEX") {
        EXPECT_EQ(got.substr(0, expect.size()), expect);
      } else {
        EXPECT_EQ(got, expect);
      }
      ++compared;
    }
    if (rr.name == "SAMPLE" && (f.attr.sample_type & kSampleCallchain)) {
      const Field* cc = FindIn(fields.items(), "callchain");
      ASSERT_NE(cc, nullptr);
      ASSERT_EQ(cc->children.size(), rr.chain.size());
      for (size_t i = 0; i < rr.chain.size(); ++i) {
        EXPECT_EQ(cc->children[i].value.substr(0, Hex(rr.chain[i]).size()), Hex(rr.chain[i]));
      }
    }
  }
  EXPECT_GT(compared, 10u);
  EXPECT_GT(samples, 10u);
}

TEST(RecordFieldsRealData, PipeModeMatchesPerfReport) { CheckAgainstReport("pipe_mode", 300); }

TEST(RecordFieldsRealData, DefaultEventMatchesPerfReport) { CheckAgainstReport("default_event", 1200); }

TEST(RecordFieldsRealData, PipeModeSelectedRecords) {
  RealFile f = LoadReal("pipe_mode");
  ASSERT_TRUE(f.pipe);
  auto rec = [&](uint64_t report_off) {
    uint64_t at = kPipeHeaderSize + report_off;
    uint16_t size = ByteReader(f.bytes.data(), f.bytes.size(), 0, ByteOrder::kLittle).PeekU16(at + 6);
    return ByteReader(f.bytes.data() + at, size, at, ByteOrder::kLittle);
  };
  // 0@pipe [0x98]: HEADER_ATTR of cpu-clock:ppp with ids 3367, 3368.
  {
    FieldList fl;
    Diagnostics dg;
    DecodeRecordFields(rec(0), nullptr, fl, &dg);
    EXPECT_TRUE(dg.items().empty()) << DiagText(dg);
    const Field* ids = FindIn(fl.items(), "ids");
    ASSERT_NE(ids, nullptr);
    EXPECT_EQ(ids->offset, 16u + 8 + 128);
    ASSERT_EQ(ids->children.size(), 2u);
    EXPECT_EQ(ids->children[0].value, "3367");
    EXPECT_EQ(ids->children[1].value, "3368");
    EXPECT_EQ(RecordSummary(rec(0), nullptr), "cpu-clock:ppp, attr size 128, 2 ids: 3367, 3368");
  }
  // 0xb6c [0x88]: MMAP2 with sample_id (tid/time/id) trailer.
  {
    FieldList fl;
    Diagnostics dg;
    DecodeRecordFields(rec(0xb6c), &f.attr, fl, &dg);
    EXPECT_TRUE(dg.items().empty()) << DiagText(dg);
    const Field* t = FindIn(fl.items(), "sample_id.time");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->value, "3269235965692");  // the time perf printed first on that line
    EXPECT_EQ(t->offset, 16u + 0xb6c + 0x88 - 16);
    const Field* ino = FindIn(fl.items(), "ino");
    ASSERT_NE(ino, nullptr);
    EXPECT_EQ(ino->value, "1384455");
  }
  // 0xa84 [0x38]: EVENT_UPDATE "... id: 3367 ... name: cpu-clock:ppp".
  EXPECT_EQ(RecordSummary(rec(0xa84), &f.attr), "id: 3367 name: cpu-clock:ppp");
  // 0x1e8 [0x18]: FEATURE NRCPUS; 0x9cc [0x10]: the end marker.
  {
    FieldList fl;
    DecodeRecordFields(rec(0x1e8), nullptr, fl, nullptr);
    ASSERT_GE(fl.items().size(), 3u);
    EXPECT_EQ(fl.items()[1].value, "7 NRCPUS");
    EXPECT_EQ(fl.items()[2].offset, 16u + 0x1e8 + 16);
  }
  // 0xa424 [0x38]: EXIT "(21809:21809):(21808:21808)" and its time 3269541186193.
  {
    FieldList fl;
    DecodeRecordFields(rec(0xa424), &f.attr, fl, nullptr);
    const Field* t = FindIn(fl.items(), "sample_id.time");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->value, "3269541186193");
  }
}

}  // namespace
}  // namespace profscope::perf
