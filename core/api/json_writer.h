// JSON text for the session's answers. JsonQuote is the one quoting and
// escaping routine every JSON writer uses (the bindings too).
#pragma once

#include <string>
#include <vector>

#include "core/analysis/xray_account.h"
#include "core/format/decoder.h"
#include "core/model/fields.h"
#include "core/model/info_value.h"

namespace profscope {

// A quoted JSON string: '"' and '\\' escaped, \n \r \t, other control bytes
// and DEL as \u00XX; UTF-8 passes through.
inline std::string JsonQuote(const std::string& s) { return QuoteString(s); }

// [{name, offset, size, value[, children]}] (a row's fields).
std::string FieldsToJson(const std::vector<Field>& fields);
// Appends each member of an object as ,"key":value (the decoder's extra `info` members).
void AppendInfoMembers(std::string& out, const InfoValue& object);
// [{time, kind:"load"|"move", name, addr[, old_addr], size, index, record}] (a jitdump's timeline).
std::string CodeEventsJson(const std::vector<CodeEvent>& events);
// [{funcid, count, min, median, p90, p99, max, sum, function}] (`llvm-xray account`).
std::string AccountJson(const std::vector<AccountRow>& rows);

}  // namespace profscope
