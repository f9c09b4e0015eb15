// `profscope script perf.data --symbols DIR` on a real recording
// (tests/data/perf_symdirs/symdir_fp, its produce.sh): the build-id cache perf
// record wrote, a usr/lib/debug/.build-id tree with the stripped program, a
// plain folder with the program renamed — each names every frame as perf 6.1
// did from the cache (script_cache.txt, byte for byte) — and a folder holding
// another build of the program at the recorded path, which perf refuses
// (script_mismatch.txt) and profscope reports, never uses. Through the command
// line (core/api/cli.h) over the real files, symbolic links followed.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "core/api/cli.h"
#include "core/api/output_sink.h"
#include "core/api/session.h"
#include "core/io/file_source.h"
#include "tests/corpus/corpus_util.h"

using namespace profscope;
namespace fs = std::filesystem;

namespace {

const fs::path kCase = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf_symdirs/symdir_fp";

class FsHost : public cli::Host {
 public:
  std::unique_ptr<ByteSource> Open(const std::string& path, std::string* error) override {
    return OpenFileSource(path, error);
  }
  bool IsDirectory(const std::string& path) override {
    std::error_code ec;
    return fs::is_directory(path, ec);
  }
  std::vector<std::string> List(const std::string& dir) override {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path().filename().string());
    return out;
  }
  bool WriteFile(const std::string&, std::string_view, std::string*) override { return false; }
};

struct Ran {
  int status = 0;
  std::string out, err;
};

Ran RunCli(std::vector<std::string> args) {
  Ran r;
  FsHost host;
  {
    StringSink out(r.out), err(r.err);
    r.status = cli::Run(args, host, out, err);
  }
  return r;
}

std::string Data() { return (kCase / "perf.data").string(); }

// What the page's file list says of the side folder: Session::SideFilesJson.
std::string SideRoles(const std::string& dir) {
  FsHost host;
  std::string error;
  std::unique_ptr<ByteSource> main = host.Open(Data(), &error);
  cli::SideFolder f = cli::WalkSideFolder(dir, host);
  Session s(*main, "perf.data");
  for (auto& file : f.files) s.AddSideFolderFile(*file.source, file.path, f.folder);
  s.NoteSideFolder(f.folder, f.capped, f.files.size());
  s.Decode();
  return s.SideFilesJson();
}

}  // namespace

class SymbolFolders : public ::testing::TestWithParam<std::string> {};

TEST_P(SymbolFolders, ScriptNamesEqualPerfsFromTheBuildIdCache) {
  if (!fs::exists(kCase / "perf.data")) GTEST_SKIP() << "no perf_symdirs case";
  const std::string want = corpus::ReadText(kCase / "script_cache.txt");
  ASSERT_NE(want.find("leaf_a+0x23 (/opt/demo/run/symdir_fp/symdir)"), std::string::npos);
  Ran r = RunCli({"script", Data(), "--symbols", (kCase / GetParam()).string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, want);
  // nothing is listed as missing for the program any more, and no side file is reported
  Ran info = RunCli({"info", Data(), "--symbols", (kCase / GetParam()).string()});
  EXPECT_EQ(info.out.find("\"path\":\"/opt/demo/run/symdir_fp/symdir\""), std::string::npos) << info.out;
  EXPECT_EQ(info.out.find("side_file_"), std::string::npos) << info.out;
  const std::string dir = (kCase / GetParam()).string();
  EXPECT_EQ(SideRoles(dir), "[{\"name\":\"" + dir + "\",\"kind\":\"folder\",\"role\":\"symbols\"}]");
}

INSTANTIATE_TEST_SUITE_P(Layouts, SymbolFolders, ::testing::Values("cache", "debugdir", "plain"));

TEST(SymbolFolders, AnotherBuildIsRefusedAsPerfRefusesIt) {
  if (!fs::exists(kCase / "perf.data")) GTEST_SKIP() << "no perf_symdirs case";
  const std::string want = corpus::ReadText(kCase / "script_mismatch.txt");
  ASSERT_NE(want.find("[unknown] (/opt/demo/run/symdir_fp/symdir)"), std::string::npos);
  const std::string dir = (kCase / "mismatch").string();
  Ran r = RunCli({"script", Data(), "--symbols", dir});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, want);
  Ran info = RunCli({"info", Data(), "--symbols", dir});
  // the mismatch, with the folder's file and both build-ids; the program stays missing
  EXPECT_NE(info.out.find("side_file_mismatch"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("opt/demo/run/symdir_fp/symdir has build-id"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("was recorded with e49c2093c7ba4d107d73e668b750eb5debb397e0: not used"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"path\":\"/opt/demo/run/symdir_fp/symdir\""), std::string::npos) << info.out;
}

// One folder holding both the build-id cache and, at the recorded path, another build of the
// program: the cache's entry names every frame as perf did, and the other build is reported by
// its path in the folder with both build-ids, never used (no file of a used folder is ignored silently).
TEST(SymbolFolders, AnotherBuildInsideAUsedFolderIsReported) {
  if (!fs::exists(kCase / "perf.data")) GTEST_SKIP() << "no perf_symdirs case";
  const fs::path mixed = fs::temp_directory_path() / "profscope_symdirs_mixed";
  fs::remove_all(mixed);
  fs::create_directories(mixed);
  fs::copy(kCase / "cache", mixed / "cache", fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::copy(kCase / "mismatch", mixed, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  Ran r = RunCli({"script", Data(), "--symbols", mixed.string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, corpus::ReadText(kCase / "script_cache.txt"));
  Ran info = RunCli({"info", Data(), "--symbols", mixed.string()});
  EXPECT_NE(info.out.find("\"side_file_mismatch\""), std::string::npos) << info.out;
  EXPECT_NE(info.out.find(mixed.string() + ": opt/demo/run/symdir_fp/symdir has build-id a4932882b3dda40f7a126582a1fa54a8c432718c but "
                          "/opt/demo/run/symdir_fp/symdir was recorded with e49c2093c7ba4d107d73e668b750eb5debb397e0: not used"),
            std::string::npos)
      << info.out;
  EXPECT_EQ(info.out.find("\"path\":\"/opt/demo/run/symdir_fp/symdir\""), std::string::npos) << info.out;  // not missing
  fs::remove_all(mixed);
}

TEST(SymbolFolders, AFolderWithoutBinariesIsReported) {
  if (!fs::exists(kCase / "perf.data")) GTEST_SKIP() << "no perf_symdirs case";
  const fs::path empty = fs::temp_directory_path() / "profscope_symdirs_empty";
  fs::create_directories(empty / "sub");
  { std::FILE* f = std::fopen((empty / "sub" / "notes.txt").string().c_str(), "wb"); std::fputs("hello\n", f); std::fclose(f); }
  Ran info = RunCli({"info", Data(), "--symbols", empty.string()});
  EXPECT_NE(info.out.find("side folder " + empty.string() + " holds no ELF file, kallsyms or tarball; not used"), std::string::npos)
      << info.out;
  EXPECT_EQ(SideRoles(empty.string()), "[]");  // nothing offered: the folder shows in its diagnostic only
  fs::remove_all(empty);
}

// ---- the kernel from a vmlinux (tests/data/perf_symdirs/vmlinux_fp, its produce.sh) ----

namespace {

const fs::path kKernelCase = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf_symdirs/vmlinux_fp";

// The kernel frame lines of a perf script text ("addr sym+off ([kernel.kallsyms])").
std::vector<std::string> KernelLines(const std::string& text) {
  std::vector<std::string> out;
  for (const std::string& l : corpus::Lines(text))
    if (l.find("([kernel.kallsyms])") != std::string::npos) out.push_back(l);
  return out;
}

}  // namespace

class KernelVmlinux : public ::testing::TestWithParam<std::string> {};

// The vmlinux alone, or the case's folder (vmlinux, vmlinux.other, the program). The
// vmlinux is linked 16 MiB below the recorded kernel: perf and profscope relocate by
// the recorded "_text" (whose alias "_stext" is the symbol kept at that address).
TEST_P(KernelVmlinux, KernelFramesEqualPerfScriptWithVmlinux) {
  if (!fs::exists(kKernelCase / "perf.data")) GTEST_SKIP() << "no vmlinux case";
  const std::vector<std::string> want = KernelLines(corpus::ReadText(kKernelCase / "script_vmlinux.txt"));
  ASSERT_GT(want.size(), 3000u);
  ASSERT_EQ(want[0], "\tffffffff81775b9a elf_load+0x28a ([kernel.kallsyms])");
  const std::string side = GetParam() == "folder" ? kKernelCase.string() : (kKernelCase / "vmlinux").string();
  Ran r = RunCli({"script", (kKernelCase / "perf.data").string(), "--symbols", side});
  EXPECT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> got = KernelLines(r.out);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << "kernel frame line " << i;
  Ran info = RunCli({"info", (kKernelCase / "perf.data").string(), "--symbols", side});
  // the kernel is no longer missing
  EXPECT_EQ(info.out.find("\"dso\":\"[kernel.kallsyms]\""), std::string::npos) << info.out;
  // the user frames of the folder's program are named too (by its build-id)
  if (GetParam() == "folder") EXPECT_NE(r.out.find(" main+0x"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Given, KernelVmlinux, ::testing::Values("file", "folder"));

TEST(KernelVmlinuxRefused, AnotherBuildIdNamesNothingAndTheAdviceNamesTheFile) {
  if (!fs::exists(kKernelCase / "perf.data")) GTEST_SKIP() << "no vmlinux case";
  const std::string data = (kKernelCase / "perf.data").string();
  Ran r = RunCli({"script", data, "--symbols", (kKernelCase / "vmlinux.other").string()});
  for (const std::string& l : KernelLines(r.out)) ASSERT_NE(l.find("[unknown] ([kernel.kallsyms])"), std::string::npos) << l;
  Ran info = RunCli({"info", data, "--symbols", (kKernelCase / "vmlinux.other").string()});
  EXPECT_NE(info.out.find("\"dso\":\"[kernel.kallsyms]\""), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("or drop the recording machine's /proc/kallsyms or its vmlinux (build-id 85c7e4e2ed76"), std::string::npos)
      << info.out;
  EXPECT_NE(info.out.find("vmlinux.other has build-id 00112233445566778899aabbccddeeff00112233, the recorded kernel "
                          "85c7e4e2ed76f4417e8aaad7c6b040d2bb897a26: not used"),
            std::string::npos)
      << info.out;
}
