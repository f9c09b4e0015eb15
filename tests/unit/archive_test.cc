// The tar reader (every header form, truncations, damage, bombs) and each
// decompressor path, on archives made here byte by byte.
#include <gtest/gtest.h>

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/archive/byte_stream.h"
#include "core/archive/tar_reader.h"

using namespace profscope;
using namespace profscope::archive;

namespace {

// A tar header block with a right checksum.
std::vector<uint8_t> Header(const std::string& name, char flag, uint64_t size, const std::string& link = "",
                            bool ustar = true, bool base256 = false) {
  std::vector<uint8_t> h(512, 0);
  std::memcpy(h.data(), name.data(), std::min<size_t>(name.size(), 100));
  std::snprintf(reinterpret_cast<char*>(h.data() + 100), 8, "%07o", 0644);
  std::snprintf(reinterpret_cast<char*>(h.data() + 108), 8, "%07o", 0);
  std::snprintf(reinterpret_cast<char*>(h.data() + 116), 8, "%07o", 0);
  if (base256) {
    h[124] = 0x80;
    for (int i = 0; i < 8; ++i) h[135 - i] = static_cast<uint8_t>(size >> (8 * i));
  } else {
    std::snprintf(reinterpret_cast<char*>(h.data() + 124), 12, "%011llo", static_cast<unsigned long long>(size));
  }
  std::snprintf(reinterpret_cast<char*>(h.data() + 136), 12, "%011o", 0);
  h[156] = static_cast<uint8_t>(flag);
  std::memcpy(h.data() + 157, link.data(), std::min<size_t>(link.size(), 100));
  if (ustar) std::memcpy(h.data() + 257, "ustar\0" "00", 8);
  std::memset(h.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (uint8_t c : h) sum += c;
  std::snprintf(reinterpret_cast<char*>(h.data() + 148), 8, "%06o", sum);
  h[155] = ' ';
  return h;
}

void Append(std::vector<uint8_t>& t, const std::vector<uint8_t>& h, const std::string& data = "") {
  t.insert(t.end(), h.begin(), h.end());
  t.insert(t.end(), data.begin(), data.end());
  t.resize((t.size() + 511) / 512 * 512, 0);
}

void End(std::vector<uint8_t>& t) { t.resize(t.size() + 1024, 0); }

TarResult Read(const std::vector<uint8_t>& bytes, TarOptions opt = {}) {
  MemorySource src(bytes);
  Window w(src);
  return ReadTarFile(w, opt);
}

std::string Pax(const std::string& key, const std::string& value) {
  std::string rec = " " + key + "=" + value + "\n";
  size_t len = rec.size();
  std::string n = std::to_string(len);
  while (std::to_string(len + n.size()) != n) n = std::to_string(len + n.size());
  return std::to_string(len + n.size()) + rec;
}

std::vector<uint8_t> PerfArchiveLike() {
  std::vector<uint8_t> t;
  const std::string bid = "0406d1fdeca0551075d37638183cd0cae417a01c";
  Append(t, Header(".build-id/04/" + bid.substr(2), '2', 0, "../../opt/demo/mt/" + bid));
  Append(t, Header("opt/demo/mt/" + bid + "/", '5', 0));
  Append(t, Header("opt/demo/mt/" + bid + "/elf", '0', 7), "\x7f" "ELFxyz");
  Append(t, Header("opt/demo/mt/" + bid + "/hard", '1', 0, "opt/demo/mt/" + bid + "/elf"));
  End(t);
  return t;
}

}  // namespace

TEST(Tar, UstarEntriesOfEveryKind) {
  TarResult r = Read(PerfArchiveLike());
  EXPECT_TRUE(r.is_tar);
  EXPECT_TRUE(r.problems.empty());
  ASSERT_EQ(r.entries.size(), 4u);
  EXPECT_EQ(r.entries[0].type, EntryType::kSymlink);
  EXPECT_EQ(r.entries[0].path, ".build-id/04/06d1fdeca0551075d37638183cd0cae417a01c");
  EXPECT_EQ(r.entries[0].link, "../../opt/demo/mt/0406d1fdeca0551075d37638183cd0cae417a01c");
  EXPECT_EQ(r.entries[1].type, EntryType::kDirectory);
  EXPECT_EQ(r.entries[2].type, EntryType::kFile);
  EXPECT_TRUE(r.entries[2].kept);
  EXPECT_EQ(std::string(r.entries[2].data.begin(), r.entries[2].data.end()), "\x7f" "ELFxyz");
  EXPECT_EQ(r.entries[2].header_offset, 1024u);
  EXPECT_EQ(r.entries[3].type, EntryType::kHardlink);
  EXPECT_EQ(r.entries[3].link, "opt/demo/mt/0406d1fdeca0551075d37638183cd0cae417a01c/elf");
}

TEST(Tar, UstarPrefixAndDotSlash) {
  std::vector<uint8_t> t;
  auto h = Header("file.txt", '0', 2);
  std::memcpy(h.data() + 345, "./deep/dir", 10);
  // recompute the checksum
  std::memset(h.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (uint8_t c : h) sum += c;
  std::snprintf(reinterpret_cast<char*>(h.data() + 148), 8, "%06o", sum);
  Append(t, h, "ok");
  End(t);
  TarResult r = Read(t);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].path, "deep/dir/file.txt");
}

TEST(Tar, GnuLongNameAndLongLink) {
  std::string longname(300, 'a');
  longname += "/elf";
  std::string longlink(200, 'b');
  std::vector<uint8_t> t;
  Append(t, Header("././@LongLink", 'L', longname.size() + 1, "", false), longname + std::string(1, '\0'));
  Append(t, Header("short", '0', 3, "", false), "abc");
  Append(t, Header("././@LongLink", 'K', longlink.size(), "", false), longlink);
  Append(t, Header("lnk", '2', 0, "x", false));
  End(t);
  TarResult r = Read(t);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].path, longname);
  EXPECT_EQ(r.entries[0].header_offset, 0u);  // its first (long-name) header
  EXPECT_EQ(r.entries[1].link, longlink);
  EXPECT_TRUE(r.problems.empty());
}

TEST(Tar, PaxPathLinkpathSize) {
  std::vector<uint8_t> t;
  std::string pax = Pax("path", "pax/named/file") + Pax("size", "5") + Pax("mtime", "1.5");
  Append(t, Header("PaxHeaders/x", 'x', pax.size()), pax);
  Append(t, Header("ignored", '0', 0), "hello");  // pax size overrides 0
  std::string pax2 = Pax("linkpath", std::string(150, 'l'));
  Append(t, Header("PaxHeaders/y", 'x', pax2.size()), pax2);
  Append(t, Header("ln", '2', 0, "short"));
  End(t);
  TarResult r = Read(t);
  ASSERT_EQ(r.entries.size(), 2u) << (r.problems.empty() ? "" : r.problems[0].message);
  EXPECT_EQ(r.entries[0].path, "pax/named/file");
  EXPECT_EQ(std::string(r.entries[0].data.begin(), r.entries[0].data.end()), "hello");
  EXPECT_EQ(r.entries[1].link, std::string(150, 'l'));
}

TEST(Tar, MalformedPaxIsReportedAndIgnored) {
  std::vector<uint8_t> t;
  std::string bad = "99 path=x\n";
  Append(t, Header("PaxHeaders/x", 'x', bad.size()), bad);
  Append(t, Header("plain", '0', 1), "z");
  End(t);
  TarResult r = Read(t);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].path, "plain");
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].message.find("pax"), std::string::npos);
}

TEST(Tar, Base256Size) {
  std::vector<uint8_t> t;
  Append(t, Header("big", '0', 4, "", false, true), "data");
  End(t);
  TarResult r = Read(t);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].size, 4u);
  EXPECT_EQ(std::string(r.entries[0].data.begin(), r.entries[0].data.end()), "data");
}

TEST(Tar, BadChecksumStopsWithOffsetAndKeepsEarlierEntries) {
  std::vector<uint8_t> t = PerfArchiveLike();
  t[2048 + 10] ^= 0x55;  // the 4th header (hard link) at 2048
  TarResult r = Read(t);
  ASSERT_EQ(r.entries.size(), 3u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].offset, 2048u);
  EXPECT_NE(r.problems[0].message.find("checksum"), std::string::npos);
}

TEST(Tar, EveryTruncationGivesAProblemNoCrash) {
  std::vector<uint8_t> full = PerfArchiveLike();
  for (size_t n = 0; n < full.size(); n += 37) {
    std::vector<uint8_t> cut(full.begin(), full.begin() + static_cast<long>(n));
    TarResult r = Read(cut);
    if (n < 512) {
      EXPECT_FALSE(r.is_tar);
      continue;
    }
    // A lone end-of-archive block is accepted (as tar does); any shorter cut is a problem.
    if (n < 2560 + 512) EXPECT_FALSE(r.problems.empty()) << n;
    for (const auto& p : r.problems) EXPECT_LE(p.offset, n) << n;
  }
}

TEST(Tar, NotATar) {
  std::vector<uint8_t> junk(2048, 'x');
  TarResult r = Read(junk);
  EXPECT_FALSE(r.is_tar);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].offset, 0u);
}

TEST(Tar, KeepFilterAndMemoryBudget) {
  std::vector<uint8_t> t;
  Append(t, Header("a.elf", '0', 6), "\x7f" "ELF!!");
  Append(t, Header("notes.txt", '0', 5), "hello");
  Append(t, Header("b.elf", '0', 6), "\x7f" "ELF??");
  End(t);
  TarOptions opt;
  opt.keep = [](const std::string&, uint64_t, const uint8_t* h, size_t n) { return n >= 4 && std::memcmp(h, "\x7f" "ELF", 4) == 0; };
  opt.max_kept_bytes = 8;
  TarResult r = Read(t, opt);
  ASSERT_EQ(r.entries.size(), 3u);
  EXPECT_TRUE(r.entries[0].kept);
  EXPECT_FALSE(r.entries[1].kept);
  EXPECT_FALSE(r.entries[2].kept);  // over the 8-byte budget
  EXPECT_EQ(r.kept_bytes, 6u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].message.find("budget"), std::string::npos);
}

// ---- decompressors -------------------------------------------------------

namespace {

std::vector<uint8_t> Gzip(const std::vector<uint8_t>& in) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::vector<uint8_t> out(deflateBound(&z, in.size()) + 64);
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
std::vector<uint8_t> Bzip2(const std::vector<uint8_t>& in) {
  std::vector<uint8_t> out(in.size() + in.size() / 50 + 1024);
  unsigned n = static_cast<unsigned>(out.size());
  BZ2_bzBuffToBuffCompress(reinterpret_cast<char*>(out.data()), &n, const_cast<char*>(reinterpret_cast<const char*>(in.data())),
                           static_cast<unsigned>(in.size()), 9, 0, 0);
  out.resize(n);
  return out;
}
std::vector<uint8_t> Xz(const std::vector<uint8_t>& in) {
  std::vector<uint8_t> out(lzma_stream_buffer_bound(in.size()));
  size_t pos = 0;
  lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, in.data(), in.size(), out.data(), &pos, out.size());
  out.resize(pos);
  return out;
}
std::vector<uint8_t> Zstd(const std::vector<uint8_t>& in) {
  std::vector<uint8_t> out(ZSTD_compressBound(in.size()));
  out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3));
  return out;
}

using Packer = std::vector<uint8_t> (*)(const std::vector<uint8_t>&);

struct Codec {
  const char* name;
  Compression c;
  Packer pack;
};

const Codec kCodecs[] = {{"gzip", Compression::kGzip, Gzip},
                         {"bzip2", Compression::kBzip2, Bzip2},
                         {"xz", Compression::kXz, Xz},
                         {"zstd", Compression::kZstd, Zstd}};

}  // namespace

class Codecs : public ::testing::TestWithParam<Codec> {};

TEST_P(Codecs, DetectedByContentAndReadAsTar) {
  std::vector<uint8_t> packed = GetParam().pack(PerfArchiveLike());
  EXPECT_EQ(DetectCompression(packed.data(), packed.size()), GetParam().c);
  TarResult r = Read(packed);
  EXPECT_EQ(r.compression, GetParam().c);
  EXPECT_TRUE(r.problems.empty());
  ASSERT_EQ(r.entries.size(), 4u);
  EXPECT_EQ(std::string(r.entries[2].data.begin(), r.entries[2].data.end()), "\x7f" "ELFxyz");
}

TEST_P(Codecs, TruncatedStreamIsReportedInCompressedOffsets) {
  std::vector<uint8_t> tar = PerfArchiveLike();
  std::string big(200000, 'q');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + (i * 7919 % 26));
  tar.resize(tar.size() - 1024);
  Append(tar, Header("big.bin", '0', big.size()), big);
  End(tar);
  std::vector<uint8_t> packed = GetParam().pack(tar);
  packed.resize(packed.size() / 2);
  TarResult r = Read(packed);
  ASSERT_FALSE(r.problems.empty());
  bool compressed = false;
  for (const auto& p : r.problems) compressed = compressed || (p.compressed && p.offset <= packed.size());
  EXPECT_TRUE(compressed) << r.problems[0].message;
}

TEST_P(Codecs, DamagedStreamGivesAProblemNoHang) {
  std::vector<uint8_t> packed = GetParam().pack(PerfArchiveLike());
  for (size_t i = 16; i < packed.size(); i += 3) packed[i] ^= 0xa5;
  TarResult r = Read(packed);
  EXPECT_FALSE(r.problems.empty());
}

TEST_P(Codecs, DecompressionBombStopsAtTheBudget) {
  // 64 MiB of zeros after a valid header: compresses to a few KiB.
  std::vector<uint8_t> tar = Header("bomb", '0', uint64_t{64} << 20);
  tar.resize(tar.size() + (size_t{64} << 20), 0);
  std::vector<uint8_t> packed = GetParam().pack(tar);
  EXPECT_LT(packed.size(), size_t{1} << 20);
  TarOptions opt;
  opt.max_stream_bytes = 4 << 20;
  TarResult r = Read(packed, opt);
  ASSERT_FALSE(r.problems.empty());
  EXPECT_NE(r.problems.back().message.find("limit"), std::string::npos);
  EXPECT_LE(r.stream_bytes, uint64_t{4} << 20);
  EXPECT_EQ(r.kept_bytes, 0u);
}

INSTANTIATE_TEST_SUITE_P(All, Codecs, ::testing::ValuesIn(kCodecs), [](const auto& info) { return std::string(info.param.name); });

TEST(ByteStream, PlainAndConcatenatedGzipMembers) {
  std::vector<uint8_t> a = {'a', 'b'}, b = {'c'};
  std::vector<uint8_t> both = Gzip(a);
  auto gb = Gzip(b);
  both.insert(both.end(), gb.begin(), gb.end());
  MemorySource src(both);
  Window w(src);
  auto s = OpenStream(w, Compression::kGzip);
  uint8_t out[8];
  size_t n = 0, k;
  while ((k = s->Read(out + n, sizeof out - n)) > 0) n += k;
  EXPECT_EQ(std::string(reinterpret_cast<char*>(out), n), "abc");
  EXPECT_TRUE(s->error().empty());
}
