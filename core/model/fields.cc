#include "core/model/fields.h"

#include <cstdio>

namespace profscope {

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

static void AppendEscaped(std::string& out, const std::string& s) {
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
}

std::string QuoteString(const std::string& s) {
  std::string out = "\"";
  AppendEscaped(out, s);
  out += '"';
  return out;
}

static void FieldJson(std::string& out, const Field& f) {
  out += "{\"name\":";
  out += QuoteString(f.name);
  out += ",\"offset\":" + std::to_string(f.offset);
  out += ",\"size\":" + std::to_string(f.size);
  out += ",\"value\":";
  out += QuoteString(f.value);
  if (!f.children.empty()) {
    out += ",\"children\":[";
    for (size_t i = 0; i < f.children.size(); ++i) {
      if (i) out += ',';
      FieldJson(out, f.children[i]);
    }
    out += ']';
  }
  out += '}';
}

std::string FieldsToJson(const std::vector<Field>& fields) {
  std::string out = "[";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    FieldJson(out, fields[i]);
  }
  out += ']';
  return out;
}

}  // namespace profscope
