// FieldReader: the one field cursor. A ByteReader that, while a parser reads
// a structure, can also describe what it reads as Fields (name, absolute
// offset, size, printable value). Without a field list it only reads, so one
// parse serves both the interpretation of a record and its field view
// (perf_sample.cc's ParseSample is the model).
//
// A member that does not fit stops the reader (that read and every later one
// returns false and gives 0); what the format then shows (a "truncated"
// field, a diagnostic naming the record) is up to its FieldProblems. Values
// are formatted only when fields are wanted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/byte_reader.h"
#include "core/model/fields.h"

namespace profscope {

// How a number is shown as a field value.
enum class Fmt : uint8_t { kDec, kHex, kS32, kS64 };
std::string FormatNum(uint64_t v, Fmt f);

class FieldReader;

// What a format reports about bytes that fall short. The defaults report nothing.
class FieldProblems {
 public:
  virtual ~FieldProblems() = default;
  // `member` needs `need` bytes at r.abs_pos() but only r.remaining() are left
  // (the reader has not moved yet; it stops after this call).
  virtual void Short(FieldReader& r, std::string_view member, uint64_t need) { (void)r; (void)member; (void)need; }
  // A string area of `area` bytes at `at` holds no NUL.
  virtual void Unterminated(std::string_view member, uint64_t at, uint64_t area) { (void)member; (void)at; (void)area; }
  // After a shortfall the reader moves to the end of its bytes, unless this
  // says it stays where the short member starts.
  virtual bool StayAtShortfall() const { return false; }
};

class FieldReader {
 public:
  explicit FieldReader(ByteReader r, std::vector<Field>* out = nullptr, FieldProblems* problems = nullptr)
      : r_(r), out_(out), problems_(problems) {}

  ByteReader& reader() { return r_; }
  const ByteReader& reader() const { return r_; }
  size_t remaining() const { return r_.remaining(); }
  uint64_t abs_pos() const { return r_.abs_pos(); }
  const uint8_t* cursor() const { return r_.cursor(); }
  bool failed() const { return failed_; }
  bool ok() const { return !failed_ && r_.ok(); }
  FieldProblems* problems() const { return problems_; }
  // Re-reads the rest in another byte order (a section that names its own).
  void SetOrder(ByteOrder order) {
    size_t p = r_.pos();
    r_ = ByteReader(r_.data(), r_.size(), r_.base(), order);
    r_.Seek(p);
  }

  // --- where fields go ------------------------------------------------------
  bool fielding() const { return out_ != nullptr; }
  std::vector<Field>* target() const { return out_; }
  // Sends later fields to `t` (nullptr: none); returns the previous target.
  std::vector<Field>* Target(std::vector<Field>* t) {
    std::vector<Field>* old = out_;
    out_ = t;
    return old;
  }
  // Appends a field to the target (nullptr when no fields are wanted).
  Field* Add(std::string_view name, uint64_t at, uint64_t size, std::string value) {
    if (!out_) return nullptr;
    out_->push_back(Field{std::string(name), at, size, std::move(value), {}});
    return &out_->back();
  }
  Field& Last() { return out_->back(); }
  // A parent field starting here; End() sets its size and appends it to `parent`.
  Field Begin(std::string name) const { return Field{std::move(name), abs_pos(), 0, "", {}}; }
  void End(Field& parent, Field&& f) const {
    f.size = abs_pos() - f.offset;
    parent.children.push_back(std::move(f));
  }

  // --- reading ----------------------------------------------------------------
  // True when n more bytes are there for `member`; otherwise reports the
  // shortfall (FieldProblems::Short), moves to the end and stops.
  bool Need(uint64_t n, std::string_view member) {
    if (failed_) return false;
    if (n <= r_.remaining()) return true;
    failed_ = true;
    if (problems_) problems_->Short(*this, member, n);
    if (!problems_ || !problems_->StayAtShortfall()) r_.Skip(r_.remaining());
    return false;
  }
  // Stops reading without a report (a count or size that cannot be right).
  void Stop() { failed_ = true; }

  bool U8(std::string_view name, uint8_t* v, Fmt f = Fmt::kDec) { return Read(name, v, f); }
  bool U16(std::string_view name, uint16_t* v, Fmt f = Fmt::kDec) { return Read(name, v, f); }
  bool U32(std::string_view name, uint32_t* v, Fmt f = Fmt::kDec) { return Read(name, v, f); }
  bool U64(std::string_view name, uint64_t* v, Fmt f = Fmt::kDec) { return Read(name, v, f); }
  bool I32(std::string_view name, int32_t* v) {
    uint32_t x = 0;
    bool ok = U32(name, &x, Fmt::kS32);
    if (v) *v = static_cast<int32_t>(x);
    return ok;
  }
  // The same, into the children of `parent` (whatever the current target).
  bool U8(Field& parent, std::string_view name, uint8_t* v, Fmt f = Fmt::kDec) { return Into(parent, [&] { return U8(name, v, f); }); }
  bool U32(Field& parent, std::string_view name, uint32_t* v, Fmt f = Fmt::kDec) { return Into(parent, [&] { return U32(name, v, f); }); }
  bool I32(Field& parent, std::string_view name, int32_t* v) { return Into(parent, [&] { return I32(name, v); }); }
  bool U64(Field& parent, std::string_view name, uint64_t* v, Fmt f = Fmt::kDec) { return Into(parent, [&] { return U64(name, v, f); }); }
  // n raw bytes as one field; `value` defaults to "<n> bytes"; `data` (optional) points at them.
  bool Blob(std::string_view name, uint64_t n, std::string value = {}, const uint8_t** data = nullptr);
  bool Blob(Field& parent, std::string_view name, uint64_t n, std::string value, const uint8_t** data = nullptr) {
    return Into(parent, [&] { return Blob(name, n, std::move(value), data); });
  }
  // A NUL-terminated string in an area of `area` bytes; the field (quoted)
  // covers the area. An area without a NUL is reported as Unterminated.
  bool Str(std::string_view name, uint64_t area, std::string* v);
  bool StrRest(std::string_view name, std::string* v) { return Str(name, r_.remaining(), v); }
  // Bytes no member describes: "padding" when all zero, else "unparsed".
  void Rest(const char* note = nullptr);

  // Fields of one parent: while a Group lives, fields go into the children
  // of a field it added; at its end the parent's size covers what was read.
  class Group {
   public:
    Group(FieldReader& r, std::string name, std::string value);
    ~Group();
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;
    Field* parent();  // nullptr when no fields are wanted

   private:
    FieldReader& r_;
    std::vector<Field>* list_;
    std::vector<Field>* old_;
    size_t index_ = 0;
    uint64_t start_;
  };

 private:
  // One unsigned integer; a read that does not fit leaves 0 in its output, as ByteReader does.
  template <typename T>
  bool Read(std::string_view name, T* v, Fmt f) {
    if (!Need(sizeof(T), name)) {
      if (v) *v = 0;
      return false;
    }
    uint64_t at = abs_pos();
    T x;
    if constexpr (sizeof(T) == 1) x = r_.U8();
    else if constexpr (sizeof(T) == 2) x = r_.U16();
    else if constexpr (sizeof(T) == 4) x = r_.U32();
    else x = r_.U64();
    if (v) *v = x;
    if (out_) Add(name, at, sizeof(T), FormatNum(x, f));
    return true;
  }
  template <typename Fn>
  bool Into(Field& parent, Fn fn) {
    std::vector<Field>* old = Target(&parent.children);
    bool ok = fn();
    Target(old);
    return ok;
  }

  ByteReader r_;
  std::vector<Field>* out_;
  FieldProblems* problems_;
  bool failed_ = false;
};

}  // namespace profscope
