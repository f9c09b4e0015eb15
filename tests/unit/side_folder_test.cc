// Side folders of symbols (core/api/side_folder.h, cli::WalkSideFolder,
// SymbolStore::AddFileLazily): the walk's order and limits, which files are
// offered, the build-id cache and /usr/lib/debug layouts matched by build-id
// first and by file name only without one, a binary with another build-id
// refused, and that unmatched binaries are read for their headers only.
// Over an in-memory host; the real perf case is tests/corpus/perf_symdirs_corpus_test.cc.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/api/cli.h"
#include "core/api/side_folder.h"
#include "core/format/elf/elf_reader.h"
#include "core/io/byte_source.h"
#include "core/symbols/symbol_store.h"

using namespace profscope;

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> ReadAll(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

const fs::path kCase = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf_symdirs/symdir_fp";
const std::string kProgram = "/opt/demo/run/symdir_fp/symdir";
const std::string kProgramId = "e49c2093c7ba4d107d73e668b750eb5debb397e0";

std::vector<uint8_t> Text(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// Files by path; folders are the prefixes of the paths (and `dirs`).
class MemHost : public cli::Host {
 public:
  std::map<std::string, std::vector<uint8_t>> files;
  std::set<std::string> dirs;
  size_t opened = 0;
  void Add(const std::string& path, std::vector<uint8_t> bytes) {
    files[path] = std::move(bytes);
    for (size_t s = path.find('/'); s != std::string::npos; s = path.find('/', s + 1)) dirs.insert(path.substr(0, s));
  }
  std::unique_ptr<ByteSource> Open(const std::string& path, std::string* error) override {
    auto it = files.find(path);
    if (it == files.end()) {
      *error = "No such file or directory";
      return nullptr;
    }
    ++opened;
    return std::make_unique<MemorySource>(it->second);
  }
  bool IsDirectory(const std::string& path) override { return dirs.count(path) > 0; }
  std::vector<std::string> List(const std::string& dir) override {
    std::set<std::string> names;
    const std::string prefix = dir + "/";
    for (const auto& [p, b] : files)
      if (p.compare(0, prefix.size(), prefix) == 0) names.insert(p.substr(prefix.size(), p.find('/', prefix.size()) - prefix.size()));
    // unsorted on purpose: the walk sorts
    return std::vector<std::string>(names.rbegin(), names.rend());
  }
  bool WriteFile(const std::string&, std::string_view, std::string*) override { return false; }
};

// Counts the bytes read from it.
class CountingSource : public ByteSource {
 public:
  explicit CountingSource(const std::vector<uint8_t>& b) : inner_(b) {}
  uint64_t size() const override { return inner_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    size_t n = inner_.Read(offset, dst, len);
    read += n;
    return n;
  }
  uint64_t read = 0;

 private:
  MemorySource inner_;
};

std::vector<std::string> Paths(const cli::SideFolder& f) {
  std::vector<std::string> out;
  for (const auto& x : f.files) out.push_back(x.path);
  return out;
}

}  // namespace

TEST(SideFolderWalk, OffersElfKallsymsAndTarballsInNameOrder) {
  const std::vector<uint8_t> elf = ReadAll(kCase / "symdir");
  ASSERT_FALSE(elf.empty());
  MemHost h;
  h.Add("cache/.build-id/e4/9c2093c7ba4d107d73e668b750eb5debb397e0", elf);
  h.Add("cache/opt/demo/run/symdir_fp/symdir/" + kProgramId + "/elf", elf);
  h.Add("cache/opt/demo/run/symdir_fp/symdir/" + kProgramId + "/probes", {});
  h.Add("cache/[kernel.kallsyms]/85c7/kallsyms", Text("ffffffff81000000 T _text\nffffffff81000010 T start_kernel\n"));
  h.Add("cache/README.txt", Text("not a binary\n"));
  h.Add("cache/a.tar.gz", {0x1f, 0x8b, 8, 0, 0, 0, 0, 0});
  cli::SideFolder f = cli::WalkSideFolder("cache/", h);
  EXPECT_EQ(f.folder, "cache");
  EXPECT_FALSE(f.capped);
  // a folder's files before its sub-folders, each level in name order
  EXPECT_EQ(Paths(f), (std::vector<std::string>{
                          "cache/a.tar.gz",
                          "cache/.build-id/e4/9c2093c7ba4d107d73e668b750eb5debb397e0",
                          "cache/[kernel.kallsyms]/85c7/kallsyms",
                          "cache/opt/demo/run/symdir_fp/symdir/" + kProgramId + "/elf",
                      }));
}

TEST(SideFolderWalk, StopsAtTheFileLimitAndSaysSo) {
  const std::vector<uint8_t> elf = ReadAll(kCase / "symdir");
  MemHost h;
  for (size_t i = 0; i < SideFolderLimits::kMaxFiles + 5; ++i) h.Add("bins/b" + std::to_string(100000 + i), elf);
  cli::SideFolder f = cli::WalkSideFolder("bins", h);
  EXPECT_TRUE(f.capped);
  EXPECT_EQ(f.files.size(), SideFolderLimits::kMaxFiles);
  EXPECT_EQ(f.files.front().path, "bins/b100000");
  EXPECT_NE(SideFolderLimitNote("bins").find("at most 20000 entries, 16 folders deep, 512 ELF/kallsyms files"), std::string::npos);
}

TEST(SideFolderWalk, StopsAtTheEntryAndDepthLimits) {
  MemHost h;
  for (size_t i = 0; i < SideFolderLimits::kMaxEntries + 1; ++i) h.Add("many/t" + std::to_string(100000 + i), Text("x"));
  cli::SideFolder f = cli::WalkSideFolder("many", h);
  EXPECT_TRUE(f.capped);
  EXPECT_TRUE(f.files.empty());
  // a file 17 folders down is not reached; one 16 down is
  const std::vector<uint8_t> elf = ReadAll(kCase / "symdir");
  MemHost d;
  std::string p = "deep";
  for (int i = 0; i < SideFolderLimits::kMaxDepth; ++i) p += "/d";
  d.Add(p + "/ok", elf);
  d.Add(p + "/d/too_deep", elf);
  cli::SideFolder g = cli::WalkSideFolder("deep", d);
  EXPECT_TRUE(g.capped);
  EXPECT_EQ(Paths(g), std::vector<std::string>{p + "/ok"});
}

TEST(SideFolderStore, BuildIdCacheLayoutsMatchByBuildIdAndReadOnlyTheMatch) {
  const std::vector<uint8_t> prog = ReadAll(kCase / "symdir");
  const std::vector<uint8_t> other = ReadAll(kCase / "mismatch/opt/demo/run/symdir_fp/symdir");
  ASSERT_FALSE(other.empty());
  for (const std::string& layout : std::vector<std::string>{".build-id/e4/9c2093c7ba4d107d73e668b750eb5debb397e0",
                                   "opt/demo/run/symdir_fp/symdir/" + kProgramId + "/elf",
                                   "usr/lib/debug/.build-id/e4/9c2093c7ba4d107d73e668b750eb5debb397e0.debug",
                                   "anything/renamed"}) {
    SCOPED_TRACE(layout);
    symbols::SymbolStore st;
    CountingSource match(prog), unrelated(other);
    st.AddFileLazily(layout, match, "folder");
    st.AddFileLazily("bin/unrelated", unrelated, "folder");
    int32_t d = st.Dso(kProgram, kProgramId, false);
    // leaf_a at 0x401000 = file offset 0x1000 (perf script's "leaf_a+0x23" at 0x1023)
    const symbols::Symbol* s = st.Find(d, 0x1023);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name, "leaf_a");
    EXPECT_EQ(st.SourceOf(d), layout);
    st.Finish();
    EXPECT_TRUE(st.problems().empty()) << st.problems()[0].message;
    EXPECT_EQ(match.read >= prog.size(), true);
    // the other binary: headers only
    EXPECT_LT(unrelated.read, other.size() / 2);
  }
}

TEST(SideFolderStore, ByFileNameOnlyWithoutABuildIdAndNeverAnotherBuildId) {
  const std::vector<uint8_t> prog = ReadAll(kCase / "symdir");
  const std::vector<uint8_t> other = ReadAll(kCase / "mismatch/opt/demo/run/symdir_fp/symdir");
  {
    // the recording has a build-id, the folder's "symdir" another one: reported, never used
    symbols::SymbolStore st;
    MemorySource src(other);
    st.AddFileLazily("opt/demo/run/symdir_fp/symdir", src, "mismatch");
    int32_t d = st.Dso(kProgram, kProgramId, false);
    EXPECT_EQ(st.Find(d, 0x1023), nullptr);
    st.Finish();
    ASSERT_EQ(st.problems().size(), 1u);
    EXPECT_NE(st.problems()[0].message.find("has build-id"), std::string::npos);
    EXPECT_NE(st.problems()[0].message.find("not used"), std::string::npos);
    EXPECT_FALSE(st.problems()[0].unused);
  }
  {
    // no build-id recorded: the file name decides
    symbols::SymbolStore st;
    MemorySource src(prog);
    st.AddFileLazily("bin/symdir", src, "plain");
    int32_t d = st.Dso(kProgram, "", false);
    ASSERT_TRUE(st.Find(d, 0x1057));
    EXPECT_EQ(st.Find(d, 0x1057)->name, "leaf_b");
  }
  {
    // a folder that matches nothing is reported once, by its name
    symbols::SymbolStore st;
    MemorySource a(prog), b(other);
    MemorySource t(std::vector<uint8_t>{'h', 'i'});
    st.AddFileLazily("x/one", a, "unrelated");
    st.AddFileLazily("x/two", b, "unrelated");
    st.AddFileLazily("notes", t, "unrelated");
    st.Dso("/usr/bin/else", "00112233445566778899aabbccddeeff00112233", false);
    st.Finish();
    ASSERT_EQ(st.problems().size(), 1u);
    EXPECT_TRUE(st.problems()[0].unused);
    EXPECT_EQ(st.problems()[0].message, "unrelated matches no DSO of this recording by build-id or file name; not used");
  }
}

TEST(SideFolderStore, ADamagedElfIsReportedNotUsed) {
  std::vector<uint8_t> prog = ReadAll(kCase / "symdir");
  prog.resize(40);  // the ELF header is cut
  symbols::SymbolStore st;
  MemorySource src(prog);
  st.AddFileLazily(".build-id/e4/9c2093c7ba4d107d73e668b750eb5debb397e0", src, "cut");
  int32_t d = st.Dso(kProgram, kProgramId, false);
  EXPECT_EQ(st.Find(d, 0x1023), nullptr);
  st.Finish();
  ASSERT_FALSE(st.problems().empty());
}

// A kernel module file, plain or compressed (perf reads .ko.xz/.gz/.zst), in a
// folder: matched to the module's mapping by its name ([demo_mod]); the
// compressed one is decompressed only when it matches. The module here is a
// stand-in (tests/data/perf_symdirs/module/produce.sh): this machine's kernel
// has no modules, so the address rule (ip - the module map's start, symbols at
// their .text values) is profscope's, not checked against perf.
TEST(SideFolderStore, KernelModuleFilesPlainAndXzMatchedByName) {
  const fs::path dir = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf_symdirs/module";
  for (const std::string file : std::vector<std::string>{"demo-mod.ko", "demo-mod.ko.xz"}) {
    SCOPED_TRACE(file);
    const std::vector<uint8_t> bytes = ReadAll(dir / file);
    ASSERT_FALSE(bytes.empty());
    symbols::SymbolStore st;
    CountingSource src(bytes);
    st.AddFileLazily("lib/modules/6.1.0/kernel/demo/" + file, src, "modules");
    const uint64_t after_add = src.read;
    int32_t m = st.Dso("[demo_mod]", "", true);
    EXPECT_EQ(st.DsoName(m), "[demo_mod]");
    st.SetModuleMap(m, 0xffffffffc0a00000ull);
    if (file == "demo-mod.ko.xz") EXPECT_LE(after_add, 16u);  // only its magic was read
    const symbols::Symbol* s = st.Find(m, 0x10);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name, "demo_mod_loop");
    ASSERT_TRUE(st.Find(m, 0x2));
    EXPECT_EQ(st.Find(m, 0x2)->name, "demo_mod_add");
    st.Finish();
    EXPECT_TRUE(st.problems().empty()) << st.problems()[0].message;
  }
  // a damaged .xz: reported, not used
  std::vector<uint8_t> cut = ReadAll(dir / "demo-mod.ko.xz");
  cut.resize(cut.size() / 2);
  symbols::SymbolStore st;
  MemorySource src(cut);
  st.AddFileLazily("demo-mod.ko.xz", src, "modules");
  int32_t m = st.Dso("[demo_mod]", "", true);
  EXPECT_EQ(st.Find(m, 0x10), nullptr);
  st.Finish();
  ASSERT_FALSE(st.problems().empty());
  EXPECT_NE(st.problems()[0].message.find("demo-mod.ko.xz"), std::string::npos);
}
