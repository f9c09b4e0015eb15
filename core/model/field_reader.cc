#include "core/model/field_reader.h"

#include <cstring>

namespace profscope {

std::string FormatNum(uint64_t v, Fmt f) {
  switch (f) {
    case Fmt::kHex: return Hex(v);
    case Fmt::kS32: return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(v)));
    case Fmt::kS64: return std::to_string(static_cast<int64_t>(v));
    default: return std::to_string(v);
  }
}

bool FieldReader::Blob(std::string_view name, uint64_t n, std::string value, const uint8_t** data) {
  if (!Need(n, name)) return false;
  uint64_t at = abs_pos();
  if (data) *data = r_.cursor();
  r_.Skip(static_cast<size_t>(n));
  if (out_) Add(name, at, n, value.empty() ? std::to_string(n) + " bytes" : std::move(value));
  return true;
}

bool FieldReader::Str(std::string_view name, uint64_t area, std::string* v) {
  if (!Need(area ? area : 1, name)) return false;
  uint64_t at = abs_pos();
  const char* p = reinterpret_cast<const char*>(r_.cursor());
  size_t n = static_cast<size_t>(area);
  size_t len = strnlen(p, n);
  std::string s(p, len);
  r_.Skip(n);
  if (len == n && problems_) problems_->Unterminated(name, at, n);
  if (out_) Add(name, at, n, QuoteString(s));
  if (v) *v = std::move(s);
  return true;
}

void FieldReader::Rest(const char* note) {
  if (failed_ || r_.remaining() == 0) return;
  size_t n = r_.remaining();
  const uint8_t* p = r_.cursor();
  bool zero = true;
  for (size_t i = 0; i < n && zero; ++i) zero = p[i] == 0;
  if (out_) {
    std::string value = std::to_string(n) + " bytes";
    if (note) value += note;
    Add(zero ? "padding" : "unparsed", abs_pos(), n, std::move(value));
  }
  r_.Skip(n);
}

FieldReader::Group::Group(FieldReader& r, std::string name, std::string value)
    : r_(r), list_(r.target()), old_(r.target()), start_(r.abs_pos()) {
  if (!list_) return;
  list_->push_back(Field{std::move(name), start_, 0, std::move(value), {}});
  index_ = list_->size() - 1;
  r_.Target(&list_->back().children);
}

FieldReader::Group::~Group() {
  if (!list_) return;
  r_.Target(old_);
  (*list_)[index_].size = r_.abs_pos() - start_;
}

Field* FieldReader::Group::parent() { return list_ ? &(*list_)[index_] : nullptr; }

}  // namespace profscope
