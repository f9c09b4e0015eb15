#include "core/api/json_writer.h"

#include <cstdio>

namespace profscope {

namespace {

void FieldJson(std::string& out, const Field& f) {
  out += "{\"name\":";
  out += JsonQuote(f.name);
  out += ",\"offset\":" + std::to_string(f.offset);
  out += ",\"size\":" + std::to_string(f.size);
  out += ",\"value\":";
  out += JsonQuote(f.value);
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

void InfoJson(std::string& out, const InfoValue& v) {
  switch (v.kind) {
    case InfoValue::Kind::kNumber: out += std::to_string(v.number); break;
    case InfoValue::Kind::kText: out += JsonQuote(v.text); break;
    case InfoValue::Kind::kBool: out += v.flag ? "true" : "false"; break;
    case InfoValue::Kind::kObject:
      out += '{';
      for (size_t i = 0; i < v.members.size(); ++i) {
        if (i) out += ',';
        out += JsonQuote(v.members[i].first) + ":";
        InfoJson(out, v.members[i].second);
      }
      out += '}';
      break;
  }
}

}  // namespace

std::string FieldsToJson(const std::vector<Field>& fields) {
  std::string out = "[";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    FieldJson(out, fields[i]);
  }
  out += ']';
  return out;
}

void AppendInfoMembers(std::string& out, const InfoValue& object) {
  for (const auto& [key, value] : object.members) {
    out += "," + JsonQuote(key) + ":";
    InfoJson(out, value);
  }
}

std::string CodeEventsJson(const std::vector<CodeEvent>& events) {
  std::string out = "[";
  for (size_t i = 0; i < events.size(); ++i) {
    const CodeEvent& e = events[i];
    if (i) out += ',';
    out += "{\"time\":" + Dec(e.time) + ",\"kind\":" + (e.move ? "\"move\"" : "\"load\"") + ",\"name\":" +
           JsonQuote(e.name) + ",\"addr\":" + JsonQuote(Hex(e.addr));
    if (e.move) out += ",\"old_addr\":" + JsonQuote(Hex(e.old_addr));
    out += ",\"size\":" + Dec(e.size) + ",\"index\":" + Dec(e.index) + ",\"record\":" + std::to_string(e.record) + "}";
  }
  return out + "]";
}

std::string AccountJson(const std::vector<AccountRow>& rows) {
  std::string out = "[";
  char buf[512];
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (i) out += ',';
    std::snprintf(buf, sizeof buf,
                  "{\"funcid\":%d,\"count\":%llu,\"min\":%.9g,\"median\":%.9g,\"p90\":%.9g,\"p99\":%.9g,\"max\":%.9g,\"sum\":%.9g,\"function\":",
                  r.func, static_cast<unsigned long long>(r.count), r.min, r.median, r.p90, r.p99, r.max, r.sum);
    out += buf;
    out += JsonQuote(r.name) + "}";
  }
  return out + "]";
}

}  // namespace profscope
