#include "core/format/perf/simpleperf/simpleperf_split.h"

#include <algorithm>

#include "core/format/perf/perf_format.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"

namespace profscope::perf {

namespace {

std::string TypeText(uint32_t type) {
  const char* n = RecordTypeName(type);
  return n[0] ? std::string(n) : "type " + Dec(type);
}

}  // namespace

void SplitJoiner::Interrupted(ByteReader rec, uint32_t type, DecodeResult& out) {
  out.diags.Error(DiagCode::kRecordFieldOverrun, rec.base(), rec.size(),
                  "SIMPLEPERF_SPLIT pieces (" + Dec(pieces_.size()) + " bytes from the one at " + Hex(first_off_) +
                      ") are followed by a " + TypeText(type) + " record at " + Hex(rec.base()) +
                      " instead of SIMPLEPERF_SPLIT_END; the split record is dropped");
  pieces_.clear();
}

void SplitJoiner::Piece(ByteReader rec, uint32_t type, int32_t row, ByteOrder order, DecodeResult& out,
                        RecordSink& sink) {
  // The pieces stay rows of their own; the joined record is interpreted
  // with the first piece's row.
  constexpr size_t kMaxJoined = size_t{1} << 30;
  if (type == kSpSplit) {
    if (pieces_.empty()) {
      first_row_ = row;
      first_off_ = rec.base();
    }
    size_t n = rec.size() - 8;
    if (pieces_.size() + n > kMaxJoined) {
      out.diags.Error(DiagCode::kLimitExceeded, rec.base(), rec.size(),
                      "SIMPLEPERF_SPLIT pieces add up to more than 1 GiB at " + Hex(rec.base()) + "; the split record is dropped");
      pieces_.clear();
      pieces_.shrink_to_fit();
      return;
    }
    pieces_.insert(pieces_.end(), rec.data() + 8, rec.data() + rec.size());
    return;
  }
  if (pieces_.empty()) {
    out.diags.Warning(DiagCode::kRecordFieldOverrun, rec.base(), rec.size(),
                      "SIMPLEPERF_SPLIT_END at " + Hex(rec.base()) + " ends no SIMPLEPERF_SPLIT pieces; ignored");
    return;
  }
  std::vector<uint8_t> joined;
  joined.swap(pieces_);
  const int32_t first = first_row_;
  const uint64_t base = first_off_ + 8;
  uint64_t size = 0;
  uint32_t jtype = 0;
  if (joined.size() >= 8) {
    ByteReader hr(joined.data(), 8, base, order);
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
  sink.Record(first, ByteReader(joined.data(), static_cast<size_t>(size), base, order));
}

void SplitJoiner::Finish(DecodeResult& out) {
  if (pieces_.empty()) return;
  uint64_t at = first_off_;
  out.diags.Error(DiagCode::kRecordTruncated, at, pieces_.size(),
                  "SIMPLEPERF_SPLIT pieces from " + Hex(at) + " (" + Dec(pieces_.size()) +
                      " bytes) are not followed by SIMPLEPERF_SPLIT_END before the data ends; the split record is dropped");
  pieces_.clear();
}

void SplitJoiner::EndOfInitMap(ByteReader sec, DecodeResult& out) {
  if (pieces_.empty()) return;
  out.diags.Error(DiagCode::kBadFeature, sec.base(), sec.size(),
                  "SIMPLEPERF_INIT_MAP ends inside a split record (SIMPLEPERF_SPLIT without SIMPLEPERF_SPLIT_END)");
  pieces_.clear();
}

void InitMap::Read(ByteReader sec, RecordSink& sink, SplitJoiner& split, DecodeResult& out) {
  const Profile& p = out.profile;
  mappings_[0] = p.mappings.size();
  markers_[0] = p.markers.size();
  while (sec.remaining() >= 8) {
    size_t at = sec.pos();
    uint32_t type = sec.PeekU32(at);
    uint64_t size = RecordSizeFromHeader(type, sec.PeekU16(at + 4), sec.PeekU16(at + 6));
    if (size < 8 || size > sec.remaining()) break;
    sink.Record(kNone, sec.Sub(static_cast<size_t>(size)));
  }
  split.EndOfInitMap(sec, out);
  mappings_[1] = p.mappings.size();
  markers_[1] = p.markers.size();
}

void InitMap::AssignRow(int32_t feature_row, Profile& p) const {
  for (size_t k = mappings_[0]; k < mappings_[1] && k < p.mappings.size(); ++k)
    if (p.mappings.record[k] == kNone) p.mappings.record[k] = feature_row;
  for (size_t k = markers_[0]; k < markers_[1] && k < p.markers.size(); ++k)
    if (p.markers.record[k] == kNone) p.markers.record[k] = feature_row;
}

void JoinedSplitFields(Window& w, const DecodeResult& res, int32_t row, ByteOrder order,
                       const std::function<void(ByteReader joined, FieldList& fields, Diagnostics& diags)>& decode,
                       FieldList& out) {
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
    ByteReader pr = RowBytes(w, res, static_cast<int32_t>(k), order, keep);
    if (pr.size() < 8 || joined.size() + pr.size() > (size_t{64} << 20)) return;
    pieces.push_back({joined.size(), pr.base() + 8});
    joined.insert(joined.end(), pr.data() + 8, pr.data() + pr.size());
  }
  if (joined.size() < 8) return;
  ByteReader hr(joined.data(), 8, 0, order);
  uint32_t type = hr.U32();
  uint16_t misc = hr.U16();
  uint64_t size = std::min<uint64_t>(RecordSizeFromHeader(type, misc, hr.U16()), joined.size());
  ByteReader jr(joined.data(), static_cast<size_t>(size), 0, order);
  FieldList fl;
  Diagnostics jd;
  decode(jr, fl, jd);
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
  Field& top = out.Add("joined", pieces[0].second, size,
                       TypeText(type) + ", " + Dec(size) + " bytes from " + Dec(i - first) + " SIMPLEPERF_SPLIT pieces");
  top.children = std::move(fl.items());
}

}  // namespace profscope::perf
