// A small JSON reader (RFC 8259) for the option texts the shells hand to the
// core (analysis options from the page, later the CLI). The text is untrusted
// (it may come from an edited URL): nesting is bounded, and an error names its
// byte offset.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace profscope {

struct JsonMember;

struct JsonValue {
  enum class Type : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;                                      // kString (UTF-8)
  std::vector<JsonValue> items;                            // kArray
  std::vector<JsonMember> members;                         // kObject, in text order

  // The member named `key` (the last one when repeated), or nullptr; nullptr too
  // when this is not an object or the member is null.
  const JsonValue* Find(std::string_view key) const;
  bool IsNumber() const { return type == Type::kNumber; }
};

// One member of an object (a struct: std::pair would need JsonValue complete, which clang refuses).
struct JsonMember {
  std::string first;  // the name
  JsonValue second;   // its value
};

// Deepest nesting of arrays and objects accepted.
inline constexpr int kJsonMaxDepth = 64;

// Parses the whole text (surrounding white space allowed). False with
// "offset N: what" in *error when it is not one JSON value.
bool ParseJson(std::string_view text, JsonValue* out, std::string* error);

}  // namespace profscope
