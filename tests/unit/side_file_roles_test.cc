// SideFileRoleOf / SideFileRolesJson: what each side file was to the decoder (the
// embedding API's `files` answer).
#include "core/api/side_file_roles.h"

#include <gtest/gtest.h>

namespace profscope {
namespace {

Diagnostic Unused(const std::string& message) {
  Diagnostic d{};
  d.code = DiagCode::kSideFileUnused;
  d.message = message;
  return d;
}

TEST(SideFileRoles, ByKindAndFormat) {
  const std::vector<Diagnostic> none;
  EXPECT_EQ(SideFileRoleOf("calltree", "elf", "perf.data", none), "symbols");
  EXPECT_EQ(SideFileRoleOf("prog", "elf", "gperftools", none), "symbols");
  EXPECT_EQ(SideFileRoleOf("xray_calltree", "elf", "xray", none), "instr-map");
  EXPECT_EQ(SideFileRoleOf("map.yaml", "yaml", "xray", none), "instr-map");
  EXPECT_EQ(SideFileRoleOf("jit-12.dump", "jitdump", "perf.data", none), "jitdump");
  EXPECT_EQ(SideFileRoleOf("perf.data.tar.bz2", "archive", "perf.data", none), "symbols");
  EXPECT_EQ(SideFileRoleOf("kallsyms", "kallsyms", "perf.data", none), "symbols");
  EXPECT_EQ(SideFileRoleOf("notes.txt", "unknown", "perf.data", none), "unused");
}

TEST(SideFileRoles, ReportedUnusedByName) {
  const std::vector<Diagnostic> d = {Unused("side file jit-1.dump (jitdump) is not used by the xray decoder")};
  EXPECT_EQ(SideFileRoleOf("jit-1.dump", "jitdump", "xray", d), "unused");
  // another file's name containing this one's is not this one
  EXPECT_EQ(SideFileRoleOf("1.dump", "jitdump", "xray", d), "jitdump");
  EXPECT_EQ(SideFileRoleOf("jit-1", "jitdump", "xray", d), "jitdump");
  Diagnostic other = Unused("x");
  other.code = DiagCode::kSideFileMismatch;
  other.message = "side file prog (elf) does not match";
  EXPECT_EQ(SideFileRoleOf("prog", "elf", "perf.data", {other}), "symbols");
}

TEST(SideFileRoles, Json) {
  EXPECT_EQ(SideFileRolesJson({}), "[]");
  EXPECT_EQ(SideFileRolesJson({{"a \"b\"", "elf", "symbols"}, {"m.yaml", "yaml", "instr-map"}}),
            "[{\"name\":\"a \\\"b\\\"\",\"kind\":\"elf\",\"role\":\"symbols\"},{\"name\":\"m.yaml\",\"kind\":\"yaml\",\"role\":\"instr-map\"}]");
}

}  // namespace
}  // namespace profscope
