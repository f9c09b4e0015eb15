// perf's search for a separate debug file (core/symbols/debug_file_search.h):
// the candidate paths in dso__load's order, the .gnu_debuglink CRC and
// build-id checks (a mismatch is reported and the next place tried), files
// without symbols, directories, damaged debuglink sections, both byte orders;
// over an in-memory FileAccess. The real libc6-dbg case is in
// tests/corpus/perf_names_corpus_test.cc.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/io/byte_source.h"
#include "core/symbols/debug_file_search.h"

using namespace profscope;
using namespace profscope::symbols;

namespace {

// A minimal ELF64: optional .symtab, build-id note, .gnu_debuglink, .shstrtab.
std::vector<uint8_t> MakeElf(bool big, bool symtab, const std::string& build_id_bytes, const std::string& debuglink,
                             uint32_t crc) {
  std::vector<uint8_t> b(64, 0);
  auto put = [&](size_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (big ? (n - 1 - i) * 8 : i * 8));
  };
  auto add = [&](uint64_t v, int n) {
    size_t at = b.size();
    b.resize(at + static_cast<size_t>(n));
    put(at, v, n);
  };
  auto align = [&](size_t a) { while (b.size() % a) b.push_back(0); };
  b[0] = 0x7f; b[1] = 'E'; b[2] = 'L'; b[3] = 'F'; b[4] = 2; b[5] = big ? 2 : 1; b[6] = 1;
  put(16, 3, 2);
  put(18, 62, 2);
  struct Sec { std::string name; uint32_t type; uint64_t off, size, entsize; };
  std::vector<Sec> secs;
  if (symtab) {
    align(8);
    size_t off = b.size();
    b.resize(off + 48, 0);  // null symbol + one
    secs.push_back({".symtab", 2, off, 48, 24});
  }
  if (!build_id_bytes.empty()) {
    align(4);
    size_t off = b.size();
    add(4, 4); add(build_id_bytes.size(), 4); add(3, 4);
    for (char c : std::string("GNU\0", 4)) b.push_back(static_cast<uint8_t>(c));
    for (char c : build_id_bytes) b.push_back(static_cast<uint8_t>(c));
    secs.push_back({".note.gnu.build-id", 7, off, b.size() - off, 0});
  }
  if (!debuglink.empty()) {
    align(4);
    size_t off = b.size();
    for (char c : debuglink) b.push_back(static_cast<uint8_t>(c));
    b.push_back(0);
    align(4);
    add(crc, 4);
    secs.push_back({".gnu_debuglink", 1, off, b.size() - off, 0});
  }
  std::string sh(1, '\0');
  std::vector<uint32_t> names;
  for (const auto& s : secs) { names.push_back(static_cast<uint32_t>(sh.size())); sh += s.name + '\0'; }
  names.push_back(static_cast<uint32_t>(sh.size()));
  sh += std::string(".shstrtab") + '\0';
  size_t sho = b.size();
  b.insert(b.end(), sh.begin(), sh.end());
  secs.push_back({".shstrtab", 3, sho, sh.size(), 0});
  align(8);
  size_t shoff = b.size();
  b.resize(b.size() + 64, 0);
  for (size_t i = 0; i < secs.size(); ++i) {
    add(names[i], 4); add(secs[i].type, 4); add(0, 8); add(0, 8); add(secs[i].off, 8); add(secs[i].size, 8);
    add(0, 4); add(0, 4); add(1, 8); add(secs[i].entsize, 8);
  }
  put(0x28, shoff, 8);
  put(0x34, 64, 2);
  put(0x3a, 64, 2);
  put(0x3c, secs.size() + 1, 2);
  put(0x3e, secs.size(), 2);
  return b;
}

class Files : public FileAccess {
 public:
  std::map<std::string, std::vector<uint8_t>> files;
  std::set<std::string> dirs;
  std::vector<std::string> opened;
  std::unique_ptr<ByteSource> Open(const std::string& path, std::string* error) override {
    opened.push_back(path);
    auto it = files.find(path);
    if (it == files.end()) {
      *error = "No such file or directory";
      return nullptr;
    }
    return std::make_unique<MemorySource>(it->second);
  }
  bool IsDirectory(const std::string& path) override { return dirs.count(path) > 0; }
};

uint32_t Crc(const std::vector<uint8_t>& v) {
  MemorySource s(v);
  return DebuglinkCrc(s);
}

const std::string kId("\x93\xac\x61\xec", 4);

TEST(DebugFileSearch, Crc32IsTheGnuDebuglinkOne) {
  std::vector<uint8_t> v{'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(Crc(v), 0xcbf43926u);  // the CRC-32 check value
  EXPECT_EQ(Crc({}), 0u);
}

TEST(DebugFileSearch, CandidatesInPerfOrder) {
  DebugInfoRefs r;
  r.elf = true;
  r.build_id = "93ac61ec";
  r.debuglink = "libc.so.6.debug";
  std::vector<std::string> got;
  for (const auto& c : DebugFileCandidates("/usr/lib/x86_64-linux-gnu/libc.so.6", r)) got.push_back(std::string(c.kind) + " " + c.path);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "debuglink libc.so.6.debug",
                     "debuglink /usr/lib/x86_64-linux-gnu/libc.so.6.debug",
                     "debuglink /usr/lib/x86_64-linux-gnu/.debug/libc.so.6.debug",
                     "debuglink /usr/lib/debug/usr/lib/x86_64-linux-gnu/libc.so.6.debug",
                     "ubuntu /usr/lib/debug/usr/lib/x86_64-linux-gnu/libc.so.6",
                     "build-id /usr/lib/debug/.build-id/93/ac61ec.debug",
                     "openembedded /usr/lib/x86_64-linux-gnu/.debug/libc.so.6",
                     "mixedup-ubuntu /usr/lib/debug/lib/x86_64-linux-gnu/libc.so.6",
                 }));
  // (fedora's /usr/lib/debug/PATH.debug equals the last debuglink place here: tried once)
  // A relative path: no /usr/lib/debug/PATH places, the directory is the given one.
  got.clear();
  r.debuglink.clear();
  for (const auto& c : DebugFileCandidates("prog", r)) got.push_back(std::string(c.kind) + " " + c.path);
  EXPECT_EQ(got, (std::vector<std::string>{"build-id /usr/lib/debug/.build-id/93/ac61ec.debug", "openembedded ./.debug/prog"}));
  EXPECT_EQ(BuildIdDebugPath("93ac61ec5a8eb1396f9fbd350e3169a558528a40"),
            "/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug");
}

TEST(DebugFileSearch, ReadsRefsInBothByteOrders) {
  for (bool big : {false, true}) {
    auto bin = MakeElf(big, false, kId, "prog.debug", 0x1234abcd);
    MemorySource s(bin);
    DebugInfoRefs r = ReadDebugInfoRefs(s);
    EXPECT_TRUE(r.elf);
    EXPECT_FALSE(r.has_symtab);
    EXPECT_EQ(r.build_id, "93ac61ec");
    EXPECT_EQ(r.debuglink, "prog.debug");
    EXPECT_EQ(r.debuglink_crc, 0x1234abcdu);
    auto dbg = MakeElf(big, true, kId, "", 0);
    MemorySource d(dbg);
    EXPECT_TRUE(ReadDebugInfoRefs(d).has_symtab);
  }
}

TEST(DebugFileSearch, FindsTheBuildIdDebugFile) {
  Files fs;
  auto bin = MakeElf(false, false, kId, "ac61ec.debug", 0x1111);  // a CRC no file has
  fs.files["/usr/lib/debug/.build-id/93/ac61ec.debug"] = MakeElf(false, true, kId, "", 0);
  MemorySource s(bin);
  DebugFileFound f = FindDebugFile("/lib/x86_64-linux-gnu/libc.so.6", s, fs);
  EXPECT_EQ(f.path, "/usr/lib/debug/.build-id/93/ac61ec.debug");
  EXPECT_STREQ(f.kind, "build-id");
  ASSERT_TRUE(f.source);
  EXPECT_TRUE(f.rejected.empty());
  // The debuglink places were tried first, in perf's order.
  ASSERT_GE(fs.opened.size(), 4u);
  EXPECT_EQ(fs.opened[0], "ac61ec.debug");
  EXPECT_EQ(fs.opened[1], "/lib/x86_64-linux-gnu/ac61ec.debug");
}

TEST(DebugFileSearch, DebuglinkCheckedByCrc) {
  Files fs;
  auto dbg = MakeElf(true, true, "", "", 0);
  auto bin = MakeElf(true, false, "", "prog.debug", Crc(dbg));
  auto other = MakeElf(true, true, kId, "", 0);  // another file of the same name (other bytes)
  fs.files["/opt/app/prog.debug"] = other;
  fs.files["/opt/app/.debug/prog.debug"] = dbg;
  MemorySource s(bin);
  DebugFileFound f = FindDebugFile("/opt/app/prog", s, fs);
  EXPECT_EQ(f.path, "/opt/app/.debug/prog.debug");
  EXPECT_STREQ(f.kind, "debuglink");
  ASSERT_EQ(f.rejected.size(), 1u);
  EXPECT_NE(f.rejected[0].find("/opt/app/prog.debug (debuglink of /opt/app/prog) has CRC"), std::string::npos) << f.rejected[0];
  EXPECT_NE(f.rejected[0].find("not used"), std::string::npos);
}

TEST(DebugFileSearch, BuildIdMismatchReportedNotUsed) {
  Files fs;
  auto bin = MakeElf(false, false, kId, "", 0);
  fs.files["/usr/lib/debug/.build-id/93/ac61ec.debug"] = MakeElf(false, true, std::string("\x01\x02\x03\x04", 4), "", 0);
  MemorySource s(bin);
  DebugFileFound f = FindDebugFile("/usr/bin/prog", s, fs);
  EXPECT_TRUE(f.path.empty());
  EXPECT_FALSE(f.source);
  ASSERT_EQ(f.rejected.size(), 1u);
  EXPECT_EQ(f.rejected[0],
            "/usr/lib/debug/.build-id/93/ac61ec.debug (build-id of /usr/bin/prog) has build-id 01020304, the binary "
            "93ac61ec; not used");
}

TEST(DebugFileSearch, SkipsFilesWithoutSymbolsDirectoriesAndNonElf) {
  Files fs;
  auto bin = MakeElf(false, false, kId, "", 0);
  fs.files["/usr/lib/debug/usr/bin/prog.debug"] = MakeElf(false, false, kId, "", 0);  // fedora place, no .symtab
  fs.dirs.insert("/usr/lib/debug/usr/bin/prog");                                      // ubuntu place is a folder
  fs.files["/usr/lib/debug/.build-id/93/ac61ec.debug"] = {'n', 'o', 't', ' ', 'e', 'l', 'f'};
  fs.files["/usr/bin/.debug/prog"] = MakeElf(false, true, kId, "", 0);               // openembedded place
  MemorySource s(bin);
  DebugFileFound f = FindDebugFile("/usr/bin/prog", s, fs);
  EXPECT_EQ(f.path, "/usr/bin/.debug/prog");
  EXPECT_STREQ(f.kind, "openembedded");
  ASSERT_EQ(f.rejected.size(), 2u);
  EXPECT_NE(f.rejected[0].find("has no symbol table"), std::string::npos);
  EXPECT_NE(f.rejected[1].find("is not an ELF file"), std::string::npos);
}

TEST(DebugFileSearch, NotElfOrDamagedDebuglinkIsSafe) {
  Files fs;
  std::vector<uint8_t> text{'h', 'e', 'l', 'l', 'o'};
  MemorySource t(text);
  EXPECT_TRUE(FindDebugFile("/x", t, fs).path.empty());
  EXPECT_TRUE(fs.opened.empty());
  // Every truncation of a binary with a debuglink: no crash, no read past the end.
  auto bin = MakeElf(false, false, kId, "prog.debug", 5);
  for (size_t n = 0; n < bin.size(); ++n) {
    MemorySource s(bin.data(), n);
    DebugInfoRefs r = ReadDebugInfoRefs(s);
    if (!r.debuglink.empty()) EXPECT_EQ(r.debuglink, "prog.debug");
    (void)FindDebugFile("/usr/bin/prog", s, fs);
  }
  // A debuglink name without its NUL or CRC is ignored.
  auto cut = MakeElf(false, false, "", "prog.debug", 5);
  // overwrite the NUL + padding + CRC with name bytes
  for (size_t i = 0; i + 10 < cut.size(); ++i)
    if (std::string(cut.begin() + static_cast<long>(i), cut.begin() + static_cast<long>(i) + 10) == "prog.debug") {
      for (size_t k = i + 10; k < i + 16; ++k) cut[k] = 'x';
      break;
    }
  MemorySource c(cut);
  EXPECT_EQ(ReadDebugInfoRefs(c).debuglink, "");
}

}  // namespace
