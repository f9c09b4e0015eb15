#include "core/format/xray/xray_decoder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "core/format/xray/xray_format.h"

namespace profscope::xray {

const char* MetadataKindName(uint8_t kind) {
  switch (kind) {
    case kNewBuffer: return "NewBuffer";
    case kEndOfBuffer: return "EndOfBuffer";
    case kNewCPUId: return "NewCPUId";
    case kTSCWrap: return "TSCWrap";
    case kWalltimeMarker: return "WallTimeMarker";
    case kCustomEventMarker: return "CustomEventMarker";
    case kCallArgument: return "CallArgument";
    case kBufferExtents: return "BufferExtents";
    case kTypedEventMarker: return "TypedEventMarker";
    case kPid: return "PIDRecord";
  }
  return "UnknownMetadata";
}

const char* ActionName(uint8_t action) {
  switch (action) {
    case kEnter: return "enter";
    case kExit: return "exit";
    case kTailExit: return "tail-exit";
    case kEnterArg: return "enter-arg";
  }
  return "unknown";
}

namespace {

std::string Num(uint64_t v) { return std::to_string(v); }

// A marker label's view of an event payload: its size and the first 48
// bytes, printable ASCII as is and anything else as '.'.
std::string PayloadPreview(const uint8_t* p, size_t have, uint64_t size) {
  constexpr size_t kPreview = 48;
  std::string out = Num(size) + (size == 1 ? " byte" : " bytes");
  size_t take = std::min(have, kPreview);
  if (take == 0) return out;
  out += ": ";
  for (size_t i = 0; i < take; ++i) out += p[i] >= 0x20 && p[i] < 0x7f ? static_cast<char>(p[i]) : '.';
  if (size > take) out += "...";
  return out;
}

bool HeaderOk(uint16_t version, uint16_t type) {
  if (type == kNaiveLog) return version >= 1 && version <= 3;
  if (type == kFdrLog) return version >= 1 && version <= 5;
  return false;
}

bool ReadHeader(const uint8_t* h, size_t n, ByteOrder& order, uint16_t& version, uint16_t& type) {
  if (n < kFileHeaderSize) return false;
  for (ByteOrder o : {ByteOrder::kLittle, ByteOrder::kBig}) {
    ByteReader r(h, n, 0, o);
    uint16_t v = r.U16(), t = r.U16();
    if (HeaderOk(v, t)) {
      order = o;
      version = v;
      type = t;
      return true;
    }
  }
  return false;
}

// Reads a whole window into memory (XRay logs are read record by record from the start).
const uint8_t* WholeFile(Window& w, std::vector<uint8_t>& keep) {
  uint64_t n = w.size();
  if (n == 0) return nullptr;
  const uint8_t* p = w.Get(0, static_cast<size_t>(n));
  if (!p) return nullptr;
  keep.assign(p, p + n);
  return keep.data();
}

}  // namespace

bool Sniff(const uint8_t* head, size_t n) {
  ByteOrder o;
  uint16_t v, t;
  if (!ReadHeader(head, n, o, v, t)) return false;
  if (n > kFileHeaderSize) {
    uint8_t b = head[kFileHeaderSize];
    if (t == kFdrLog) {
      // The first buffer starts with NewBuffer (v1) or BufferExtents (v2+).
      if (b != ((kNewBuffer << 1) | 1) && b != ((kBufferExtents << 1) | 1)) return false;
    } else {
      if (n >= kFileHeaderSize + 2) {
        ByteReader r(head + kFileHeaderSize, n - kFileHeaderSize, 0, o);
        if (r.U16() > 1) return false;  // basic record type: 0 function, 1 arg payload
      }
    }
  }
  return true;
}

bool XRayDecoder::Decode(Window& w, DecodeResult& out, const ProgressFn& progress) {
  out.format = "xray";
  // Streams through the window: records are read where they lie, never the whole file at once.
  size_t n = static_cast<size_t>(w.size());
  const uint8_t* d = n >= kFileHeaderSize ? w.Get(0, kFileHeaderSize) : nullptr;
  if (!d || !ReadHeader(d, kFileHeaderSize, order_, version_, type_)) {
    out.diags.Fatal(DiagCode::kTruncatedHeader, 0, n, "not an XRay log: a 32-byte header with version 1-5 and type 0/1 is needed");
    return false;
  }
  out.byte_order = order_ == ByteOrder::kLittle ? "little" : "big";
  out.mode = type_ == kFdrLog ? "fdr" : "basic";
  ByteReader h(d, kFileHeaderSize, 0, order_);
  h.Skip(4);
  uint32_t bits = h.U32();
  freq_ = h.U64();
  out.records.Add(0, kFileHeaderSize, kTypeFileHeader, RecordKind::kFileHeader, -1);
  out.facts.emplace_back("log version", Num(version_));
  out.facts.emplace_back("log type", type_ == kFdrLog ? "FDR" : "basic (naive)");
  out.facts.emplace_back("constant tsc", (bits & 1) ? "true" : "false");
  out.facts.emplace_back("nonstop tsc", (bits & 2) ? "true" : "false");
  out.facts.emplace_back("cycle frequency", Num(freq_));
  out.clock_hz = freq_;
  if (type_ == kFdrLog) DecodeFdr(w, n, out);
  else DecodeBasic(w, n, out);
  if (progress) progress(n, n);
  return true;
}

void XRayDecoder::DecodeBasic(Window& w, size_t n, DecodeResult& out) {
  size_t off = kFileHeaderSize;
  while (off < n) {
    if (n - off < kBasicRecordSize) {
      out.records.Add(off, n - off, 0, RecordKind::kUnparsed, -1);
      out.diags.Error(DiagCode::kRecordTruncated, off, n - off,
                      "the file ends " + Num(n - off) + " bytes into a 32-byte basic-mode record");
      break;
    }
    const uint8_t* rec = w.Get(off, kBasicRecordSize);
    if (!rec) break;
    ByteReader r(rec, kBasicRecordSize, off, order_);
    uint16_t rt = r.U16();
    if (rt == 0) {
      XRayEvent e;
      e.cpu = r.U8();
      uint8_t type = r.U8();
      e.func = r.I32();
      e.tsc = r.U64();
      e.tid = r.U32();
      e.pid = r.U32();
      if (type > kEnterArg) {
        out.records.Add(off, kBasicRecordSize, 0, RecordKind::kUnparsed, -1);
        out.diags.Error(DiagCode::kUnknownRecordType, off, kBasicRecordSize,
                        "basic-mode record with unknown function action " + Num(type) + "; skipped");
      } else {
        e.action = type;
        e.row = out.records.Add(off, kBasicRecordSize, kTypeBasicBase + type, RecordKind::kRecord, -1);
        events_.push_back(std::move(e));
      }
    } else if (rt == 1) {
      r.Skip(2);
      int32_t func = r.I32();
      uint32_t tid = r.U32(), pid = r.U32();
      uint64_t arg = r.U64();
      out.records.Add(off, kBasicRecordSize, kTypeBasicArg, RecordKind::kRecord, -1);
      if (events_.empty() || events_.back().func != func || events_.back().tid != tid ||
          (version_ >= 3 && events_.back().pid != pid)) {
        out.diags.Error(DiagCode::kRecordFieldOverrun, off, kBasicRecordSize,
                        "argument payload for function " + std::to_string(func) + " thread " + Num(tid) +
                            " does not follow a record of that function and thread (llvm-xray rejects the log here)");
      } else {
        events_.back().args.push_back(arg);
      }
    } else {
      out.records.Add(off, kBasicRecordSize, 0, RecordKind::kUnparsed, -1);
      out.diags.Error(DiagCode::kUnknownRecordType, off, kBasicRecordSize,
                      "basic-mode record type " + Num(rt) + " is neither 0 (function) nor 1 (argument payload); skipped");
    }
    off += kBasicRecordSize;
  }
}

void XRayDecoder::DecodeFdr(Window& w, size_t n, DecodeResult& out) {
  size_t off = kFileHeaderSize;
  uint64_t v1_buffer_size = 0;
  if (version_ == 1) {
    ByteReader h(w.Get(0, kFileHeaderSize), kFileHeaderSize, 0, order_);
    v1_buffer_size = h.PeekU64(16);
  }
  auto byte_at = [&](size_t at) -> int {
    const uint8_t* p = w.Get(at, 1);
    return p ? *p : -1;
  };
  uint64_t buffer_left = 0;   // v3+: bytes of the current buffer not yet read
  size_t buffer_start = off;  // v1: start of the current buffer
  bool ignoring = false;      // after EndOfBuffer until the next NewBuffer
  bool fn_open = false;       // a function record can still take CallArgument records
  uint32_t tid = 0, pid = 0;
  uint16_t cpu = 0;
  uint64_t base_tsc = 0;
  std::unordered_map<uint32_t, uint16_t> thread_cpu;  // last NewCPUId per thread (for "cpu" markers)
  size_t wall_pending = SIZE_MAX;  // a WallTimeMarker waiting for the buffer's first TSC
  int32_t block = kNone;           // the current BlockIndexer block
  auto cur_block = [&]() {
    if (block == kNone) {
      block = static_cast<int32_t>(blocks_.size());
      blocks_.emplace_back();
    }
    return &blocks_[static_cast<size_t>(block)];
  };
  while (off < n) {
    if (version_ >= 3 && buffer_left == 0) {
      // Find the next BufferExtents record, skipping what lies between buffers.
      size_t at = off;
      while (at < n) {
        int b = byte_at(at);
        if (b < 0 || ((b & 1) && (b >> 1) == kBufferExtents)) break;
        ++at;
      }
      if (at > off) {
        out.records.Add(off, at - off, kTypePadding, RecordKind::kUnparsed, -1);
        if (at >= n)
          out.diags.Warning(DiagCode::kTrailingBytes, off, at - off,
                            Num(at - off) + " bytes after the last buffer hold no BufferExtents record");
      }
      off = at;
      if (off >= n) break;
    }
    int first_byte = byte_at(off);
    if (first_byte < 0) break;
    uint8_t first = static_cast<uint8_t>(first_byte);
    size_t avail = n - off;
    if (first & 1) {
      uint8_t kind = first >> 1;
      if (avail < kMetadataSize) {
        out.records.Add(off, avail, 0, RecordKind::kUnparsed, -1);
        out.diags.Error(DiagCode::kRecordTruncated, off, avail,
                        std::string("the file ends inside a 16-byte ") + MetadataKindName(kind) + " record");
        break;
      }
      if (kind >= kMetadataKinds || (kind == kEndOfBuffer && version_ >= 2)) {
        out.records.Add(off, kMetadataSize, kTypeMetadataBase + (kind & 0x7f), RecordKind::kUnparsed, -1);
        out.diags.Error(DiagCode::kUnknownRecordType, off, kMetadataSize,
                        kind >= kMetadataKinds ? "unknown metadata record kind " + Num(kind) + "; skipped 16 bytes"
                                               : "EndOfBuffer records do not exist in FDR version >= 2; skipped");
        off += kMetadataSize;
        if (version_ >= 3) buffer_left = buffer_left > kMetadataSize ? buffer_left - kMetadataSize : 0;
        continue;
      }
      const uint8_t* md = w.Get(off, kMetadataSize);
      if (!md) break;
      uint8_t body[kMetadataSize - 1];
      std::memcpy(body, md + 1, sizeof body);
      ByteReader r(body, sizeof body, off + 1, order_);
      int32_t row = out.records.Add(off, kMetadataSize, kTypeMetadataBase + kind, RecordKind::kRecord, -1);
      size_t used = kMetadataSize;
      switch (kind) {
        case kNewBuffer:
          tid = static_cast<uint32_t>(r.I32());
          if (version_ == 2) pid = tid;
          block = kNone;
          cur_block()->tid = static_cast<int32_t>(tid);
          ignoring = false;
          buffer_start = off;
          fn_open = false;
          wall_pending = SIZE_MAX;
          break;
        case kEndOfBuffer:
          ignoring = true;
          fn_open = false;
          break;
        case kNewCPUId: {
          cpu = r.U16();
          base_tsc = r.U64();
          if (ignoring) break;
          if (wall_pending < markers_.size()) {
            markers_[wall_pending].tsc = base_tsc;
            markers_[wall_pending].cpu = cpu;
          }
          wall_pending = SIZE_MAX;
          auto it = thread_cpu.find(tid);
          if (it == thread_cpu.end() || it->second != cpu) {
            thread_cpu[tid] = cpu;
            markers_.push_back(XRayMarker{base_tsc, tid, pid, cpu, kNewCPUId, "cpu " + Num(cpu), row});
          }
          break;
        }
        case kTSCWrap:
          base_tsc = r.U64();
          break;
        case kWalltimeMarker: {
          uint64_t sec = r.U64();
          uint32_t micros = r.U32();
          cur_block()->seconds = sec;
          cur_block()->micros = micros;
          if (ignoring) break;
          char buf[48];
          std::snprintf(buf, sizeof buf, "%llu.%06u", static_cast<unsigned long long>(sec), micros);
          wall_pending = markers_.size();
          markers_.push_back(XRayMarker{base_tsc, tid, pid, cpu, kWalltimeMarker, buf, row});
          break;
        }
        case kCallArgument: {
          uint64_t arg = r.U64();
          if (fn_open && !events_.empty()) {
            events_.back().args.push_back(arg);
            events_.back().action = kEnterArg;
          } else {
            out.diags.Warning(DiagCode::kRecordFieldOverrun, off, kMetadataSize,
                              "CallArgument record with no function record before it in this buffer");
          }
          break;
        }
        case kBufferExtents:
          buffer_left = r.U64();
          fn_open = false;
          break;
        case kPid:
          pid = static_cast<uint32_t>(r.I32());
          cur_block()->pid = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(pid)));
          break;
        case kCustomEventMarker:
        case kTypedEventMarker: {
          int32_t size = r.I32();
          uint64_t tsc = 0;
          int32_t ev_cpu = cpu;
          uint16_t ev_type = 0;
          if (kind == kTypedEventMarker || version_ >= 5) {
            int32_t delta = r.I32();
            if (!ignoring) base_tsc += static_cast<uint32_t>(delta);
            tsc = base_tsc;
            if (kind == kTypedEventMarker) ev_type = r.U16();
          } else {
            tsc = r.U64();  // versions 1-4: the full TSC; version 4 adds the CPU
            if (version_ >= 4) ev_cpu = r.U16();
          }
          fn_open = false;
          if (size <= 0) {
            out.diags.Error(DiagCode::kRecordFieldOverrun, off, kMetadataSize,
                            "event record with size " + std::to_string(size) + " (must be > 0)");
            break;
          }
          uint64_t psize = static_cast<uint32_t>(size);
          uint64_t have = n - (off + kMetadataSize);
          int32_t payload_row;
          if (psize > have) {
            payload_row = out.records.Add(off + kMetadataSize, have, kTypeEventPayload, RecordKind::kPayload, row);
            out.diags.Error(DiagCode::kMissingPayload, off + kMetadataSize, have,
                            "event payload of " + Num(psize) + " bytes, but only " + Num(have) + " are left");
            used += have;
          } else {
            payload_row = out.records.Add(off + kMetadataSize, psize, kTypeEventPayload, RecordKind::kPayload, row);
            used += psize;
          }
          if (!ignoring) {
            size_t peek = static_cast<size_t>(std::min<uint64_t>(std::min<uint64_t>(psize, have), 48));
            const uint8_t* pp = peek ? w.Get(off + kMetadataSize, peek) : nullptr;
            std::string label = PayloadPreview(pp, pp ? peek : 0, psize);
            if (kind == kTypedEventMarker) label = "type " + Num(ev_type) + ", " + label;
            markers_.push_back(XRayMarker{tsc, tid, pid, ev_cpu, kind, label, payload_row});
          }
          break;
        }
      }
      off += used;
      if (version_ >= 3 && kind != kBufferExtents) {
        if (used > buffer_left) {
          out.diags.Error(DiagCode::kRecordTruncated, off - used, used,
                          "record runs " + Num(used - buffer_left) + " bytes past the end of its buffer (BufferExtents)");
          buffer_left = 0;
        } else {
          buffer_left -= used;
        }
      }
      if (kind == kEndOfBuffer && version_ == 1 && v1_buffer_size) {
        // The rest of a version-1 buffer after EndOfBuffer is unused memory.
        uint64_t end = buffer_start + v1_buffer_size;
        if (end > off && end <= n) {
          out.records.Add(off, end - off, kTypePadding, RecordKind::kUnparsed, -1);
          off = static_cast<size_t>(end);
        }
      }
      continue;
    }
    // Function record.
    if (avail < kFunctionRecordSize) {
      out.records.Add(off, avail, 0, RecordKind::kUnparsed, -1);
      out.diags.Error(DiagCode::kRecordTruncated, off, avail, "the file ends inside an 8-byte function record");
      break;
    }
    const uint8_t* fr = w.Get(off, kFunctionRecordSize);
    if (!fr) break;
    ByteReader r(fr, kFunctionRecordSize, off, order_);
    uint32_t word = r.U32();
    uint32_t delta = r.U32();
    uint8_t action = (word >> 1) & 7;
    int32_t func = static_cast<int32_t>(word >> 4);
    if (action > kEnterArg) {
      out.records.Add(off, kFunctionRecordSize, 0, RecordKind::kUnparsed, -1);
      out.diags.Error(DiagCode::kUnknownRecordType, off, kFunctionRecordSize,
                      "function record with unknown action " + Num(action) + "; skipped");
      fn_open = false;
    } else {
      int32_t row = out.records.Add(off, kFunctionRecordSize, kTypeFunctionBase + action, RecordKind::kRecord, -1);
      if (!ignoring) {
        base_tsc += delta;
        XRayEvent e;
        e.tid = tid;
        e.pid = pid;
        e.cpu = cpu;
        e.action = action;
        e.func = func;
        e.tsc = base_tsc;
        e.row = row;
        e.block = cur_block() - blocks_.data();
        events_.push_back(std::move(e));
        fn_open = true;
        if (wall_pending < markers_.size()) {
          markers_[wall_pending].tsc = base_tsc;
          markers_[wall_pending].cpu = cpu;
        }
        wall_pending = SIZE_MAX;
      }
    }
    off += kFunctionRecordSize;
    if (version_ >= 3) {
      if (kFunctionRecordSize > buffer_left) {
        out.diags.Error(DiagCode::kRecordTruncated, off - kFunctionRecordSize, kFunctionRecordSize,
                        "function record runs past the end of its buffer (BufferExtents)");
        buffer_left = 0;
      } else {
        buffer_left -= kFunctionRecordSize;
      }
    }
  }
}

void XRayDecoder::LoadYamlMap(Window& w, const std::string& name, DecodeResult& out) {
  std::vector<uint8_t> keep;
  const uint8_t* d = WholeFile(w, keep);
  if (!d) return;
  std::string text(reinterpret_cast<const char*>(d), keep.size());
  auto field = [](const std::string& line, const std::string& key) -> std::string {
    size_t p = line.find(" " + key + ":");
    if (p == std::string::npos) p = line.find("{" + key + ":");
    if (p == std::string::npos) return {};
    p += key.size() + 2;
    while (p < line.size() && line[p] == ' ') ++p;
    if (p < line.size() && line[p] == '\'') {
      std::string v;
      for (++p; p < line.size(); ++p) {
        if (line[p] == '\'') {
          if (p + 1 < line.size() && line[p + 1] == '\'') { v += '\''; ++p; continue; }
          break;
        }
        v += line[p];
      }
      return v;
    }
    size_t e = line.find_first_of(",}", p);
    std::string v = line.substr(p, e == std::string::npos ? std::string::npos : e - p);
    while (!v.empty() && v.back() == ' ') v.pop_back();
    return v;
  };
  size_t pos = 0, used = 0;
  while (pos < text.size()) {
    size_t e = text.find('\n', pos);
    std::string line = text.substr(pos, e == std::string::npos ? std::string::npos : e - pos);
    pos = e == std::string::npos ? text.size() : e + 1;
    std::string id = field(line, "id");
    if (id.empty()) continue;
    int32_t fid = static_cast<int32_t>(std::strtol(id.c_str(), nullptr, 10));
    std::string fn = field(line, "function");
    std::string fname = field(line, "function-name");
    if (!fn.empty() && !addresses_.count(fid)) addresses_[fid] = std::strtoull(fn.c_str(), nullptr, 0);
    if (!fname.empty()) names_[fid] = fname;
    ++used;
  }
  if (!used)
    out.diags.Warning(DiagCode::kSideFileUnused, 0, 0, "side file " + name + " holds no `llvm-xray extract` entries");
}

void XRayDecoder::UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) {
  int32_t max_id = 0;
  for (const auto& e : events_) max_id = std::max(max_id, e.func);
  for (auto& f : files) {
    if (f.kind == "yaml") {
      LoadYamlMap(*f.window, f.name, out);
    } else if (f.kind == "elf") {
      elf::ElfFile ef = elf::ReadElf(*f.window);
      if (ef.sleds.empty()) {
        out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                          "side file " + f.name + " has no xray_instr_map section: not the instrumented program; not used");
        continue;
      }
      auto ids = elf::XRayFunctionIds(ef.sleds);
      if (max_id > static_cast<int32_t>(ids.size())) {
        out.diags.Warning(DiagCode::kSideFileMismatch, 0, 0,
                          "side file " + f.name + " instruments " + Num(ids.size()) + " functions but the log names id " +
                              std::to_string(max_id) + ": a different build; not used");
        continue;
      }
      elf::Symbolizer sym(std::move(ef));
      for (const auto& [id, addr] : ids) {
        addresses_[id] = addr;
        std::string nm = sym.Name(addr);
        if (!nm.empty()) names_[id] = nm;
      }
      out.facts.emplace_back("instrumentation map", f.name + " (" + Num(ids.size()) + " functions)");
    } else {
      out.diags.Warning(DiagCode::kSideFileUnused, 0, 0,
                        "side file " + f.name + " (" + f.kind + ") is not used by the XRay decoder (it takes the program's ELF file or `llvm-xray extract` YAML)");
    }
  }
}

std::string XRayDecoder::FuncName(int32_t id) const {
  auto n = names_.find(id);
  if (n != names_.end()) return n->second;
  auto a = addresses_.find(id);
  if (a != addresses_.end()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "@(%llx)", static_cast<unsigned long long>(a->second));
    return buf;
  }
  return "#" + std::to_string(id);
}

void XRayDecoder::Finish(DecodeResult& out) {
  BuildProfile(out);
  BuildAccount();
}

void XRayDecoder::BuildProfile(DecodeResult& out) {
  Profile& p = out.profile;
  StackBuilder sb(p);
  std::unordered_map<uint32_t, int32_t> thread_row;
  auto thread_of_tid = [&](uint32_t tid, uint32_t pid, uint64_t tsc) {
    auto it = thread_row.find(tid);
    if (it != thread_row.end()) return it->second;
    int32_t row = static_cast<int32_t>(p.threads.size());
    p.threads.tid.push_back(static_cast<int32_t>(tid));
    p.threads.pid.push_back(static_cast<int32_t>(pid));
    p.threads.name.push_back(kNone);
    p.threads.start.push_back(tsc);
    p.threads.end.push_back(tsc);
    p.threads.samples.push_back(0);
    thread_row[tid] = row;
    return row;
  };
  auto thread_of = [&](const XRayEvent& e) { return thread_of_tid(e.tid, e.pid, e.tsc); };
  p.events.name.push_back(p.strings.Intern("calls"));
  p.events.samples.push_back(0);
  // Frames: one per thread root ("thread_TID") and one per function id.
  std::unordered_map<int32_t, int32_t> func_frame;
  auto frame_of = [&](int32_t id) {
    auto it = func_frame.find(id);
    if (it != func_frame.end()) return it->second;
    int32_t fn = sb.Func(p.strings.Intern(FuncName(id)), kNone);
    auto a = addresses_.find(id);
    int32_t fr = sb.Frame(a != addresses_.end() ? a->second : static_cast<uint64_t>(static_cast<uint32_t>(id)), fn, kNone);
    func_frame[id] = fr;
    return fr;
  };
  // llvm-xray stack processes the records sorted by TSC (stable).
  std::vector<size_t> order(events_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return events_[a].tsc < events_[b].tsc; });
  struct Open { int32_t stack; int32_t func; uint64_t tsc; int32_t row; };
  struct ThreadState { std::vector<Open> stack; bool last_exit = false; int32_t root = kNone; uint64_t last_tsc = 0; };
  std::unordered_map<uint32_t, ThreadState> states;
  uint64_t repaired = 0;
  auto add_sample = [&](int32_t thread, const Open& o, uint64_t end) {
    p.samples.time.push_back(o.tsc);
    p.samples.thread.push_back(thread);
    p.samples.cpu.push_back(kNone);
    p.samples.event.push_back(0);
    p.samples.weight.push_back(static_cast<double>(end >= o.tsc ? end - o.tsc : o.tsc - end));
    p.samples.stack.push_back(o.stack);
    p.samples.record.push_back(o.row);
    p.events.samples[0]++;
    p.threads.samples[static_cast<size_t>(thread)]++;
  };
  auto add_interval = [&](int32_t thread, const Open& o, uint64_t end, int32_t depth) {
    p.intervals.thread.push_back(thread);
    p.intervals.func.push_back(p.frames.func[static_cast<size_t>(func_frame[o.func])]);
    p.intervals.start.push_back(o.tsc);
    p.intervals.end.push_back(end);
    p.intervals.depth.push_back(depth);
    p.intervals.record.push_back(o.row);
  };
  for (size_t idx : order) {
    const XRayEvent& e = events_[idx];
    int32_t th = thread_of(e);
    ThreadState& st = states[e.tid];
    if (st.root == kNone) {
      int32_t fn = sb.Func(p.strings.Intern("thread_" + Num(e.tid)), kNone);
      st.root = sb.Stack(kNone, sb.Frame(0, fn, kNone));
    }
    size_t t = static_cast<size_t>(th);
    p.threads.start[t] = std::min(p.threads.start[t], e.tsc);
    p.threads.end[t] = std::max(p.threads.end[t], e.tsc);
    st.last_tsc = std::max(st.last_tsc, e.tsc);
    uint64_t at = e.row >= 0 ? out.records.offset[static_cast<size_t>(e.row)] : 0;
    if (e.action == kEnter || e.action == kEnterArg) {
      st.last_exit = false;
      int32_t prefix = st.stack.empty() ? st.root : st.stack.back().stack;
      st.stack.push_back(Open{sb.Stack(prefix, frame_of(e.func)), e.func, e.tsc, e.row});
      continue;
    }
    bool was_exit = st.last_exit;
    st.last_exit = true;
    if (st.stack.empty()) {
      ++repaired;
      out.diags.Warning(DiagCode::kStackRepaired, at, kFunctionRecordSize,
                        "exit of " + FuncName(e.func) + " on thread " + Num(e.tid) +
                            " with no function on the stack: ignored (llvm-xray stack: entry not found)");
      continue;
    }
    size_t match = st.stack.size();
    for (size_t k = st.stack.size(); k-- > 0;)
      if (st.stack[k].func == e.func) { match = k; break; }
    size_t from = match;
    if (match == st.stack.size()) {
      from = 0;
      ++repaired;
      out.diags.Warning(DiagCode::kStackRepaired, at, kFunctionRecordSize,
                        "exit of " + FuncName(e.func) + " on thread " + Num(e.tid) + " matches no open call: the whole stack of " +
                            Num(st.stack.size()) + " calls was closed here, as llvm-xray stack does");
    } else if (match + 1 != st.stack.size()) {
      ++repaired;
      out.diags.Warning(DiagCode::kStackRepaired, at, kFunctionRecordSize,
                        "exit of " + FuncName(e.func) + " on thread " + Num(e.tid) + " closes " +
                            Num(st.stack.size() - match - 1) + " inner call(s) that never exited (a tail call or a lost exit)");
    }
    (void)was_exit;
    for (size_t k = from; k < st.stack.size(); ++k) {
      add_sample(th, st.stack[k], e.tsc);
      add_interval(th, st.stack[k], e.tsc, static_cast<int32_t>(k));
    }
    st.stack.resize(from);
  }
  uint64_t open = 0;
  for (auto& [tid, st] : states) {
    int32_t th = thread_row[tid];
    for (size_t k = 0; k < st.stack.size(); ++k) {
      add_interval(th, st.stack[k], st.last_tsc, static_cast<int32_t>(k));
      ++open;
    }
  }
  if (open)
    out.diags.Add(DiagCode::kStackRepaired, Severity::kInfo, 0, 0,
                  Num(open) + " call(s) never exited before the log ended; their intervals end at the thread's last record");
  (void)repaired;
  // Markers, in time order (stable: file order among equal times).
  std::vector<size_t> morder(markers_.size());
  for (size_t i = 0; i < morder.size(); ++i) morder[i] = i;
  std::stable_sort(morder.begin(), morder.end(), [&](size_t a, size_t b) { return markers_[a].tsc < markers_[b].tsc; });
  for (size_t idx : morder) {
    const XRayMarker& m = markers_[idx];
    const char* kind = m.kind == kCustomEventMarker ? "custom event"
                       : m.kind == kTypedEventMarker ? "typed event"
                       : m.kind == kWalltimeMarker   ? "wall time"
                                                     : "cpu";
    p.markers.Add(m.tsc, p.strings.Intern(kind), thread_of_tid(m.tid, m.pid, m.tsc), m.cpu, p.strings.Intern(m.label), m.row);
  }
  if (!events_.empty()) {
    uint64_t lo = events_[order.front()].tsc, hi = events_[order.back()].tsc;
    out.time_start = lo;
    out.time_end = hi;
  }
  out.facts.emplace_back("function records", Num(events_.size()));
  out.facts.emplace_back("time unit", freq_ ? "TSC ticks (" + Num(freq_) + " per second)" : "TSC ticks");
}

std::vector<size_t> XRayDecoder::LlvmOrder() const {
  std::vector<size_t> order;
  order.reserve(events_.size());
  if (type_ != kFdrLog || blocks_.empty()) {
    for (size_t i = 0; i < events_.size(); ++i) order.push_back(i);
    return order;
  }
  // LLVM's loader keeps FDR blocks in a DenseMap<pair<uint64_t pid, int32_t
  // tid>, blocks> and expands it in bucket order: the same hash (each half
  // times 37, then mixed), power-of-two tables of at least 64 buckets,
  // quadratic probing, growth at 3/4 full re-inserting in bucket order.
  auto hash = [](uint64_t pid, int32_t tid) {
    uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(pid * 37ULL)) << 32 |
                   static_cast<uint32_t>(static_cast<uint32_t>(tid) * 37U);
    key += ~(key << 32);
    key ^= (key >> 22);
    key += ~(key << 13);
    key ^= (key >> 8);
    key += (key << 3);
    key ^= (key >> 15);
    key += ~(key << 27);
    key ^= (key >> 31);
    return static_cast<uint32_t>(key);
  };
  std::vector<std::pair<uint64_t, int32_t>> keys;            // in first-flush order
  std::map<std::pair<uint64_t, int32_t>, std::vector<size_t>> key_blocks;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    auto k = std::make_pair(blocks_[b].pid, blocks_[b].tid);
    auto& v = key_blocks[k];
    if (v.empty()) keys.push_back(k);
    v.push_back(b);
  }
  std::vector<int32_t> table(64, -1);  // key index per bucket
  auto place = [&](std::vector<int32_t>& t, int32_t ki) {
    size_t mask = t.size() - 1;
    size_t at = hash(keys[static_cast<size_t>(ki)].first, keys[static_cast<size_t>(ki)].second) & mask;
    for (size_t probe = 1; t[at] >= 0; ++probe) at = (at + probe) & mask;
    t[at] = ki;
  };
  size_t entries = 0;
  for (size_t ki = 0; ki < keys.size(); ++ki) {
    if ((entries + 1) * 4 >= table.size() * 3) {
      std::vector<int32_t> bigger(table.size() * 2, -1);
      for (int32_t k : table)
        if (k >= 0) place(bigger, k);
      table.swap(bigger);
    }
    place(table, static_cast<int32_t>(ki));
    ++entries;
  }
  // Each key's blocks sorted by wall time with LLVM's comparator (seconds and
  // micros both smaller), by insertion as libstdc++'s std::sort does for up to
  // 16 elements. (That comparator is no strict weak order, so for longer runs
  // std::sort's result is its implementation's accident: there, and to stay
  // O(n log n), blocks are stably sorted by (seconds, micros) instead.)
  auto before = [&](size_t a, size_t b) {
    return blocks_[a].seconds < blocks_[b].seconds && blocks_[a].micros < blocks_[b].micros;
  };
  std::vector<std::vector<size_t>> block_events(blocks_.size());
  for (size_t i = 0; i < events_.size(); ++i)
    if (events_[i].block >= 0) block_events[static_cast<size_t>(events_[i].block)].push_back(i);
  for (int32_t ki : table) {
    if (ki < 0) continue;
    std::vector<size_t> bl = key_blocks[keys[static_cast<size_t>(ki)]];
    if (bl.size() > 16)
      std::stable_sort(bl.begin(), bl.end(), [&](size_t a, size_t b) {
        return std::make_pair(blocks_[a].seconds, blocks_[a].micros) < std::make_pair(blocks_[b].seconds, blocks_[b].micros);
      });
    for (size_t i = 1; bl.size() <= 16 && i < bl.size(); ++i) {
      size_t v = bl[i];
      if (before(v, bl[0])) {
        std::move_backward(bl.begin(), bl.begin() + static_cast<long>(i), bl.begin() + static_cast<long>(i) + 1);
        bl[0] = v;
        continue;
      }
      size_t j = i;
      while (j > 0 && before(v, bl[j - 1])) {
        bl[j] = bl[j - 1];
        --j;
      }
      bl[j] = v;
    }
    for (size_t b : bl)
      for (size_t e : block_events[b]) order.push_back(e);
  }
  return order;
}

void XRayDecoder::BuildAccount() {
  // `llvm-xray account`: records in the order its loader gives them (no
  // sorting, no sibling-call deduction); records it cannot place are skipped
  // as with -keep-going.
  std::map<int32_t, std::vector<uint64_t>> lat;
  std::unordered_map<uint32_t, std::vector<std::pair<int32_t, uint64_t>>> stacks;
  uint64_t first = 0;
  bool have_first = false;
  for (size_t idx : LlvmOrder()) {
    const XRayEvent& e = events_[idx];
    if (!have_first) { first = e.tsc; have_first = true; }
    if (e.tsc < first) continue;
    auto& s = stacks[e.tid];
    if (e.action == kEnter || e.action == kEnterArg) {
      s.emplace_back(e.func, e.tsc);
      continue;
    }
    if (s.empty() || s.back().first != e.func) continue;
    uint64_t a = s.back().second;
    lat[e.func].push_back(std::max(a, e.tsc) - std::min(a, e.tsc));
    s.pop_back();
  }
  account_.clear();
  for (auto& [id, t] : lat) {
    AccountRow r;
    r.func = id;
    r.count = t.size();
    double sum = 0;
    for (uint64_t v : t) sum += static_cast<double>(v);
    std::sort(t.begin(), t.end());
    r.min = static_cast<double>(t.front());
    r.max = static_cast<double>(t.back());
    r.median = static_cast<double>(t[t.size() / 2]);
    r.p90 = static_cast<double>(t[static_cast<size_t>(std::floor(t.size() * 0.9))]);
    r.p99 = static_cast<double>(t[static_cast<size_t>(std::floor(t.size() * 0.99))]);
    r.sum = sum;
    if (freq_) {
      double f = static_cast<double>(freq_);
      r.min /= f; r.max /= f; r.median /= f; r.p90 /= f; r.p99 /= f; r.sum /= f;
    }
    r.name = FuncName(id);
    account_.push_back(std::move(r));
  }
}

std::string XRayDecoder::AccountText() const {
  std::string out = "Functions with latencies: " + Num(account_.size()) + "\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%9s %10s [%9s, %9s, %9s, %9s, %9s] %9s  %-12s\n", "funcid", "count", "min", "med", "90p",
                "99p", "max", "sum", "function");
  out += buf;
  for (const auto& r : account_) {
    std::snprintf(buf, sizeof buf, "%9d %10llu [%9.6f, %9.6f, %9.6f, %9.6f, %9.6f] %9.6f  ", r.func,
                  static_cast<unsigned long long>(r.count), r.min, r.median, r.p90, r.p99, r.max, r.sum);
    out += buf;
    out += r.name + "\n";
  }
  return out;
}

std::string XRayDecoder::AccountJson(const DecodeResult& res) const {
  (void)res;
  std::string out = "[";
  char buf[512];
  for (size_t i = 0; i < account_.size(); ++i) {
    const auto& r = account_[i];
    if (i) out += ',';
    std::snprintf(buf, sizeof buf,
                  "{\"funcid\":%d,\"count\":%llu,\"min\":%.9g,\"median\":%.9g,\"p90\":%.9g,\"p99\":%.9g,\"max\":%.9g,\"sum\":%.9g,\"function\":",
                  r.func, static_cast<unsigned long long>(r.count), r.min, r.median, r.p90, r.p99, r.max, r.sum);
    out += buf;
    out += QuoteString(r.name) + "}";
  }
  return out + "]";
}

std::string XRayDecoder::EventsText(const DecodeResult& res) const {
  (void)res;
  std::string out;
  for (const auto& e : events_) {
    out += Num(e.tid) + "\t" + Num(e.tsc) + "\t" + ActionName(e.action) + "\t" + std::to_string(e.func);
    if (!e.args.empty()) {
      out += '\t';
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i) out += ',';
        out += Num(e.args[i]);
      }
    }
    out += '\n';
  }
  return out;
}

bool XRayDecoder::IsListedRecord(const DecodeResult& res, int32_t row) const {
  (void)res;
  (void)row;
  return true;
}

std::string XRayDecoder::RecordTypeText(const DecodeResult& res, int32_t row) const {
  std::string l = RecordLabel(res, row);
  for (auto& c : l)
    if (c == ' ') c = '_';
  return l;
}

std::string XRayDecoder::RecordLabel(const DecodeResult& res, int32_t row) const {
  size_t i = static_cast<size_t>(row);
  uint32_t t = res.records.type[i];
  auto kind = static_cast<RecordKind>(res.records.kind[i]);
  if (kind == RecordKind::kFileHeader) return "file header";
  if (t == kTypePadding) return "padding";
  if (kind == RecordKind::kUnparsed) return "unparsed";
  if (t == kTypeEventPayload) return "event payload";
  if (t >= kTypeMetadataBase && t < kTypeMetadataBase + kMetadataKinds) return MetadataKindName(static_cast<uint8_t>(t - kTypeMetadataBase));
  if (t >= kTypeFunctionBase && t <= kTypeFunctionBase + kEnterArg)
    return std::string("function ") + ActionName(static_cast<uint8_t>(t - kTypeFunctionBase));
  if (t >= kTypeBasicBase && t <= kTypeBasicBase + kEnterArg)
    return std::string("basic ") + ActionName(static_cast<uint8_t>(t - kTypeBasicBase));
  if (t == kTypeBasicArg) return "basic arg payload";
  return "record";
}

void XRayDecoder::RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) {
  size_t i = static_cast<size_t>(row);
  uint64_t off = res.records.offset[i], size = res.records.size[i];
  uint32_t t = res.records.type[i];
  auto kind = static_cast<RecordKind>(res.records.kind[i]);
  size_t take = static_cast<size_t>(std::min<uint64_t>(size, 64));
  const uint8_t* d = w.Get(off, take);
  if (!d) return;
  std::vector<uint8_t> keep(d, d + take);
  ByteReader r(keep.data(), keep.size(), off, order_);
  auto add = [&](const char* name, size_t n, const std::string& v) {
    uint64_t at = r.abs_pos();
    out.Add(name, at, n, v);
  };
  auto u8 = [&](const char* name) { uint64_t at = r.abs_pos(); uint8_t v = r.U8(); out.Add(name, at, 1, Num(v)); return v; };
  auto u16 = [&](const char* name) { uint64_t at = r.abs_pos(); uint16_t v = r.U16(); out.Add(name, at, 2, Num(v)); return v; };
  auto u32 = [&](const char* name) { uint64_t at = r.abs_pos(); uint32_t v = r.U32(); out.Add(name, at, 4, Num(v)); return v; };
  auto i32 = [&](const char* name) { uint64_t at = r.abs_pos(); int32_t v = r.I32(); out.Add(name, at, 4, std::to_string(v)); return v; };
  auto u64 = [&](const char* name) { uint64_t at = r.abs_pos(); uint64_t v = r.U64(); out.Add(name, at, 8, Num(v)); return v; };
  if (kind == RecordKind::kFileHeader) {
    u16("version");
    uint64_t at = r.abs_pos();
    uint16_t ty = r.U16();
    out.Add("type", at, 2, Num(ty) + (ty == kFdrLog ? " (FDR)" : ty == kNaiveLog ? " (basic)" : ""));
    at = r.abs_pos();
    uint32_t bits = r.U32();
    out.Add("bitfield", at, 4, std::string("constant_tsc=") + ((bits & 1) ? "1" : "0") + " nonstop_tsc=" + ((bits & 2) ? "1" : "0"));
    u64("cycle_frequency");
    if (type_ == kFdrLog && version_ == 1) {
      u64("buffer_size");
      add("free_form", 8, "");
    } else {
      add("free_form", 16, "");
    }
    return;
  }
  if (kind == RecordKind::kUnparsed || t == kTypeEventPayload || t == kTypePadding) {
    std::string hex;
    static const char* dg = "0123456789abcdef";
    for (size_t k = 0; k < keep.size() && k < 32; ++k) { hex += dg[keep[k] >> 4]; hex += dg[keep[k] & 15]; }
    if (size > 32) hex += "...";
    out.Add("bytes", off, size, hex);
    return;
  }
  if (t >= kTypeBasicBase && t <= kTypeBasicBase + kEnterArg) {
    u16("record_type");
    u8("cpu");
    uint64_t at = r.abs_pos();
    uint8_t a = r.U8();
    out.Add("type", at, 1, Num(a) + " (" + ActionName(a) + ")");
    i32("func_id");
    u64("tsc");
    u32("tid");
    u32("pid");
    add("padding", 8, "");
    return;
  }
  if (t == kTypeBasicArg) {
    u16("record_type");
    r.Skip(2);
    i32("func_id");
    u32("tid");
    u32("pid");
    u64("arg");
    return;
  }
  if (t >= kTypeFunctionBase && t <= kTypeFunctionBase + kEnterArg) {
    uint64_t at = r.abs_pos();
    uint32_t word = r.U32();
    out.Add("record_kind", at, 1, "function");
    out.Add("action", at, 1, Num((word >> 1) & 7) + " (" + ActionName((word >> 1) & 7) + ")");
    out.Add("func_id", at, 4, Num(word >> 4));
    u32("tsc_delta");
    return;
  }
  uint8_t mk = static_cast<uint8_t>(t - kTypeMetadataBase);
  uint64_t at = r.abs_pos();
  r.U8();
  out.Add("record_kind", at, 1, std::string("metadata ") + MetadataKindName(mk) + " (" + Num(mk) + ")");
  switch (mk) {
    case kNewBuffer: i32("tid"); break;
    case kEndOfBuffer: break;
    case kNewCPUId: u16("cpu"); u64("tsc"); break;
    case kTSCWrap: u64("base_tsc"); break;
    case kWalltimeMarker: u64("seconds"); u32("micros"); break;
    case kCallArgument: u64("arg"); break;
    case kBufferExtents: u64("size"); break;
    case kPid: i32("pid"); break;
    case kCustomEventMarker:
      i32("size");
      if (version_ >= 5) i32("tsc_delta");
      else { u64("tsc"); if (version_ >= 4) u16("cpu"); }
      break;
    case kTypedEventMarker: i32("size"); i32("tsc_delta"); u16("event_type"); break;
    default: break;
  }
}

}  // namespace profscope::xray
