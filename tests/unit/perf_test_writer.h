// Test helpers that write perf.data bytes in either byte order: single
// records (PerfWriter), whole file-mode files (FileBuilder) and pipe-mode
// streams (PipeBuilder). Header-only, for the unit tests.
//
//   PerfWriter w(ByteOrder::kBig);
//   w.BeginRecord(kComm, kMiscMmapData);
//   w.U32(pid); w.U32(tid); w.String("calltree", 16);
//   w.EndRecord();                       // patches header.size
//
//   FileBuilder fb(ByteOrder::kLittle);
//   fb.AddAttr(attr, {101, 102});        // attr + its ids
//   fb.data().BeginRecord(kSample, 2); ... fb.data().EndRecord();
//   fb.AddFeature(kFeatHostname, payload_bytes);
//   std::vector<uint8_t> file = fb.Build();
//   // fb.data_offset() = absolute offset of the data section in `file`
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/format/perf/perf_attr.h"
#include "core/format/perf/perf_format.h"
#include "core/io/byte_reader.h"

namespace profscope::perf {

// An attr of `type` sampling every `period` events (or at that frequency, by `flags`) with `sample_type`.
inline PerfEventAttr SamplingAttr(uint32_t type, uint64_t period, uint64_t sample_type, uint64_t flags) {
  PerfEventAttr a;
  a.type = type, a.sample_period_or_freq = period, a.sample_type = sample_type, a.flags = flags;
  return a;
}

class PerfWriter {
 public:
  explicit PerfWriter(ByteOrder order) : order_(order) {}

  ByteOrder order() const { return order_; }
  bool big() const { return order_ == ByteOrder::kBig; }

  void U8(uint8_t v) { buf_.push_back(v); }
  void U16(uint16_t v) { Int(v, 2); }
  void U32(uint32_t v) { Int(v, 4); }
  void U64(uint64_t v) { Int(v, 8); }
  void I32(int32_t v) { U32(static_cast<uint32_t>(v)); }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void F64(double d) {  // a double as the machine stores it (same byte order as a u64)
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    U64(bits);
  }
  void Bytes(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    buf_.insert(buf_.end(), b, b + n);
  }
  void Bytes(const std::vector<uint8_t>& v) { Bytes(v.data(), v.size()); }
  void Bytes(std::string_view s) { Bytes(s.data(), s.size()); }
  void Zeros(size_t n) { buf_.insert(buf_.end(), n, 0); }
  // Pads with zeros to a multiple of `a` (from the writer's start).
  void Align(size_t a) {
    while (buf_.size() % a) buf_.push_back(0);
  }
  // `s` then NULs up to exactly `padded_len` bytes (s is cut when longer; no
  // NUL is written then). padded_len == 0: perf's usual length,
  // ALIGN(strlen + 1, 8).
  void String(std::string_view s, size_t padded_len = 0) {
    if (padded_len == 0) padded_len = (s.size() + 1 + 7) / 8 * 8;
    size_t n = std::min(s.size(), padded_len);
    Bytes(s.data(), n);
    Zeros(padded_len - n);
  }
  // A perf_header_string: u32 len (the padded length), then the padded string.
  void HeaderString(std::string_view s, size_t padded_len = 0) {
    if (padded_len == 0) padded_len = (s.size() + 1 + 7) / 8 * 8;
    U32(static_cast<uint32_t>(padded_len));
    String(s, padded_len);
  }

  size_t Pos() const { return buf_.size(); }
  void PatchU16(size_t pos, uint16_t v) { Patch(pos, v, 2); }
  void PatchU32(size_t pos, uint32_t v) { Patch(pos, v, 4); }
  void PatchU64(size_t pos, uint64_t v) { Patch(pos, v, 8); }
  std::vector<uint8_t>& data() { return buf_; }
  const std::vector<uint8_t>& data() const { return buf_; }

  // perf_event_header {u32 type; u16 misc; u16 size}; size is patched by
  // EndRecord(). Records may nest (e.g. inside a test container).
  size_t BeginRecord(uint32_t type, uint16_t misc = 0) {
    size_t start = buf_.size();
    open_.push_back(start);
    U32(type);
    U16(misc);
    U16(0);
    return start;
  }
  // Patches header.size of the innermost open record; returns that size.
  // `size_override` writes a different header.size (for damaged records).
  size_t EndRecord(std::optional<uint16_t> size_override = std::nullopt) {
    size_t start = open_.back();
    open_.pop_back();
    size_t size = buf_.size() - start;
    PatchU16(start + 6, size_override ? *size_override : static_cast<uint16_t>(size));
    return size;
  }

  // A perf_event_attr of `size` bytes (64 = VER0 ... 136 = VER8; larger sizes
  // are zero-filled past 136; sizes between versions write the members that
  // fit whole, then zeros). The attr's size member is `size`, or
  // `size_field` when given. The flags bitfield is written the way the
  // writing machine lays it out: little-endian bit order in a little-endian
  // file; in a big-endian file bit 0 (disabled) is the top bit of byte 0,
  // i.e. each byte's bits reversed relative to the little-endian layout (what
  // perf's swap_bitfield() undoes).
  void Attr(const PerfEventAttr& a, uint32_t size, std::optional<uint32_t> size_field = std::nullopt) {
    size_t start = buf_.size();
    auto fits = [&](size_t end) { return end <= size; };
    U32(a.type);
    U32(size_field ? *size_field : size);
    U64(a.config);
    U64(a.sample_period_or_freq);
    U64(a.sample_type);
    U64(a.read_format);
    Flags(a.flags);
    U32(a.wakeup);
    U32(a.bp_type);
    U64(a.config1);  // 64 = VER0
    if (fits(72)) U64(a.config2);
    if (fits(80)) U64(a.branch_sample_type);
    if (fits(96)) {
      U64(a.sample_regs_user);
      U32(a.sample_stack_user);
      I32(a.clockid);
    }
    if (fits(104)) U64(a.sample_regs_intr);
    if (fits(112)) {
      U32(a.aux_watermark);
      U16(a.sample_max_stack);
      U16(0);
    }
    if (fits(120)) {
      U32(a.aux_sample_size);
      U32(0);
    }
    if (fits(128)) U64(a.sig_data);
    if (fits(136)) U64(a.config3);
    size_t written = buf_.size() - start;
    if (written < size) Zeros(size - written);
  }

  // The 64-bit attr bitfield word as the writing machine stores it.
  void Flags(uint64_t flags) {
    for (int i = 0; i < 8; ++i) {
      uint8_t b = static_cast<uint8_t>(flags >> (8 * i));
      if (big()) {
        uint8_t r = 0;
        for (int k = 0; k < 8; ++k) {
          if (b & (1u << k)) r = static_cast<uint8_t>(r | (1u << (7 - k)));
        }
        b = r;
      }
      buf_.push_back(b);
    }
  }

  // The file magic: "PERFILE2" in a little-endian file, the byte-swapped u64
  // ("2ELIFREP") in a big-endian one.
  void Magic() { U64(kMagic2); }

 private:
  void Int(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) {
      int shift = big() ? 8 * (n - 1 - i) : 8 * i;
      buf_.push_back(static_cast<uint8_t>(v >> shift));
    }
  }
  void Patch(size_t pos, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) {
      int shift = big() ? 8 * (n - 1 - i) : 8 * i;
      buf_[pos + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> shift);
    }
  }

  ByteOrder order_;
  std::vector<uint8_t> buf_;
  std::vector<size_t> open_;
};

// A whole PERFILE2 file-mode perf.data:
//   header (104 bytes: magic, size=104, attr_size, attrs{off,size},
//           data{off,size}, event_types{off,size}, 256-bit feature bitmap)
//   ids arrays (one u64 array per attr, in attr order)
//   attrs section: per attr, the attr (attr_size bytes) + file_section ids {offset,size}
//   event_types section (when any were added: {u64 event_id; char name[64]} each)
//   data section (the records written through data())
//   feature section table at data.offset + data.size: one {offset,size} per set
//   bit, in bit order, then the feature payloads in the same order.
// header.attr_size = attr_size + 16 (perf counts the ids section in it).
class FileBuilder {
 public:
  explicit FileBuilder(ByteOrder order, uint32_t attr_size = 128)
      : order_(order), attr_size_(attr_size), data_(order) {}

  ByteOrder order() const { return order_; }
  uint32_t attr_size() const { return attr_size_; }
  void set_attr_size(uint32_t s) { attr_size_ = s; }

  void AddAttr(const PerfEventAttr& a, std::vector<uint64_t> ids = {}) {
    attrs_.push_back({a, std::move(ids)});
  }
  void AddEventType(uint64_t id, std::string name) { event_types_.push_back({id, std::move(name)}); }
  // Records of the data section; positions are relative to the data section.
  PerfWriter& data() { return data_; }
  // A feature section; `payload` must already be in the file's byte order
  // (write it with a PerfWriter of order()). Re-adding an id replaces it.
  void AddFeature(uint32_t id, std::vector<uint8_t> payload) {
    for (auto& f : features_) {
      if (f.first == id) { f.second = std::move(payload); return; }
    }
    features_.push_back({id, std::move(payload)});
  }
  // A feature bit without a section (corrupt files, or a table entry to patch).
  void SetFeatureBitOnly(uint32_t id) { bits_only_.push_back(id); }

  std::vector<uint8_t> Build() {
    PerfWriter w(order_);
    std::vector<std::pair<uint32_t, const std::vector<uint8_t>*>> feats;
    for (auto& f : features_) feats.push_back({f.first, &f.second});
    std::sort(feats.begin(), feats.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    uint64_t bitmap[4] = {0, 0, 0, 0};
    for (auto& f : feats) if (f.first < 256) bitmap[f.first / 64] |= 1ULL << (f.first % 64);
    for (uint32_t id : bits_only_) if (id < 256) bitmap[id / 64] |= 1ULL << (id % 64);

    // header, offsets patched below
    w.Magic();
    w.U64(kFileHeaderMinSize);
    w.U64(attr_size_ + 16);
    size_t attrs_sec = w.Pos();
    w.Zeros(16);
    size_t data_sec = w.Pos();
    w.Zeros(16);
    size_t types_sec = w.Pos();
    w.Zeros(16);
    for (uint64_t b : bitmap) w.U64(b);

    // ids arrays
    std::vector<std::pair<uint64_t, uint64_t>> id_secs;
    for (auto& a : attrs_) {
      id_secs.push_back({w.Pos(), a.ids.size() * 8});
      for (uint64_t id : a.ids) w.U64(id);
    }
    // attrs
    attrs_offset_ = w.Pos();
    for (size_t i = 0; i < attrs_.size(); ++i) {
      w.Attr(attrs_[i].attr, attr_size_);
      w.U64(id_secs[i].first);
      w.U64(id_secs[i].second);
    }
    w.PatchU64(attrs_sec, attrs_offset_);
    w.PatchU64(attrs_sec + 8, w.Pos() - attrs_offset_);
    // event types
    if (!event_types_.empty()) {
      size_t at = w.Pos();
      for (auto& t : event_types_) {
        w.U64(t.first);
        w.String(t.second, 64);
      }
      w.PatchU64(types_sec, at);
      w.PatchU64(types_sec + 8, w.Pos() - at);
    }
    // data
    data_offset_ = w.Pos();
    w.Bytes(data_.data());
    w.PatchU64(data_sec, data_offset_);
    w.PatchU64(data_sec + 8, data_.data().size());
    // feature table + payloads
    feature_table_offset_ = w.Pos();
    size_t n_sections = feats.size();
    w.Zeros(16 * n_sections);
    feature_offsets_.clear();
    for (size_t i = 0; i < feats.size(); ++i) {
      size_t at = w.Pos();
      w.Bytes(*feats[i].second);
      w.PatchU64(feature_table_offset_ + 16 * i, at);
      w.PatchU64(feature_table_offset_ + 16 * i + 8, feats[i].second->size());
      feature_offsets_.push_back({feats[i].first, at});
    }
    return std::move(w.data());
  }

  // Valid after Build().
  uint64_t attrs_offset() const { return attrs_offset_; }
  uint64_t data_offset() const { return data_offset_; }
  uint64_t feature_table_offset() const { return feature_table_offset_; }
  // Absolute offset of a feature's payload (0 when not present).
  uint64_t feature_offset(uint32_t id) const {
    for (auto& f : feature_offsets_) if (f.first == id) return f.second;
    return 0;
  }

 private:
  struct AttrEntry {
    PerfEventAttr attr;
    std::vector<uint64_t> ids;
  };
  ByteOrder order_;
  uint32_t attr_size_;
  PerfWriter data_;
  std::vector<AttrEntry> attrs_;
  std::vector<std::pair<uint64_t, std::string>> event_types_;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> features_;
  std::vector<uint32_t> bits_only_;
  std::vector<std::pair<uint32_t, uint64_t>> feature_offsets_;
  uint64_t attrs_offset_ = 0, data_offset_ = 0, feature_table_offset_ = 0;
};

// A pipe-mode stream: the 16-byte header (magic, size=16), then records in
// the order they are added (HEADER_ATTR / HEADER_FEATURE helpers, or any
// record written through w()).
class PipeBuilder {
 public:
  explicit PipeBuilder(ByteOrder order) : w_(order) {
    w_.Magic();
    w_.U64(kPipeHeaderSize);
  }

  ByteOrder order() const { return w_.order(); }
  PerfWriter& w() { return w_; }

  // PERF_RECORD_HEADER_ATTR: the attr (attr_size bytes) then its ids.
  // Returns the record's absolute offset.
  size_t Attr(const PerfEventAttr& a, const std::vector<uint64_t>& ids, uint32_t attr_size = 128) {
    size_t at = w_.BeginRecord(kHeaderAttr, 0);
    w_.Attr(a, attr_size);
    for (uint64_t id : ids) w_.U64(id);
    w_.EndRecord();
    return at;
  }
  // PERF_RECORD_HEADER_FEATURE: u64 feat_id then the payload (already in
  // the stream's byte order), optionally padded to a multiple of 8 as newer
  // perf does. Returns the record's absolute offset.
  size_t Feature(uint32_t id, const std::vector<uint8_t>& payload, bool align8 = false) {
    size_t at = w_.BeginRecord(kHeaderFeature, 0);
    w_.U64(id);
    w_.Bytes(payload);
    if (align8) w_.Align(8);
    w_.EndRecord();
    return at;
  }

  std::vector<uint8_t> Build() const { return w_.data(); }

 private:
  PerfWriter w_;
};

}  // namespace profscope::perf
