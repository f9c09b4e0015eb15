#include "core/api/json_reader.h"

#include <cstdlib>

namespace profscope {

const JsonValue* JsonValue::Find(std::string_view key) const {
  if (type != Type::kObject) return nullptr;
  const JsonValue* found = nullptr;
  for (const auto& [k, v] : members)
    if (k == key) found = &v;
  return found && found->type != Type::kNull ? found : nullptr;
}

namespace {

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  bool Document(JsonValue* out) {
    Space();
    if (!Value(out, 0)) return false;
    Space();
    return pos_ == s_.size() || Fail("text after the value");
  }
  const std::string& error() const { return error_; }

 private:
  bool Fail(const std::string& what) {
    if (error_.empty()) error_ = "offset " + std::to_string(pos_) + ": " + what;
    return false;
  }
  void Space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return Fail("unknown value");
    pos_ += word.size();
    return true;
  }

  bool Value(JsonValue* out, int depth) {
    if (pos_ >= s_.size()) return Fail("a value was expected");
    switch (s_[pos_]) {
      case '{': return Object(out, depth + 1);
      case '[': return Array(out, depth + 1);
      case '"': out->type = JsonValue::Type::kString; return String(&out->string);
      case 't': out->type = JsonValue::Type::kBool; out->boolean = true; return Literal("true");
      case 'f': out->type = JsonValue::Type::kBool; out->boolean = false; return Literal("false");
      case 'n': out->type = JsonValue::Type::kNull; return Literal("null");
      default: return Number(out);
    }
  }

  bool Object(JsonValue* out, int depth) {
    if (depth > kJsonMaxDepth) return Fail("nested deeper than " + std::to_string(kJsonMaxDepth));
    out->type = JsonValue::Type::kObject;
    ++pos_;  // {
    Space();
    if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; return true; }
    for (;;) {
      Space();
      if (pos_ >= s_.size() || s_[pos_] != '"') return Fail("a member name was expected");
      std::string key;
      if (!String(&key)) return false;
      Space();
      if (pos_ >= s_.size() || s_[pos_] != ':') return Fail("':' was expected");
      ++pos_;
      Space();
      out->members.push_back(JsonMember{std::move(key), JsonValue()});
      if (!Value(&out->members.back().second, depth)) return false;
      Space();
      if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
      if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; return true; }
      return Fail("',' or '}' was expected");
    }
  }

  bool Array(JsonValue* out, int depth) {
    if (depth > kJsonMaxDepth) return Fail("nested deeper than " + std::to_string(kJsonMaxDepth));
    out->type = JsonValue::Type::kArray;
    ++pos_;  // [
    Space();
    if (pos_ < s_.size() && s_[pos_] == ']') { ++pos_; return true; }
    for (;;) {
      Space();
      out->items.emplace_back();
      if (!Value(&out->items.back(), depth)) return false;
      Space();
      if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
      if (pos_ < s_.size() && s_[pos_] == ']') { ++pos_; return true; }
      return Fail("',' or ']' was expected");
    }
  }

  bool Hex4(uint32_t* v) {
    if (s_.size() - pos_ < 4) return Fail("four hex digits were expected");
    *v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      uint32_t d = c >= '0' && c <= '9' ? static_cast<uint32_t>(c - '0')
                   : c >= 'a' && c <= 'f' ? static_cast<uint32_t>(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? static_cast<uint32_t>(c - 'A' + 10)
                                          : 16;
      if (d == 16) return Fail("a hex digit was expected");
      *v = *v * 16 + d;
    }
    return true;
  }

  static void Utf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else {
      out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    }
  }

  bool String(std::string* out) {
    ++pos_;  // opening quote
    for (;;) {
      if (pos_ >= s_.size()) return Fail("the string does not end");
      char c = s_[pos_];
      if (c == '"') { ++pos_; return true; }
      if (static_cast<unsigned char>(c) < 0x20) return Fail("a control character in a string");
      if (c != '\\') { out->push_back(c); ++pos_; continue; }
      if (++pos_ >= s_.size()) return Fail("the string does not end");
      char e = s_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out->push_back(e); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(&cp)) return false;
          // a surrogate pair makes one code point; a lone surrogate becomes U+FFFD
          if (cp >= 0xd800 && cp < 0xdc00 && s_.substr(pos_, 2) == "\\u") {
            size_t at = pos_;
            pos_ += 2;
            uint32_t lo;
            if (!Hex4(&lo)) return false;
            if (lo >= 0xdc00 && lo < 0xe000) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            else pos_ = at;
          }
          if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd;
          Utf8(cp, out);
          break;
        }
        default: --pos_; return Fail("an unknown escape in a string");
      }
    }
  }

  bool Number(JsonValue* out) {
    const size_t start = pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '0') ++pos_;
    else if (!digits()) { pos_ = start; return Fail("a value was expected"); }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!digits()) return Fail("digits were expected after '.'");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digits()) return Fail("digits were expected in the exponent");
    }
    const std::string token(s_.substr(start, pos_ - start));
    out->type = JsonValue::Type::kNumber;
    out->number = std::strtod(token.c_str(), nullptr);
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

bool ParseJson(std::string_view text, JsonValue* out, std::string* error) {
  *out = JsonValue();
  Reader r(text);
  if (r.Document(out)) return true;
  if (error) *error = r.error();
  *out = JsonValue();
  return false;
}

}  // namespace profscope
