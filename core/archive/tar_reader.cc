#include "core/archive/tar_reader.h"

#include <algorithm>
#include <cstring>

namespace profscope::archive {

namespace {

constexpr size_t kBlock = 512;
constexpr uint64_t kMaxNameBytes = 1 << 20;  // GNU long name / pax header payload

// Numeric field: octal digits (spaces/NULs around them), or base-256 when
// the first byte has its high bit set (GNU, for sizes of 8 GiB and more).
bool ParseNumber(const uint8_t* f, size_t n, uint64_t* out) {
  if (n && (f[0] & 0x80)) {
    if (f[0] & 0x40) return false;  // negative
    uint64_t v = f[0] & 0x3f;
    for (size_t i = 1; i < n; ++i) {
      if (v >> 55) return false;  // would overflow
      v = (v << 8) | f[i];
    }
    *out = v;
    return true;
  }
  size_t i = 0;
  while (i < n && (f[i] == ' ' || f[i] == 0)) ++i;
  if (i == n) { *out = 0; return true; }
  uint64_t v = 0;
  bool any = false;
  for (; i < n && f[i] >= '0' && f[i] <= '7'; ++i) {
    if (v >> 61) return false;
    v = v * 8 + static_cast<uint64_t>(f[i] - '0');
    any = true;
  }
  for (; i < n; ++i)
    if (f[i] != ' ' && f[i] != 0) return false;
  *out = v;
  return any;
}

std::string Field(const uint8_t* f, size_t n) {
  size_t len = 0;
  while (len < n && f[len]) ++len;
  return std::string(reinterpret_cast<const char*>(f), len);
}

std::string Clean(std::string p) {
  while (p.rfind("./", 0) == 0) p.erase(0, 2);
  while (!p.empty() && p[0] == '/') p.erase(0, 1);
  return p;
}

bool AllZero(const uint8_t* b) {
  for (size_t i = 0; i < kBlock; ++i)
    if (b[i]) return false;
  return true;
}

// Pax records "LEN key=value\n"; applies path, linkpath and size.
struct Pax {
  std::string path, linkpath;
  bool has_size = false;
  uint64_t size = 0;
};

bool ParsePax(const std::string& s, Pax& pax) {
  size_t p = 0;
  while (p < s.size()) {
    size_t sp = s.find(' ', p);
    if (sp == std::string::npos) return false;
    uint64_t len = 0;
    for (size_t i = p; i < sp; ++i) {
      if (s[i] < '0' || s[i] > '9' || len > s.size()) return false;
      len = len * 10 + static_cast<uint64_t>(s[i] - '0');
    }
    if (len <= sp - p + 1 || len > s.size() - p) return false;
    std::string rec = s.substr(sp + 1, static_cast<size_t>(len) - (sp - p) - 1);
    if (rec.empty() || rec.back() != '\n') return false;
    rec.pop_back();
    size_t eq = rec.find('=');
    if (eq != std::string::npos) {
      std::string key = rec.substr(0, eq), val = rec.substr(eq + 1);
      if (key == "path") pax.path = val;
      else if (key == "linkpath") pax.linkpath = val;
      else if (key == "size") {
        uint64_t v = 0;
        bool ok = !val.empty() && val.size() <= 19;
        for (char c : val) ok = ok && c >= '0' && c <= '9', v = v * 10 + static_cast<uint64_t>(c - '0');
        if (!ok) return false;
        pax.size = v;
        pax.has_size = true;
      }
    }
    p += static_cast<size_t>(len);
  }
  return true;
}

class Reader {
 public:
  Reader(ByteStream& in, const TarOptions& opt, TarResult& r) : in_(in), opt_(opt), r_(r) {}

  void Run() {
    uint8_t h[kBlock];
    std::string long_name, long_link;
    Pax pax, global;
    bool first = true;
    while (true) {
      uint64_t at = pos_;
      size_t got = Get(h, kBlock);
      if (got == 0 && !Failed()) {
        if (first) Problem(at, "empty file: no tar header");
        else Problem(at, "tar archive ends without its end-of-archive blocks (truncated?)", true);
        return;
      }
      if (got < kBlock) { if (!Failed()) Problem(at, "tar header truncated"); return; }
      if (AllZero(h)) {
        if (first) { Problem(at, "not a tar archive (first block is zero)"); return; }
        return;  // end of archive (the second zero block is not required)
      }
      if (!IsTarHeader(h)) {
        Problem(at, first ? "not a tar archive (no valid header checksum)" : "tar header checksum mismatch: archive damaged here");
        return;
      }
      if (first) r_.is_tar = true;
      first = false;
      uint64_t size = 0;
      ParseNumber(h + 124, 12, &size);
      char flag = static_cast<char>(h[156]);
      if (flag == 'L' || flag == 'K' || flag == 'x' || flag == 'g') {
        if (header_start_ < 0) header_start_ = static_cast<int64_t>(at);
        if (size > kMaxNameBytes) { Problem(at, "extended header of " + std::to_string(size) + " bytes is too large"); return; }
        std::string payload(static_cast<size_t>(size), '\0');
        if (Get(reinterpret_cast<uint8_t*>(payload.data()), payload.size()) < payload.size() || !SkipPad(size)) {
          if (!Failed()) Problem(at, "extended header truncated");
          return;
        }
        if (flag == 'L') long_name = Field(reinterpret_cast<const uint8_t*>(payload.data()), payload.size());
        else if (flag == 'K') long_link = Field(reinterpret_cast<const uint8_t*>(payload.data()), payload.size());
        else if (!ParsePax(payload, flag == 'x' ? pax : global)) {
          Problem(at, "pax extended header malformed; ignored");
          if (flag == 'x') pax = Pax{};
        }
        continue;
      }
      TarEntry e;
      e.header_offset = header_start_ >= 0 ? static_cast<uint64_t>(header_start_) : at;
      header_start_ = -1;
      std::string name = Field(h, 100);
      if (std::memcmp(h + 257, "ustar", 5) == 0 && h[262] == 0) {  // POSIX ustar: prefix + '/' + name
        std::string prefix = Field(h + 345, 155);
        if (!prefix.empty()) name = prefix + "/" + name;
      }
      std::string link = Field(h + 157, 100);
      if (!global.path.empty()) name = global.path;
      if (!global.linkpath.empty()) link = global.linkpath;
      if (global.has_size) size = global.size;
      if (!long_name.empty()) name = long_name;
      if (!long_link.empty()) link = long_link;
      if (!pax.path.empty()) name = pax.path;
      if (!pax.linkpath.empty()) link = pax.linkpath;
      if (pax.has_size) size = pax.size;
      long_name.clear();
      long_link.clear();
      pax = Pax{};
      e.path = Clean(name);
      e.size = size;
      switch (flag) {
        case '0': case '\0': case '7': e.type = EntryType::kFile; break;
        case '1': e.type = EntryType::kHardlink; e.link = Clean(link); break;
        case '2': e.type = EntryType::kSymlink; e.link = link; break;
        case '5': e.type = EntryType::kDirectory; break;
        default: e.type = EntryType::kOther; break;
      }
      if (e.type == EntryType::kFile && !e.path.empty() && e.path.back() == '/') e.type = EntryType::kDirectory;
      // Only regular files have data (hard links, symlinks, dirs declare 0; old tars may not).
      uint64_t data = e.type == EntryType::kFile || e.type == EntryType::kOther ? size : 0;
      if (!ReadData(e, data)) { r_.entries.push_back(std::move(e)); return; }
      r_.entries.push_back(std::move(e));
    }
  }

 private:
  bool Failed() const { return failed_; }

  void Problem(uint64_t at, std::string msg, bool = false) {
    if (!in_.error().empty()) {
      r_.problems.push_back({in_.error_offset(), true, in_.error() + " (tar stream offset " + std::to_string(at) + ")"});
      return;
    }
    r_.problems.push_back({at, false, std::move(msg)});
  }

  // Reads n bytes of the tar stream, within the stream budget.
  size_t Get(uint8_t* dst, size_t n) {
    if (failed_) return 0;
    uint64_t budget = opt_.max_stream_bytes - std::min(opt_.max_stream_bytes, pos_);
    if (n > budget) {
      failed_ = true;
      r_.problems.push_back({pos_, false, "stopped after " + std::to_string(opt_.max_stream_bytes) +
                                             " decompressed bytes (limit; a decompression bomb?)"});
      return 0;
    }
    size_t got = 0;
    while (got < n) {
      size_t k = in_.Read(dst + got, n - got);
      if (k == 0) break;
      got += k;
    }
    pos_ += got;
    r_.stream_bytes = pos_;
    if (got < n && !in_.error().empty()) {
      failed_ = true;
      r_.problems.push_back({in_.error_offset(), true, in_.error() + " (tar stream offset " + std::to_string(pos_) + ")"});
    }
    return got;
  }

  bool Skip(uint64_t n) {
    uint8_t buf[16384];
    while (n) {
      size_t step = n < sizeof buf ? static_cast<size_t>(n) : sizeof buf;
      if (Get(buf, step) < step) return false;
      n -= step;
    }
    return true;
  }

  bool SkipPad(uint64_t size) {
    uint64_t pad = (kBlock - size % kBlock) % kBlock;
    return Skip(pad);
  }

  bool ReadData(TarEntry& e, uint64_t size) {
    uint64_t at = pos_;
    if (size == 0) return true;
    uint8_t head[16];
    size_t hn = size < sizeof head ? static_cast<size_t>(size) : sizeof head;
    if (Get(head, hn) < hn) {
      if (!failed_) Problem(at, e.path + ": data truncated (" + std::to_string(size) + " bytes declared)");
      return false;
    }
    uint64_t budget = opt_.max_stream_bytes - std::min(opt_.max_stream_bytes, pos_);
    if (size - hn > budget) {
      failed_ = true;
      r_.problems.push_back({e.header_offset, false, e.path + ": declares " + std::to_string(size) + " bytes, past the limit of " +
                                                        std::to_string(opt_.max_stream_bytes) +
                                                        " decompressed bytes (a size that lies, or a decompression bomb); stopped here"});
      return false;
    }
    bool want = !opt_.keep || opt_.keep(e.path, size, head, hn);
    if (want && size > opt_.max_kept_bytes - r_.kept_bytes) {
      r_.problems.push_back({e.header_offset, false, e.path + ": " + std::to_string(size) +
                                                        " bytes would exceed the memory budget for side files; not kept"});
      want = false;
    }
    if (want) {
      e.data.resize(static_cast<size_t>(size));
      std::memcpy(e.data.data(), head, hn);
      size_t rest = static_cast<size_t>(size) - hn;
      if (Get(e.data.data() + hn, rest) < rest) {
        e.data.clear();
        if (!failed_) Problem(at, e.path + ": data truncated (" + std::to_string(size) + " bytes declared)");
        return false;
      }
      e.kept = true;
      r_.kept_bytes += size;
    } else if (!Skip(size - hn)) {
      if (!failed_) Problem(at, e.path + ": data truncated (" + std::to_string(size) + " bytes declared)");
      return false;
    }
    if (!SkipPad(size)) {
      if (!failed_) Problem(pos_, e.path + ": padding after the data truncated");
      return false;
    }
    return true;
  }

  ByteStream& in_;
  const TarOptions& opt_;
  TarResult& r_;
  uint64_t pos_ = 0;
  int64_t header_start_ = -1;  // first header of an entry with extended headers
  bool failed_ = false;
};

}  // namespace

bool IsTarHeader(const uint8_t* b) {
  uint64_t want = 0;
  if (!ParseNumber(b + 148, 8, &want)) return false;
  uint64_t u = 0;
  int64_t s = 0;
  for (size_t i = 0; i < kBlock; ++i) {
    uint8_t c = (i >= 148 && i < 156) ? ' ' : b[i];
    u += c;
    s += static_cast<int8_t>(c);
  }
  uint64_t size = 0;
  if (!ParseNumber(b + 124, 12, &size)) return false;
  return want == u || static_cast<int64_t>(want) == s;
}

TarResult ReadTar(ByteStream& in, const TarOptions& opt) {
  TarResult r;
  Reader(in, opt, r).Run();
  return r;
}

TarResult ReadTarFile(Window& w, const TarOptions& opt) {
  uint8_t head[8] = {0};
  size_t n = w.size() < sizeof head ? static_cast<size_t>(w.size()) : sizeof head;
  const uint8_t* p = n ? w.Get(0, n) : nullptr;
  if (p) std::memcpy(head, p, n);
  Compression c = DetectCompression(head, n);
  auto stream = OpenStream(w, c);
  TarResult r = ReadTar(*stream, opt);
  r.compression = c;
  return r;
}

}  // namespace profscope::archive
