#include "core/archive/byte_stream.h"

#include <cstring>
#include <vector>

#if PROFSCOPE_HAVE_ZLIB
#include <zlib.h>
#endif
#if PROFSCOPE_HAVE_BZIP2
#include <bzlib.h>
#endif
#if PROFSCOPE_HAVE_XZ
#include <lzma.h>
#endif
#if PROFSCOPE_HAVE_ZSTD
#include <zstd.h>
#include "core/io/zstd_problem.h"
#endif

namespace profscope::archive {

Compression DetectCompression(const uint8_t* p, size_t n) {
  if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) return Compression::kGzip;
  if (n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9') return Compression::kBzip2;
  if (n >= 6 && p[0] == 0xfd && std::memcmp(p + 1, "7zXZ", 4) == 0 && p[5] == 0) return Compression::kXz;
  if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) return Compression::kZstd;
  return Compression::kNone;
}

const char* CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone: return "none";
    case Compression::kGzip: return "gzip";
    case Compression::kBzip2: return "bzip2";
    case Compression::kXz: return "xz";
    case Compression::kZstd: return "zstd";
  }
  return "?";
}

namespace {

constexpr size_t kInChunk = 64 << 10;

// Feeds compressed bytes from the window in chunks; the codec classes below
// only turn input into output.
class Input {
 public:
  explicit Input(Window& w) : w_(w) {}
  // Refills when empty; false at the end of the source.
  bool Fill() {
    if (avail_) return true;
    uint64_t left = w_.Available(pos_);
    if (!left) return false;
    size_t n = left < kInChunk ? static_cast<size_t>(left) : kInChunk;
    const uint8_t* p = w_.Get(pos_, n);
    if (!p) return false;
    buf_.assign(p, p + n);
    next_ = buf_.data();
    avail_ = n;
    pos_ += n;
    return true;
  }
  // Offset in the source of the next unconsumed byte.
  uint64_t offset() const { return pos_ - avail_; }
  bool at_end() const { return !avail_ && !w_.Available(pos_); }
  const uint8_t* next_ = nullptr;
  size_t avail_ = 0;

 private:
  Window& w_;
  std::vector<uint8_t> buf_;
  uint64_t pos_ = 0;
};

class PlainStream : public ByteStream {
 public:
  explicit PlainStream(Window& w) : w_(w) {}
  size_t Read(uint8_t* dst, size_t n) override {
    uint64_t left = w_.Available(pos_);
    if (n > left) n = static_cast<size_t>(left);
    size_t done = 0;
    while (done < n) {
      size_t step = n - done < kInChunk ? n - done : kInChunk;
      const uint8_t* p = w_.Get(pos_, step);
      if (!p) { SetError("cannot read the file", pos_); break; }
      std::memcpy(dst + done, p, step);
      done += step;
      pos_ += step;
    }
    produced_ += done;
    return done;
  }

 private:
  Window& w_;
  uint64_t pos_ = 0;
};

class MissingStream : public ByteStream {
 public:
  explicit MissingStream(Compression c) { SetError(std::string("this build cannot decompress ") + CompressionName(c), 0); }
  size_t Read(uint8_t*, size_t) override { return 0; }
};

#if PROFSCOPE_HAVE_ZLIB
class GzipStream : public ByteStream {
 public:
  explicit GzipStream(Window& w) : in_(w) {
    std::memset(&z_, 0, sizeof z_);
    started_ = inflateInit2(&z_, 15 + 32) == Z_OK;  // gzip or zlib header
    ok_ = started_;
    if (!ok_) SetError("zlib could not start", 0);
  }
  // (ok_ drops on damaged data; the inflate state is still there to free)
  ~GzipStream() override { if (started_) inflateEnd(&z_); }
  size_t Read(uint8_t* dst, size_t n) override {
    size_t done = 0;
    while (ok_ && !ended_ && done < n) {
      if (!in_.Fill()) { SetError("gzip data ends early (truncated file)", in_.offset()); break; }
      z_.next_in = const_cast<Bytef*>(in_.next_);
      z_.avail_in = static_cast<uInt>(in_.avail_);
      z_.next_out = dst + done;
      z_.avail_out = static_cast<uInt>(n - done);
      int rc = inflate(&z_, Z_NO_FLUSH);
      done = n - z_.avail_out;
      size_t used = in_.avail_ - z_.avail_in;
      in_.next_ += used;
      in_.avail_ -= used;
      if (rc == Z_STREAM_END) {
        // Another gzip member may follow (pigz, cat a.gz b.gz).
        if (in_.Fill() && in_.avail_ >= 2 && in_.next_[0] == 0x1f && in_.next_[1] == 0x8b) {
          inflateReset(&z_);
        } else {
          ended_ = true;
        }
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        SetError(std::string("gzip data damaged: ") + (z_.msg ? z_.msg : "inflate failed"), in_.offset());
        ok_ = false;
      } else if (rc == Z_BUF_ERROR && used == 0 && done < n && in_.avail_) {
        SetError("gzip data damaged: no progress", in_.offset());
        ok_ = false;
      }
    }
    produced_ += done;
    return done;
  }

 private:
  Input in_;
  z_stream z_;
  bool started_ = false, ok_ = false, ended_ = false;
};
#endif

#if PROFSCOPE_HAVE_BZIP2
class Bzip2Stream : public ByteStream {
 public:
  explicit Bzip2Stream(Window& w) : in_(w) { Start(); }
  ~Bzip2Stream() override { if (ok_) BZ2_bzDecompressEnd(&bz_); }
  size_t Read(uint8_t* dst, size_t n) override {
    size_t done = 0;
    while (ok_ && !ended_ && done < n) {
      if (!in_.Fill()) { SetError("bzip2 data ends early (truncated file)", in_.offset()); break; }
      bz_.next_in = reinterpret_cast<char*>(const_cast<uint8_t*>(in_.next_));
      bz_.avail_in = static_cast<unsigned>(in_.avail_);
      bz_.next_out = reinterpret_cast<char*>(dst + done);
      bz_.avail_out = static_cast<unsigned>(n - done);
      int rc = BZ2_bzDecompress(&bz_);
      done = n - bz_.avail_out;
      size_t used = in_.avail_ - bz_.avail_in;
      in_.next_ += used;
      in_.avail_ -= used;
      if (rc == BZ_STREAM_END) {
        BZ2_bzDecompressEnd(&bz_);
        ok_ = false;
        // A further bzip2 stream may follow (pbzip2 writes one per block).
        if (in_.Fill() && in_.avail_ >= 4 && DetectCompression(in_.next_, in_.avail_) == Compression::kBzip2) {
          Start();
        } else {
          ended_ = true;
        }
      } else if (rc != BZ_OK) {
        SetError("bzip2 data damaged (error " + std::to_string(rc) + ")", in_.offset());
        BZ2_bzDecompressEnd(&bz_);
        ok_ = false;
      }
    }
    produced_ += done;
    return done;
  }

 private:
  void Start() {
    std::memset(&bz_, 0, sizeof bz_);
    ok_ = BZ2_bzDecompressInit(&bz_, 0, 0) == BZ_OK;
    if (!ok_) SetError("libbz2 could not start", in_.offset());
  }
  Input in_;
  bz_stream bz_;
  bool ok_ = false, ended_ = false;
};
#endif

#if PROFSCOPE_HAVE_XZ
class XzStream : public ByteStream {
 public:
  explicit XzStream(Window& w) : in_(w) {
    // 256 MiB is far above what any xz preset needs (-9e: 64 MiB dictionary).
    ok_ = lzma_stream_decoder(&lz_, 256u << 20, LZMA_CONCATENATED) == LZMA_OK;
    if (!ok_) SetError("liblzma could not start", 0);
  }
  ~XzStream() override { lzma_end(&lz_); }
  size_t Read(uint8_t* dst, size_t n) override {
    size_t done = 0;
    while (ok_ && !ended_ && done < n) {
      bool more = in_.Fill();
      lzma_action action = more ? LZMA_RUN : LZMA_FINISH;
      lz_.next_in = in_.next_;
      lz_.avail_in = more ? in_.avail_ : 0;
      lz_.next_out = dst + done;
      lz_.avail_out = n - done;
      lzma_ret rc = lzma_code(&lz_, action);
      done = n - lz_.avail_out;
      size_t used = (more ? in_.avail_ : 0) - lz_.avail_in;
      in_.next_ += used;
      in_.avail_ -= used;
      if (rc == LZMA_STREAM_END) {
        ended_ = true;
      } else if (rc == LZMA_BUF_ERROR && !more) {
        SetError("xz data ends early (truncated file)", in_.offset());
        ok_ = false;
      } else if (rc != LZMA_OK) {
        SetError("xz data damaged (liblzma error " + std::to_string(static_cast<int>(rc)) + ")", in_.offset());
        ok_ = false;
      }
    }
    produced_ += done;
    return done;
  }

 private:
  Input in_;
  lzma_stream lz_ = LZMA_STREAM_INIT;
  bool ok_ = false, ended_ = false;
};
#endif

#if PROFSCOPE_HAVE_ZSTD
class ZstdStream : public ByteStream {
 public:
  explicit ZstdStream(Window& w) : in_(w), dctx_(ZSTD_createDCtx()) {
    if (!dctx_) SetError("libzstd could not start", 0);
    // Refuse frames whose window would need more than 128 MiB (zstd --long=27).
    else ZSTD_DCtx_setParameter(dctx_, ZSTD_d_windowLogMax, 27);
  }
  ~ZstdStream() override { ZSTD_freeDCtx(dctx_); }
  size_t Read(uint8_t* dst, size_t n) override {
    size_t done = 0;
    while (dctx_ && error_.empty() && done < n) {
      if (!in_.Fill()) {
        if (frame_open_) SetError("zstd data ends early (truncated file)", in_.offset());
        break;
      }
      ZSTD_inBuffer ib{in_.next_, in_.avail_, 0};
      ZSTD_outBuffer ob{dst + done, n - done, 0};
      size_t rc = ZSTD_decompressStream(dctx_, &ob, &ib);
      done += ob.pos;
      in_.next_ += ib.pos;
      in_.avail_ -= ib.pos;
      if (ZSTD_isError(rc)) {
        SetError("zstd data damaged: " + ZstdProblem(rc), in_.offset());
        break;
      }
      frame_open_ = rc != 0;
      if (ib.pos == 0 && ob.pos == 0) { SetError("zstd data damaged: no progress", in_.offset()); break; }
    }
    produced_ += done;
    return done;
  }

 private:
  Input in_;
  ZSTD_DCtx* dctx_;
  bool frame_open_ = false;
};
#endif

}  // namespace

std::unique_ptr<ByteStream> OpenStream(Window& w, Compression c) {
  switch (c) {
    case Compression::kNone: return std::make_unique<PlainStream>(w);
#if PROFSCOPE_HAVE_ZLIB
    case Compression::kGzip: return std::make_unique<GzipStream>(w);
#endif
#if PROFSCOPE_HAVE_BZIP2
    case Compression::kBzip2: return std::make_unique<Bzip2Stream>(w);
#endif
#if PROFSCOPE_HAVE_XZ
    case Compression::kXz: return std::make_unique<XzStream>(w);
#endif
#if PROFSCOPE_HAVE_ZSTD
    case Compression::kZstd: return std::make_unique<ZstdStream>(w);
#endif
    default: break;
  }
  return std::make_unique<MissingStream>(c);
}

}  // namespace profscope::archive
