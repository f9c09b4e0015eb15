// simpleperf's additions to perf.data, in both byte orders: the 32-bit
// record size of types above 32768, every simpleperf record type's fields,
// the feature sections 128..134 (FILE, META_INFO, DEBUG_UNWIND,
// DEBUG_UNWIND_FILE, FILE2 protobuf, ETM_BRANCH_LIST, INIT_MAP), naming of
// samples from the symbol tables the file carries, joined callchains, and a
// synthetic simpleperf file cut at every length.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/perf/perf_features.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_record_fields.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"
#include "tests/unit/perf_test_writer.h"

namespace profscope::perf {
namespace {

constexpr uint64_t kSampleType = kSampleIp | kSampleTid | kSampleTime | kSampleCallchain | kSamplePeriod;

// A simpleperf record: u32 type, u16 size_hi, u16 size_lo, then `body`.
void SpRecord(PerfWriter& w, uint32_t type, const std::vector<uint8_t>& body) {
  uint32_t size = static_cast<uint32_t>(8 + body.size());
  w.U32(type);
  w.U16(static_cast<uint16_t>(size >> 16));
  w.U16(static_cast<uint16_t>(size & 0xffff));
  w.Bytes(body);
}

// Protobuf encoding for the test inputs (the decoder reads them with protozero).
struct Pb {
  std::vector<uint8_t> b;
  Pb& Varint(uint64_t v) {
    while (v >= 0x80) { b.push_back(static_cast<uint8_t>(v | 0x80)); v >>= 7; }
    b.push_back(static_cast<uint8_t>(v));
    return *this;
  }
  Pb& U64(uint32_t field, uint64_t v) { return Varint(field << 3).Varint(v); }
  Pb& Len(uint32_t field, const std::vector<uint8_t>& v) {
    Varint((field << 3) | 2).Varint(v.size());
    b.insert(b.end(), v.begin(), v.end());
    return *this;
  }
  Pb& Str(uint32_t field, const std::string& s) { return Len(field, std::vector<uint8_t>(s.begin(), s.end())); }
};

std::vector<uint8_t> FileFeatureMsg() {
  Pb sym;
  sym.U64(1, 0x200).U64(2, 8).Str(3, "_Z6baz_fni");
  Pb elf;
  elf.U64(1, 0);
  Pb f;
  f.Str(1, "/system/lib64/libbaz.so").U64(2, kDsoElfFile).U64(3, 0).Len(4, sym.b).Len(6, elf.b);
  return f.b;
}

struct Built {
  std::vector<uint8_t> bytes;
  uint64_t data_offset = 0;
  uint64_t ksym_off = 0, ksym_size = 0;
};

// A small simpleperf recording: mappings, a KERNEL_SYMBOL record over 64 KiB,
// DSO/SYMBOL records, a joined callchain, two samples, the other record types,
// and every simpleperf feature section.
Built MakeFile(ByteOrder o) {
  FileBuilder fb(o);
  PerfEventAttr a;
  a.type = kTypeHardware;
  a.sample_period_or_freq = 4000;
  a.sample_type = kSampleType;
  fb.AddAttr(a, {1});
  PerfWriter& d = fb.data();
  auto mmap = [&](uint64_t start, const char* path) {
    d.BeginRecord(kMmap, 2);
    d.I32(10); d.I32(10); d.U64(start); d.U64(0x1000); d.U64(0); d.String(path);
    d.EndRecord();
  };
  mmap(0x10000, "/system/lib64/libfoo.so");
  mmap(0x20000, "/data/app/base.vdex");
  d.BeginRecord(kComm, 0);
  d.I32(10); d.I32(10); d.String("app");
  d.EndRecord();
  Built out;
  {
    PerfWriter b(o);
    std::string ks = "ffffffc000080000 T _text\nffffffc000081000 T do_work\n";
    while (ks.size() < 70000) ks += "ffffffc000090000 t filler\n";
    b.U32(static_cast<uint32_t>(ks.size()));
    b.Bytes(ks);
    while (b.Pos() % 8 != 4) b.U8(0);  // 4 + Align(size, 8)
    out.ksym_off = d.Pos();
    out.ksym_size = 8 + b.Pos();
    SpRecord(d, kSpKernelSymbol, b.data());
  }
  {
    PerfWriter b(o);
    b.U64(kDsoElfFile); b.U64(7); b.U64(0); b.String("/system/lib64/libbar.so");
    SpRecord(d, kSpDso, b.data());
  }
  {
    PerfWriter b(o);
    b.U64(0x100); b.U64(0x10); b.U64(7); b.String("bar_fn");
    SpRecord(d, kSpSymbol, b.data());
  }
  mmap(0x30000, "/system/lib64/libbar.so");
  {
    PerfWriter b(o);
    b.U32(10); b.U32(10); b.U64(2 /* JOINED_OFFLINE */); b.U64(1000); b.U64(2);
    b.U64(0x10010); b.U64(0x30105);  // ips
    b.U64(0x7ff0); b.U64(0x7ff8);    // sps
    SpRecord(d, kSpCallchain, b.data());
  }
  auto sample = [&](uint64_t time, std::vector<uint64_t> chain) {
    d.BeginRecord(kSample, 2);
    d.U64(chain[1]); d.I32(10); d.I32(10); d.U64(time);
    d.U64(100);  // period (PERIOD comes before CALLCHAIN)
    d.U64(chain.size());
    for (uint64_t v : chain) d.U64(v);
    d.EndRecord();
  };
  sample(1000, {kContextUser, 0x10010});
  sample(2000, {kContextUser, 0x10020, 0x20050});
  {
    PerfWriter b(o);
    b.U64(1); b.U64(0); b.U64(1);
    SpRecord(d, kSpEventId, b.data());
  }
  {
    PerfWriter b(o);
    b.U64(2000); b.U64(55); b.U64(3 /* ACCESS_STACK_FAILED */); b.U64(0x7000); b.U64(0x7ff0); b.U64(0x8000);
    SpRecord(d, kSpUnwindingResult, b.data());
  }
  {
    PerfWriter b(o);
    b.U64(3000); b.String("debug message");
    SpRecord(d, kSpDebug, b.data());
  }
  {
    PerfWriter b(o);
    b.U32(5); b.Bytes("abcde"); b.Zeros(3);
    SpRecord(d, kSpTracingData, b.data());
  }
  {
    // A SIMPLEPERF_DEBUG record written as two SPLIT pieces, joined at SPLIT_END.
    PerfWriter b(o);
    b.U64(3500); b.String("split debug");
    PerfWriter whole(o);
    SpRecord(whole, kSpDebug, b.data());
    const std::vector<uint8_t>& w = whole.data();
    SpRecord(d, kSpSplit, std::vector<uint8_t>(w.begin(), w.begin() + 16));
    SpRecord(d, kSpSplit, std::vector<uint8_t>(w.begin() + 16, w.end()));
  }
  SpRecord(d, kSpSplitEnd, {});
  // FILE: libfoo (ELF) and base.vdex (DEX).
  {
    PerfWriter f(o);
    auto entry = [&](const char* path, uint32_t type, std::vector<std::pair<uint64_t, std::string>> syms,
                     bool dex) {
      PerfWriter e(o);
      e.Bytes(std::string(path)); e.U8(0);
      e.U32(type); e.U64(0); e.U32(static_cast<uint32_t>(syms.size()));
      for (auto& s : syms) { e.U64(s.first); e.U32(0x20); e.Bytes(s.second); e.U8(0); }
      if (dex) { e.U32(1); e.U64(0); } else { e.U64(0); }
      f.U32(static_cast<uint32_t>(e.Pos()));
      f.Bytes(e.data());
    };
    entry("/system/lib64/libfoo.so", kDsoElfFile, {{0x10, "foo_fn"}}, false);
    entry("/data/app/base.vdex", kDsoDexFile, {{0x40, "com.example.Main.run"}}, true);
    fb.AddFeature(kSpFeatFile, f.data());
  }
  {
    PerfWriter f(o);
    for (const char* s : {"event_type_info", "cpu-cycles,0,0", "app_package_name", "com.example"}) {
      f.Bytes(std::string(s)); f.U8(0);
    }
    fb.AddFeature(kSpFeatMetaInfo, f.data());
  }
  {
    Pb file;
    file.Str(1, "/data/x.so").U64(2, 6);
    Pb du;
    du.Len(1, file.b);
    fb.AddFeature(kSpFeatDebugUnwind, du.b);
    fb.AddFeature(kSpFeatDebugUnwindFile, {0x7f, 'E', 'L', 'F', 1, 2});
  }
  {
    std::vector<uint8_t> msg = FileFeatureMsg();
    PerfWriter f(o);
    f.U32(static_cast<uint32_t>(msg.size()));
    f.Bytes(msg);
    fb.AddFeature(kSpFeatFile2, f.data());
  }
  {
    Pb br;
    br.Str(1, "simpleperf:EtmBranchList");
    Pb bin;
    bin.Str(1, "/bin/t").U64(4, 0);
    br.Len(2, bin.b);
    fb.AddFeature(kSpFeatEtmBranchList, br.b);
  }
  {
    PerfWriter f(o);
    f.BeginRecord(kComm, 0);
    f.I32(1); f.I32(1); f.String("init");
    f.EndRecord();
    fb.AddFeature(kSpFeatInitMap, f.data());
  }
  out.bytes = fb.Build();
  out.data_offset = fb.data_offset();
  return out;
}

class Decoded {
 public:
  explicit Decoded(std::vector<uint8_t> b) : bytes_(std::move(b)), src_(bytes_), s_(src_, "t.data") { ok_ = s_.Decode(); }
  bool ok() const { return ok_; }
  Session& s() { return s_; }
  const DecodeResult& r() const { return s_.result(); }
  int32_t RowOfType(uint32_t type, RecordKind k = RecordKind::kRecord) const {
    const RecordTable& t = r().records;
    for (size_t i = 0; i < t.rows(); ++i)
      if (t.type[i] == type && t.kind[i] == static_cast<uint8_t>(k)) return static_cast<int32_t>(i);
    return -1;
  }
  std::string Diags() const {
    std::string out;
    for (const auto& d : r().diags.items()) out += d.message + "\n";
    return out;
  }
  bool Clean() const {
    for (const auto& d : r().diags.items())
      if (d.severity != Severity::kInfo) return false;
    return true;
  }

 private:
  std::vector<uint8_t> bytes_;
  MemorySource src_;
  Session s_;
  bool ok_ = false;
};

class Simpleperf : public ::testing::TestWithParam<ByteOrder> {
 protected:
  ByteOrder o() const { return GetParam(); }
};

TEST_P(Simpleperf, RecordSizeUsesTheHighBitsAboveType32768) {
  Built b = MakeFile(o());
  ASSERT_GT(b.ksym_size, 65535u);
  Decoded d(b.bytes);
  ASSERT_TRUE(d.ok()) << d.Diags();
  // The only complaint: the 5 bytes of SIMPLEPERF_TRACING_DATA are not real tracing data.
  for (const auto& dg : d.r().diags.items()) EXPECT_NE(dg.message.find("TRACING_DATA"), std::string::npos) << dg.message;
  int32_t row = d.RowOfType(kSpKernelSymbol);
  ASSERT_GE(row, 0);
  const RecordTable& t = d.r().records;
  EXPECT_EQ(t.offset[static_cast<size_t>(row)], b.data_offset + b.ksym_off);
  EXPECT_EQ(t.size[static_cast<size_t>(row)], b.ksym_size);
  // The next record starts right after it: the DSO record.
  EXPECT_EQ(t.type[static_cast<size_t>(row) + 1], kSpDso);
  EXPECT_EQ(t.offset[static_cast<size_t>(row) + 1], b.data_offset + b.ksym_off + b.ksym_size);
  // Every record type is listed and labelled.
  for (uint32_t type : {kSpKernelSymbol, kSpDso, kSpSymbol, kSpCallchain, kSpEventId, kSpUnwindingResult, kSpDebug,
                        kSpTracingData, kSpSplit, kSpSplitEnd}) {
    int32_t r = d.RowOfType(type);
    ASSERT_GE(r, 0) << type;
    EXPECT_EQ(d.s().RecordLabel(r), SimpleperfRecordTypeName(type));
  }
  EXPECT_EQ(std::string(RecordTypeName(kSpCallchain)), "SIMPLEPERF_CALLCHAIN");
  EXPECT_EQ(d.r().profile.samples.size(), 2u);
}

TEST_P(Simpleperf, PerfTypesKeepTheir16BitSize) {
  // A perf record (type < 32768) whose misc is non-zero: misc is not a size.
  PerfWriter w(o());
  w.BeginRecord(kComm, 0x2000);
  w.I32(1); w.I32(1); w.String("x");
  w.EndRecord();
  EXPECT_EQ(RecordSizeFromHeader(kComm, 0x2000, 24), 24u);
  EXPECT_EQ(RecordSizeFromHeader(kSpDso, 1, 24), 65536u + 24u);
}

std::string FieldsOf(Decoded& d, uint32_t type, RecordKind k = RecordKind::kRecord) {
  int32_t row = d.RowOfType(type, k);
  if (row < 0) return "";
  return d.s().RecordFieldsJson(row);
}

TEST_P(Simpleperf, RecordFields) {
  Decoded d(MakeFile(o()).bytes);
  ASSERT_TRUE(d.ok());
  std::string f = FieldsOf(d, kSpKernelSymbol);
  EXPECT_NE(f.find("\"size_hi\""), std::string::npos) << f;
  EXPECT_NE(f.find("kallsyms_size"), std::string::npos) << f;
  f = FieldsOf(d, kSpDso);
  EXPECT_NE(f.find("DSO_ELF_FILE"), std::string::npos) << f;
  EXPECT_NE(f.find("libbar.so"), std::string::npos) << f;
  f = FieldsOf(d, kSpSymbol);
  EXPECT_NE(f.find("bar_fn"), std::string::npos) << f;
  EXPECT_NE(f.find("\"dso_id\""), std::string::npos) << f;
  f = FieldsOf(d, kSpCallchain);
  EXPECT_NE(f.find("JOINED_OFFLINE"), std::string::npos) << f;
  EXPECT_NE(f.find("0x30105"), std::string::npos) << f;
  EXPECT_NE(f.find("0x7ff8"), std::string::npos) << f;
  f = FieldsOf(d, kSpEventId);
  EXPECT_NE(f.find("attr_id[0]"), std::string::npos) << f;
  f = FieldsOf(d, kSpUnwindingResult);
  EXPECT_NE(f.find("ACCESS_STACK_FAILED"), std::string::npos) << f;
  f = FieldsOf(d, kSpDebug);
  EXPECT_NE(f.find("debug message"), std::string::npos) << f;
  f = FieldsOf(d, kSpTracingData);
  EXPECT_NE(f.find("data_size"), std::string::npos) << f;
  f = FieldsOf(d, kSpSplit);
  EXPECT_NE(f.find("split"), std::string::npos) << f;

  // Field offsets are absolute: the DSO record's dso_name sits 32 bytes in.
  int32_t row = d.RowOfType(kSpDso);
  std::vector<uint8_t> bytes = MakeFile(o()).bytes;
  uint64_t off = d.r().records.offset[static_cast<size_t>(row)];
  ByteReader rec(bytes.data() + off, d.r().records.size[static_cast<size_t>(row)], off, o());
  FieldList fl;
  Diagnostics diags;
  DecodeRecordFields(rec, nullptr, fl, &diags);
  EXPECT_TRUE(diags.items().empty());
  const Field* name = nullptr;
  for (const Field& x : fl.items())
    if (x.name == "dso_name") name = &x;
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->offset, off + 32);
  EXPECT_EQ(name->size, 24u);  // "/system/lib64/libbar.so" + NUL, padded to 8
  EXPECT_EQ(RecordSummary(rec, nullptr), "dso_id 7 /system/lib64/libbar.so min_vaddr 0x0");
}

TEST_P(Simpleperf, RecordFieldsTruncatedAtEveryLength) {
  Built b = MakeFile(o());
  Decoded d(b.bytes);
  const RecordTable& t = d.r().records;
  for (size_t row = 0; row < t.rows(); ++row) {
    if (t.kind[row] != static_cast<uint8_t>(RecordKind::kRecord) || !IsSimpleperfType(t.type[row])) continue;
    if (t.type[row] == kSpKernelSymbol) continue;  // 70 KB: covered by the file-level cuts
    for (uint64_t cut = 0; cut < t.size[row]; ++cut) {
      SCOPED_TRACE(std::string(SimpleperfRecordTypeName(t.type[row])) + " cut at " + std::to_string(cut));
      ByteReader rec(b.bytes.data() + t.offset[row], cut, t.offset[row], o());
      FieldList fl;
      Diagnostics diags;
      DecodeRecordFields(rec, nullptr, fl, &diags);
      EXPECT_FALSE(diags.items().empty());
      for (const Field& f : fl.items()) EXPECT_LE(f.offset + f.size, t.offset[row] + cut) << f.name;
    }
  }
}

TEST_P(Simpleperf, FeatureSections) {
  Decoded d(MakeFile(o()).bytes);
  ASSERT_TRUE(d.ok()) << d.Diags();
  std::string f = FieldsOf(d, kSpFeatFile, RecordKind::kFeature);
  EXPECT_NE(f.find("foo_fn"), std::string::npos) << f;
  EXPECT_NE(f.find("dex_file_offsets"), std::string::npos) << f;
  EXPECT_NE(f.find("file_offset_of_min_vaddr"), std::string::npos) << f;
  f = FieldsOf(d, kSpFeatMetaInfo, RecordKind::kFeature);
  EXPECT_NE(f.find("\"event_type_info\""), std::string::npos) << f;
  EXPECT_NE(f.find("com.example"), std::string::npos) << f;
  f = FieldsOf(d, kSpFeatDebugUnwind, RecordKind::kFeature);
  EXPECT_NE(f.find("/data/x.so"), std::string::npos) << f;
  // DEBUG_UNWIND_FILE: the embedded file is addressable with its offset and size.
  int32_t row = d.RowOfType(kSpFeatDebugUnwindFile, RecordKind::kFeature);
  ASSERT_GE(row, 0);
  FieldList fl;
  std::string j = d.s().RecordFieldsJson(row);
  EXPECT_NE(j.find("\"file[0]\""), std::string::npos) << j;
  EXPECT_NE(j.find("(ELF)"), std::string::npos) << j;
  uint64_t at = d.r().records.offset[static_cast<size_t>(row)];
  EXPECT_NE(j.find("\"offset\":" + std::to_string(at)), std::string::npos) << j;
  f = FieldsOf(d, kSpFeatFile2, RecordKind::kFeature);
  EXPECT_NE(f.find("\"FileFeature\""), std::string::npos) << f;
  EXPECT_NE(f.find("\"symbol[0]\""), std::string::npos) << f;
  EXPECT_NE(f.find("_Z6baz_fni"), std::string::npos) << f;
  EXPECT_NE(f.find("\"elf_file\""), std::string::npos) << f;
  EXPECT_NE(f.find("DSO_ELF_FILE"), std::string::npos) << f;
  f = FieldsOf(d, kSpFeatEtmBranchList, RecordKind::kFeature);
  EXPECT_NE(f.find("simpleperf:EtmBranchList"), std::string::npos) << f;
  EXPECT_NE(f.find("\"binaries[0]\""), std::string::npos) << f;
  f = FieldsOf(d, kSpFeatInitMap, RecordKind::kFeature);
  EXPECT_NE(f.find("init"), std::string::npos) << f;
  EXPECT_NE(f.find("record[0]"), std::string::npos) << f;
  // META_INFO's event_type_info names the event.
  ASSERT_EQ(d.r().profile.events.size(), 1u);
  EXPECT_EQ(d.r().profile.strings.Get(d.r().profile.events.name[0]), "cpu-cycles");
}

TEST_P(Simpleperf, SamplesNamedFromTheFilesSymbolTables) {
  Decoded d(MakeFile(o()).bytes);
  ASSERT_TRUE(d.ok());
  // Sample 1: the joined callchain (foo_fn called by bar_fn, the latter named
  // from the DSO/SYMBOL records); sample 2: foo_fn called by a dex method.
  const Profile& p = d.r().profile;
  std::vector<std::string> stacks;
  for (size_t i = 0; i < p.samples.size(); ++i) {
    std::string line;
    for (int32_t k = p.samples.stack[i]; k >= 0; k = p.stacks.prefix[static_cast<size_t>(k)]) {
      int32_t f = p.stacks.frame[static_cast<size_t>(k)];
      line = p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[static_cast<size_t>(f)])]) + (line.empty() ? "" : ";") + line;
    }
    stacks.push_back(line);
  }
  EXPECT_EQ(stacks, (std::vector<std::string>{"bar_fn;foo_fn", "com.example.Main.run;foo_fn"}));
  // `profscope stacks` prints them as simpleperf's stackcollapse.py does: the
  // thread's name first, the sample's own frame left out, period weights.
  EXPECT_EQ(d.s().StacksText(false, ""), "app;bar_fn 100\napp;com.example.Main.run 100\n");
}

TEST_P(Simpleperf, MalformedProtobufIsReportedNotFatal) {
  Pb bad;
  bad.Str(1, "/x");
  bad.b.push_back(0x22);  // field 4, length-delimited ...
  bad.b.push_back(0x7f);  // ... of 127 bytes that are not there
  PerfWriter f(o());
  f.U32(static_cast<uint32_t>(bad.b.size()));
  f.Bytes(bad.b);
  FeatureContext ctx;
  FieldList out;
  Diagnostics diags;
  DecodeFeature(kSpFeatFile2, ByteReader(f.data().data(), f.Pos(), 1000, o()), ctx, out, diags);
  ASSERT_FALSE(diags.items().empty());
  EXPECT_EQ(diags.items()[0].code, DiagCode::kBadFeature);
  EXPECT_NE(diags.items()[0].message.find("malformed protobuf"), std::string::npos);
  ASSERT_EQ(ctx.simpleperf.files.size(), 1u);
}

// Every feature section, cut at every length, decoded standalone: never reads
// past the cut, and fields stay inside it.
TEST_P(Simpleperf, FeaturesTruncatedAtEveryLength) {
  Built b = MakeFile(o());
  Decoded d(b.bytes);
  const RecordTable& t = d.r().records;
  for (size_t row = 0; row < t.rows(); ++row) {
    if (t.kind[row] != static_cast<uint8_t>(RecordKind::kFeature) || t.type[row] < 128) continue;
    for (uint64_t cut = 0; cut < t.size[row]; ++cut) {
      SCOPED_TRACE(std::string(FeatureName(t.type[row])) + " cut at " + std::to_string(cut));
      std::vector<uint8_t> copy(b.bytes.begin() + static_cast<std::ptrdiff_t>(t.offset[row]),
                                b.bytes.begin() + static_cast<std::ptrdiff_t>(t.offset[row] + cut));
      FeatureContext ctx;
      FieldList out;
      Diagnostics diags;
      DecodeFeature(t.type[row], ByteReader(copy.data(), copy.size(), t.offset[row], o()), ctx, out, diags);
      std::vector<const Field*> stack;
      for (const Field& f : out.items()) stack.push_back(&f);
      while (!stack.empty()) {
        const Field* f = stack.back();
        stack.pop_back();
        EXPECT_LE(f->offset + f->size, t.offset[row] + t.size[row]) << f->name;
        for (const Field& c : f->children) stack.push_back(&c);
      }
    }
  }
}

TEST_P(Simpleperf, FileTruncatedAtEveryLength) {
  Built b = MakeFile(o());
  Decoded whole(b.bytes);
  ASSERT_TRUE(whole.ok());
  const RecordTable& wt = whole.r().records;
  std::vector<size_t> recs;
  for (size_t i = 0; i < wt.rows(); ++i)
    if (wt.kind[i] == static_cast<uint8_t>(RecordKind::kRecord)) recs.push_back(i);
  // Inside the 70 KB kallsyms text only a few cuts are taken.
  uint64_t ks_begin = b.data_offset + b.ksym_off + 64, ks_end = b.data_offset + b.ksym_off + b.ksym_size - 64;
  for (uint64_t cut = 0; cut < b.bytes.size(); ++cut) {
    if (cut > ks_begin && cut < ks_end && cut % 4099 != 0) continue;
    SCOPED_TRACE("cut at " + std::to_string(cut) + " of " + std::to_string(b.bytes.size()));
    Decoded d(std::vector<uint8_t>(b.bytes.begin(), b.bytes.begin() + static_cast<std::ptrdiff_t>(cut)));
    EXPECT_FALSE(d.Clean()) << "no diagnostic for a cut file";
    if (!d.ok()) {
      EXPECT_TRUE(d.r().diags.has_fatal());
      continue;
    }
    // Records wholly before the cut are listed as in the whole file.
    const RecordTable& t = d.r().records;
    size_t k = 0;
    for (size_t i = 0; i < t.rows() && k < recs.size(); ++i) {
      if (t.kind[i] != static_cast<uint8_t>(RecordKind::kRecord)) continue;
      size_t w = recs[k++];
      if (wt.offset[w] + wt.size[w] > cut) break;
      ASSERT_EQ(t.offset[i], wt.offset[w]);
      ASSERT_EQ(t.size[i], wt.size[w]);
      ASSERT_EQ(t.type[i], wt.type[w]);
    }
    for (size_t i = 0; i < t.rows(); ++i) (void)d.s().RecordFieldsJson(static_cast<int32_t>(i));
    (void)d.s().StacksText(false, "");
    (void)d.s().InfoJson();
    if (HasFailure()) break;
  }
}

INSTANTIATE_TEST_SUITE_P(BothOrders, Simpleperf, ::testing::Values(ByteOrder::kLittle, ByteOrder::kBig),
                         [](const ::testing::TestParamInfo<ByteOrder>& i) {
                           return i.param == ByteOrder::kLittle ? std::string("Little") : std::string("Big");
                         });

}  // namespace
}  // namespace profscope::perf
