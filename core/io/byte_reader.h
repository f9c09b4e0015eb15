// ByteReader: a bounds-checked cursor over one slice of a file.
//
// The slice knows its absolute file offset (base) and the byte order of the
// data. Every read checks against the bytes left (subtracting, so no overflow)
// and, on failure, sets a sticky flag and returns zero: read ten fields, check
// ok() once. A child reader (Sub) is limited to a record's declared size, so a
// damaged record can never read into the next one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace profscope {

enum class ByteOrder : uint8_t { kLittle, kBig };

inline constexpr ByteOrder kHostOrder = ByteOrder::kLittle;  // x86, arm64, wasm32

inline uint16_t Swap16(uint16_t v) { return static_cast<uint16_t>((v >> 8) | (v << 8)); }
inline uint32_t Swap32(uint32_t v) {
  return ((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >> 8) & 0xff00) | (v >> 24);
}
inline uint64_t Swap64(uint64_t v) {
  return (static_cast<uint64_t>(Swap32(static_cast<uint32_t>(v))) << 32) |
         Swap32(static_cast<uint32_t>(v >> 32));
}

class ByteReader {
 public:
  ByteReader() = default;
  ByteReader(const uint8_t* data, size_t size, uint64_t base, ByteOrder order)
      : data_(data), size_(size), base_(base), order_(order) {}

  // Position, in bytes from the start of this slice.
  size_t pos() const { return pos_; }
  size_t size() const { return size_; }
  size_t remaining() const { return size_ - pos_; }
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ >= size_; }
  ByteOrder order() const { return order_; }
  bool swapped() const { return order_ != kHostOrder; }
  // Absolute file offset of the slice start / of the cursor.
  uint64_t base() const { return base_; }
  uint64_t abs_pos() const { return base_ + pos_; }
  const uint8_t* data() const { return data_; }
  const uint8_t* cursor() const { return data_ + pos_; }

  void Fail() { ok_ = false; }
  bool Has(size_t n) const { return n <= size_ - pos_; }

  bool Skip(size_t n) {
    if (!Has(n)) { ok_ = false; pos_ = size_; return false; }
    pos_ += n;
    return true;
  }
  bool Seek(size_t p) {
    if (p > size_) { ok_ = false; return false; }
    pos_ = p;
    return true;
  }
  // Aligns the cursor up to a multiple of `a` (relative to slice start).
  void Align(size_t a) {
    size_t r = pos_ % a;
    if (r) Skip(a - r);
  }

  uint8_t U8() {
    if (!Has(1)) { ok_ = false; pos_ = size_; return 0; }
    return data_[pos_++];
  }
  uint16_t U16() { uint16_t v = Raw<uint16_t>(); return swapped() ? Swap16(v) : v; }
  uint32_t U32() { uint32_t v = Raw<uint32_t>(); return swapped() ? Swap32(v) : v; }
  uint64_t U64() { uint64_t v = Raw<uint64_t>(); return swapped() ? Swap64(v) : v; }
  int32_t I32() { return static_cast<int32_t>(U32()); }
  int64_t I64() { return static_cast<int64_t>(U64()); }

  // Reads at an absolute position within the slice without moving the cursor.
  uint16_t PeekU16(size_t at) const { ByteReader r = *this; r.pos_ = 0; r.Seek(at); return r.U16(); }
  uint32_t PeekU32(size_t at) const { ByteReader r = *this; r.pos_ = 0; r.Seek(at); return r.U32(); }
  uint64_t PeekU64(size_t at) const { ByteReader r = *this; r.pos_ = 0; r.Seek(at); return r.U64(); }

  // Copies n raw bytes (no swapping). Fails (and writes nothing) past the end.
  bool Bytes(void* dst, size_t n) {
    if (!Has(n)) { ok_ = false; pos_ = size_; return false; }
    std::memcpy(dst, data_ + pos_, n);
    pos_ += n;
    return true;
  }
  // A fixed-size field holding a NUL-terminated (or NUL-padded) string.
  std::string FixedString(size_t n) {
    if (!Has(n)) { ok_ = false; pos_ = size_; return {}; }
    const char* p = reinterpret_cast<const char*>(data_ + pos_);
    size_t len = strnlen(p, n);
    pos_ += n;
    return std::string(p, len);
  }
  // A NUL-terminated string; consumes the terminator. Without one, takes the rest and fails.
  std::string CString() {
    const char* p = reinterpret_cast<const char*>(data_ + pos_);
    size_t left = remaining();
    size_t len = strnlen(p, left);
    if (len == left) { ok_ = false; pos_ = size_; return std::string(p, len); }
    pos_ += len + 1;
    return std::string(p, len);
  }

  // A child reader over the next n bytes; advances this reader past them.
  // When fewer than n bytes are left the child covers what is left and this
  // reader fails.
  ByteReader Sub(size_t n) {
    size_t take = Has(n) ? n : remaining();
    if (take != n) ok_ = false;
    ByteReader child(data_ + pos_, take, base_ + pos_, order_);
    pos_ += take;
    return child;
  }
  // A child reader over [at, at+n) of this slice, not moving the cursor.
  ByteReader Slice(size_t at, size_t n) const {
    if (at > size_) at = size_;
    size_t take = n <= size_ - at ? n : size_ - at;
    ByteReader child(data_ + at, take, base_ + at, order_);
    if (take != n) child.ok_ = false;
    return child;
  }

 private:
  template <typename T>
  T Raw() {
    T v{};
    if (!Has(sizeof(T))) { ok_ = false; pos_ = size_; return v; }
    std::memcpy(&v, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  uint64_t base_ = 0;
  ByteOrder order_ = kHostOrder;
  bool ok_ = true;
};

// Overflow-safe check that [offset, offset+size) lies inside [0, limit).
inline bool RangeFits(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

}  // namespace profscope
