#include "core/format/perf/perf_tokenizer.h"

#include <algorithm>
#include <vector>

#include "core/format/perf/perf_format.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"

namespace profscope::perf {

namespace {

// Limits on what a file can make us allocate.
constexpr uint64_t kMaxAttrs = 1u << 16;
constexpr uint64_t kMaxIdsPerAttr = 1u << 20;
constexpr size_t kResyncWindow = 1u << 16;

uint64_t Align8(uint64_t v) { return (v + 7) & ~uint64_t{7}; }

// Bytes that follow a record and are not counted in its header.size.
uint64_t TrailingPayload(ByteReader rec, uint32_t type) {
  if (type == kAuxtrace && rec.size() >= 16) return rec.PeekU64(8);
  // simpleperf's TracingDataRecord keeps its data inside the record (size =
  // 12 + data rounded up to 64); perf's is 16 bytes followed by the data.
  if (type == kHeaderTracingData && rec.size() > 16) return 0;
  if (type == kHeaderTracingData && rec.size() >= 12) return Align8(rec.PeekU32(8));
  return 0;
}

// Checks that a plausible record header sits at `off` (used to resynchronise).
bool PlausibleHeader(Window& w, uint64_t off, uint64_t end, ByteOrder order) {
  if (off + 8 > end) return off == end;
  const uint8_t* p = w.Get(off, 8);
  if (!p) return false;
  ByteReader r(p, 8, off, order);
  uint32_t type = r.U32();
  uint16_t misc = r.U16();
  uint64_t size = RecordSizeFromHeader(type, misc, r.U16());  // simpleperf: 32-bit size above 32768
  return IsKnownRecordType(type) && size >= 8 && size % 8 == 0 && off + size <= end;
}

}  // namespace

bool PerfTokenizer::File(Window& w, const ProgressFn& progress) {
  DecodeResult& out = out_;
  total_ = w.size();
  const uint64_t fsize = w.size();
  const uint8_t* h = w.Get(0, kFileHeaderMinSize);
  if (!h) {
    out.diags.Fatal(DiagCode::kTruncatedHeader, 0, fsize,
                    "file is " + Dec(fsize) + " bytes; the perf.data file header needs 104");
    return false;
  }
  ByteReader r(h, kFileHeaderMinSize, 0, session_.order);
  r.Skip(8);
  uint64_t hsize = r.U64();
  session_.attr_size = r.U64();
  uint64_t attrs_off = r.U64(), attrs_size = r.U64();
  uint64_t data_off = r.U64(), data_size = r.U64();
  uint64_t et_off = r.U64(), et_size = r.U64();
  uint64_t bits[4];
  for (auto& b : bits) b = r.U64();
  out.records.Add(0, std::min<uint64_t>(hsize, fsize), 0, RecordKind::kFileHeader, kNone, RecordCategory::kMetadata);
  if (hsize < kFileHeaderMinSize) {
    out.diags.Error(DiagCode::kBadHeader, 8, 8,
                    "header size is " + Dec(hsize) + "; a PERFILE2 file header is at least 104 bytes");
  }

  // Attributes: attr_size bytes each: perf_event_attr then a file_section of its ids.
  bool attrs_ok = true;
  if (session_.attr_size < kAttrVer0Size + 16 || session_.attr_size > 4096) {
    out.diags.Error(DiagCode::kBadHeader, 16, 8,
                    "attr_size is " + Dec(session_.attr_size) + "; expected perf_event_attr (64..4080 bytes) + 16");
    attrs_ok = false;
  } else if (!RangeFits(attrs_off, attrs_size, fsize)) {
    out.diags.Error(DiagCode::kSectionOutOfBounds, 24, 16,
                    "attrs section [" + Hex(attrs_off) + ", +" + Dec(attrs_size) + ") lies outside the " +
                        Dec(fsize) + "-byte file");
    attrs_ok = false;
  }
  if (attrs_ok) {
    uint64_t n = attrs_size / session_.attr_size;
    if (n > kMaxAttrs) {
      out.diags.Error(DiagCode::kLimitExceeded, 24, 16, "attrs section holds " + Dec(n) + " attrs; at most " + Dec(kMaxAttrs) + " are read");
      n = kMaxAttrs;
    }
    if (attrs_size % session_.attr_size) {
      out.diags.Warning(DiagCode::kBadHeader, attrs_off, attrs_size,
                        "attrs section size " + Dec(attrs_size) + " is not a multiple of attr_size " + Dec(session_.attr_size));
    }
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t at = attrs_off + i * session_.attr_size;
      const uint8_t* p = w.Get(at, static_cast<size_t>(session_.attr_size));
      if (!p) break;
      std::vector<uint8_t> copy(p, p + session_.attr_size);
      ByteReader ar(copy.data(), copy.size(), at, session_.order);
      ByteReader attr_r = ar.Sub(static_cast<size_t>(session_.attr_size - 16));
      uint32_t declared = attr_r.PeekU32(4);
      size_t use = attr_r.size();
      if (declared >= kAttrVer0Size && declared < use) use = declared;
      PerfEventAttr attr;
      if (!ParseAttr(attr_r.Slice(0, use), &attr, nullptr)) {
        out.diags.Error(DiagCode::kBadAttr, at, session_.attr_size, "attr " + Dec(i) + " at " + Hex(at) + " could not be read");
        continue;
      }
      uint64_t ids_off = ar.U64(), ids_size = ar.U64();
      int32_t row = out.records.Add(at, session_.attr_size, static_cast<uint32_t>(i), RecordKind::kAttr, kNone, RecordCategory::kMetadata);
      std::vector<uint64_t> ids;
      if (ids_size) {
        if (!RangeFits(ids_off, ids_size, fsize) || ids_size / 8 > kMaxIdsPerAttr) {
          out.diags.Error(DiagCode::kSectionOutOfBounds, at + session_.attr_size - 16, 16,
                          "ids of attr " + Dec(i) + " [" + Hex(ids_off) + ", +" + Dec(ids_size) +
                              ") lie outside the file or exceed the limit");
        } else {
          const uint8_t* ip = w.Get(ids_off, static_cast<size_t>(ids_size));
          if (ip) {
            ByteReader idr(ip, static_cast<size_t>(ids_size), ids_off, session_.order);
            for (uint64_t k = 0; k < ids_size / 8; ++k) ids.push_back(idr.U64());
            out.records.Add(ids_off, ids_size, static_cast<uint32_t>(i), RecordKind::kAttrIds, row, RecordCategory::kMetadata);
          }
        }
      }
      session_.AddAttr(attr, std::move(ids), row);
    }
  }
  if (session_.attrs().empty()) {
    out.diags.Error(DiagCode::kBadAttr, 24, 16, "the file has no readable perf_event_attr; samples cannot be decoded");
  }

  // Old event_types section: {u64 event_id; char name[64]} entries.
  if (et_size) {
    if (!RangeFits(et_off, et_size, fsize)) {
      out.diags.Warning(DiagCode::kSectionOutOfBounds, 56, 16,
                        "event_types section [" + Hex(et_off) + ", +" + Dec(et_size) + ") lies outside the file");
    } else {
      out.records.Add(et_off, et_size, 0, RecordKind::kEventTypes, kNone, RecordCategory::kMetadata);
      const uint8_t* p = w.Get(et_off, static_cast<size_t>(std::min<uint64_t>(et_size, 1u << 20)));
      if (p) {
        ByteReader er(p, static_cast<size_t>(std::min<uint64_t>(et_size, 1u << 20)), et_off, session_.order);
        while (er.remaining() >= 72) {
          uint64_t id = er.U64();
          session_.NameEventType(id, er.FixedString(64));
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
  feat_table_ = data_off + data_size;
  data_ok_ = data_ok;
  file_mode_ = true;
  std::vector<uint32_t> feats;
  for (uint32_t b = 0; b < 256; ++b)
    if (bits[b / 64] & (1ULL << (b % 64))) feats.push_back(b);
  std::vector<Sec>& secs = secs_;
  if (!feats.empty()) {
    uint64_t tsize = 16ull * feats.size();
    if (!RangeFits(feat_table_, tsize, fsize)) {
      // offset of the table when it starts inside the file, else the header's data field that places it
      out.diags.Warning(DiagCode::kSectionOutOfBounds, feat_table_ <= fsize ? feat_table_ : 40,
                        feat_table_ <= fsize ? tsize : 16,
                        "feature section table (" + Dec(feats.size()) + " entries) at " + Hex(feat_table_) +
                            " runs past the end of the file; feature sections are not read");
    } else {
      const uint8_t* p = w.Get(feat_table_, static_cast<size_t>(tsize));
      ByteReader tr(p, static_cast<size_t>(tsize), feat_table_, session_.order);
      for (uint32_t id : feats) {
        uint64_t off = tr.U64(), size = tr.U64();
        secs.push_back({id, off, size});
      }
    }
  }
  // Data records, then the feature rows, in file order.
  if (data_ok && data_end > data_off) {
    int32_t data_row = out.records.Add(data_off, data_end - data_off, 0, RecordKind::kDataSection, kNone, RecordCategory::kMetadata);
    // Features are decoded before the records so EVENT_DESC names are known;
    // their rows are added after the data rows to keep file order.
    ReadFeatures(w, secs, true);
    Records(w, data_off, data_end, data_row, progress);
    if (paused_) return true;
  }
  AfterRecords(w);
  return true;
}

void PerfTokenizer::FileEnd(Window& w) {
  DecodeResult& out = out_;
  const uint64_t fsize = w.size();
  const std::vector<Sec>& secs = secs_;
  if (!secs.empty()) {
    int32_t table_row = out.records.Add(feat_table_, 16ull * secs.size(), 0, RecordKind::kFeatureTable, kNone, RecordCategory::kMetadata);
    for (size_t si = 0; si < secs.size(); ++si) {
      const Sec& s = secs[si];
      if (!RangeFits(s.off, s.size, fsize)) {
        // points at the table entry holding the bad {offset, size}, which is in the file
        out.diags.Warning(DiagCode::kSectionOutOfBounds, feat_table_ + 16 * si, 16,
                          std::string("feature section ") + FeatureName(s.id) + " [" + Hex(s.off) + ", +" +
                              Dec(s.size) + ") lies outside the file");
        continue;
      }
      int32_t frow = out.records.Add(s.off, s.size, s.id, RecordKind::kFeature, table_row, RecordCategory::kMetadata);
      if (s.id == kSpFeatInitMap) init_map_.AssignRow(frow, out.profile);  // what INIT_MAP's records made
    }
    if (!data_ok_) ReadFeatures(w, secs, false);
  }
}

void PerfTokenizer::Resume(Window& w, const ProgressFn& progress) {
  if (!paused_) return;
  paused_ = false;
  if (data_file_) {
    Turns(progress, true);
    return;
  }
  Records(w, resume_off_, resume_end_, resume_parent_, progress);
  if (!paused_) AfterRecords(w);
}

void PerfTokenizer::Stop(Window& w) {
  if (!paused_) return;
  paused_ = false;
  if (data_file_) {  // the data files' decode ends here, in every file
    NoteDecodeStopped(out_.diags, resume_off_, resume_end_, data_[turn_].w->size(), "data file " + Dec(data_file_));
    LeaveDataFiles();
    return;
  }
  NoteDecodeStopped(out_.diags, resume_off_, resume_end_, w.size(), std::string());
  AfterRecords(w);
}

void PerfTokenizer::AfterRecords(Window& w) {
  if (file_mode_) FileEnd(w);
}

bool PerfTokenizer::PauseAt(uint64_t off, uint64_t end, int32_t parent) {
  if (!pause_.Ask(off, data_file_)) return false;
  paused_ = true;
  resume_off_ = off;
  resume_end_ = end;
  resume_parent_ = parent;
  return true;
}

void PerfTokenizer::DataFiles(const std::vector<Window*>& files, const ProgressFn& progress) {
  DecodeResult& out = out_;
  file_mode_ = false;
  data_.clear();
  total_ = 0;
  for (size_t k = 0; k < files.size() && k < 254; ++k) {
    DataCursor c;
    c.w = files[k];
    // its data-section row first (each file's records follow it in their file's order; the turns interleave the files' rows)
    out.records.current_file = static_cast<uint8_t>(k + 1);
    c.row = out.records.Add(0, c.w->size(), 0, RecordKind::kDataSection, kNone, RecordCategory::kMetadata);
    c.zstd = std::make_unique<ZstdStream>();
    total_ += c.w->size();
    data_.push_back(std::move(c));
  }
  out.records.current_file = 0;
  turn_ = 0;
  last_progress_ = 0;
  if (!data_.empty()) Turns(progress, false);
}

void PerfTokenizer::Turns(const ProgressFn& progress, bool resumed) {
  const uint64_t main_size = out_.file_sizes.empty() ? 0 : out_.file_sizes[0];
  for (;;) {
    DataCursor& c = data_[turn_];
    if (resumed || !c.done) {
      data_file_ = static_cast<uint8_t>(turn_ + 1);
      out_.records.current_file = data_file_;
      zstd_ = c.zstd.get();
      read_before_ = 0;
      for (size_t k = 0; k < data_.size(); ++k)
        if (k != turn_) read_before_ += data_[k].done ? data_[k].w->size() : data_[k].off;
      out_.data_files_read = main_size + read_before_ + c.off;
      turn_over_ = false;
      if (resumed) {
        resumed = false;
        Records(*c.w, resume_off_, resume_end_, resume_parent_, progress);
      } else {
        turn_end_ = c.off + kDataTurn;
        Records(*c.w, c.off, c.w->size(), c.row, progress);
      }
      if (paused_) return;  // Resume goes on with this turn
      if (turn_over_) {
        c.off = turn_off_;
      } else {  // read to its end (or to a record that ends it)
        c.off = c.w->size();
        c.done = true;
      }
      if (out_.budget.reached() || stopped_)
        for (DataCursor& d : data_) d.done = true;
    }
    bool left = false;
    for (const DataCursor& d : data_) left = left || !d.done;
    if (!left) break;
    turn_ = (turn_ + 1) % data_.size();
  }
  LeaveDataFiles();
}

void PerfTokenizer::LeaveDataFiles() {
  for (DataCursor& d : data_) d.done = true;
  out_.records.current_file = 0;
  data_file_ = 0;
  zstd_ = &main_zstd_;
  turn_end_ = UINT64_MAX;
  out_.data_files_read = 0;
}

bool PerfTokenizer::Pipe(Window& w, const ProgressFn& progress) {
  DecodeResult& out = out_;
  total_ = w.size();
  out.records.Add(0, kPipeHeaderSize, 0, RecordKind::kFileHeader, kNone, RecordCategory::kMetadata);
  Records(w, kPipeHeaderSize, w.size(), kNone, progress);
  return true;
}


void PerfTokenizer::Records(Window& w, uint64_t off, uint64_t end, int32_t parent, const ProgressFn& progress) {
  DecodeResult& out = out_;
  const ByteOrder order = session_.order;
  while (off < end) {
    if (w.Ended(off)) break;  // (the file ended before its size: read no zeros as records)
    if (off >= turn_end_) {  // a data file's turn is over; the next file's begins
      turn_over_ = true;
      turn_off_ = off;
      return;
    }
    Progress(off, progress);
    // (the pause first: a resumed loop asks the budget once at this offset, as an uninterrupted one does)
    if (PauseAt(off, end, parent) || out.OverBudget(off) || stopped_) return;
    if (end - off < kEventHeaderSize) {
      out.diags.Error(DiagCode::kTrailingBytes, off, end - off,
                      Dec(end - off) + " bytes at " + Hex(off) + " are too few for a record header (8 bytes)");
      out.records.Add(off, end - off, 0, RecordKind::kUnparsed, parent, RecordCategory::kUnparsed);
      return;
    }
    const uint8_t* hp = w.Get(off, 8);
    ByteReader hr(hp, 8, off, order);
    uint32_t type = hr.U32();
    uint16_t misc = hr.U16();
    uint64_t size = RecordSizeFromHeader(type, misc, hr.U16());  // simpleperf: 32-bit size above 32768
    if (size < kEventHeaderSize) {
      // Resynchronise: look for the next offset where two consecutive plausible headers start.
      uint64_t found = 0;
      uint64_t limit = std::min<uint64_t>(end, off + kResyncWindow);
      for (uint64_t p = off + 8; p + 8 <= limit; p += 8) {
        if (!PlausibleHeader(w, p, end, session_.order)) continue;
        const uint8_t* q = w.Get(p, 8);
        ByteReader qr(q, 8, p, session_.order);
        uint32_t qtype = qr.U32();
        uint16_t qmisc = qr.U16();
        uint64_t next = p + RecordSizeFromHeader(qtype, qmisc, qr.U16());
        if (PlausibleHeader(w, next, end, session_.order)) { found = p; break; }
      }
      std::string msg = "record at " + Hex(off) + " declares size " + Dec(size) +
                        "; a record is at least 8 bytes";
      if (found) {
        msg += "; skipped " + Dec(found - off) + " bytes to the next plausible record at " + Hex(found);
        out.diags.Error(DiagCode::kRecordTooSmall, off, 8, msg);
        out.records.Add(off, found - off, type, RecordKind::kUnparsed, parent, RecordCategory::kUnparsed);
        off = found;
        continue;
      }
      msg += "; no record boundary found after it, the rest of the section (" + Dec(end - off) + " bytes) is not decoded";
      out.diags.Error(DiagCode::kRecordTooSmall, off, 8, msg);
      out.records.Add(off, end - off, type, RecordKind::kUnparsed, parent, RecordCategory::kUnparsed);
      return;
    }
    if (size > end - off) {
      out.diags.Error(DiagCode::kRecordTruncated, off, end - off,
                      std::string("record at ") + Hex(off) + " (type " + Dec(type) +
                          (RecordTypeName(type)[0] ? std::string(" ") + RecordTypeName(type) : std::string()) +
                          ") declares " + Dec(size) + " bytes but only " + Dec(end - off) +
                          " remain; the file ends inside it");
      // Listed like perf report -D lists it (with its declared size), but not interpreted.
      out.records.Add(off, size, type, RecordKind::kRecord, parent, RecordCategoryOf(type));
      return;
    }
    const uint8_t* rp = w.Get(off, static_cast<size_t>(size));
    ByteReader rec(rp, static_cast<size_t>(size), off, order);
    int32_t row = out.records.Add(off, size, type, RecordKind::kRecord, parent, RecordCategoryOf(type));
    uint64_t payload = TrailingPayload(rec, type);
    Record(row, rec);
    off += size;
    if (payload) {
      if (payload > end - off) {
        out.diags.Error(DiagCode::kMissingPayload, off, end - off,
                        std::string(RecordTypeName(type)) + " record at " + Hex(off - size) + " announces " +
                            Dec(payload) + " bytes of payload but only " + Dec(end - off) + " remain");
        out.records.Add(off, end - off, type, RecordKind::kPayload, row, RecordCategory::kPayload);
        return;
      }
      out.records.Add(off, payload, type, RecordKind::kPayload, row, RecordCategory::kPayload);
      if (type == kHeaderTracingData) {
        const uint8_t* pp = w.Get(off, static_cast<size_t>(payload));
        if (pp) {
          std::vector<uint8_t> copy(pp, pp + payload);
          FieldList ignored;
          DecodeFeature(kFeatTracingData, ByteReader(copy.data(), copy.size(), off, session_.order), session_.features, ignored, out.diags);
        }
      }
      off += payload;
    }
  }
}

void PerfTokenizer::ReadFeatures(Window& w, const std::vector<Sec>& secs, bool with_init_map) {
  for (const Sec& s : secs) {
    if (!RangeFits(s.off, s.size, w.size()) || s.size > (256u << 20)) continue;
    const uint8_t* p = w.Get(s.off, static_cast<size_t>(s.size));
    if (!p) continue;
    std::vector<uint8_t> copy(p, p + s.size);
    FieldList ignored;
    DecodeFeature(s.id, ByteReader(copy.data(), copy.size(), s.off, session_.order), session_.features, ignored, out_.diags);
    if (with_init_map && s.id == kSpFeatInitMap)
      init_map_.Read(ByteReader(copy.data(), copy.size(), s.off, session_.order), sink_, split_, out_);
  }
}

void PerfTokenizer::Progress(uint64_t off, const ProgressFn& progress) {
  // in the data files: the bytes read of all of them (they are read in turns)
  const uint64_t done = data_file_ ? read_before_ + off : off;
  if (data_file_) out_.data_files_read = (out_.file_sizes.empty() ? 0 : out_.file_sizes[0]) + done;
  if (progress && done - last_progress_ >= (1u << 20)) {
    last_progress_ = done;
    progress(done, total_);
  }
}

void PerfTokenizer::Record(int32_t row, ByteReader rec) {
  sink_.Record(row, rec);
  const uint32_t type = rec.PeekU32(0);
  if (type != kCompressed && type != kCompressed2) return;
  FieldReader r(rec.Slice(8, rec.size() - 8));
  CompressedRecord z;
  if (!ParseCompressed(r, type, &z) && !z.data) return;
  const uint64_t at = rec.base();
  auto nested = [&](int32_t container, uint64_t offset, ByteReader n) {
    if (out_.OverBudget(at)) {
      stopped_ = true;
      return false;
    }
    uint32_t t = n.PeekU32(0);
    int32_t nrow = out_.records.Add(offset, n.size(), t, RecordKind::kNested, container, RecordCategoryOf(t));
    sink_.Record(nrow, n);
    // perf would expand a container inside a container's data again; one level is read.
    if (t == kCompressed || t == kCompressed2)
      out_.diags.Warning(DiagCode::kUnknownRecordType, at, rec.size(),
                         "a COMPRESSED record inside the data of COMPRESSED at " + Hex(at) + " is not expanded");
    return true;
  };
  zstd_->Expand(z, at, row, session_.features.comp_mmap_len, session_.order, out_.diags, nested);
}

}  // namespace profscope::perf
