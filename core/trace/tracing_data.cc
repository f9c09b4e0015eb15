#include "core/trace/tracing_data.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/model/fields.h"

namespace profscope::trace {

namespace {

constexpr uint64_t kMaxText = 64u << 20;

std::string Line(const std::string& t, const std::string& key) {
  size_t p = t.find(key);
  if (p == std::string::npos) return {};
  p += key.size();
  size_t e = t.find('\n', p);
  std::string v = t.substr(p, e == std::string::npos ? std::string::npos : e - p);
  while (!v.empty() && (v[0] == ' ' || v[0] == '\t')) v.erase(0, 1);
  return v;
}

uint64_t ReadUint(const uint8_t* p, size_t n, bool big) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[big ? i : n - 1 - i]) << (8 * (n - 1 - i));
  return v;
}

std::string CText(const uint8_t* p, size_t n) {
  size_t len = 0;
  while (len < n && p[len]) ++len;
  return std::string(reinterpret_cast<const char*>(p), len);
}

}  // namespace

const EventFormat* TracingData::Find(uint32_t id) const {
  for (const auto& e : events)
    if (e.id == id) return &e;
  return nullptr;
}

EventFormat ParseFormat(const std::string& text, const std::string& system) {
  EventFormat f;
  f.system = system;
  f.text = text;
  f.name = Line(text, "name:");
  f.id = static_cast<uint32_t>(std::strtoul(Line(text, "ID:").c_str(), nullptr, 10));
  f.print_fmt = Line(text, "print fmt:");
  size_t p = 0;
  bool after_common = false;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    std::string l = text.substr(p, e == std::string::npos ? std::string::npos : e - p);
    p = e == std::string::npos ? text.size() : e + 1;
    if (l.find_first_not_of(" \t") == std::string::npos) { after_common = after_common || !f.fields.empty(); continue; }
    size_t fp = l.find("field:");
    if (fp == std::string::npos) continue;
    size_t semi = l.find(';', fp);
    if (semi == std::string::npos) continue;
    std::string decl = l.substr(fp + 6, semi - fp - 6);
    FormatField fd;
    // The name is the last identifier, before any "[N]".
    std::string d = decl;
    while (!d.empty() && d.back() == ' ') d.pop_back();
    std::string arr;  // "[16]" after the name (char prev_comm[16])
    if (!d.empty() && d.back() == ']') {
      size_t br = d.rfind('[');
      if (br != std::string::npos) { arr = d.substr(br); d = d.substr(0, br); }
    }
    while (!d.empty() && d.back() == ' ') d.pop_back();
    size_t sp = d.find_last_of(" *");
    fd.name = sp == std::string::npos ? d : d.substr(sp + 1);
    fd.type = sp == std::string::npos ? std::string() : d.substr(0, sp + 1);
    while (!fd.type.empty() && fd.type.back() == ' ') fd.type.pop_back();
    fd.type += arr;
    fd.offset = static_cast<uint32_t>(std::strtoul(Line(l, "offset:").c_str(), nullptr, 10));
    fd.size = static_cast<uint32_t>(std::strtoul(Line(l, "size:").c_str(), nullptr, 10));
    fd.is_signed = Line(l, "signed:").rfind("1", 0) == 0;
    fd.common = !after_common;
    f.fields.push_back(std::move(fd));
  }
  return f;
}

namespace {
// Whether the right operand of the operator ending just before `i` is a number (one token, read as the
// library reads it: strtoull in base 0, any U/L suffix) in any brackets that `ok` accepts; for a shift, no
// operator that binds tighter (+ - * / %) may follow it.
template <typename Ok>
bool LiteralOperand(std::string_view text, size_t i, bool shift, Ok ok) {
  auto skip_spaces = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
  };
  size_t open = 0;
  for (skip_spaces(); i < text.size() && text[i] == '('; skip_spaces()) ++open, ++i;
  const size_t start = i;
  while (i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]))) ++i;
  const std::string token(text.substr(start, i - start));
  if (token.empty() || !std::isdigit(static_cast<unsigned char>(token[0]))) return false;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(token.c_str(), &end, 0);
  if (std::strspn(end, "uUlL") != std::strlen(end) || !ok(v)) return false;
  for (skip_spaces(); open && i < text.size() && text[i] == ')'; skip_spaces()) --open, ++i;
  return !open && (!shift || i >= text.size() || !text[i] || !std::strchr("+-*/%", text[i]));
}
}  // namespace

TextHazard LibraryHazard(std::string_view text) {
  size_t depth = 0, operators = 0, i = 0;
  // (brackets and operators are counted in the print fmt: the fields before it are read in a loop)
  const size_t fmt = text.find("print fmt:");
  while (i < text.size()) {
    const size_t at = i;
    const char c = text[i++];
    const bool counted = fmt != std::string_view::npos && at >= fmt;
    if (c == '"' || c == '\'') {
      // The library's loop: last = ch; ch = next; a "\\" pair clears last;
      // it ends at the quote character whose last is not a backslash.
      char last = 0, ch = c;
      for (;;) {
        last = ch;
        if (i >= text.size()) return {at, "a quoted string that never closes"};
        ch = text[i++];
        if (ch == '\\' && last == '\\') last = 0;
        if (ch == c && last != '\\') break;
      }
    } else if (!counted && c == '[') {
      // A field's array bracket: the library reads tokens until its "]" and, at the end of the text
      // without one, compares a null token (a crash natively). Real formats close it on its line.
      const size_t end = std::min(text.find('\n', i), text.size());
      const size_t close = text.find(']', i);
      if (close >= end || text.substr(i, close - i).find_first_of("\"'") != std::string_view::npos)
        return {at, "an array bracket that does not close on its line"};
    } else if (counted && (c == '(' || c == '[' || c == '{')) {
      if (++depth > kMaxNesting) return {at, "brackets nested deeper than 32"};
    } else if (counted && (c == ')' || c == ']' || c == '}')) {
      if (depth) --depth;
    } else if (counted && c && std::strchr("+-*/%&|^<>!=?:~", c)) {
      if (++operators > kMaxOperators) return {at, "more than 1024 operators"};
      // The library computes a shift and a division on 64-bit values as C does: a shift by 64 or more, a
      // division by 0 (a crash natively) are undefined. Real formats shift and divide by literal numbers.
      const bool shift = (c == '<' || c == '>') && i < text.size() && text[i] == c && (at == 0 || text[at - 1] != c);
      if (shift && !LiteralOperand(text, i + 1, true, [](uint64_t v) { return v < 64; }))
        return {at, "a shift by what is not a number below 64"};
      if ((c == '/' || c == '%') && !LiteralOperand(text, i, false, [](uint64_t v) { return v != 0; }))
        return {at, "a division by what is not a number other than 0"};
    }
  }
  return {};
}

TracingData ReadTracingData(ByteReader r) {
  TracingData t;
  static const uint8_t kMagic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
  if (!r.Has(10) || std::memcmp(r.cursor(), kMagic, 10) != 0) { t.problem = "no tracing magic at " + std::to_string(r.abs_pos()); return t; }
  r.Skip(10);
  std::string version = r.CString();
  t.big_endian = r.U8() != 0;
  ByteReader b(r.data(), r.size(), r.base(), t.big_endian ? ByteOrder::kBig : ByteOrder::kLittle);
  b.Seek(r.pos());
  t.long_size = b.U8();
  t.page_size = b.U32();
  auto sized = [&](std::string* out, const char* what) {
    uint64_t at = b.abs_pos();
    uint64_t n = b.U64();
    if (!b.ok() || n > b.remaining() || n > kMaxText) {
      t.problem = std::string(what) + ": size " + std::to_string(n) + " at " + std::to_string(at) + " past the section";
      return false;
    }
    out->assign(reinterpret_cast<const char*>(b.cursor()), static_cast<size_t>(n));
    b.Skip(static_cast<size_t>(n));
    return true;
  };
  auto tag = [&](const char* name) {
    size_t n = std::strlen(name) + 1;
    if (!b.Has(n) || std::memcmp(b.cursor(), name, n) != 0) {
      t.problem = std::string("no ") + name + " tag at " + std::to_string(b.abs_pos());
      return false;
    }
    b.Skip(n);
    return true;
  };
  if (!tag("header_page") || !sized(&t.header_page, "header_page")) return t;
  if (!tag("header_event") || !sized(&t.header_event, "header_event")) return t;
  uint32_t n = b.U32();
  for (uint32_t i = 0; b.ok() && i < n; ++i) {
    std::string text;
    if (!sized(&text, "ftrace format")) return t;
    t.events.push_back(ParseFormat(text, "ftrace"));
  }
  uint32_t systems = b.U32();
  for (uint32_t s = 0; b.ok() && s < systems; ++s) {
    std::string sys = b.CString();
    uint32_t count = b.U32();
    for (uint32_t i = 0; b.ok() && i < count; ++i) {
      std::string text;
      if (!sized(&text, "event format")) return t;
      t.events.push_back(ParseFormat(text, sys));
    }
  }
  if (!b.ok()) { t.problem = "TRACING_DATA truncated at " + std::to_string(b.abs_pos()); return t; }
  // kallsyms: u32 size; printk: u32 size; saved_cmdlines (0.6+): u64 size.
  auto sized32 = [&](std::string* out, const char* what) {
    uint64_t at = b.abs_pos();
    uint32_t len = b.U32();
    if (!b.ok() || len > b.remaining()) { t.problem = std::string(what) + ": size " + std::to_string(len) + " at " + std::to_string(at) + " past the section"; return false; }
    out->assign(reinterpret_cast<const char*>(b.cursor()), len);
    b.Skip(len);
    return true;
  };
  if (!sized32(&t.kallsyms, "kallsyms") || !sized32(&t.printk, "printk")) return t;
  if (version >= "0.6" && b.remaining() >= 8) sized(&t.saved_cmdlines, "saved_cmdlines");
  t.ok = true;
  return t;
}

std::vector<FieldValue> DecodeFields(const EventFormat& f, const uint8_t* raw, size_t size, bool big) {
  std::vector<FieldValue> out;
  for (const auto& fd : f.fields) {
    if (fd.offset > size || fd.size > size - fd.offset) continue;
    FieldValue v;
    v.name = fd.name;
    v.offset = fd.offset;
    v.size = fd.size;
    const uint8_t* p = raw + fd.offset;
    bool array = fd.type.find('[') != std::string::npos;
    bool chars = fd.type.rfind("char", 0) == 0 || fd.type.find(" char") != std::string::npos;
    if (fd.type.rfind("__data_loc", 0) == 0 && fd.size == 4) {
      uint32_t loc = static_cast<uint32_t>(ReadUint(p, 4, big));
      uint32_t off = loc & 0xffff, len = loc >> 16;
      if (off <= size && len <= size - off) {
        v.value = chars ? CText(raw + off, len) : HexBytes(raw + off, len);
        v.offset = off;
        v.size = len;
      }
    } else if (array) {
      v.value = chars ? CText(p, fd.size) : HexBytes(p, fd.size);
    } else if (fd.size == 1 || fd.size == 2 || fd.size == 4 || fd.size == 8) {
      uint64_t u = ReadUint(p, fd.size, big);
      if (fd.is_signed && fd.size < 8 && (u >> (8 * fd.size - 1)) & 1) u |= ~uint64_t{0} << (8 * fd.size);
      v.value = fd.is_signed ? std::to_string(static_cast<int64_t>(u)) : std::to_string(u);
    } else {
      v.value = HexBytes(p, fd.size);
    }
    out.push_back(std::move(v));
  }
  return out;
}

Field TraceFieldsForView(const EventFormat& f, const uint8_t* raw, size_t size, bool big_endian, uint64_t raw_offset) {
  Field top{f.system + ":" + f.name, raw_offset, size, std::to_string(size) + " bytes", {}};
  for (const auto& v : DecodeFields(f, raw, size, big_endian)) {
    bool text = false;
    for (const auto& fd : f.fields)
      if (fd.name == v.name) text = fd.type.find("char") != std::string::npos && (fd.type.find('[') != std::string::npos);
    top.children.push_back(Field{v.name, raw_offset + v.offset, v.size, text ? QuoteString(v.value) : v.value, {}});
  }
  return top;
}

}  // namespace profscope::trace
