#include "core/format/perf/perf_zstd_stream.h"

#include <algorithm>
#include <limits>

#include "core/format/perf/perf_format.h"

#ifdef PROFSCOPE_HAVE_ZSTD
#include <zstd.h>
#include "core/io/zstd_problem.h"
#endif

namespace profscope::perf {

namespace {

constexpr size_t kChunk = 128u << 10;  // decompressed bytes produced per zstd call
constexpr size_t kAll = std::numeric_limits<size_t>::max();

void* NewDctx() {
#ifdef PROFSCOPE_HAVE_ZSTD
  return ZSTD_createDCtx();
#else
  return nullptr;
#endif
}

void FreeDctx(void* dctx) {
#ifdef PROFSCOPE_HAVE_ZSTD
  if (dctx) ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(dctx));
#else
  (void)dctx;
#endif
}

}  // namespace

ZstdStream::~ZstdStream() { FreeDctx(dctx_); }

void ZstdStream::Reset() {
  buf_.clear();
  pos_ = 0;
  restart_ = false;
  FreeDctx(dctx_);
  dctx_ = nullptr;
}

bool ZstdStream::Cut(int32_t container, uint64_t record_at, ByteOrder order, Diagnostics& diags, const NestedFn& fn) {
  while (buf_.size() - pos_ >= 8) {
    const size_t n = buf_.size() - pos_;
    const uint8_t* p = buf_.data() + pos_;
    ByteReader hr(p, 8, base_, order);
    hr.U32();
    hr.U16();
    uint16_t sz = hr.U16();
    if (sz < 8) {
      diags.Error(DiagCode::kRecordTooSmall, record_at, 0,
                  "record at offset " + Dec(base_) + " inside the decompressed data of COMPRESSED at " + Hex(record_at) +
                      " declares size " + Dec(sz) + "; the rest of this container is skipped");
      skip_ = true;
      buf_.clear();
      pos_ = 0;
      return true;
    }
    if (sz > n) break;
    bool go = fn(owner_, base_, ByteReader(p, sz, base_, order));
    pos_ += sz;
    if (owned_ != kAll && sz >= owned_) {  // the next record starts in this container
      owner_ = container;
      base_ = sz - owned_;
      owned_ = kAll;
    } else {
      base_ += sz;
      if (owned_ != kAll) owned_ -= sz;
    }
    if (!go) return false;
  }
  if (pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  } else if (pos_ >= kChunk) {
    buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(pos_));
    pos_ = 0;
  }
  return true;
}

bool ZstdStream::Expand(const CompressedRecord& z, uint64_t record_at, int32_t container, uint64_t mmap_len,
                        ByteOrder order, Diagnostics& diags, const NestedFn& fn) {
  const uint64_t data_at = record_at + z.data_offset;
#ifdef PROFSCOPE_HAVE_ZSTD
  if (restart_) {
    FreeDctx(dctx_);
    dctx_ = nullptr;
    restart_ = false;
  }
  if (!dctx_) dctx_ = NewDctx();
  ZSTD_DCtx* dctx = static_cast<ZSTD_DCtx*>(dctx_);
  skip_ = false;
  if (buf_.size() == pos_) {  // nothing carried: the next record starts here
    buf_.clear();
    pos_ = 0;
    owner_ = container;
    base_ = 0;
    owned_ = kAll;
  } else {
    owned_ = buf_.size() - pos_;  // carried bytes keep their container
  }
  const uint64_t cap = mmap_len ? mmap_len : kDefaultCap;
  uint64_t produced = 0;
  ZSTD_inBuffer in{z.data, z.data_len, 0};
  auto fail = [&](size_t ret) {
    diags.Error(DiagCode::kDecompressFailed, data_at, z.data_len,
                "COMPRESSED record at " + Hex(record_at) + ": " + ZstdProblem(ret) + " after " +
                    Dec(in.pos) + " of " + Dec(z.data_len) + " compressed bytes");
    restart_ = true;
    buf_.clear();
    pos_ = 0;
  };
  for (;;) {
    const size_t before = in.pos;
    if (produced >= cap) {
      // The buffer perf gives this record is full: does zstd want more?
      uint8_t probe;
      ZSTD_outBuffer o{&probe, 1, 0};
      size_t ret = ZSTD_decompressStream(dctx, &o, &in);
      if (ZSTD_isError(ret)) { fail(ret); break; }
      if (o.pos) {
        diags.Error(DiagCode::kLimitExceeded, data_at, z.data_len,
                    "COMPRESSED record at " + Hex(record_at) + " expands past the " + Dec(cap) + " bytes " +
                        (mmap_len ? "of HEADER_COMPRESSED's mmap_len (perf refuses it)" : "a record may expand to") +
                        "; the rest of it (" + Dec(z.data_len - in.pos) + " of " + Dec(z.data_len) +
                        " compressed bytes) is not expanded and the stream restarts at the next container");
        restart_ = true;
        buf_.clear();
        pos_ = 0;
        break;
      }
      if (in.pos == in.size || in.pos == before) break;
      continue;
    }
    const size_t room = static_cast<size_t>(std::min<uint64_t>(kChunk, cap - produced));
    const size_t old = buf_.size();
    buf_.resize(old + room);
    ZSTD_outBuffer o{buf_.data() + old, room, 0};
    size_t ret = ZSTD_decompressStream(dctx, &o, &in);
    buf_.resize(old + o.pos);
    produced += o.pos;
    if (tap_ && o.pos) tap_(container, buf_.data() + old, o.pos);
    if (ZSTD_isError(ret)) {
      buf_.resize(old);  // keep what came before the damage
      if (!skip_ && !Cut(container, record_at, order, diags, fn)) return false;
      fail(ret);
      break;
    }
    if (skip_) {
      buf_.clear();
      pos_ = 0;
    } else if (!Cut(container, record_at, order, diags, fn)) {
      return false;
    }
    if (o.pos < room && in.pos == in.size) break;  // all input read, all output flushed
    if (o.pos == 0 && in.pos == before) break;      // no progress
  }
  if (skip_) {
    buf_.clear();
    pos_ = 0;
  }
  return true;
#else
  (void)z;
  (void)container;
  (void)mmap_len;
  (void)order;
  (void)fn;
  diags.Error(DiagCode::kNoDecompressor, data_at, z.data_len,
              "this build has no zstd decoder; COMPRESSED record at " + Hex(record_at) + " not expanded");
  return true;
#endif
}

ByteReader RowBytes(Window& w, const DecodeResult& res, int32_t row, ByteOrder order, std::vector<uint8_t>& keep,
                    uint64_t mmap_len) {
  size_t i = static_cast<size_t>(row);
  uint64_t off = res.records.offset[i], size = res.records.size[i];
  if (static_cast<RecordKind>(res.records.kind[i]) == RecordKind::kNested) {
    // Replay the zstd stream through every container of the file up to the
    // one the record starts in, the same way the decode cut it.
    const int32_t c = res.records.parent[i];
    ZstdStream zs;
    Diagnostics scratch;
    bool found = false, passed = false;
    auto take = [&](int32_t container, uint64_t at, ByteReader rec) {
      if (container > c) { passed = true; return false; }  // records come in order: the row is not there
      if (container != c || at != off) return true;
      keep.assign(rec.data(), rec.data() + rec.size());
      found = true;
      return false;
    };
    for (int32_t k = 0; !found && !passed && static_cast<size_t>(k) < res.records.rows(); ++k) {
      size_t ki = static_cast<size_t>(k);
      if (static_cast<RecordKind>(res.records.kind[ki]) != RecordKind::kRecord) continue;
      if (res.records.file[ki] != res.records.file[i]) continue;
      uint32_t kt = res.records.type[ki];
      if (kt != kCompressed && kt != kCompressed2) continue;
      std::vector<uint8_t> crec;
      ByteReader cr = RowBytes(w, res, k, order, crec);
      if (cr.size() < 8) continue;
      FieldReader zr(cr.Slice(8, cr.size() - 8));
      CompressedRecord z;
      if (!ParseCompressed(zr, kt, &z) && !z.data) continue;
      zs.Expand(z, cr.base(), k, mmap_len, order, scratch, take);
    }
    if (!found || keep.size() != size) return ByteReader();
    return ByteReader(keep.data(), keep.size(), off, order);
  }
  size_t cap = static_cast<size_t>(std::min<uint64_t>({size, 64u << 20, w.Available(off)}));
  const uint8_t* p = w.Get(off, cap);
  if (!p) return ByteReader();
  keep.assign(p, p + cap);
  return ByteReader(keep.data(), cap, off, order);
}

bool ContainerBytes(Window& w, const DecodeResult& res, int32_t row, ByteOrder order, std::vector<uint8_t>& out,
                    uint64_t mmap_len) {
  out.clear();
  if (row < 0 || static_cast<size_t>(row) >= res.records.rows()) return false;
  const size_t i = static_cast<size_t>(row);
  auto is_container = [&](size_t k) {
    const uint32_t t = res.records.type[k];
    return static_cast<RecordKind>(res.records.kind[k]) == RecordKind::kRecord && (t == kCompressed || t == kCompressed2);
  };
  if (!is_container(i)) return false;
  ZstdStream zs;
  Diagnostics scratch;
  zs.SetOutputTap([&](int32_t container, const uint8_t* p, size_t n) {
    if (container == row) out.insert(out.end(), p, p + n);
  });
  auto skip = [](int32_t, uint64_t, ByteReader) { return true; };
  for (size_t k = 0; k <= i; ++k) {  // the stream of the row's file, in order, up to the row
    if (!is_container(k) || res.records.file[k] != res.records.file[i]) continue;
    std::vector<uint8_t> crec;
    ByteReader cr = RowBytes(w, res, static_cast<int32_t>(k), order, crec);
    if (cr.size() < 8) continue;
    FieldReader zr(cr.Slice(8, cr.size() - 8));
    CompressedRecord z;
    if (!ParseCompressed(zr, res.records.type[k], &z) && !z.data) continue;
    zs.Expand(z, cr.base(), static_cast<int32_t>(k), mmap_len, order, scratch, skip);
  }
  return !out.empty();
}

}  // namespace profscope::perf
