#include "core/format/perf/perf_decoder.h"
#include "core/format/perf/perf_jit.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_record_fields.h"
#include "core/format/perf/perf_symbols.h"
#include "core/format/perf/simpleperf_format.h"
#include "core/format/perf/simpleperf_record_fields.h"

#ifdef PROFSCOPE_HAVE_ZSTD
#include <zstd.h>
#endif

namespace profscope::perf {

namespace {

// Limits on what a file can make us allocate.
constexpr uint64_t kMaxAttrs = 1u << 16;
constexpr uint64_t kMaxIdsPerAttr = 1u << 20;
constexpr uint64_t kMaxDecompressed = 1ull << 30;
constexpr size_t kResyncWindow = 1u << 16;

bool KnownType(uint32_t t) {
  return (t >= 1 && t < kKernelMax) || (t >= kHeaderAttr && t < kUserMax) || IsSimpleperfType(t);
}

uint64_t Align8(uint64_t v) { return (v + 7) & ~uint64_t{7}; }

std::string Dec(uint64_t v) { return std::to_string(v); }

// Bytes that follow a record and are not counted in its header.size.
uint64_t TrailingPayload(ByteReader rec, uint32_t type) {
  if (type == kAuxtrace && rec.size() >= 16) return rec.PeekU64(8);
  // simpleperf's TracingDataRecord keeps its data inside the record (size =
  // 12 + data rounded up to 64); perf's is 16 bytes followed by the data.
  if (type == kHeaderTracingData && rec.size() > 16) return 0;
  if (type == kHeaderTracingData && rec.size() >= 12) return Align8(rec.PeekU32(8));
  return 0;
}

// Records that become timeline markers (Profile::markers).
bool IsMarkerType(uint32_t t) {
  switch (t) {
    case kMmap: case kMmap2: case kComm: case kExit: case kFork: case kLost: case kLostSamples:
    case kThrottle: case kUnthrottle: case kSwitch: case kSwitchCpuWide: case kKsymbol:
    case kBpfEvent: case kNamespaces: case kCgroup: case kTextPoke: case kAux: case kItraceStart:
      return true;
    default:
      return false;
  }
}

// Appending to a reused buffer: no allocation once it has grown.
void AppendDec(std::string& s, uint64_t v) {
  char b[24];
  int n = std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
  s.append(b, static_cast<size_t>(n));
}
void AppendInt(std::string& s, int64_t v) {
  char b[24];
  int n = std::snprintf(b, sizeof b, "%lld", static_cast<long long>(v));
  s.append(b, static_cast<size_t>(n));
}
void AppendHex(std::string& s, uint64_t v) {
  char b[24];
  int n = std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
  s.append(b, static_cast<size_t>(n));
}
// A NUL-terminated string at the cursor (at most the rest of the reader).
void AppendCString(std::string& s, ByteReader& r) {
  const char* p = reinterpret_cast<const char*>(r.cursor());
  size_t len = r.ok() ? strnlen(p, r.remaining()) : 0;
  s.append(p, len);
  r.Skip(len < r.remaining() ? len + 1 : len);
}

constexpr int32_t kNoTid = INT32_MIN;

}  // namespace

struct PerfDecoder::State {
  uint64_t records_done = 0;
  uint64_t last_progress = 0;
  uint64_t total = 0;
  bool have_time = false;
};

bool RecordedBySimpleperf(const FeatureContext& f) {
  if (f.simpleperf.present) return true;
  if (f.cmdline_argv.empty()) return false;
  const std::string& a = f.cmdline_argv[0];
  size_t k = a.find_last_of('/');
  return a.compare(k == std::string::npos ? 0 : k + 1, 10, "simpleperf") == 0;
}

bool Sniff(const uint8_t* head, size_t n) {
  if (n < 16) return false;
  uint64_t m;
  std::memcpy(&m, head, 8);
  return m == kMagic2 || m == kMagic2Swapped;
}

PerfDecoder::PerfDecoder() : st_(std::make_unique<State>()) {
  for (auto& k : marker_kind_) k = kNone;
}
PerfDecoder::~PerfDecoder() {
#ifdef PROFSCOPE_HAVE_ZSTD
  if (zstd_) ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(zstd_));
#endif
}

bool PerfDecoder::Decode(Window& w, DecodeResult& out, const ProgressFn& progress) {
  out.format = "perf.data";
  out.file_size = w.size();
  st_->total = w.size();
  const uint8_t* head = w.Get(0, 16);
  if (!head) {
    out.diags.Fatal(DiagCode::kTruncatedHeader, 0, w.size(),
                    "file is " + Dec(w.size()) + " bytes; a perf.data header needs at least 16");
    return false;
  }
  uint64_t magic;
  std::memcpy(&magic, head, 8);
  if (magic == kMagic2) {
    order_ = ByteOrder::kLittle;
  } else if (magic == kMagic2Swapped) {
    order_ = ByteOrder::kBig;
  } else {
    out.diags.Fatal(DiagCode::kUnknownFormat, 0, 8, "no PERFILE2 magic at offset 0");
    return false;
  }
  out.byte_order = order_ == ByteOrder::kLittle ? "little" : "big";
  ByteReader r(head, 16, 0, order_);
  r.Skip(8);
  uint64_t hsize = r.U64();
  pipe_ = hsize == kPipeHeaderSize;
  out.mode = pipe_ ? "pipe" : "file";
  bool ok = pipe_ ? DecodePipeMode(w, out, progress) : DecodeFileMode(w, out, progress);
  if (progress) progress(w.size(), w.size());
  return ok;
}

void PerfDecoder::AddAttr(const PerfEventAttr& attr, std::vector<uint64_t> ids, int32_t row,
                          DecodeResult& out) {
  int32_t idx = static_cast<int32_t>(attrs_.size());
  if (attrs_.empty()) id_pos_ = ComputeIdPos(attr.sample_type);
  for (uint64_t id : ids) id_to_attr_[id] = idx;
  attrs_.push_back(AttrInfo{attr, std::move(ids), {}, kNone, row});
  (void)out;
}

void PerfDecoder::FinishEvents(DecodeResult& out) {
  // Names: EVENT_DESC (matched by ids, else by index), EVENT_UPDATE, the old
  // event_types section, else synthesized from the attr as perf does.
  Profile& p = out.profile;
  for (size_t i = 0; i < attrs_.size(); ++i) {
    AttrInfo& a = attrs_[i];
    std::string given;
    for (const auto& d : features_.event_desc) {
      bool match = false;
      for (uint64_t id : d.ids)
        if (std::find(a.ids.begin(), a.ids.end(), id) != a.ids.end()) { match = true; break; }
      if (match) { given = d.name; break; }
    }
    if (given.empty() && i < features_.event_desc.size() && features_.event_desc[i].ids.empty() == a.ids.empty())
      given = features_.event_desc[i].name;
    if (given.empty()) {
      for (uint64_t id : a.ids) {
        auto it = update_names_.find(id);
        if (it != update_names_.end()) { given = it->second; break; }
      }
    }
    if (given.empty() && a.attr.type == kTypeTracepoint) {
      auto it = event_type_names_.find(a.attr.config);
      if (it != event_type_names_.end()) given = it->second;
      auto tp = features_.tracepoint_ids.find(a.attr.config);
      if (given.empty() && tp != features_.tracepoint_ids.end()) given = tp->second;
    }
    if (given.empty() && features_.simpleperf.present)  // simpleperf's META_INFO event_type_info
      given = SimpleperfEventName(features_.simpleperf, i, a.attr.type, a.attr.config);
    a.name = EventName(a.attr, given);
    if (a.event == kNone) {
      a.event = static_cast<int32_t>(p.events.size());
      p.events.name.push_back(p.strings.Intern(a.name));
      p.events.samples.push_back(0);
    } else {
      p.events.name[static_cast<size_t>(a.event)] = p.strings.Intern(a.name);
    }
  }
  for (size_t i = 0; i < p.samples.size(); ++i) {
    int32_t e = p.samples.event[i];
    if (e >= 0 && static_cast<size_t>(e) < p.events.size()) ++p.events.samples[static_cast<size_t>(e)];
  }
}

void PerfDecoder::ReleaseCaches() {
  frame_cache_.Clear();
  std::vector<std::vector<ChainEntry>>().swap(thread_chains_);
  if (stacks_) stacks_->ReleaseIndexes();
}

bool PerfDecoder::DecodeFileMode(Window& w, DecodeResult& out, const ProgressFn& progress) {
  const uint64_t fsize = w.size();
  const uint8_t* h = w.Get(0, kFileHeaderMinSize);
  if (!h) {
    out.diags.Fatal(DiagCode::kTruncatedHeader, 0, fsize,
                    "file is " + Dec(fsize) + " bytes; the perf.data file header needs 104");
    return false;
  }
  ByteReader r(h, kFileHeaderMinSize, 0, order_);
  r.Skip(8);
  uint64_t hsize = r.U64();
  attr_size_ = r.U64();
  uint64_t attrs_off = r.U64(), attrs_size = r.U64();
  uint64_t data_off = r.U64(), data_size = r.U64();
  uint64_t et_off = r.U64(), et_size = r.U64();
  uint64_t bits[4];
  for (auto& b : bits) b = r.U64();
  int32_t hdr_row = out.records.Add(0, std::min<uint64_t>(hsize, fsize), 0, RecordKind::kFileHeader, kNone);
  (void)hdr_row;
  if (hsize < kFileHeaderMinSize) {
    out.diags.Error(DiagCode::kBadHeader, 8, 8,
                    "header size is " + Dec(hsize) + "; a PERFILE2 file header is at least 104 bytes");
  }

  // Attributes: attr_size bytes each: perf_event_attr then a file_section of its ids.
  bool attrs_ok = true;
  if (attr_size_ < kAttrVer0Size + 16 || attr_size_ > 4096) {
    out.diags.Error(DiagCode::kBadHeader, 16, 8,
                    "attr_size is " + Dec(attr_size_) + "; expected perf_event_attr (64..4080 bytes) + 16");
    attrs_ok = false;
  } else if (!RangeFits(attrs_off, attrs_size, fsize)) {
    out.diags.Error(DiagCode::kSectionOutOfBounds, 24, 16,
                    "attrs section [" + Hex(attrs_off) + ", +" + Dec(attrs_size) + ") lies outside the " +
                        Dec(fsize) + "-byte file");
    attrs_ok = false;
  }
  if (attrs_ok) {
    uint64_t n = attrs_size / attr_size_;
    if (n > kMaxAttrs) {
      out.diags.Error(DiagCode::kLimitExceeded, 24, 16, "attrs section holds " + Dec(n) + " attrs; at most " + Dec(kMaxAttrs) + " are read");
      n = kMaxAttrs;
    }
    if (attrs_size % attr_size_) {
      out.diags.Warning(DiagCode::kBadHeader, attrs_off, attrs_size,
                        "attrs section size " + Dec(attrs_size) + " is not a multiple of attr_size " + Dec(attr_size_));
    }
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t at = attrs_off + i * attr_size_;
      const uint8_t* p = w.Get(at, static_cast<size_t>(attr_size_));
      if (!p) break;
      std::vector<uint8_t> copy(p, p + attr_size_);
      ByteReader ar(copy.data(), copy.size(), at, order_);
      ByteReader attr_r = ar.Sub(static_cast<size_t>(attr_size_ - 16));
      uint32_t declared = attr_r.PeekU32(4);
      size_t use = attr_r.size();
      if (declared >= kAttrVer0Size && declared < use) use = declared;
      PerfEventAttr attr;
      if (!ParseAttr(attr_r.Slice(0, use), &attr, nullptr)) {
        out.diags.Error(DiagCode::kBadAttr, at, attr_size_, "attr " + Dec(i) + " at " + Hex(at) + " could not be read");
        continue;
      }
      uint64_t ids_off = ar.U64(), ids_size = ar.U64();
      int32_t row = out.records.Add(at, attr_size_, static_cast<uint32_t>(i), RecordKind::kAttr, kNone);
      std::vector<uint64_t> ids;
      if (ids_size) {
        if (!RangeFits(ids_off, ids_size, fsize) || ids_size / 8 > kMaxIdsPerAttr) {
          out.diags.Error(DiagCode::kSectionOutOfBounds, at + attr_size_ - 16, 16,
                          "ids of attr " + Dec(i) + " [" + Hex(ids_off) + ", +" + Dec(ids_size) +
                              ") lie outside the file or exceed the limit");
        } else {
          const uint8_t* ip = w.Get(ids_off, static_cast<size_t>(ids_size));
          if (ip) {
            ByteReader idr(ip, static_cast<size_t>(ids_size), ids_off, order_);
            for (uint64_t k = 0; k < ids_size / 8; ++k) ids.push_back(idr.U64());
            out.records.Add(ids_off, ids_size, static_cast<uint32_t>(i), RecordKind::kAttrIds, row);
          }
        }
      }
      AddAttr(attr, std::move(ids), row, out);
    }
  }
  if (attrs_.empty()) {
    out.diags.Error(DiagCode::kBadAttr, 24, 16, "the file has no readable perf_event_attr; samples cannot be decoded");
  }

  // Old event_types section: {u64 event_id; char name[64]} entries.
  if (et_size) {
    if (!RangeFits(et_off, et_size, fsize)) {
      out.diags.Warning(DiagCode::kSectionOutOfBounds, 56, 16,
                        "event_types section [" + Hex(et_off) + ", +" + Dec(et_size) + ") lies outside the file");
    } else {
      out.records.Add(et_off, et_size, 0, RecordKind::kEventTypes, kNone);
      const uint8_t* p = w.Get(et_off, static_cast<size_t>(std::min<uint64_t>(et_size, 1u << 20)));
      if (p) {
        ByteReader er(p, static_cast<size_t>(std::min<uint64_t>(et_size, 1u << 20)), et_off, order_);
        while (er.remaining() >= 72) {
          uint64_t id = er.U64();
          event_type_names_[id] = er.FixedString(64);
        }
      }
    }
  }

  // Data section.
  uint64_t data_end = data_off + data_size;
  bool data_ok = true;
  if (data_off > fsize) {
    out.diags.Error(DiagCode::kSectionOutOfBounds, 40, 16,
                    "data section starts at " + Hex(data_off) + ", past the end of the " + Dec(fsize) + "-byte file");
    data_ok = false;
  } else if (data_size > fsize - data_off) {
    out.diags.Error(DiagCode::kSectionOutOfBounds, 40, 16,
                    "data section [" + Hex(data_off) + ", +" + Dec(data_size) + ") runs past the end of the file at " +
                        Hex(fsize) + "; the file is truncated, reading what is there");
    data_end = fsize;
  }
  // Feature sections first (event names, clock), though they sit after the data.
  uint64_t feat_table = data_off + data_size;
  std::vector<uint32_t> feats;
  for (uint32_t b = 0; b < 256; ++b)
    if (bits[b / 64] & (1ULL << (b % 64))) feats.push_back(b);
  struct Sec { uint32_t id; uint64_t off, size; };
  std::vector<Sec> secs;
  if (!feats.empty()) {
    uint64_t tsize = 16ull * feats.size();
    if (!RangeFits(feat_table, tsize, fsize)) {
      // offset of the table when it starts inside the file, else the header's data field that places it
      out.diags.Warning(DiagCode::kSectionOutOfBounds, feat_table <= fsize ? feat_table : 40,
                        feat_table <= fsize ? tsize : 16,
                        "feature section table (" + Dec(feats.size()) + " entries) at " + Hex(feat_table) +
                            " runs past the end of the file; feature sections are not read");
    } else {
      const uint8_t* p = w.Get(feat_table, static_cast<size_t>(tsize));
      ByteReader tr(p, static_cast<size_t>(tsize), feat_table, order_);
      for (uint32_t id : feats) {
        uint64_t off = tr.U64(), size = tr.U64();
        secs.push_back({id, off, size});
      }
    }
  }
  // Data records, then the feature rows, in file order.
  if (data_ok && data_end > data_off) {
    int32_t data_row = out.records.Add(data_off, data_end - data_off, 0, RecordKind::kDataSection, kNone);
    // Features are decoded before the records so EVENT_DESC names are known;
    // their rows are added after the data rows to keep file order.
    for (const Sec& s : secs) {
      if (!RangeFits(s.off, s.size, fsize) || s.size > (256u << 20)) continue;
      const uint8_t* p = w.Get(s.off, static_cast<size_t>(s.size));
      if (!p) continue;
      std::vector<uint8_t> copy(p, p + s.size);
      FieldList ignored;
      DecodeFeature(s.id, ByteReader(copy.data(), copy.size(), s.off, order_), features_, ignored, out.diags);
      if (s.id == kSpFeatInitMap) ProcessInitMap(ByteReader(copy.data(), copy.size(), s.off, order_), out);
    }
    ReadRecords(w, out, data_off, data_end, data_row, progress);
  }
  if (!secs.empty()) {
    int32_t table_row = out.records.Add(feat_table, 16ull * secs.size(), 0, RecordKind::kFeatureTable, kNone);
    for (size_t si = 0; si < secs.size(); ++si) {
      const Sec& s = secs[si];
      if (!RangeFits(s.off, s.size, fsize)) {
        // points at the table entry holding the bad {offset, size}, which is in the file
        out.diags.Warning(DiagCode::kSectionOutOfBounds, feat_table + 16 * si, 16,
                          std::string("feature section ") + FeatureName(s.id) + " [" + Hex(s.off) + ", +" +
                              Dec(s.size) + ") lies outside the file");
        continue;
      }
      int32_t frow = out.records.Add(s.off, s.size, s.id, RecordKind::kFeature, table_row);
      if (s.id == kSpFeatInitMap) {  // what INIT_MAP's records made points at the feature's row
        Profile& p = out.profile;
        for (size_t k = init_map_mappings_[0]; k < init_map_mappings_[1] && k < p.mappings.size(); ++k)
          if (p.mappings.record[k] == kNone) p.mappings.record[k] = frow;
        for (size_t k = init_map_markers_[0]; k < init_map_markers_[1] && k < p.markers.size(); ++k)
          if (p.markers.record[k] == kNone) p.markers.record[k] = frow;
      }
    }
    if (!data_ok) {
      for (const Sec& s : secs) {
        if (!RangeFits(s.off, s.size, fsize) || s.size > (256u << 20)) continue;
        const uint8_t* p = w.Get(s.off, static_cast<size_t>(s.size));
        if (!p) continue;
        std::vector<uint8_t> copy(p, p + s.size);
        FieldList ignored;
        DecodeFeature(s.id, ByteReader(copy.data(), copy.size(), s.off, order_), features_, ignored, out.diags);
      }
    }
  }
  return true;
}

bool PerfDecoder::DecodeDataFile(Window& w, uint8_t file_index, DecodeResult& out, const ProgressFn& progress) {
  // A data.N file of a perf --threads directory: records only, no header.
  out.records.current_file = file_index;
  carry_.clear();
#ifdef PROFSCOPE_HAVE_ZSTD
  if (zstd_) ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(zstd_));  // each writer thread had its own stream
  zstd_ = nullptr;
#endif
  st_->last_progress = 0;
  st_->total = w.size();
  int32_t row = out.records.Add(0, w.size(), 0, RecordKind::kDataSection, kNone);
  ReadRecords(w, out, 0, w.size(), row, progress);
  out.records.current_file = 0;
  return true;
}

bool PerfDecoder::DecodePipeMode(Window& w, DecodeResult& out, const ProgressFn& progress) {
  out.records.Add(0, kPipeHeaderSize, 0, RecordKind::kFileHeader, kNone);
  ReadRecords(w, out, kPipeHeaderSize, w.size(), kNone, progress);
  return true;
}

// Checks that a plausible record header sits at `off` (used to resynchronise).
static bool PlausibleHeader(Window& w, uint64_t off, uint64_t end, ByteOrder order) {
  if (off + 8 > end) return off == end;
  const uint8_t* p = w.Get(off, 8);
  if (!p) return false;
  ByteReader r(p, 8, off, order);
  uint32_t type = r.U32();
  uint16_t misc = r.U16();
  uint64_t size = RecordSizeFromHeader(type, misc, r.U16());  // simpleperf: 32-bit size above 32768
  return KnownType(type) && size >= 8 && size % 8 == 0 && off + size <= end;
}

void PerfDecoder::ReadRecords(Window& w, DecodeResult& out, uint64_t off, uint64_t end,
                              int32_t parent, const ProgressFn& progress) {
  while (off < end) {
    if (progress && off - st_->last_progress >= (1u << 20)) {
      st_->last_progress = off;
      progress(off, st_->total);
    }
    if (end - off < kEventHeaderSize) {
      out.diags.Error(DiagCode::kTrailingBytes, off, end - off,
                      Dec(end - off) + " bytes at " + Hex(off) + " are too few for a record header (8 bytes)");
      out.records.Add(off, end - off, 0, RecordKind::kUnparsed, parent);
      return;
    }
    const uint8_t* hp = w.Get(off, 8);
    ByteReader hr(hp, 8, off, order_);
    uint32_t type = hr.U32();
    uint16_t misc = hr.U16();
    uint64_t size = RecordSizeFromHeader(type, misc, hr.U16());  // simpleperf: 32-bit size above 32768
    if (size < kEventHeaderSize) {
      // Resynchronise: look for the next offset where two consecutive plausible headers start.
      uint64_t found = 0;
      uint64_t limit = std::min<uint64_t>(end, off + kResyncWindow);
      for (uint64_t p = off + 8; p + 8 <= limit; p += 8) {
        if (!PlausibleHeader(w, p, end, order_)) continue;
        const uint8_t* q = w.Get(p, 8);
        ByteReader qr(q, 8, p, order_);
        uint32_t qtype = qr.U32();
        uint16_t qmisc = qr.U16();
        uint64_t next = p + RecordSizeFromHeader(qtype, qmisc, qr.U16());
        if (PlausibleHeader(w, next, end, order_)) { found = p; break; }
      }
      std::string msg = "record at " + Hex(off) + " declares size " + Dec(size) +
                        "; a record is at least 8 bytes";
      if (found) {
        msg += "; skipped " + Dec(found - off) + " bytes to the next plausible record at " + Hex(found);
        out.diags.Error(DiagCode::kRecordTooSmall, off, 8, msg);
        out.records.Add(off, found - off, type, RecordKind::kUnparsed, parent);
        off = found;
        continue;
      }
      msg += "; no record boundary found after it, the rest of the section (" + Dec(end - off) + " bytes) is not decoded";
      out.diags.Error(DiagCode::kRecordTooSmall, off, 8, msg);
      out.records.Add(off, end - off, type, RecordKind::kUnparsed, parent);
      return;
    }
    if (size > end - off) {
      out.diags.Error(DiagCode::kRecordTruncated, off, end - off,
                      std::string("record at ") + Hex(off) + " (type " + Dec(type) +
                          (RecordTypeName(type)[0] ? std::string(" ") + RecordTypeName(type) : std::string()) +
                          ") declares " + Dec(size) + " bytes but only " + Dec(end - off) +
                          " remain; the file ends inside it");
      // Listed like perf report -D lists it (with its declared size), but not interpreted.
      out.records.Add(off, size, type, RecordKind::kRecord, parent);
      return;
    }
    const uint8_t* rp = w.Get(off, static_cast<size_t>(size));
    ByteReader rec(rp, static_cast<size_t>(size), off, order_);
    int32_t row = out.records.Add(off, size, type, RecordKind::kRecord, parent);
    uint64_t payload = TrailingPayload(rec, type);
    ProcessRecord(rec, row, out, &w);
    off += size;
    if (payload) {
      if (payload > end - off) {
        out.diags.Error(DiagCode::kMissingPayload, off, end - off,
                        std::string(RecordTypeName(type)) + " record at " + Hex(off - size) + " announces " +
                            Dec(payload) + " bytes of payload but only " + Dec(end - off) + " remain");
        out.records.Add(off, end - off, type, RecordKind::kPayload, row);
        return;
      }
      out.records.Add(off, payload, type, RecordKind::kPayload, row);
      if (type == kHeaderTracingData) {
        const uint8_t* pp = w.Get(off, static_cast<size_t>(payload));
        if (pp) {
          std::vector<uint8_t> copy(pp, pp + payload);
          FieldList ignored;
          DecodeFeature(kFeatTracingData, ByteReader(copy.data(), copy.size(), off, order_), features_, ignored, out.diags);
        }
      }
      off += payload;
    }
  }
}

const PerfDecoder::AttrInfo* PerfDecoder::AttrForRecord(ByteReader rec, uint32_t type) const {
  if (attrs_.empty()) return nullptr;
  if (attrs_.size() == 1) return &attrs_[0];
  uint64_t id;
  size_t psize = rec.size() - 8;
  if (type == kSample) {
    if (id_pos_.sample_pos < 0 || 8u * (id_pos_.sample_pos + 1) > psize) return &attrs_[0];
    id = rec.PeekU64(8 + 8 * static_cast<size_t>(id_pos_.sample_pos));
  } else {
    if (id_pos_.trailer_pos < 0 || !attrs_[0].attr.sample_id_all() || 8u * id_pos_.trailer_pos > psize)
      return &attrs_[0];
    id = rec.PeekU64(rec.size() - 8 * static_cast<size_t>(id_pos_.trailer_pos));
  }
  auto it = id_to_attr_.find(id);
  if (it == id_to_attr_.end()) return nullptr;
  return &attrs_[static_cast<size_t>(it->second)];
}

int32_t PerfDecoder::ThreadRow(DecodeResult& out, int32_t pid, int32_t tid, uint64_t time) {
  ThreadTable& t = out.profile.threads;
  auto it = thread_rows_.find(tid);
  if (it != thread_rows_.end()) {
    int32_t row = it->second;
    if (pid != -1 && t.pid[static_cast<size_t>(row)] == -1) t.pid[static_cast<size_t>(row)] = pid;
    if (time && (t.start[static_cast<size_t>(row)] == 0 || time < t.start[static_cast<size_t>(row)])) t.start[static_cast<size_t>(row)] = time;
    return row;
  }
  int32_t row = static_cast<int32_t>(t.size());
  t.tid.push_back(tid);
  t.pid.push_back(pid);
  t.name.push_back(kNone);
  t.start.push_back(time);
  t.end.push_back(0);
  t.samples.push_back(0);
  thread_rows_[tid] = row;
  return row;
}

int32_t PerfDecoder::FindMapping(const DecodeResult& out, int32_t pid, uint64_t addr, bool kernel) const {
  (void)out;
  SampleMaps sm(maps_, pid);
  return sm.Find(addr, kernel);
}

PerfDecoder::SampleMaps::SampleMaps(const std::unordered_map<int32_t, AddrSpace>& maps, int32_t pid) {
  auto it = maps.find(pid);
  user_.space = it == maps.end() || it->second.empty() ? nullptr : &it->second;
  it = maps.find(-1);
  kernel_.space = it == maps.end() || it->second.empty() ? nullptr : &it->second;
}

int32_t PerfDecoder::SampleMaps::Look(Space& sp, uint64_t addr) {
  if (!sp.space) return kNone;
  // Frames of one sample often fall in the mapping of the frame before.
  if (sp.row != kNone && addr >= sp.start && addr < sp.end) return sp.row;
  auto m = sp.space->upper_bound(addr);
  if (m == sp.space->begin()) return kNone;
  --m;
  if (addr >= m->second.first) return kNone;
  sp.start = m->first;
  sp.end = m->second.first;
  sp.row = m->second.second;
  return sp.row;
}

int32_t PerfDecoder::SampleMaps::Find(uint64_t addr, bool kernel) {
  int32_t r = kNone;
  if (!kernel) r = Look(user_, addr);
  if (r == kNone) r = Look(kernel_, addr);
  if (r == kNone && kernel) r = Look(user_, addr);
  return r;
}

void PerfDecoder::ProcessRecord(ByteReader rec, int32_t row, DecodeResult& out, Window* w) {
  (void)w;
  ByteReader r = rec;
  uint32_t type = r.U32();
  uint16_t misc = r.U16();
  r.U16();
  ByteReader payload = r.Sub(r.remaining());
  Profile& p = out.profile;
  if (!split_.empty() && type != kSpSplit && type != kSpSplitEnd) {
    // simpleperf's reader wants the pieces back to back, ended by SPLIT_END.
    out.diags.Error(DiagCode::kRecordFieldOverrun, rec.base(), rec.size(),
                    "SIMPLEPERF_SPLIT pieces (" + Dec(split_.size()) + " bytes from the one at " +
                        Hex(split_first_off_) +
                        ") are followed by a " + (RecordTypeName(type)[0] ? RecordTypeName(type) : "type " + Dec(type)) +
                        " record at " + Hex(rec.base()) + " instead of SIMPLEPERF_SPLIT_END; the split record is dropped");
    split_.clear();
  }
  auto sample_time = [&](ByteReader pl) -> uint64_t {
    const AttrInfo* a = AttrForRecord(rec, type);
    if (!a) return 0;
    SampleData sd;
    if (!ParseSampleId(pl, a->attr, &sd, nullptr)) return 0;
    return (a->attr.sample_type & kSampleTime) && a->attr.sample_id_all() ? sd.time : 0;
  };
  auto overrun = [&](const char* what) {
    out.diags.Error(DiagCode::kRecordFieldOverrun, rec.base(), rec.size(),
                    std::string(what) + " record at " + Hex(rec.base()) + " is " + Dec(rec.size()) +
                        " bytes, too short for its fields");
  };
  switch (type) {
    case kSample:
      ProcessSample(rec, row, out);
      break;
    case kMmap:
    case kMmap2: {
      int32_t pid = payload.I32();
      payload.I32();  // tid
      uint64_t start = payload.U64(), len = payload.U64(), pgoff = payload.U64();
      std::string build_id;
      if (type == kMmap2) {
        if (misc & kMiscMmapBuildId) {
          uint8_t n = payload.U8();
          payload.Skip(3);
          uint8_t bid[20] = {};
          payload.Bytes(bid, 20);
          static const char* hx = "0123456789abcdef";
          for (int i = 0; i < n && i < 20; ++i) { build_id += hx[bid[i] >> 4]; build_id += hx[bid[i] & 15]; }
        } else {
          payload.Skip(24);
        }
        payload.U32();  // prot
        payload.U32();  // flags
      }
      std::string path = payload.CString();
      if (!payload.ok() && path.empty()) { overrun(RecordTypeName(type)); break; }
      if (start + len < start) len = ~start;
      MappingTable& m = p.mappings;
      int32_t mrow = static_cast<int32_t>(m.size());
      m.pid.push_back(pid);
      m.start.push_back(start);
      m.end.push_back(start + len);
      m.pgoff.push_back(pgoff);
      m.path.push_back(p.strings.Intern(path));
      if (build_id.empty()) {
        for (const auto& b : features_.build_ids)
          if (b.filename == path) { build_id = b.build_id_hex; break; }
      }
      m.build_id.push_back(build_id.empty() ? kNone : p.strings.Intern(build_id));
      m.time.push_back(sample_time(payload));
      m.record.push_back(row);
      // A new mapping replaces the parts of older ones it overlaps; what is
      // left of them before and after it stays (perf's maps__fixup_overlap).
      auto& pm = maps_[pid];
      const uint64_t end = start + len;
      auto it = pm.lower_bound(start);
      if (it != pm.begin() && std::prev(it)->second.first > start) it = std::prev(it);
      std::vector<std::pair<uint64_t, std::pair<uint64_t, int32_t>>> keep;
      while (it != pm.end() && it->first < end) {
        uint64_t os = it->first, oe = it->second.first;
        int32_t orow = it->second.second;
        if (oe <= start) { ++it; continue; }
        it = pm.erase(it);
        if (os < start) keep.push_back({os, {start, orow}});
        if (oe > end) keep.push_back({end, {oe, orow}});
      }
      for (const auto& k : keep) pm[k.first] = k.second;
      pm[start] = {end, mrow};
      break;
    }
    case kComm: {
      int32_t pid = payload.I32(), tid = payload.I32();
      std::string name = payload.CString();
      if (!payload.ok() && name.empty()) { overrun("COMM"); break; }
      uint64_t t = sample_time(payload);
      int32_t th = ThreadRow(out, pid, tid, t);
      int32_t nid = p.strings.Intern(name);
      p.threads.name[static_cast<size_t>(th)] = nid;
      p.thread_names.thread.push_back(th);
      p.thread_names.time.push_back(t);
      p.thread_names.name.push_back(nid);
      break;
    }
    case kFork:
    case kExit: {
      int32_t pid = payload.I32();
      payload.I32();
      int32_t tid = payload.I32();
      int32_t ptid = payload.I32();
      uint64_t t = payload.U64();
      if (!payload.ok()) { overrun(RecordTypeName(type)); break; }
      int32_t th = ThreadRow(out, pid, tid, type == kFork ? t : 0);
      if (type == kExit) p.threads.end[static_cast<size_t>(th)] = t;
      if (type == kFork && ptid != tid && RecordedBySimpleperf(features_)) {
        // simpleperf's ThreadTree::ForkThread: the child gets its parent's
        // comm (what stackcollapse.py then prints for its samples).
        auto parent = thread_rows_.find(ptid);
        int32_t name = parent == thread_rows_.end() ? kNone : p.threads.name[static_cast<size_t>(parent->second)];
        if (name != kNone) {
          p.threads.name[static_cast<size_t>(th)] = name;
          p.thread_names.thread.push_back(th);
          p.thread_names.time.push_back(sample_time(payload));
          p.thread_names.name.push_back(name);
        }
      }
      break;
    }
    case kHeaderAttr: {
      uint32_t asize = payload.PeekU32(4);
      size_t use = asize >= kAttrVer0Size && asize <= payload.size() ? asize : (payload.size() >= kAttrVer0Size ? kAttrVer0Size : payload.size());
      if (asize > payload.size()) {
        out.diags.Error(DiagCode::kBadAttr, rec.base(), rec.size(),
                        "HEADER_ATTR at " + Hex(rec.base()) + " declares attr size " + Dec(asize) +
                            " but the record holds only " + Dec(payload.size()) + " bytes after its header");
      }
      PerfEventAttr attr;
      if (!ParseAttr(payload.Slice(0, use), &attr, nullptr)) {
        out.diags.Error(DiagCode::kBadAttr, rec.base(), rec.size(), "HEADER_ATTR at " + Hex(rec.base()) + " holds no readable attr");
        break;
      }
      std::vector<uint64_t> ids;
      ByteReader idr = payload.Slice(use, payload.size() - use);
      while (idr.remaining() >= 8) ids.push_back(idr.U64());
      AddAttr(attr, std::move(ids), row, out);
      break;
    }
    case kHeaderFeature: {
      uint64_t feat = payload.U64();
      if (!payload.ok()) { overrun("HEADER_FEATURE"); break; }
      FieldList ignored;
      DecodeFeature(static_cast<uint32_t>(feat), payload.Sub(payload.remaining()), features_, ignored, out.diags);
      break;
    }
    case kEventUpdate: {
      uint64_t utype = payload.U64(), id = payload.U64();
      if (payload.ok() && utype == 2) update_names_[id] = payload.CString();
      break;
    }
    case kCompressed:
    case kCompressed2:
      ProcessCompressed(rec, row, out);
      break;
    case kTimeConv: {
      TimeConv tc;
      tc.time_shift = payload.U64();
      tc.time_mult = payload.U64();
      tc.time_zero = payload.U64();
      if (!payload.ok()) { overrun("TIME_CONV"); break; }
      tc.extended = rec.size() > 32;  // perf's event_contains(time_conv, time_cycles)
      if (tc.extended) {
        tc.time_cycles = payload.U64();
        tc.time_mask = payload.U64();
        tc.cap_user_time_zero = payload.U8() != 0;
        tc.cap_user_time_short = payload.U8() != 0;
        if (!payload.ok()) overrun("TIME_CONV");
      }
      tc.present = true;
      tc.row = row;
      time_conv_ = tc;
      break;
    }
    case kSpSplit:
    case kSpSplitEnd:
      ProcessSplit(rec, type, row, out);
      break;
    default:
      if ((type == kHeaderTracingData && rec.size() > 16) || type == kSpTracingData) {
        // simpleperf's tracing data, inside the record: tracepoint formats.
        uint32_t n = rec.PeekU32(8);
        if (n <= rec.size() - 12) {
          FieldList ignored;
          DecodeFeature(kFeatTracingData, rec.Slice(12, n), features_, ignored, out.diags);
        }
      }
      if (type > 32768) {  // simpleperf's records: symbol tables and joined callchains
        ProcessSimpleperfRecord(rec, features_.simpleperf);
        SimpleperfCallchain cc;
        if (type == kSpCallchain && ParseSimpleperfCallchain(rec, &cc) && (cc.chain_type == 2 || cc.chain_type == 3))
          features_.simpleperf.joined_callchains[{cc.tid, cc.time}] = std::move(cc.ips);
      }
      if (!KnownType(type) && !(type >= 32768)) {
        out.diags.Warning(DiagCode::kUnknownRecordType, rec.base(), rec.size(),
                          "record at " + Hex(rec.base()) + " has unknown type " + Dec(type) + "; kept as opaque bytes");
      }
      break;
  }
  if (type < kMarkerKinds && IsMarkerType(type)) AddMarker(rec, type, misc, row, out);
}

void PerfDecoder::AddMarker(ByteReader rec, uint32_t type, uint16_t misc, int32_t row, DecodeResult& out) {
  Profile& p = out.profile;
  ByteReader pl = rec.Slice(8, rec.size() - 8);
  // Time, thread and cpu from the sample_id trailer when the attr has one.
  uint64_t time = 0;
  int32_t tid = kNoTid, cpu = kNone;
  const AttrInfo* a = AttrForRecord(rec, type);
  if (a && a->attr.sample_id_all()) {
    SampleData sd;
    if (ParseSampleId(pl, a->attr, &sd, nullptr)) {
      const uint64_t st = a->attr.sample_type;
      if (st & kSampleTime) time = sd.time;
      if (st & kSampleTid) tid = static_cast<int32_t>(sd.tid);
      if (st & kSampleCpu) cpu = static_cast<int32_t>(sd.cpu);
    }
  }
  std::string& l = label_;
  l.clear();
  ByteReader r = pl;
  switch (type) {
    case kMmap:
    case kMmap2: {
      int32_t pid = r.I32(), t = r.I32();
      uint64_t start = r.U64(), len = r.U64();
      r.U64();                            // pgoff
      if (type == kMmap2) r.Skip(24 + 8);  // maj/min/ino/ino_generation or build id; prot, flags
      tid = pid == -1 || !r.ok() ? kNoTid : t;  // kernel maps belong to no thread
      AppendCString(l, r);
      l += ' ';
      AppendHex(l, start);
      l += '-';
      AppendHex(l, start + len < start ? ~uint64_t{0} : start + len);
      break;
    }
    case kComm: {
      r.I32();
      tid = r.I32();
      if (!r.ok()) tid = kNoTid;
      l += "comm ";
      AppendCString(l, r);
      if (misc & kMiscMmapData) l += " (exec)";  // PERF_RECORD_MISC_COMM_EXEC
      break;
    }
    case kFork:
    case kExit: {
      r.I32();
      r.I32();  // pid, ppid
      const int32_t child = r.I32();
      uint32_t ptid = r.U32();
      uint64_t t = r.U64();
      tid = r.ok() ? child : kNoTid;
      if (!time && r.ok()) time = t;  // the record's own time (same clock) without sample_id
      if (type == kExit) {
        l += "exit ";
        AppendInt(l, child);
      } else {
        l += "fork ";
        AppendInt(l, child);
        l += " (parent ";
        AppendDec(l, ptid);
        l += ')';
      }
      break;
    }
    case kLost: {
      r.U64();  // id
      l += "lost ";
      AppendDec(l, r.U64());
      l += " events";
      break;
    }
    case kLostSamples:
      l += "lost ";
      AppendDec(l, r.U64());
      l += " samples";
      break;
    case kThrottle:
    case kUnthrottle: {
      uint64_t t = r.U64();
      if (!time && r.ok()) time = t;
      l += type == kThrottle ? "throttle" : "unthrottle";
      break;
    }
    case kSwitch:
    case kSwitchCpuWide: {
      bool switch_out = misc & kMiscSwitchOut;
      l += switch_out ? "switch out" : "switch in";
      if (type == kSwitchCpuWide) {
        int32_t np = r.I32(), nt = r.I32();
        if (r.ok()) {
          l += switch_out ? " to " : " from ";
          AppendInt(l, np);
          l += '/';
          AppendInt(l, nt);
        }
      }
      if (switch_out && (misc & kMiscSwitchOutPreempt)) l += " (preempt)";
      break;
    }
    case kKsymbol: {
      uint64_t addr = r.U64();
      uint32_t len = r.U32();
      r.U16();  // ksym_type
      uint16_t flags = r.U16();
      l += (flags & 1) ? "ksymbol unregister " : "ksymbol ";
      AppendCString(l, r);
      l += ' ';
      AppendHex(l, addr);
      l += '-';
      AppendHex(l, addr + len);
      break;
    }
    case kBpfEvent: {
      uint16_t t = r.U16();
      r.U16();
      uint32_t id = r.U32();
      l += t == 1 ? "bpf prog load" : t == 2 ? "bpf prog unload" : "bpf event";
      if (t != 1 && t != 2) {
        l += " type ";
        AppendDec(l, t);
      }
      l += " id ";
      AppendDec(l, id);
      break;
    }
    case kNamespaces: {
      int32_t pid = r.I32();
      tid = r.I32();
      if (!r.ok()) tid = kNoTid;
      l += "namespaces ";
      AppendInt(l, pid);
      l += '/';
      AppendInt(l, tid);
      break;
    }
    case kCgroup:
      r.U64();  // id
      l += "cgroup ";
      AppendCString(l, r);
      break;
    case kTextPoke: {
      uint64_t addr = r.U64();
      uint16_t old_len = r.U16(), new_len = r.U16();
      l += "text poke ";
      AppendHex(l, addr);
      l += " (";
      AppendDec(l, old_len);
      l += " -> ";
      AppendDec(l, new_len);
      l += " bytes)";
      break;
    }
    case kAux: {
      uint64_t off = r.U64(), size = r.U64(), flags = r.U64();
      l += "aux ";
      AppendDec(l, size);
      l += " bytes at ";
      AppendHex(l, off);
      if (flags & 1) l += " (truncated)";
      if (flags & 2) l += " (overwrite)";
      if (flags & 4) l += " (partial)";
      if (flags & 8) l += " (collision)";
      break;
    }
    case kItraceStart: {
      int32_t pid = r.I32();
      tid = r.I32();
      if (!r.ok()) tid = kNoTid;
      l += "itrace start ";
      AppendInt(l, pid);
      l += '/';
      AppendInt(l, tid);
      break;
    }
    default:
      break;
  }
  int32_t& kind = marker_kind_[type];
  if (kind == kNone) kind = p.strings.Intern(RecordTypeName(type));
  // Labels repeat (SWITCH in/out, THROTTLE, a COMM per thread): the last two
  // of each type are kept to skip hashing them again (no allocation once the
  // slots have grown).
  LabelSlot* c = label_cache_[type];
  int32_t lid;
  if (c[0].id != kNone && c[0].text == l) {
    lid = c[0].id;
  } else if (c[1].id != kNone && c[1].text == l) {
    lid = c[1].id;
    std::swap(c[0], c[1]);
  } else {
    lid = p.strings.Intern(l);
    std::swap(c[0], c[1]);
    c[0].text.assign(l);
    c[0].id = lid;
  }
  // The thread column holds the tid until FinishMarkers turns it into a row.
  p.markers.Add(time, kind, tid, cpu, lid, row);
  ++perf_markers_;
}

void PerfDecoder::ProcessSplit(ByteReader rec, uint32_t type, int32_t row, DecodeResult& out) {
  // simpleperf writes a record over 65535 bytes as SPLIT pieces (each: 8-byte
  // header, then the next part of the record's bytes, its own header first),
  // then an 8-byte SPLIT_END; its reader joins the parts and reads the result
  // as one record (record_file_writer.cpp WriteRecord, record_file_reader.cpp
  // ReadRecord). The pieces stay rows of their own; the joined record is
  // interpreted with the first piece's row.
  constexpr size_t kMaxJoined = size_t{1} << 30;
  features_.simpleperf.present = true;
  if (type == kSpSplit) {
    if (split_.empty()) {
      split_first_row_ = row;
      split_first_off_ = rec.base();
    }
    size_t n = rec.size() - 8;
    if (split_.size() + n > kMaxJoined) {
      out.diags.Error(DiagCode::kLimitExceeded, rec.base(), rec.size(),
                      "SIMPLEPERF_SPLIT pieces add up to more than 1 GiB at " + Hex(rec.base()) + "; the split record is dropped");
      split_.clear();
      split_.shrink_to_fit();
      return;
    }
    split_.insert(split_.end(), rec.data() + 8, rec.data() + rec.size());
    return;
  }
  if (split_.empty()) {
    out.diags.Warning(DiagCode::kRecordFieldOverrun, rec.base(), rec.size(),
                      "SIMPLEPERF_SPLIT_END at " + Hex(rec.base()) + " ends no SIMPLEPERF_SPLIT pieces; ignored");
    return;
  }
  std::vector<uint8_t> joined;
  joined.swap(split_);
  const int32_t first = split_first_row_;
  const uint64_t base = split_first_off_ + 8;
  uint64_t size = 0;
  uint32_t jtype = 0;
  if (joined.size() >= 8) {
    ByteReader hr(joined.data(), 8, base, order_);
    jtype = hr.U32();
    uint16_t jmisc = hr.U16();
    size = RecordSizeFromHeader(jtype, jmisc, hr.U16());
  }
  if (joined.size() < 8 || size < 8 || size > joined.size() || jtype == kSpSplit || jtype == kSpSplitEnd) {
    out.diags.Error(DiagCode::kRecordFieldOverrun, base - 8, rec.base() + rec.size() - (base - 8),
                    "SIMPLEPERF_SPLIT pieces from " + Hex(base - 8) + " join to " + Dec(joined.size()) +
                        " bytes, which do not hold the record their first header announces (" +
                        (joined.size() < 8 ? std::string("no header") : "type " + Dec(jtype) + ", size " + Dec(size)) +
                        "); the split record is not interpreted");
    return;
  }
  if (size < joined.size()) {
    out.diags.Warning(DiagCode::kRecordFieldOverrun, base - 8, rec.base() + rec.size() - (base - 8),
                      "SIMPLEPERF_SPLIT pieces from " + Hex(base - 8) + " join to " + Dec(joined.size()) +
                          " bytes but the record in them is " + Dec(size) + " bytes; the rest is ignored");
  }
  ProcessRecord(ByteReader(joined.data(), static_cast<size_t>(size), base, order_), first, out, nullptr);
}

void PerfDecoder::ProcessInitMap(ByteReader sec, DecodeResult& out) {
  // simpleperf's INIT_MAP feature: the MMAP/COMM records of the processes
  // that existed when recording started, read before the data section
  // (RecordFileReader::ReadInitMapFeature). Damage is reported by the
  // feature's own decoding (DecodeInitMap); here the records are interpreted.
  // Their rows are patched to the feature's row once it exists.
  Profile& p = out.profile;
  init_map_mappings_[0] = p.mappings.size();
  init_map_markers_[0] = p.markers.size();
  while (sec.remaining() >= 8) {
    size_t at = sec.pos();
    uint32_t type = sec.PeekU32(at);
    uint64_t size = RecordSizeFromHeader(type, sec.PeekU16(at + 4), sec.PeekU16(at + 6));
    if (size < 8 || size > sec.remaining()) break;
    ProcessRecord(sec.Sub(static_cast<size_t>(size)), kNone, out, nullptr);
  }
  if (!split_.empty()) {
    out.diags.Error(DiagCode::kBadFeature, sec.base(), sec.size(),
                    "SIMPLEPERF_INIT_MAP ends inside a split record (SIMPLEPERF_SPLIT without SIMPLEPERF_SPLIT_END)");
    split_.clear();
  }
  init_map_mappings_[1] = p.mappings.size();
  init_map_markers_[1] = p.markers.size();
}

void PerfDecoder::JoinedSplitFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) {
  // The SPLIT pieces right before this SPLIT_END (same container and file),
  // joined: the record simpleperf reads, its fields placed back on the
  // pieces' bytes (a field is shown where its first byte is).
  const RecordTable& t = res.records;
  size_t i = static_cast<size_t>(row);
  size_t first = i;
  while (first > 0 && t.type[first - 1] == kSpSplit && t.kind[first - 1] == t.kind[i] &&
         t.parent[first - 1] == t.parent[i] && t.file[first - 1] == t.file[i])
    --first;
  if (first == i) return;
  std::vector<uint8_t> joined;
  std::vector<std::pair<uint64_t, uint64_t>> pieces;  // (offset in joined, file offset of that byte)
  for (size_t k = first; k < i; ++k) {
    std::vector<uint8_t> keep;
    ByteReader pr = RowBytes(w, res, static_cast<int32_t>(k), keep);
    if (pr.size() < 8 || joined.size() + pr.size() > (size_t{64} << 20)) return;
    pieces.push_back({joined.size(), pr.base() + 8});
    joined.insert(joined.end(), pr.data() + 8, pr.data() + pr.size());
  }
  if (joined.size() < 8) return;
  ByteReader hr(joined.data(), 8, 0, order_);
  uint32_t type = hr.U32();
  uint16_t misc = hr.U16();
  uint64_t size = std::min<uint64_t>(RecordSizeFromHeader(type, misc, hr.U16()), joined.size());
  ByteReader jr(joined.data(), static_cast<size_t>(size), 0, order_);
  const AttrInfo* a = AttrForRecord(jr, type);
  FieldList fl;
  Diagnostics jd;
  DecodeRecordFields(jr, a ? &a->attr : nullptr, fl, &jd);
  for (const auto& d : jd.items()) fl.Add("problem", d.offset, d.length, d.message);
  auto place = [&](uint64_t at) {
    size_t k = pieces.size();
    while (k > 1 && pieces[k - 1].first > at) --k;
    return pieces[k - 1].second + (at - pieces[k - 1].first);
  };
  std::vector<Field*> todo;
  for (Field& f : fl.items()) todo.push_back(&f);
  while (!todo.empty()) {
    Field* f = todo.back();
    todo.pop_back();
    f->offset = place(f->offset);
    for (Field& c : f->children) todo.push_back(&c);
  }
  const char* n = RecordTypeName(type);
  Field& top = out.Add("joined", pieces[0].second, size,
                       (n[0] ? std::string(n) : "type " + Dec(type)) + ", " + Dec(size) + " bytes from " +
                           Dec(i - first) + " SIMPLEPERF_SPLIT pieces");
  top.children = std::move(fl.items());
}

void PerfDecoder::FinishMarkers(DecodeResult& out) {
  // Thread rows by tid, the lookup samples use, now that every thread is known.
  // The perf records' markers come first (a jit side file's follow, with rows).
  MarkerTable& m = out.profile.markers;
  size_t n = std::min(perf_markers_, m.size());
  for (size_t i = 0; i < n; ++i) {
    int32_t tid = m.thread[i];
    m.thread[i] = kNone;
    if (tid == kNoTid) continue;
    auto it = thread_rows_.find(tid);
    if (it != thread_rows_.end()) m.thread[i] = it->second;
  }
  perf_markers_ = 0;
  if (!split_.empty()) {
    uint64_t at = split_first_off_;
    out.diags.Error(DiagCode::kRecordTruncated, at, split_.size(),
                    "SIMPLEPERF_SPLIT pieces from " + Hex(at) + " (" + Dec(split_.size()) +
                        " bytes) are not followed by SIMPLEPERF_SPLIT_END before the data ends; the split record is dropped");
    split_.clear();
  }
}

void PerfDecoder::ProcessSample(ByteReader rec, int32_t row, DecodeResult& out) {
  const AttrInfo* a = AttrForRecord(rec, kSample);
  if (!a) {
    out.diags.Warning(DiagCode::kUnknownSampleId, rec.base(), rec.size(),
                      "SAMPLE at " + Hex(rec.base()) + " carries a sample id that matches no attr; not counted");
    return;
  }
  SampleData& s = sample_;
  ByteReader payload = rec.Slice(8, rec.size() - 8);
  if (!ParseSample(payload, a->attr, &s, nullptr, &out.diags)) {
    if (!(a->attr.sample_type & kSampleIp)) return;
  }
  Profile& p = out.profile;
  const uint64_t st = a->attr.sample_type;
  int32_t pid = (st & kSampleTid) ? static_cast<int32_t>(s.pid) : -1;
  int32_t tid = (st & kSampleTid) ? static_cast<int32_t>(s.tid) : -1;
  uint64_t time = (st & kSampleTime) ? s.time : 0;
  int32_t th = ThreadRow(out, pid, tid, time);
  ++p.threads.samples[static_cast<size_t>(th)];
  uint16_t misc = rec.PeekU16(4);
  bool kernel_mode = (misc & kMiscCpumodeMask) == 1 || (misc & kMiscCpumodeMask) == 4;

  // Frames leaf first: the callchain without its context markers, else the ip.
  frame_addrs_.clear();
  std::vector<uint8_t>& kernel_flags = frame_kernel_;
  kernel_flags.clear();
  if ((st & kSampleCallchain) && !s.callchain.empty()) {
    // --call-graph lbr: the user part comes from the LBR call stack, as perf resolves it
    // (resolve_lbr_callchain_sample, callee order): the callchain up to PERF_CONTEXT_USER,
    // then the first entry's target (the current function), then every entry's call site.
    size_t end = s.callchain.size();
    const bool lbr = !s.lbr_from.empty();
    if (lbr) {
      for (size_t i = 0; i < s.callchain.size(); ++i)
        if (s.callchain[i] == kContextUser) { end = i; break; }
    }
    bool kernel = kernel_mode;
    for (size_t i = 0; i < end; ++i) {
      uint64_t v = s.callchain[i];
      if (v >= kContextMax) {
        kernel = v == kContextKernel || v == kContextGuestKernel;
        continue;
      }
      frame_addrs_.push_back(v);
      kernel_flags.push_back(kernel);
    }
    if (lbr && end < s.callchain.size()) {
      frame_addrs_.push_back(s.lbr_to0);
      kernel_flags.push_back(0);
      for (uint64_t from : s.lbr_from) {
        frame_addrs_.push_back(from);
        kernel_flags.push_back(0);
      }
    }
  } else if (st & kSampleIp) {
    frame_addrs_.push_back(s.ip);
    kernel_flags.push_back(kernel_mode);
  }
  SimpleperfInfo& spi = features_.simpleperf;
  if (spi.present && !spi.joined_callchains.empty()) {
    // simpleperf's callchain joiner wrote the complete user callchain of this
    // sample in a JOINED SIMPLEPERF_CALLCHAIN record (same tid and time): it
    // replaces the sample's user part.
    auto jc = spi.joined_callchains.find({static_cast<uint32_t>(tid), time});
    if (jc != spi.joined_callchains.end()) {
      size_t keep = 0;
      while (keep < frame_addrs_.size() && kernel_flags[keep]) ++keep;
      frame_addrs_.resize(keep);
      kernel_flags.resize(keep);
      for (uint64_t ip : jc->second) {
        frame_addrs_.push_back(ip);
        kernel_flags.push_back(0);
      }
      spi.joined_callchains.erase(jc);
    }
  }
  if (spi.present && frame_addrs_.size() > 1) {
    // Hide the frames simpleperf report hides (ART runtime frames around Java ones).
    std::vector<SimpleperfFrame> sf(frame_addrs_.size());
    for (size_t i = 0; i < sf.size(); ++i) {
      int32_t m = FindMapping(out, pid, frame_addrs_[i], kernel_flags[i]);
      sf[i].addr = frame_addrs_[i];
      sf[i].kernel = kernel_flags[i];
      if (m == kNone) continue;
      sf[i].path = &p.strings.Get(p.mappings.path[static_cast<size_t>(m)]);
      sf[i].map_start = p.mappings.start[static_cast<size_t>(m)];
      sf[i].map_pgoff = p.mappings.pgoff[static_cast<size_t>(m)];
    }
    std::vector<uint8_t> keep = SimpleperfReportFrames(spi, sf);
    size_t w = 0;
    for (size_t i = 0; i < keep.size(); ++i) {
      if (!keep[i]) continue;
      frame_addrs_[w] = frame_addrs_[i];
      kernel_flags[w] = kernel_flags[i];
      ++w;
    }
    frame_addrs_.resize(w);
    kernel_flags.resize(w);
  }
  if (!stacks_) stacks_ = std::make_unique<StackBuilder>(p);
  StackBuilder& sb = *stacks_;
  int32_t stack = kNone;
  SampleMaps maps(maps_, pid);  // this process's and the kernel's address spaces, looked up once per sample
  const size_t nf = frame_addrs_.size();
  frame_maps_.resize(nf);
  for (size_t i = 0; i < nf; ++i) frame_maps_[i] = maps.Find(frame_addrs_[i], kernel_flags[i]);
  // The thread's previous sample, root first: the outer frames it shares with
  // this one (same address in the same mapping, so the same frame and the same
  // prefix) give their stack nodes without any lookup.
  if (thread_chains_.size() <= static_cast<size_t>(th)) thread_chains_.resize(static_cast<size_t>(th) + 1);
  std::vector<ChainEntry>& chain = thread_chains_[static_cast<size_t>(th)];
  size_t same = 0;
  while (same < nf && same < chain.size() && chain[same].address == frame_addrs_[nf - 1 - same] &&
         chain[same].mapping == frame_maps_[nf - 1 - same])
    ++same;
  if (same) stack = chain[same - 1].stack;
  chain.resize(same);
  // Start loading the cache slot of every other frame: the lookups below then
  // overlap their cache misses instead of taking them one by one.
  for (size_t i = 0; i + same < nf; ++i)
    frame_cache_.Prefetch(FlatIndex::Mix(frame_addrs_[i], static_cast<uint32_t>(frame_maps_[i])));
  // A new (address, mapping): its frame and func are new rows (a func is
  // (name, mapping) and the name holds the offset), except for names that
  // several addresses share ("[unknown]", simpleperf's symbols): those intern.
  auto new_frame = [&](size_t i) -> int32_t {
    const uint64_t addr = frame_addrs_[i];
    const int32_t m = frame_maps_[i];
    int32_t func;
    if (m == kNone) {
      if (unknown_func_ == kNone) unknown_func_ = sb.Func(p.strings.Intern("[unknown]"), kNone);
      func = unknown_func_;
    } else {
      const MappingTable& mt = p.mappings;
      const size_t mi = static_cast<size_t>(m);
      uint64_t rel = addr - mt.start[mi] + mt.pgoff[mi];
      if (!spi.present) {
        // `path+0xoffset`, formed in a reused buffer (once per distinct (address, mapping))
        std::string& name = name_buf_;
        name.assign(p.strings.Get(mt.path[mi]));
        name += "+0x";
        char hex[16];
        size_t k = sizeof hex;
        uint64_t v = rel;
        do {
          hex[--k] = "0123456789abcdef"[v & 15];
          v >>= 4;
        } while (v);
        name.append(hex + k, sizeof hex - k);
        func = sb.NewFunc(p.strings.Intern(name), m);
      } else {
        const std::string& mpath = p.strings.Get(mt.path[mi]);
        std::string name;
        uint64_t vaddr = 0;
        bool known = false;
        if (!SimpleperfSymbolize(spi, mpath, mt.start[mi], mt.pgoff[mi], addr, kernel_flags[i], &name, &vaddr, &known)) {
          // simpleperf report's name for an address without a symbol: dso[+vaddr_in_file]
          std::string hex = Hex(vaddr).substr(2);
          name = SimpleperfDsoDisplayName(mpath) + "[+" + hex + "]";
        }
        func = sb.Func(p.strings.Intern(name), m);
      }
    }
    return sb.NewFrame(addr, func, m);
  };
  const FrameTable& ft = p.frames;
  for (size_t i = nf - same; i-- > 0;) {
    const uint64_t addr = frame_addrs_[i];
    const int32_t m = frame_maps_[i];
    bool added = false;
    const int32_t next = static_cast<int32_t>(ft.address.size());
    int32_t frame = frame_cache_.FindOrInsert(
        FlatIndex::Mix(addr, static_cast<uint32_t>(m)),
        [&](int32_t r) { return ft.address[static_cast<size_t>(r)] == addr && ft.mapping[static_cast<size_t>(r)] == m; },
        next, &added);
    if (added) new_frame(i);  // becomes row `next`
    stack = sb.Stack(stack, frame);
    chain.push_back(ChainEntry{addr, m, stack});
  }
  SampleTable& t = p.samples;
  t.time.push_back(time);
  t.thread.push_back(th);
  t.cpu.push_back((st & kSampleCpu) ? static_cast<int32_t>(s.cpu) : kNone);
  t.event.push_back(a - attrs_.data());  // attr index; mapped to event rows in FinishEvents
  t.weight.push_back((st & kSamplePeriod) ? static_cast<double>(s.period) : 1.0);
  t.stack.push_back(stack);
  t.record.push_back(row);
  if (time) {
    if (!st_->have_time || time < out.time_start) out.time_start = time;
    if (!st_->have_time || time > out.time_end) out.time_end = time;
    st_->have_time = true;
  }
}

std::vector<uint8_t> PerfDecoder::Decompress(void* ctx, const uint8_t* data, size_t size, uint64_t at, Diagnostics* diags) {
  std::vector<uint8_t> outbuf;
#ifdef PROFSCOPE_HAVE_ZSTD
  ZSTD_DCtx* dctx = static_cast<ZSTD_DCtx*>(ctx);
  ZSTD_inBuffer in{data, size, 0};
  size_t chunk = ZSTD_DStreamOutSize();
  while (in.pos < in.size) {
    size_t old = outbuf.size();
    if (old + chunk > kMaxDecompressed) {
      if (diags) diags->Error(DiagCode::kLimitExceeded, at, size, "COMPRESSED record at " + Hex(at) + " decompresses to more than 1 GiB; stopped");
      break;
    }
    outbuf.resize(old + chunk);
    ZSTD_outBuffer o{outbuf.data() + old, chunk, 0};
    size_t ret = ZSTD_decompressStream(dctx, &o, &in);
    outbuf.resize(old + o.pos);
    if (ZSTD_isError(ret)) {
      if (diags) diags->Error(DiagCode::kDecompressFailed, at, size,
                              "COMPRESSED record at " + Hex(at) + ": zstd says \"" + ZSTD_getErrorName(ret) +
                                  "\" after " + Dec(in.pos) + " of " + Dec(size) + " compressed bytes");
      break;
    }
    if (ret == 0 && in.pos == in.size) break;
    if (o.pos == 0 && in.pos == in.size) break;
  }
#else
  (void)ctx;
  (void)data;
  if (diags) diags->Error(DiagCode::kNoDecompressor, at, size, "this build has no zstd decoder; COMPRESSED record at " + Hex(at) + " not expanded");
#endif
  return outbuf;
}

void PerfDecoder::ProcessCompressed(ByteReader rec, int32_t row, DecodeResult& out) {
  uint32_t type = rec.PeekU32(0);
  size_t data_at = 8;
  size_t data_len = rec.size() - 8;
  if (type == kCompressed2) {
    uint64_t n = rec.PeekU64(8);
    data_at = 16;
    data_len = rec.size() >= 16 ? rec.size() - 16 : 0;
    if (n < data_len) data_len = static_cast<size_t>(n);
  }
#ifdef PROFSCOPE_HAVE_ZSTD
  if (!zstd_) zstd_ = ZSTD_createDCtx();
#endif
  std::vector<uint8_t> dec = Decompress(zstd_, rec.data() + data_at, data_len, rec.base() + data_at, &out.diags);
  ReadNestedRecords(dec.data(), dec.size(), row, out);
}

void PerfDecoder::ReadNestedRecords(const uint8_t* data, size_t size, int32_t container, DecodeResult& out) {
  // Records may continue across containers (perf keeps the remainder of one
  // decompressed buffer for the next). Such a record belongs to the container
  // where it starts, at its offset there, as perf report -D lists it.
  std::vector<uint8_t> buf;
  const uint8_t* p = data;
  size_t n = size;
  int32_t owner = container;
  uint64_t owner_base = 0;  // offset of buf[0] within the owner's decompressed bytes
  if (!carry_.empty()) {
    buf = std::move(carry_);
    carry_.clear();
    buf.insert(buf.end(), data, data + size);
    p = buf.data();
    n = buf.size();
    owner = carry_owner_;
    owner_base = carry_base_;
  }
  size_t carried = n - size;  // bytes of p that came from the owner container
  uint64_t cbase = out.records.offset[static_cast<size_t>(container)];
  size_t off = 0;
  auto keep_rest = [&](size_t from) {
    carry_.assign(p + from, p + n);
    if (from >= carried) {
      carry_owner_ = container;
      carry_base_ = from - carried;
    } else {
      carry_owner_ = owner;
      carry_base_ = owner_base + from;
    }
  };
  while (off < n) {
    if (n - off < 8) { keep_rest(off); break; }
    ByteReader hr(p + off, 8, off, order_);
    uint32_t type = hr.U32();
    hr.U16();
    uint16_t sz = hr.U16();
    if (sz < 8) {
      out.diags.Error(DiagCode::kRecordTooSmall, cbase, 0,
                      "record at offset " + Dec(off) + " inside the decompressed data of COMPRESSED at " + Hex(cbase) +
                          " declares size " + Dec(sz) + "; the rest of this container is skipped");
      break;
    }
    if (sz > n - off) { keep_rest(off); break; }
    ByteReader rec(p + off, sz, off, order_);
    int32_t row;
    if (off < carried) row = out.records.Add(owner_base + off, sz, type, RecordKind::kNested, owner);
    else row = out.records.Add(off - carried, sz, type, RecordKind::kNested, container);
    ProcessRecord(rec, row, out, nullptr);
    off += sz;
  }
}

void PerfDecoder::UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) {
  JitJoinInput in;
  for (const auto& a : attrs_) in.clocks.push_back({(a.attr.flags >> 25) & 1, a.attr.clockid});
  in.time_conv = time_conv_;
  if (!stacks_) stacks_ = std::make_unique<StackBuilder>(out.profile);
  // Program binaries first (symbols of mapped files), then jit dumps (anonymous JIT code).
  std::vector<bool> used(files.size(), false);
  NameFramesFromElf(files, used, *stacks_, out);
  std::vector<SideFile> rest;
  for (size_t i = 0; i < files.size(); ++i)
    if (!used[i]) rest.push_back(files[i]);
  UseJitDumps(rest, in, *stacks_, out);
  frame_cache_.Clear();  // frames may have been renamed; no sample is added after this
}

bool PerfDecoder::IsListedRecord(const DecodeResult& res, int32_t row) const {
  auto k = static_cast<RecordKind>(res.records.kind[static_cast<size_t>(row)]);
  return k == RecordKind::kRecord || k == RecordKind::kNested;
}

std::string PerfDecoder::RecordLabel(const DecodeResult& res, int32_t row) const {
  size_t i = static_cast<size_t>(row);
  uint32_t type = res.records.type[i];
  switch (static_cast<RecordKind>(res.records.kind[i])) {
    case RecordKind::kFileHeader: return pipe_ ? "pipe header" : "file header";
    case RecordKind::kAttr: {
      std::string s = "attr " + Dec(type);
      if (type < attrs_.size()) s += " (" + attrs_[type].name + ")";
      return s;
    }
    case RecordKind::kAttrIds: return "ids of attr " + Dec(type);
    case RecordKind::kEventTypes: return "event_types";
    case RecordKind::kDataSection: return "data section";
    case RecordKind::kFeatureTable: return "feature sections";
    case RecordKind::kFeature: {
      const char* n = FeatureName(type);
      return std::string("feature ") + (n[0] ? n : Dec(type).c_str());
    }
    case RecordKind::kPayload: return std::string(RecordTypeName(type)) + " payload";
    case RecordKind::kUnparsed: return "unparsed bytes";
    case RecordKind::kRecord:
    case RecordKind::kNested: {
      const char* n = RecordTypeName(type);
      return n[0] ? std::string(n) : "type " + Dec(type);
    }
  }
  return "?";
}

ByteReader PerfDecoder::RowBytes(Window& w, const DecodeResult& res, int32_t row, std::vector<uint8_t>& keep) {
  size_t i = static_cast<size_t>(row);
  uint64_t off = res.records.offset[i], size = res.records.size[i];
  if (static_cast<RecordKind>(res.records.kind[i]) == RecordKind::kNested) {
    // Replay the zstd stream through every container up to this one.
    int32_t c = res.records.parent[i];
#ifdef PROFSCOPE_HAVE_ZSTD
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
#else
    void* dctx = nullptr;
#endif
    // A record may run on into the following containers' output.
    bool started = false;
    for (int32_t k = 0; static_cast<size_t>(k) < res.records.rows(); ++k) {
      if (k > c && started && keep.size() >= off + size) break;
      size_t ki = static_cast<size_t>(k);
      if (static_cast<RecordKind>(res.records.kind[ki]) != RecordKind::kRecord) continue;
      if (res.records.file[ki] != res.records.file[i]) continue;
      uint32_t kt = res.records.type[ki];
      if (kt != kCompressed && kt != kCompressed2) continue;
      std::vector<uint8_t> crec;
      ByteReader cr = RowBytes(w, res, k, crec);
      size_t at = kt == kCompressed2 ? 16 : 8;
      if (cr.size() < at) continue;
      std::vector<uint8_t> part = Decompress(dctx, cr.data() + at, cr.size() - at, cr.base() + at, nullptr);
      if (k < c) continue;
      if (!started) keep = std::move(part);
      else keep.insert(keep.end(), part.begin(), part.end());
      started = true;
    }
#ifdef PROFSCOPE_HAVE_ZSTD
    ZSTD_freeDCtx(dctx);
#endif
    if (off > keep.size() || size > keep.size() - off) return ByteReader();
    return ByteReader(keep.data() + off, static_cast<size_t>(size), off, order_);
  }
  size_t cap = static_cast<size_t>(std::min<uint64_t>({size, 64u << 20, w.Available(off)}));
  const uint8_t* p = w.Get(off, cap);
  if (!p) return ByteReader();
  keep.assign(p, p + cap);
  return ByteReader(keep.data(), cap, off, order_);
}

void PerfDecoder::RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) {
  if (row < 0 || static_cast<size_t>(row) >= res.records.rows()) return;
  size_t i = static_cast<size_t>(row);
  std::vector<uint8_t> keep;
  ByteReader r = RowBytes(w, res, row, keep);
  Diagnostics scratch;
  switch (static_cast<RecordKind>(res.records.kind[i])) {
    case RecordKind::kFileHeader: {
      auto u64 = [&](const char* n, bool hex) { uint64_t at = r.abs_pos(); uint64_t v = r.U64(); out.Add(n, at, 8, hex ? Hex(v) : Dec(v)); return v; };
      out.Add("magic", 0, 8, order_ == ByteOrder::kLittle ? "\"PERFILE2\" (little-endian)" : "\"2ELIFREP\" (big-endian)");
      r.Skip(8);
      u64("size", false);
      if (pipe_) break;
      u64("attr_size", false);
      u64("attrs.offset", true); u64("attrs.size", false);
      u64("data.offset", true); u64("data.size", false);
      u64("event_types.offset", true); u64("event_types.size", false);
      std::string feats;
      uint64_t at = r.abs_pos();
      for (int k = 0; k < 4; ++k) {
        uint64_t b = r.U64();
        for (int bit = 0; bit < 64; ++bit)
          if (b & (1ULL << bit)) {
            if (!feats.empty()) feats += ' ';
            const char* n = FeatureName(static_cast<uint32_t>(k * 64 + bit));
            feats += n[0] ? n : Dec(k * 64 + bit);
          }
      }
      out.Add("features", at, 32, feats);
      break;
    }
    case RecordKind::kAttr: {
      ByteReader ar = r.Sub(static_cast<size_t>(attr_size_ - 16));
      PerfEventAttr attr;
      Field& f = out.Add("attr", ar.base(), ar.size(), RecordLabel(res, row));
      FieldList sub;
      ParseAttr(ar, &attr, &sub);
      f.children = std::move(sub.items());
      uint64_t at = r.abs_pos();
      uint64_t o = r.U64(), s = r.U64();
      out.Add("ids", at, 16, "offset " + Hex(o) + ", size " + Dec(s));
      break;
    }
    case RecordKind::kAttrIds: {
      size_t k = 0;
      while (r.remaining() >= 8) { uint64_t at = r.abs_pos(); out.Add("id[" + Dec(k++) + "]", at, 8, Dec(r.U64())); }
      break;
    }
    case RecordKind::kEventTypes: {
      size_t k = 0;
      while (r.remaining() >= 72) {
        uint64_t at = r.abs_pos();
        uint64_t id = r.U64();
        std::string n = r.FixedString(64);
        out.Add("event_type[" + Dec(k++) + "]", at, 72, Dec(id) + " " + QuoteString(n));
      }
      break;
    }
    case RecordKind::kFeatureTable: {
      size_t k = 0;
      for (size_t j = 0; j < res.records.rows(); ++j) {
        if (res.records.parent[j] != row) continue;
        (void)j;
      }
      while (r.remaining() >= 16) {
        uint64_t at = r.abs_pos();
        uint64_t o = r.U64(), s = r.U64();
        out.Add("section[" + Dec(k++) + "]", at, 16, "offset " + Hex(o) + ", size " + Dec(s));
      }
      break;
    }
    case RecordKind::kFeature: {
      FeatureContext ctx;
      ctx.simpleperf.debug_unwind_files = features_.simpleperf.debug_unwind_files;  // DEBUG_UNWIND_FILE's list
      DecodeFeature(res.records.type[i], r, ctx, out, scratch);
      break;
    }
    case RecordKind::kRecord:
    case RecordKind::kNested: {
      const AttrInfo* a = r.size() >= 8 ? AttrForRecord(r, r.PeekU32(0)) : nullptr;
      DecodeRecordFields(r, a ? &a->attr : nullptr, out, &scratch);
      if (res.records.type[i] == kSpSplitEnd) JoinedSplitFields(w, res, row, out);
      break;
    }
    case RecordKind::kPayload:
      if (res.records.type[i] == kHeaderTracingData) {
        FeatureContext ctx;
        DecodeFeature(kFeatTracingData, r, ctx, out, scratch);
      } else {
        out.Add("payload", r.base(), r.size(), Dec(r.size()) + " bytes");
      }
      break;
    case RecordKind::kDataSection:
      out.Add("data", r.base(), res.records.size[i], Dec(res.records.size[i]) + " bytes of records");
      break;
    case RecordKind::kUnparsed:
      out.Add("bytes", r.base(), res.records.size[i], Dec(res.records.size[i]) + " bytes that form no complete record");
      break;
  }
  // Diagnostics while decoding one row on demand are shown as fields.
  for (const auto& d : scratch.items()) out.Add("problem", d.offset, d.length, d.message);
}

}  // namespace profscope::perf
