#include "core/format/gperf/gperf_decoder.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include "core/format/elf/symbolizer.h"
#include "core/model/address_space.h"
#include "core/model/thread_tracker.h"

namespace profscope::gperf {

namespace {


bool ParseHeader(const uint8_t* h, size_t n, size_t& word, ByteOrder& order, uint64_t& version, uint64_t& period) {
  // Go pprof's order: 32-bit little, 32-bit big, 64-bit little, 64-bit big.
  const size_t words[] = {4, 4, 8, 8};
  const ByteOrder orders[] = {ByteOrder::kLittle, ByteOrder::kBig, ByteOrder::kLittle, ByteOrder::kBig};
  for (int k = 0; k < 4; ++k) {
    size_t w = words[k];
    if (n < 5 * w) continue;
    ByteReader r(h, n, 0, orders[k]);
    uint64_t v[5];
    for (auto& x : v) x = w == 4 ? r.U32() : r.U64();
    if (v[0] == 0 && v[1] == 3 && (v[2] == 0 || v[2] == 1) && v[3] > 0 && v[4] == 0) {
      word = w;
      order = orders[k];
      version = v[2];
      period = v[3];
      return true;
    }
  }
  return false;
}

}  // namespace

struct GperfDecoder::Binary {
  std::string name;
  elf::Symbolizer sym;
};

bool Sniff(const uint8_t* head, size_t n) {
  size_t w;
  ByteOrder o;
  uint64_t v, p;
  return ParseHeader(head, n, w, o, v, p);
}

uint64_t GperfDecoder::Word(const uint8_t* p) const {
  ByteReader r(p, word_, 0, order_);
  return word_ == 4 ? r.U32() : r.U64();
}

bool GperfDecoder::SetOption(const std::string& key, const std::string& value) {
  bool on = value == "1" || value == "true" || value == "on";
  if (key == "pc_minus_one") { pc_minus_one_ = on; return true; }
  if (key == "drop_duplicate_leaf") { drop_duplicate_leaf_ = on; return true; }
  if (key == "strip_signal_frames") { strip_signal_frames_ = on; return true; }
  return false;
}

bool GperfDecoder::Decode(Window& w, DecodeResult& out, const ProgressFn& progress) {
  out.format = "gperftools";
  out.record_types_are_numbers = false;
  const uint64_t n = w.size();
  const size_t head = static_cast<size_t>(std::min<uint64_t>(n, 5 * 8));
  const uint8_t* h = head ? w.Get(0, head) : nullptr;
  if (!h || !ParseHeader(h, head, word_, order_, version_, period_)) {
    out.diags.Fatal(DiagCode::kTruncatedHeader, 0, n, "not a gperftools CPU profile: header words 0, 3, 0|1, period, 0 are needed");
    return false;
  }
  out.byte_order = order_ == ByteOrder::kLittle ? "little" : "big";
  out.mode = word_ == 4 ? "32-bit" : "64-bit";
  out.records.Add(0, 5 * word_, kTypeHeader, RecordKind::kFileHeader, -1, RecordCategory::kMetadata);
  out.facts.emplace_back("word size", Dec(word_));
  out.facts.emplace_back("header version", Dec(version_) + (version_ == 1 ? " (Java variant: method ids instead of PCs)" : ""));
  out.facts.emplace_back("sampling period", Dec(period_) + " us");
  off_ = 5 * word_;
  ReadRecords(w, out);
  if (progress) progress(paused_ ? off_ : n, n);
  return true;
}

bool GperfDecoder::Resume(Window& w, DecodeResult& out, const ProgressFn& progress) {
  if (!paused_) return true;
  paused_ = false;
  ReadRecords(w, out);
  if (progress) progress(paused_ ? off_ : w.size(), w.size());
  return true;
}

void GperfDecoder::Stop(Window& w, DecodeResult& out) {
  if (!paused_) return;
  paused_ = false;
  NoteDecodeStopped(out.diags, off_, w.size(), w.size());
}

uint64_t GperfDecoder::KeptBytes() const {
  // per record its count, row and first PC (20 bytes) and the sample row Finish makes of it (40); 8 a PC
  return 60ull * count_.size() + 8ull * pcs_.size();
}

void GperfDecoder::ReadRecords(Window& w, DecodeResult& out) {
  const uint64_t n = w.size();
  const uint64_t word = word_;
  bool budget = false;
  while (off_ < n) {
    if (w.Ended(off_)) break;  // (the file ended before its size: read no zeros as records)
    if (pause_.Ask(off_)) {  // before the budget: asked once per offset, paused or not
      paused_ = true;
      return;
    }
    if (out.OverBudgetKeeping(off_, [&] { return KeptBytes(); })) {
      budget = true;
      break;
    }
    const uint8_t* cd = n - off_ >= 2 * word ? w.Get(off_, static_cast<size_t>(2 * word)) : nullptr;
    if (!cd) {
      out.records.Add(off_, n - off_, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      out.diags.Error(DiagCode::kRecordTruncated, off_, n - off_, "the file ends inside a sample record's count/depth words");
      off_ = n;
      break;
    }
    const uint64_t count = Word(cd), depth = Word(cd + word);
    const uint64_t room = (n - off_ - 2 * word) / word;
    if (depth > room) {
      out.records.Add(off_, n - off_, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      out.diags.Error(DiagCode::kRecordTruncated, off_, n - off_,
                      "sample record with depth " + Dec(depth) + " but only " + Dec(room) + " words are left in the file");
      off_ = n;
      break;
    }
    const uint64_t size = (2 + depth) * word;
    if (count == 0 && depth == 1) {
      const uint8_t* t = w.Get(off_ + 2 * word, static_cast<size_t>(word));
      if (t && Word(t) == 0) {
        out.records.Add(off_, size, kTypeTrailer, RecordKind::kRecord, -1, RecordCategory::kMetadata);
        off_ += size;
        trailer_ = true;
        break;
      }
    }
    // the PCs, a slice of the window at a time (a record is as deep as the file allows)
    const size_t had = pcs_.size();
    bool read = true;
    for (uint64_t k = 0; read && k < depth;) {
      const uint64_t take = std::min<uint64_t>(depth - k, 1u << 16);
      const uint8_t* d = w.Get(off_ + (2 + k) * word, static_cast<size_t>(take * word));
      read = d != nullptr;
      for (uint64_t j = 0; read && j < take; ++j) pcs_.push_back(Word(d + j * word));
      k += take;
    }
    if (!read) {  // (the source failed to give bytes it holds)
      pcs_.resize(had);
      out.records.Add(off_, n - off_, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      out.diags.Error(DiagCode::kRecordTruncated, off_, n - off_, "the file could not be read from here on");
      off_ = n;
      break;
    }
    row_.push_back(out.records.Add(off_, size, kTypeSample, RecordKind::kRecord, -1, RecordCategory::kSample));
    count_.push_back(count);
    first_.push_back(pcs_.size());
    off_ += size;
  }
  if (budget) return;  // (the budget's diagnostic says where it stopped; the maps text is not reached)
  if (!trailer_)
    out.diags.Warning(DiagCode::kRecordTruncated, off_, 0, "no trailer record (0, 1, 0): the profile was cut short");
  if (off_ < n && !w.Ended(off_)) {
    // The maps text (a process's /proc/self/maps: kilobytes); at most 64 MiB of it is read.
    constexpr uint64_t kMaxMaps = 64ull << 20;
    const uint64_t len = std::min<uint64_t>(n - off_, kMaxMaps);
    out.records.Add(off_, n - off_, kTypeMaps, RecordKind::kRecord, -1, RecordCategory::kMetadata);
    if (len < n - off_)
      out.diags.Warning(DiagCode::kRecordTruncated, off_ + len, n - off_ - len,
                        "the maps text after the trailer is " + Dec(n - off_) + " bytes: only its first 64 MiB are read");
    const uint8_t* m = w.Get(off_, static_cast<size_t>(len));
    if (m) ParseMaps(std::string(reinterpret_cast<const char*>(m), static_cast<size_t>(len)), off_, out);
  }
}

void GperfDecoder::ParseMaps(const std::string& text, uint64_t base, DecodeResult& out) {
  std::string build;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t e = text.find('\n', pos);
    size_t end = e == std::string::npos ? text.size() : e;
    std::string line = text.substr(pos, end - pos);
    uint64_t at = base + pos;
    pos = e == std::string::npos ? text.size() : e + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line.compare(0, 6, "build=") == 0) {
      build = line.substr(6);
      map_lines_.emplace_back(line, "");
      map_line_offsets_.push_back(at);
      continue;
    }
    std::string sub = line;
    for (size_t k; (k = sub.find("$build")) != std::string::npos;) sub.replace(k, 6, build);
    map_lines_.emplace_back(line, sub);
    map_line_offsets_.push_back(at);
    // start-end perms offset dev inode path
    char* q = nullptr;
    const char* s = sub.c_str();
    uint64_t start = std::strtoull(s, &q, 16);
    if (!q || *q != '-') continue;
    uint64_t stop = std::strtoull(q + 1, &q, 16);
    while (*q == ' ') ++q;
    const char* perms = q;
    while (*q && *q != ' ') ++q;
    std::string pr(perms, static_cast<size_t>(q - perms));
    while (*q == ' ') ++q;
    uint64_t pgoff = std::strtoull(q, &q, 16);
    while (*q == ' ') ++q;
    while (*q && *q != ' ') ++q;  // dev
    while (*q == ' ') ++q;
    while (*q && *q != ' ') ++q;  // inode
    while (*q == ' ') ++q;
    std::string path(q);
    if (stop <= start) continue;
    maps_.push_back(Map{start, stop, pgoff, path});
    AddMappingRow(out.profile, 0, start, stop, pgoff, out.profile.strings.Intern(path), kNone, 0,
                  static_cast<int32_t>(out.records.rows() - 1));
    (void)pr;
  }
}

void GperfDecoder::UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) {
  for (auto& f : files) {
    if (f.kind != "elf") {
      out.diags.Warning(DiagCode::kSideFileUnused, 0, 0,
                        "side file " + f.name + " (" + f.kind + ") is not used by the gperftools decoder (it takes ELF binaries)");
      continue;
    }
    // The maps text has no build ids: match by file name.
    std::string base = f.name.substr(f.name.find_last_of('/') == std::string::npos ? 0 : f.name.find_last_of('/') + 1);
    bool match = false;
    for (const auto& m : maps_) {
      std::string mb = m.path.substr(m.path.find_last_of('/') == std::string::npos ? 0 : m.path.find_last_of('/') + 1);
      if (!mb.empty() && mb == base) { match = true; break; }
    }
    if (!match) {
      out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                        "side file " + f.name + " matches no mapped object of the profile by file name; not used");
      continue;
    }
    auto b = std::make_shared<Binary>();
    b->name = base;
    b->sym = elf::Symbolizer(elf::ReadElf(*f.window));
    binaries_.push_back(std::move(b));
  }
}

void GperfDecoder::Finish(DecodeResult& out) {
  Profile& p = out.profile;
  StackBuilder sb(p);
  p.events.name.push_back(p.strings.Intern("cpu"));
  p.events.samples.push_back(0);
  p.events.interval_ns.push_back(static_cast<double>(period_) * 1000.0);  // header word 3, in us
  p.events.interval_from.push_back(period_ ? IntervalSource::kPeriod : IntervalSource::kUnknown);
  ThreadTracker threads(p);
  const int32_t thread = threads.Row(0, 0, 0);  // the profile names no threads: one for all samples
  // The first mapping that covers pc, as Go pprof looks mappings up.
  auto mapping_of = [&](uint64_t pc) -> int32_t {
    for (size_t i = 0; i < maps_.size(); ++i)
      if (pc >= maps_[i].start && pc < maps_[i].end) return static_cast<int32_t>(i);
    return kNone;
  };
  uint64_t total = 0;
  const size_t records = count_.size();
  // pprof's adjustments, made once to the records' PCs in their column (record i's are
  // pcs_[first_[i], first_[i + 1])): drop_duplicate_leaf (compared before the -1), pc_minus_one, then
  // strip_signal_frames. drop_second drops each record's second PC where `drop(leaf, second)` says so.
  auto drop_second = [&](auto drop) {
    uint64_t to = 0;
    for (size_t i = 0; i < records; ++i) {
      const uint64_t b = first_[i], e = first_[i + 1];
      const bool d = e - b >= 2 && drop(pcs_[b], pcs_[b + 1]);
      first_[i] = to;
      for (uint64_t k = b; k < e; ++k)
        if (!(d && k == b + 1)) pcs_[to++] = pcs_[k];
    }
    first_[records] = to;
    pcs_.resize(to);
  };
  if (drop_duplicate_leaf_) drop_second([](uint64_t leaf, uint64_t second) { return leaf == second; });
  if (pc_minus_one_)
    for (size_t i = 0; i < records; ++i)
      for (uint64_t k = first_[i] + 1; k < first_[i + 1]; ++k) pcs_[k] -= 1;
  if (strip_signal_frames_) {
    // Go pprof (legacy_profile.go cpuProfile): when (nearly) every sample record
    // has the same second frame, it was pushed by the signal handler; strip it
    // (at most twice). Allowed exceptions: one per 32 records.
    size_t margin = records / 32;
    for (int iter = 0; iter < 2; ++iter) {
      std::map<uint64_t, size_t> second;
      for (size_t i = 0; i < records; ++i)
        if (first_[i + 1] - first_[i] > 1) second[pcs_[first_[i] + 1]]++;
      uint64_t best = 0;
      size_t best_n = 0;
      for (const auto& [a, c] : second)
        if (c > best_n) { best = a; best_n = c; }
      if (!best_n || best_n + margin < records) break;
      drop_second([best](uint64_t, uint64_t second) { return second == best; });
      out.diags.Add(DiagCode::kStackRepaired, Severity::kInfo, 0, 0,
                    "strip_signal_frames: removed the second frame " + Hex(best) + " found in " + Dec(best_n) + " of " +
                        Dec(records) + " sample records");
    }
  }
  // Each distinct PC is named once: its frame, per PC and leaf or not (a caller's return address names its
  // call site, the PC before it).
  // (seen[i]: the i-th distinct (PC, caller) and its frame; an open-addressing index over them)
  struct Seen { uint64_t pc; bool caller; int32_t frame; };
  std::vector<Seen> seen;
  FlatIndex seen_index;
  auto frame = [&](uint64_t pc, bool caller) {
    bool fresh = false;
    const int32_t at = seen_index.FindOrInsert(
        FlatIndex::Mix(pc, caller),
        [&](int32_t r) { return seen[static_cast<size_t>(r)].pc == pc && seen[static_cast<size_t>(r)].caller == caller; },
        static_cast<int32_t>(seen.size()), &fresh);
    if (!fresh) return seen[static_cast<size_t>(at)].frame;
    uint64_t look = (caller && !pc_minus_one_ && pc) ? pc - 1 : pc;
    int32_t mi = mapping_of(look);
    std::string name;
    if (mi != kNone) {
      const Map& m = maps_[static_cast<size_t>(mi)];
      uint64_t fileoff = look - m.start + m.pgoff;
      std::string mb = m.path.substr(m.path.find_last_of('/') == std::string::npos ? 0 : m.path.find_last_of('/') + 1);
      for (const auto& b : binaries_)
        if (b->name == mb) { name = b->sym.Name(b->sym.FileOffsetToAddress(fileoff)); break; }
      if (name.empty()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(pc - m.start + m.pgoff));
        name = m.path + buf;
      }
    } else {
      name = Hex(pc);
    }
    const int32_t f = sb.Frame(pc, sb.Func(p.strings.Intern(name), mi), mi);
    seen.push_back(Seen{pc, caller, f});
    return f;
  };
  for (size_t ri = 0; ri < records; ++ri) {
    const uint64_t* pcs = pcs_.data() + first_[ri];
    int32_t stack = kNone;
    for (size_t k = static_cast<size_t>(first_[ri + 1] - first_[ri]); k-- > 0;) stack = sb.Stack(stack, frame(pcs[k], k > 0));
    // one row per sample record, standing for its count of samples (SampleTable::count)
    if (count_[ri] == 0) continue;
    uint32_t c = static_cast<uint32_t>(std::min<uint64_t>(count_[ri], 0xffffffffu));
    total += c;
    p.samples.time.push_back(0);
    p.samples.thread.push_back(thread);
    p.samples.cpu.push_back(kNone);
    p.samples.event.push_back(0);
    p.samples.weight.push_back(period_ > UINT64_MAX / c ? UINT64_MAX : period_ * c);  // (saturated; c > 0)
    p.samples.stack.push_back(stack);
    p.samples.record.push_back(row_[ri]);
    p.samples.count.push_back(c);
  }
  // (the records' PCs are in the stacks now: their columns are freed for what the views make next)
  std::vector<uint64_t>().swap(pcs_);
  std::vector<uint64_t>().swap(first_);
  std::vector<uint64_t>().swap(count_);
  std::vector<int32_t>().swap(row_);
  p.events.samples[0] = total;
  threads.AddSamples(thread, static_cast<uint32_t>(std::min<uint64_t>(total, 0xffffffffu)));
  out.facts.emplace_back("sample records", Dec(records));
  out.facts.emplace_back("pc adjustments", std::string(pc_minus_one_ ? "pc_minus_one " : "") +
                                                 (drop_duplicate_leaf_ ? "drop_duplicate_leaf " : "") +
                                                 (strip_signal_frames_ ? "strip_signal_frames" : "") +
                                                 (!pc_minus_one_ && !drop_duplicate_leaf_ && !strip_signal_frames_ ? "none (raw PCs)" : ""));
}

bool GperfDecoder::IsListedRecord(const DecodeResult& res, int32_t row) const {
  (void)res;
  (void)row;
  return true;
}

std::string GperfDecoder::RecordLabel(const DecodeResult& res, int32_t row) const {
  size_t i = static_cast<size_t>(row);
  if (static_cast<RecordKind>(res.records.kind[i]) == RecordKind::kUnparsed) return "unparsed";
  switch (res.records.type[i]) {
    case kTypeHeader: return "header";
    case kTypeSample: return "sample";
    case kTypeTrailer: return "trailer";
    case kTypeMaps: return "maps";
  }
  return "unknown";
}

void GperfDecoder::RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) {
  size_t i = static_cast<size_t>(row);
  uint64_t off = res.records.offset[i], size = res.records.size[i];
  uint32_t t = res.records.type[i];
  if (static_cast<RecordKind>(res.records.kind[i]) == RecordKind::kUnparsed) {
    out.Add("bytes", off, size, Dec(size) + " bytes that form no record");
    return;
  }
  if (t == kTypeMaps) {
    for (size_t k = 0; k < map_lines_.size(); ++k) {
      const auto& [raw, sub] = map_lines_[k];
      Field& f = out.Add(raw.compare(0, 6, "build=") == 0 ? "build" : "line", map_line_offsets_[k], raw.size(), QuoteString(raw));
      if (!sub.empty() && sub != raw) f.children.push_back(Field{"after $build", map_line_offsets_[k], raw.size(), QuoteString(sub), {}});
    }
    return;
  }
  size_t take = static_cast<size_t>(std::min<uint64_t>(size, 1u << 20));
  const uint8_t* d = w.Get(off, take);
  if (!d) return;
  std::vector<uint8_t> keep(d, d + take);
  auto word = [&](size_t k) { return Word(keep.data() + k * word_); };
  size_t nw = take / word_;
  if (t == kTypeHeader && nw >= 5) {
    out.Add("header_count", off, word_, Dec(word(0)));
    out.Add("header_words", off + word_, word_, Dec(word(1)));
    out.Add("version", off + 2 * word_, word_, Dec(word(2)));
    out.Add("period_us", off + 3 * word_, word_, Dec(word(3)));
    out.Add("padding", off + 4 * word_, word_, Dec(word(4)));
    return;
  }
  if (nw < 2) return;
  out.Add("count", off, word_, Dec(word(0)));
  out.Add("depth", off + word_, word_, Dec(word(1)));
  for (size_t k = 2; k < nw; ++k) {
    uint64_t pc = word(k);
    std::string v = Hex(pc);
    for (const auto& m : maps_)
      if (pc >= m.start && pc < m.end) {
        v += " (" + m.path + "+" + Hex(pc - m.start + m.pgoff) + ")";
        break;
      }
    out.Add(t == kTypeTrailer ? "pc" : "pc[" + Dec(k - 2) + "]", off + k * word_, word_, v);
  }
}

}  // namespace profscope::gperf
