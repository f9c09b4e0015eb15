// Decoded fields of one record or section, produced on demand for the record
// tree and the hex view's field highlighting (so the record table stays compact).
// A parser fills them through a FieldReader (field_reader.h), which records
// each field's absolute offset and size as it reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace profscope {

struct Field {
  std::string name;    // "pid", "callchain[3]", "sample_type"
  uint64_t offset = 0; // absolute file offset (or offset in the decompressed stream for nested records)
  uint64_t size = 0;   // bytes covered
  std::string value;   // printable value: "1234", "0x7f00", "\"calltree\"", "IP|TID|TIME"
  std::vector<Field> children;
};

class FieldList {
 public:
  std::vector<Field>& items() { return items_; }
  const std::vector<Field>& items() const { return items_; }
  Field& Add(std::string name, uint64_t offset, uint64_t size, std::string value) {
    items_.push_back(Field{std::move(name), offset, size, std::move(value), {}});
    return items_.back();
  }
 private:
  std::vector<Field> items_;
};

// Printable values (field values, labels, messages).
std::string Hex(uint64_t v);                      // "0x1a3f0"
std::string Dec(uint64_t v);                      // "1234"
std::string DecI(int64_t v);                      // "-1"
std::string HexBytes(const uint8_t* p, size_t n); // "a1b2c3" (build ids, raw bytes)
// A string quoted and escaped (control bytes as \uXXXX): a field's value, and
// the one escaping routine JSON output uses too (core/api/json_writer.h).
std::string QuoteString(const std::string& s);

}  // namespace profscope
