#include "core/format/jitdump/jitdump_decoder.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "core/io/keyed_hash.h"
#include "core/model/field_reader.h"
#include "core/model/thread_tracker.h"

namespace profscope::jitdump {

namespace {


uint32_t U32At(const uint8_t* p, ByteOrder o) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return o == kHostOrder ? v : Swap32(v);
}

// Counts U+FFFD as UTF-8 (EF BF BD): the mark of a binary file that went
// through a text conversion (the ddprof_julia_partial case).
// (Read a slice at a time: never the whole file at once.)
uint64_t CountReplacementChars(Window& w, uint64_t limit) {
  const uint64_t n = std::min<uint64_t>(w.size(), limit);
  constexpr uint64_t kSlice = 1u << 20;
  uint64_t c = 0;
  for (uint64_t i = 0; i + 2 < n;) {
    // a slice and the two bytes after it, so a character across its end is seen
    const uint64_t len = std::min<uint64_t>(n - i, kSlice + 2);
    const uint8_t* p = w.Get(i, static_cast<size_t>(len));
    if (!p) return c;
    const uint64_t end = std::min<uint64_t>(i + kSlice, n - 2);
    uint64_t j = i;
    for (; j < end; ++j)
      if (p[j - i] == 0xEF && p[j - i + 1] == 0xBF && p[j - i + 2] == 0xBD) { ++c; j += 2; }
    i = j;
  }
  return c;
}

}  // namespace

RecordCategory RecordCategoryOf(uint32_t id) {
  return id == kCodeLoad || id == kCodeMove ? RecordCategory::kTask : RecordCategory::kUserEvent;
}

const char* RecordName(uint32_t id) {
  switch (id) {
    case kCodeLoad: return "CODE_LOAD";
    case kCodeMove: return "CODE_MOVE";
    case kCodeDebugInfo: return "DEBUG_INFO";
    case kCodeClose: return "CODE_CLOSE";
    case kCodeUnwindingInfo: return "UNWINDING_INFO";
    default: return "UNKNOWN";
  }
}

std::string LoadMarkerLabel(const CodeLoad& l) {
  return l.name + " (" + Dec(l.code_size) + " bytes)";
}

std::string MoveMarkerLabel(const std::string& name, const CodeMove& m) {
  char b[64];
  std::snprintf(b, sizeof b, "%llx -> %llx", static_cast<unsigned long long>(m.old_code_addr),
                static_cast<unsigned long long>(m.new_code_addr));
  return name.empty() ? std::string(b) : name + " " + b;
}

bool Sniff(const uint8_t* head, size_t n) {
  if (n < 4) return false;
  uint32_t m = U32At(head, kHostOrder);
  return m == kMagic || m == kMagicSwapped;
}

namespace {

// Parses one record (rec = the whole record). Appends what it finds to dump
// (when non-null), fields to `fields` (when non-null), damage to diags (when
// non-null). Members are read as they lie; a short one ends the record.
void ParseRecord(ByteReader rec, int32_t row, Dump* dump, FieldList* fields, Diagnostics* diags) {
  FieldReader sink(rec, fields ? &fields->items() : nullptr);
  ByteReader& r = sink.reader();
  uint64_t at = r.abs_pos();
  uint32_t id = r.U32();
  sink.Add("id", at, 4, Dec(id) + " (" + RecordName(id) + ")");
  at = r.abs_pos();
  uint32_t total = r.U32();
  sink.Add("total_size", at, 4, Dec(total));
  at = r.abs_pos();
  uint64_t ts = r.U64();
  sink.Add("timestamp", at, 8, Dec(ts));
  const uint64_t rec_off = rec.base();
  auto overrun = [&](const std::string& what) {
    if (diags)
      diags->Error(DiagCode::kRecordFieldOverrun, rec_off, rec.size(),
                   std::string(RecordName(id)) + " record at " + Hex(rec_off) + " (total_size " + Dec(rec.size()) +
                       "): " + what);
  };
  auto u32f = [&](const char* name) {
    uint64_t a = r.abs_pos();
    uint32_t v = r.U32();
    if (r.ok()) sink.Add(name, a, 4, Dec(v));
    return v;
  };
  auto u64f = [&](const char* name, bool hex) {
    uint64_t a = r.abs_pos();
    uint64_t v = r.U64();
    if (r.ok()) sink.Add(name, a, 8, hex ? Hex(v) : Dec(v));
    return v;
  };
  auto padding = [&]() {
    if (r.ok() && r.remaining() > 0) sink.Add("padding", r.abs_pos(), r.remaining(), Dec(r.remaining()) + " bytes");
  };
  switch (id) {
    case kCodeLoad: {
      CodeLoad l;
      l.time = ts;
      l.offset = rec_off;
      l.row = row;
      l.pid = u32f("pid");
      l.tid = u32f("tid");
      l.vma = u64f("vma", true);
      l.code_addr = u64f("code_addr", true);
      l.code_size = u64f("code_size", false);
      l.code_index = u64f("code_index", false);
      if (!r.ok()) { overrun("too short for its fixed fields"); break; }
      uint64_t name_at = r.abs_pos();
      l.name = r.CString();
      if (!r.ok()) {
        sink.Add("name", name_at, l.name.size(), QuoteString(l.name) + " (not NUL-terminated)");
        if (diags)
          diags->Error(DiagCode::kBadString, name_at, l.name.size(),
                       "CODE_LOAD at " + Hex(rec_off) + ": function name has no NUL terminator inside the record");
      } else {
        sink.Add("name", name_at, l.name.size() + 1, QuoteString(l.name));
        uint64_t code_at = r.abs_pos();
        uint64_t have = r.remaining();
        if (l.code_size > have) {
          sink.Add("code", code_at, have, Dec(have) + " of " + Dec(l.code_size) + " bytes of native code");
          overrun("code_size " + Dec(l.code_size) + " but only " + Dec(have) + " bytes follow the name");
          r.Skip(static_cast<size_t>(have));
        } else {
          sink.Add("code", code_at, l.code_size,
                   Dec(l.code_size) + " bytes of native code at " + Hex(l.code_addr) + ".." + Hex(l.code_addr + l.code_size));
          r.Skip(static_cast<size_t>(l.code_size));
          padding();
        }
      }
      if (dump) dump->loads.push_back(std::move(l));
      break;
    }
    case kCodeMove: {
      CodeMove m;
      m.time = ts;
      m.offset = rec_off;
      m.row = row;
      m.pid = u32f("pid");
      m.tid = u32f("tid");
      m.vma = u64f("vma", true);
      m.old_code_addr = u64f("old_code_addr", true);
      m.new_code_addr = u64f("new_code_addr", true);
      m.code_size = u64f("code_size", false);
      m.code_index = u64f("code_index", false);
      if (!r.ok()) { overrun("too short for its fields"); break; }
      padding();
      if (dump) dump->moves.push_back(m);
      break;
    }
    case kCodeDebugInfo: {
      DebugInfo d;
      d.time = ts;
      d.offset = rec_off;
      d.row = row;
      d.code_addr = u64f("code_addr", true);
      uint64_t nr = u64f("nr_entry", false);
      if (!r.ok()) { overrun("too short for code_addr and nr_entry"); break; }
      // An entry takes at least 17 bytes (addr, line, discrim, one NUL).
      if (nr > r.remaining() / 17) {
        overrun("nr_entry " + Dec(nr) + " entries cannot fit in the " + Dec(r.remaining()) + " bytes left");
        nr = r.remaining() / 17;
      }
      for (uint64_t k = 0; k < nr; ++k) {
        uint64_t eat = r.abs_pos();
        DebugEntry e;
        std::vector<Field> sub;
        std::vector<Field>* outer = sink.Target(sink.fielding() ? &sub : nullptr);
        FieldReader& es = sink;
        uint64_t a = r.abs_pos();
        e.addr = r.U64();
        es.Add("addr", a, 8, Hex(e.addr));
        a = r.abs_pos();
        e.line = r.U32();
        es.Add("lineno", a, 4, Dec(e.line));
        a = r.abs_pos();
        e.discrim = r.U32();
        es.Add("discrim", a, 4, Dec(e.discrim));
        a = r.abs_pos();
        e.file = r.CString();
        bool ok = r.ok();
        es.Add("name", a, e.file.size() + (ok ? 1 : 0), QuoteString(e.file));
        sink.Target(outer);
        Field* f = sink.Add("entry[" + Dec(k) + "]", eat, r.abs_pos() - eat,
                            e.file + ":" + Dec(e.line) + " @" + Hex(e.addr));
        if (f) f->children = std::move(sub);
        if (!ok) { overrun("entry " + Dec(k) + " runs past the record's end"); break; }
        d.entries.push_back(std::move(e));
      }
      padding();
      if (dump) dump->debug.push_back(std::move(d));
      break;
    }
    case kCodeClose:
      padding();
      break;
    case kCodeUnwindingInfo: {
      uint64_t uds = u64f("unwind_data_size", false);
      uint64_t hdr = u64f("eh_frame_hdr_size", false);
      uint64_t mapped = u64f("mapped_size", false);
      if (!r.ok()) { overrun("too short for its sizes"); break; }
      uint64_t have = r.remaining();
      if (uds > have || hdr > uds) {
        overrun("unwind_data_size " + Dec(uds) + " / eh_frame_hdr_size " + Dec(hdr) + " do not fit the " + Dec(have) +
                " bytes of unwinding data");
        sink.Add("unwinding_data", r.abs_pos(), have, Dec(have) + " bytes");
        break;
      }
      // perf's genelf: the eh_frame comes first, the eh_frame_hdr is the tail.
      uint64_t frame = uds - hdr;
      if (dump) dump->unwinding.push_back({ts, rec_off, r.abs_pos(), frame, hdr, mapped});
      sink.Add("eh_frame", r.abs_pos(), frame, Dec(frame) + " bytes");
      r.Skip(static_cast<size_t>(frame));
      sink.Add("eh_frame_hdr", r.abs_pos(), hdr, Dec(hdr) + " bytes");
      r.Skip(static_cast<size_t>(hdr));
      padding();
      break;
    }
    default:
      if (r.remaining()) sink.Add("payload", r.abs_pos(), r.remaining(), Dec(r.remaining()) + " bytes (unknown record id)");
      break;
  }
}

}  // namespace

void RecordFieldsOf(ByteReader rec, bool file_header, FieldList* fields) {
  if (!file_header) {
    ParseRecord(rec, -1, nullptr, fields, nullptr);
    return;
  }
  FieldReader s(rec, fields ? &fields->items() : nullptr);
  ByteReader& r = s.reader();
  uint64_t a = r.abs_pos();
  uint32_t magic = r.U32();
  s.Add("magic", a, 4, Hex(magic) + (r.swapped() ? " (JiTD, big endian)" : " (JiTD, little endian)"));
  const char* names[] = {"version", "total_size", "elf_mach", "pad1", "pid"};
  for (const char* n : names) {
    a = r.abs_pos();
    uint32_t v = r.U32();
    if (r.ok()) s.Add(n, a, 4, std::strcmp(n, "pad1") == 0 ? Hex(v) : Dec(v));
  }
  a = r.abs_pos();
  uint64_t ts = r.U64();
  if (r.ok()) s.Add("timestamp", a, 8, Dec(ts));
  a = r.abs_pos();
  uint64_t flags = r.U64();
  if (r.ok()) s.Add("flags", a, 8, Hex(flags) + ((flags & kFlagArchTimestamp) ? " (ARCH_TIMESTAMP)" : ""));
  if (r.ok() && r.remaining()) s.Add("extra header bytes", r.abs_pos(), r.remaining(), Dec(r.remaining()) + " bytes");
}

namespace {
// Bytes a dump keeps per piece, for the memory budget: fixed (not sizeof, which
// differs in wasm32), plus the text it holds.
constexpr uint64_t kLoadBytes = 96, kMoveBytes = 72, kDebugBytes = 64, kEntryBytes = 48, kUnwindingBytes = 48;
}  // namespace

bool ReadDump(Window& w, Dump* out, RecordTable* rows, Diagnostics* diags, MemoryBudget* budget, PauseCheck* pause) {
  Diagnostics scratch;
  Diagnostics& dg = diags ? *diags : scratch;
  *out = Dump();
  const uint64_t size = w.size();
  out->file_size = size;
  const uint8_t* h = w.Get(0, static_cast<size_t>(std::min<uint64_t>(size, kHeaderMinSize)));
  if (!h || size < 4 || !Sniff(h, 4)) {
    dg.Fatal(DiagCode::kBadHeader, 0, std::min<uint64_t>(size, 4), "no jitdump magic 'JiTD' at offset 0");
    return false;
  }
  Header& hd = out->header;
  hd.order = U32At(h, kHostOrder) == kMagic ? kHostOrder
                                             : (kHostOrder == ByteOrder::kLittle ? ByteOrder::kBig : ByteOrder::kLittle);
  if (size < kHeaderMinSize) {
    dg.Fatal(DiagCode::kTruncatedHeader, 0, size,
             "jitdump is " + Dec(size) + " bytes, shorter than its 40-byte file header");
    if (rows) rows->Add(0, size, 0, RecordKind::kFileHeader, -1, RecordCategory::kMetadata);
    out->end_offset = size;
    return false;
  }
  ByteReader r(h, kHeaderMinSize, 0, hd.order);
  hd.magic = r.U32();
  hd.version = r.U32();
  hd.total_size = r.U32();
  hd.elf_mach = r.U32();
  hd.pad1 = r.U32();
  hd.pid = r.U32();
  hd.timestamp = r.U64();
  hd.flags = r.U64();
  out->header_ok = true;
  uint64_t hsize = hd.total_size;
  if (hsize < kHeaderMinSize || hsize > size) {
    dg.Error(DiagCode::kBadHeader, 8, 4,
             "header total_size " + Dec(hsize) + " is " + (hsize < kHeaderMinSize ? "below the 40-byte header" : "past the end of the file") +
                 "; records are read from offset 40");
    hsize = kHeaderMinSize;
  }
  if (hd.version != 1 && hd.version != 2) {
    dg.Warning(DiagCode::kBadHeader, 4, 4,
               "jitdump version " + Dec(hd.version) + " is not 1 or 2; records are read with the version 1/2 layout");
  }
  uint64_t bad_chars = 0;
  if (hd.flags & ~kFlagArchTimestamp) {
    out->garbled_header = true;
    bad_chars = CountReplacementChars(w, size);
    std::string msg = "header flags " + Hex(hd.flags) + " set bits no jitdump version defines (only bit 0, ARCH_TIMESTAMP, exists): "
                      "the header values (pid " + Dec(hd.pid) + ", timestamp " + Dec(hd.timestamp) + ") look like garbage";
    if (bad_chars)
      msg += "; the file holds " + Dec(bad_chars) +
             " UTF-8 replacement characters (EF BF BD), so it was likely passed through a text conversion that replaced its binary bytes";
    dg.Error(DiagCode::kBadHeader, 32, 8, std::move(msg));
  }
  if (rows) rows->Add(0, hsize, 0, RecordKind::kFileHeader, -1, RecordCategory::kMetadata);

  out->walk.off = hsize;
  ContinueDump(w, out, rows, &dg, budget, pause);
  return true;
}

void ContinueDump(Window& w, Dump* out, RecordTable* rows, Diagnostics* diags, MemoryBudget* budget, PauseCheck* pause) {
  Diagnostics scratch;
  Diagnostics& dg = diags ? *diags : scratch;
  const Header& hd = out->header;
  const uint64_t size = w.size();
  out->walk.paused = false;
  uint64_t& off = out->walk.off;
  uint64_t& kept = out->walk.kept;  // what the dump holds, for the budget
  while (off < size) {
    if (w.Ended(off)) break;  // (the file ended before its size: read no zeros as records)
    if (pause && pause->Ask(off)) {  // before the budget: asked once per offset, paused or not
      out->walk.paused = true;
      return;
    }
    uint64_t left = size - off;
    if (left < kRecordHeaderSize) {
      dg.Error(DiagCode::kRecordTruncated, off, left,
               "file ends inside a record header at " + Hex(off) + " (" + Dec(left) + " bytes left, 16 needed); all earlier records kept");
      if (rows) rows->Add(off, left, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      break;
    }
    const uint8_t* rh = w.Get(off, kRecordHeaderSize);
    if (!rh) break;
    uint32_t id = U32At(rh, hd.order);
    uint32_t total = U32At(rh + 4, hd.order);
    if (total < kRecordHeaderSize) {
      std::string msg = "record at " + Hex(off) + " (id " + Dec(id) + ") declares total_size " + Dec(total) +
                        ", below the 16-byte record header: the records after it cannot be found (" + Dec(left) +
                        " bytes not decoded)";
      if (out->garbled_header) msg += "; the file header is damaged too, this is not a readable jitdump";
      dg.Error(DiagCode::kRecordTooSmall, off, left, std::move(msg));
      if (rows) rows->Add(off, left, id, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      break;
    }
    if (total > left) {
      dg.Error(DiagCode::kRecordTruncated, off, left,
               std::string(RecordName(id)) + " record at " + Hex(off) + " declares total_size " + Dec(total) +
                   " but the file ends after " + Dec(left) + " bytes (the file was cut); all earlier records kept");
      if (rows) rows->Add(off, left, id, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      break;
    }
    const uint8_t* rp = w.Get(off, total);
    if (!rp) break;
    int32_t row = rows ? rows->Add(off, total, id, RecordKind::kRecord, -1, RecordCategoryOf(id)) : -1;
    if (id < kKnownRecordIds) {
      ++out->counts[id];
    } else {
      ++out->unknown;
      dg.Warning(DiagCode::kUnknownRecordType, off, total,
                 "record at " + Hex(off) + " has unknown id " + Dec(id) + "; skipped using its total_size " + Dec(total));
    }
    ++out->records;
    const size_t loads = out->loads.size(), moves = out->moves.size(), debug = out->debug.size(),
                 unwinding = out->unwinding.size();
    ParseRecord(ByteReader(rp, total, off, hd.order), row, out, nullptr, &dg);
    if (out->loads.size() > loads) kept += kLoadBytes + out->loads.back().name.size();
    if (out->debug.size() > debug) {
      kept += kDebugBytes;
      for (const auto& e : out->debug.back().entries) kept += kEntryBytes + e.file.size();
    }
    kept += (out->moves.size() - moves) * kMoveBytes + (out->unwinding.size() - unwinding) * kUnwindingBytes;
    off += total;
    if (budget && (budget->reached() || budget->Due()) &&
        budget->Reached(kept + (rows ? MemoryBudget::Bytes(*rows) : 0), off, dg))
      break;
  }
  out->end_offset = off < size ? off : size;
}

bool JitdumpDecoder::Decode(Window& w, DecodeResult& out, const ProgressFn& progress) {
  out.format = "jitdump";
  out.mode = "file";
  ok_ = ReadDump(w, &dump_, &out.records, &out.diags, &out.budget, &pause_);
  out.byte_order = dump_.header.order == ByteOrder::kLittle ? "little" : "big";
  AfterStep(w, out, progress);
  return ok_;
}

bool JitdumpDecoder::Resume(Window& w, DecodeResult& out, const ProgressFn& progress) {
  if (!Paused()) return ok_;
  ContinueDump(w, &dump_, &out.records, &out.diags, &out.budget, &pause_);
  AfterStep(w, out, progress);
  return ok_;
}

void JitdumpDecoder::AfterStep(Window& w, DecodeResult& out, const ProgressFn& progress) {
  if (progress) progress(Paused() ? dump_.walk.off : w.size(), w.size());
  if (!Paused()) Complete(out);
}

void JitdumpDecoder::Stop(Window& w, DecodeResult& out) {
  if (!Paused()) return;
  dump_.walk.paused = false;
  dump_.end_offset = dump_.walk.off;
  NoteDecodeStopped(out.diags, dump_.walk.off, w.size(), w.size());
  Complete(out);
}

void JitdumpDecoder::Complete(DecodeResult& out) {
  row_load_.assign(out.records.rows(), -1);
  row_debug_.assign(out.records.rows(), -1);
  for (size_t i = 0; i < dump_.loads.size(); ++i)
    if (dump_.loads[i].row >= 0) row_load_[static_cast<size_t>(dump_.loads[i].row)] = static_cast<int32_t>(i);
  for (size_t i = 0; i < dump_.debug.size(); ++i)
    if (dump_.debug[i].row >= 0) row_debug_[static_cast<size_t>(dump_.debug[i].row)] = static_cast<int32_t>(i);
  if (!dump_.header_ok) return;
  AddMarkers(out.profile);
  const Header& h = dump_.header;
  out.facts.push_back({"jitdump version", Dec(h.version)});
  out.facts.push_back({"pid", Dec(h.pid)});
  out.facts.push_back({"elf_mach", Dec(h.elf_mach)});
  out.facts.push_back({"flags", Hex(h.flags) + ((h.flags & kFlagArchTimestamp) ? " (ARCH_TIMESTAMP)" : "")});
  InfoValue& hv = out.info.Add("header", InfoValue());
  hv.Add("magic", InfoValue::Text(Hex(h.magic)));
  hv.Add("version", InfoValue::Number(h.version));
  hv.Add("total_size", InfoValue::Number(h.total_size));
  hv.Add("elf_mach", InfoValue::Number(h.elf_mach));
  hv.Add("pad1", InfoValue::Text(Hex(h.pad1)));
  hv.Add("pid", InfoValue::Number(h.pid));
  hv.Add("timestamp", InfoValue::Number(h.timestamp));
  hv.Add("flags", InfoValue::Text(Hex(h.flags)));
  hv.Add("arch_timestamp", InfoValue::Bool(h.flags & kFlagArchTimestamp));
  InfoValue& counts = out.info.Add("record_counts", InfoValue());
  for (uint32_t i = 0; i < kKnownRecordIds; ++i) counts.Add(RecordName(i), InfoValue::Number(dump_.counts[i]));
  counts.Add("UNKNOWN", InfoValue::Number(dump_.unknown));
  out.info.Add("end_offset", InfoValue::Number(dump_.end_offset));
  // Time span of the records (for the timeline); these are not samples.
  bool have = false;
  for (const auto& l : dump_.loads) {
    if (!have || l.time < out.time_start) out.time_start = l.time;
    if (!have || l.time > out.time_end) out.time_end = l.time;
    have = true;
  }
  for (const auto& m : dump_.moves) {
    if (!have || m.time < out.time_start) out.time_start = m.time;
    if (!have || m.time > out.time_end) out.time_end = m.time;
    have = true;
  }
}

void JitdumpDecoder::AddMarkers(Profile& p) const {
  // One thread row per tid the records name (the dump has no thread table of its own).
  ThreadTracker threads(p);
  auto thread = [&](uint32_t pid, uint32_t tid, uint64_t time) {
    int32_t row = threads.Find(static_cast<int32_t>(tid));
    if (row != kNone) {
      threads.StartBy(row, time);
      return row;
    }
    return threads.Row(static_cast<int32_t>(tid), static_cast<int32_t>(pid), time);
  };
  AddCodeMarkers(dump_, p, thread, true);
}

void ForEachCode(const Dump& d, const std::function<void(const CodeLoad* load, const CodeMove* move,
                                                         const std::string& move_name)>& fn) {
  std::unordered_map<uint64_t, size_t, KeyedIntHash> load_of_index;  // code_index -> latest load before the move
  const std::string empty;
  size_t li = 0, mi = 0;
  while (li < d.loads.size() || mi < d.moves.size()) {
    bool load = mi >= d.moves.size() || (li < d.loads.size() && d.loads[li].offset < d.moves[mi].offset);
    if (load) {
      const CodeLoad& l = d.loads[li];
      load_of_index[l.code_index] = li++;
      fn(&l, nullptr, empty);
    } else {
      const CodeMove& m = d.moves[mi++];
      auto it = load_of_index.find(m.code_index);
      fn(nullptr, &m, it == load_of_index.end() ? empty : d.loads[it->second].name);
    }
  }
}

void AddCodeMarkers(const Dump& d, Profile& p, const std::function<int32_t(uint32_t, uint32_t, uint64_t)>& thread,
                    bool own_rows) {
  const int32_t load_kind = p.strings.Intern("code load");
  const int32_t move_kind = p.strings.Intern("code move");
  ForEachCode(d, [&](const CodeLoad* l, const CodeMove* m, const std::string& name) {
    if (l)
      p.markers.Add(l->time, load_kind, thread(l->pid, l->tid, l->time), kNone, p.strings.Intern(LoadMarkerLabel(*l)),
                    own_rows ? l->row : kNone);
    else
      p.markers.Add(m->time, move_kind, thread(m->pid, m->tid, m->time), kNone,
                    p.strings.Intern(MoveMarkerLabel(name, *m)), own_rows ? m->row : kNone);
  });
}

bool JitdumpDecoder::IsListedRecord(const DecodeResult& res, int32_t row) const {
  return static_cast<RecordKind>(res.records.kind[static_cast<size_t>(row)]) == RecordKind::kRecord;
}

std::string JitdumpDecoder::RecordLabel(const DecodeResult& res, int32_t row) const {
  size_t i = static_cast<size_t>(row);
  auto kind = static_cast<RecordKind>(res.records.kind[i]);
  if (kind == RecordKind::kFileHeader) return "jitdump header";
  if (kind == RecordKind::kUnparsed) return "unparsed bytes";
  uint32_t id = res.records.type[i];
  std::string s = RecordName(id);
  if (id >= kKnownRecordIds) return "record id " + Dec(id) + " (unknown)";
  if (i < row_load_.size() && row_load_[i] >= 0) {
    const CodeLoad& l = dump_.loads[static_cast<size_t>(row_load_[i])];
    s += " " + l.name + " [" + Hex(l.code_addr) + ".." + Hex(l.code_addr + l.code_size) + ") #" + Dec(l.code_index);
  } else if (i < row_debug_.size() && row_debug_[i] >= 0) {
    const DebugInfo& d = dump_.debug[static_cast<size_t>(row_debug_[i])];
    s += " " + Hex(d.code_addr) + " (" + Dec(d.entries.size()) + " lines)";
  }
  return s;
}

void JitdumpDecoder::RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) {
  size_t i = static_cast<size_t>(row);
  uint64_t off = res.records.offset[i], size = res.records.size[i];
  auto kind = static_cast<RecordKind>(res.records.kind[i]);
  const uint8_t* p = w.Get(off, static_cast<size_t>(size));
  if (!p) return;
  ByteReader r(p, static_cast<size_t>(size), off, dump_.header.order);
  if (kind == RecordKind::kUnparsed) {
    out.Add("bytes", off, size, Dec(size) + " bytes that form no complete record");
    if (size >= 8) {
      uint32_t id = r.U32(), total = r.U32();
      out.Add("id", off, 4, Dec(id) + " (" + RecordName(id) + ")");
      out.Add("total_size", off + 4, 4, Dec(total));
    }
    return;
  }
  RecordFieldsOf(r, kind == RecordKind::kFileHeader, &out);
}

std::vector<CodeEvent> JitdumpDecoder::CodeEvents(const DecodeResult& res) const {
  (void)res;
  std::vector<CodeEvent> out;
  ForEachCode(dump_, [&](const CodeLoad* l, const CodeMove* m, const std::string& name) {
    CodeEvent e;
    if (l) {
      e.time = l->time;
      e.name = l->name;
      e.addr = l->code_addr;
      e.size = l->code_size;
      e.index = l->code_index;
      e.record = l->row;
    } else {
      e.move = true;
      e.time = m->time;
      e.name = name;
      e.addr = m->new_code_addr;
      e.old_addr = m->old_code_addr;
      e.size = m->code_size;
      e.index = m->code_index;
      e.record = m->row;
    }
    out.push_back(std::move(e));
  });
  return out;
}

std::string JitdumpDecoder::TypeName(const DecodeResult& res, int32_t row) const {
  size_t i = static_cast<size_t>(row);
  auto kind = static_cast<RecordKind>(res.records.kind[i]);
  if (kind == RecordKind::kFileHeader) return "jitdump header";
  if (kind == RecordKind::kUnparsed) return "unparsed bytes";
  uint32_t id = res.records.type[i];
  if (id >= kKnownRecordIds) return "record id " + Dec(id) + " (unknown)";
  return RecordName(id);
}

}  // namespace profscope::jitdump
