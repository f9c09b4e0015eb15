// Decoded fields of one record or section, produced on demand for the record
// tree and the hex view's field highlighting (so the record table stays compact).
#pragma once

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

// Appends fields while a ByteReader walks a structure. Helpers record the
// reader's absolute position before and after each read.
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

std::string Hex(uint64_t v);            // "0x1a3f0"
std::string QuoteString(const std::string& s);  // JSON-style quoted, escapes control bytes
std::string FieldsToJson(const std::vector<Field>& fields);

}  // namespace profscope
