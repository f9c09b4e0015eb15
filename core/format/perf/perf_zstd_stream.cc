#include "core/format/perf/perf_zstd_stream.h"

#include <algorithm>

#include "core/format/perf/perf_format.h"

#ifdef PROFSCOPE_HAVE_ZSTD
#include <zstd.h>
#endif

namespace profscope::perf {

namespace {

constexpr uint64_t kMaxDecompressed = 1ull << 30;

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
  carry_.clear();
  FreeDctx(dctx_);
  dctx_ = nullptr;
}

std::vector<uint8_t> ZstdStream::Decompress(void* ctx, const uint8_t* data, size_t size, uint64_t at, Diagnostics* diags) {
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

void ZstdStream::Expand(const CompressedRecord& z, uint64_t data_at, int32_t container, ByteOrder order,
                        DecodeResult& out, RecordSink& sink) {
  if (!dctx_) dctx_ = NewDctx();
  std::vector<uint8_t> dec = Decompress(dctx_, z.data, z.data_len, data_at, &out.diags);
  const uint8_t* data = dec.data();
  const size_t size = dec.size();
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
    ByteReader hr(p + off, 8, off, order);
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
    ByteReader rec(p + off, sz, off, order);
    int32_t row;
    if (off < carried) row = out.records.Add(owner_base + off, sz, type, RecordKind::kNested, owner, RecordCategoryOf(type));
    else row = out.records.Add(off - carried, sz, type, RecordKind::kNested, container, RecordCategoryOf(type));
    sink.Record(row, rec);
    off += sz;
  }
}

ByteReader RowBytes(Window& w, const DecodeResult& res, int32_t row, ByteOrder order, std::vector<uint8_t>& keep) {
  size_t i = static_cast<size_t>(row);
  uint64_t off = res.records.offset[i], size = res.records.size[i];
  if (static_cast<RecordKind>(res.records.kind[i]) == RecordKind::kNested) {
    // Replay the zstd stream through every container up to this one; a
    // record may run on into the following containers' output.
    int32_t c = res.records.parent[i];
    void* dctx = NewDctx();
    bool started = false;
    for (int32_t k = 0; static_cast<size_t>(k) < res.records.rows(); ++k) {
      if (k > c && started && keep.size() >= off + size) break;
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
      std::vector<uint8_t> part = ZstdStream::Decompress(dctx, z.data, z.data_len, cr.base() + z.data_offset, nullptr);
      if (k < c) continue;
      if (!started) keep = std::move(part);
      else keep.insert(keep.end(), part.begin(), part.end());
      started = true;
    }
    FreeDctx(dctx);
    if (off > keep.size() || size > keep.size() - off) return ByteReader();
    return ByteReader(keep.data() + off, static_cast<size_t>(size), off, order);
  }
  size_t cap = static_cast<size_t>(std::min<uint64_t>({size, 64u << 20, w.Available(off)}));
  const uint8_t* p = w.Get(off, cap);
  if (!p) return ByteReader();
  keep.assign(p, p + cap);
  return ByteReader(keep.data(), cap, off, order);
}

}  // namespace profscope::perf
