#include "core/format/xray/xray_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <unordered_map>

#include "core/format/xray/xray_format.h"
#include "core/io/keyed_hash.h"
#include "core/model/memory_budget.h"

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

namespace {

// A marker label's view of an event payload: its size and the first 48
// bytes, printable ASCII as is and anything else as '.'.
std::string PayloadPreview(const uint8_t* p, size_t have, uint64_t size) {
  constexpr size_t kPreview = 48;
  std::string out = Dec(size) + (size == 1 ? " byte" : " bytes");
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

// Custom and typed events are what the program wrote; the other metadata records are XRay's bookkeeping.
RecordCategory MetadataCategory(uint8_t kind) {
  return kind == kCustomEventMarker || kind == kTypedEventMarker ? RecordCategory::kUserEvent : RecordCategory::kMetadata;
}

// What the log keeps besides the tables, per row as the budget counts
// (core/model/memory_budget.h), and what Finish will build from each function
// record (BuildCalls): half a call's sample row (36 bytes; its interval is read
// from the sample; the time order is merged from the log's runs as it goes),
// so a decode stopped by the budget stays under it once its calls are built.
constexpr uint64_t kCallBytesPerRecord = 18;
uint64_t KeptBytes(const XRayLog& log) {
  return MemoryBudget::Bytes(log.calls) + kCallBytesPerRecord * log.calls.size() + 64ull * log.markers.size() +
         24ull * log.blocks.size();
}

// The FDR buffer block the records read now belong to (made when the buffer's first one needs it); its index.
int32_t CurrentBlock(XRayLog* log) {
  XRayReadState& st = log->read;
  if (st.block == kNone) {
    st.block = static_cast<int32_t>(log->blocks.size());
    log->blocks.emplace_back();
  }
  return st.block;
}

void ReadBasic(Window& w, size_t n, XRayLog* log, DecodeResult& out, PauseCheck* pause) {
  XRayReadState& st = log->read;
  if (!st.started) {
    st.started = true;
    st.off = kFileHeaderSize;
  }
  size_t& off = st.off;
  while (off < n) {
    if (w.Ended(off)) break;  // (the file ended before its size: read no zeros as records)
    if (pause && pause->Ask(off)) {  // before the budget: asked once per offset, paused or not
      st.paused = true;
      return;
    }
    if (out.OverBudgetKeeping(off, [&] { return KeptBytes(*log); })) break;
    if (n - off < kBasicRecordSize) {
      out.records.Add(off, n - off, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      out.diags.Error(DiagCode::kRecordTruncated, off, n - off,
                      "the file ends " + Dec(n - off) + " bytes into a 32-byte basic-mode record");
      break;
    }
    const uint8_t* rec = w.Get(off, kBasicRecordSize);
    if (!rec) break;
    ByteReader r(rec, kBasicRecordSize, off, log->order);
    uint16_t rt = r.U16();
    if (rt == 0) {
      r.U8();  // cpu
      uint8_t type = r.U8();
      int32_t func = r.I32();
      uint64_t tsc = r.U64();
      uint32_t tid = r.U32();
      uint32_t pid = r.U32();
      if (type > kEnterArg) {
        out.records.Add(off, kBasicRecordSize, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
        out.diags.Error(DiagCode::kUnknownRecordType, off, kBasicRecordSize,
                        "basic-mode record with unknown function action " + Dec(type) + "; skipped");
      } else {
        int32_t row = out.records.Add(off, kBasicRecordSize, kTypeBasicBase + type, RecordKind::kRecord, -1, RecordCategory::kSample);
        log->calls.Add(tid, pid, kNone, static_cast<CallAction>(type), func, tsc, row);
      }
    } else if (rt == 1) {
      r.Skip(2);
      int32_t func = r.I32();
      uint32_t tid = r.U32(), pid = r.U32();
      uint64_t arg = r.U64();
      out.records.Add(off, kBasicRecordSize, kTypeBasicArg, RecordKind::kRecord, -1, RecordCategory::kMetadata);
      const CallLog& c = log->calls;
      if (c.size() == 0 || static_cast<int32_t>(c.func.back()) != func || c.runs.back().tid != tid ||
          (log->version >= 3 && c.runs.back().pid != pid)) {
        out.diags.Error(DiagCode::kRecordFieldOverrun, off, kBasicRecordSize,
                        "argument payload for function " + std::to_string(func) + " thread " + Dec(tid) +
                            " does not follow a record of that function and thread (llvm-xray rejects the log here)");
      } else {
        log->calls.args.emplace_back(static_cast<uint32_t>(c.size() - 1), arg);
      }
    } else {
      out.records.Add(off, kBasicRecordSize, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      out.diags.Error(DiagCode::kUnknownRecordType, off, kBasicRecordSize,
                      "basic-mode record type " + Dec(rt) + " is neither 0 (function) nor 1 (argument payload); skipped");
    }
    off += kBasicRecordSize;
  }
}

// The function records that follow one, taken at once: as many as the loop of ReadFdr would take one by one
// with nothing else to do between them. They lie in the buffer and the file, no pause is asked before them
// and no count of the budget is due (so a paused or budgeted read stops at the same record), nothing waits
// for a function record's time (a wall-time marker), and each is a function record of a known action; the
// rest is left to that loop. Their rows are added as one run of 8-byte rows (RecordTable::AddEvenly).
void TakeFunctionStretch(Window& w, size_t n, XRayLog* log, DecodeResult& out, PauseCheck* pause) {
  constexpr size_t kMost = MemoryBudget::kCheckEvery;
  XRayReadState& st = log->read;
  if (st.paused || out.budget.reached() || st.wall_pending < log->markers.size()) return;
  size_t most = std::min<size_t>(out.budget.QuietTicks(), kMost);
  most = std::min(most, (n - st.off) / kFunctionRecordSize);
  if (w.ended_at() < n)  // (the file ended before its size: the records that start before that, as ReadFdr's loop)
    most = std::min<uint64_t>(most, w.ended_at() > st.off ? (w.ended_at() - st.off + kFunctionRecordSize - 1) / kFunctionRecordSize : 0);
  if (log->version >= 3) most = std::min<uint64_t>(most, st.buffer_left / kFunctionRecordSize);
  const uint64_t quiet = pause ? pause->QuietUntil() : UINT64_MAX;
  if (quiet <= st.off) return;
  most = std::min<uint64_t>(most, (quiet - st.off + kFunctionRecordSize - 1) / kFunctionRecordSize);
  if (most == 0) return;
  const uint8_t* span = w.Get(st.off, most * kFunctionRecordSize);
  if (!span) return;
  uint32_t types[kMost], words[kMost], deltas[kMost];
  size_t k = 0;
  for (; k < most; ++k) {
    const uint8_t* rec = span + k * kFunctionRecordSize;
    if (rec[0] & 1) break;  // (a metadata record)
    ByteReader r(rec, kFunctionRecordSize, st.off + k * kFunctionRecordSize, log->order);
    words[k] = r.U32();
    deltas[k] = r.U32();
    const uint8_t action = (words[k] >> 1) & 7;
    if (action > kEnterArg) break;
    types[k] = kTypeFunctionBase + action;
  }
  if (k == 0) return;
  const int32_t first_row = out.records.AddEvenly(st.off, kFunctionRecordSize, types, k, RecordKind::kRecord, -1, RecordCategory::kSample);
  if (!st.ignoring) {
    const int32_t blk = CurrentBlock(log);
    CallAction actions[kMost];
    int32_t funcs[kMost];
    uint64_t times[kMost];
    uint64_t tsc = st.base_tsc;
    for (size_t j = 0; j < k; ++j) {
      tsc += deltas[j];
      times[j] = tsc;
      actions[j] = static_cast<CallAction>((words[j] >> 1) & 7);
      funcs[j] = static_cast<int32_t>(words[j] >> 4);
    }
    try {
      log->calls.AddRun(st.tid, st.pid, blk, k, actions, funcs, times, first_row);
    } catch (const std::bad_alloc&) {  // (the log as it was: one record at a time, as ReadFdr's loop)
      for (size_t j = 0; j < k; ++j) {
        st.base_tsc = times[j];
        try {
          log->calls.Add(st.tid, st.pid, blk, actions[j], funcs[j], times[j], first_row + static_cast<int32_t>(j));
        } catch (const std::bad_alloc&) {  // (this record's row stays, the later ones go)
          out.records.Truncate(static_cast<size_t>(first_row) + j + 1);
          st.fn_open = st.fn_open || j > 0;
          st.off += j * kFunctionRecordSize;
          if (log->version >= 3) st.buffer_left -= j * kFunctionRecordSize;
          throw;
        }
      }
    }
    st.base_tsc = tsc;
    st.fn_open = true;
  }
  st.off += k * kFunctionRecordSize;
  if (log->version >= 3) st.buffer_left -= k * kFunctionRecordSize;
  out.budget.SkipQuiet(static_cast<uint32_t>(k));
}

void ReadFdr(Window& w, size_t n, XRayLog* log, DecodeResult& out, PauseCheck* pause) {
  // The reader's state lives in log->read, so a paused read goes on where it stopped.
  XRayReadState& st = log->read;
  if (!st.started) {
    st.started = true;
    st.off = kFileHeaderSize;
    st.buffer_start = st.off;
    if (log->version == 1) {
      ByteReader h(w.Get(0, kFileHeaderSize), kFileHeaderSize, 0, log->order);
      st.v1_buffer_size = h.PeekU64(16);
    }
  }
  size_t& off = st.off;
  const uint64_t v1_buffer_size = st.v1_buffer_size;
  auto byte_at = [&](size_t at) -> int {
    const uint8_t* p = w.Get(at, 1);
    return p ? *p : -1;
  };
  uint64_t& buffer_left = st.buffer_left;
  size_t& buffer_start = st.buffer_start;
  bool& ignoring = st.ignoring;
  bool& fn_open = st.fn_open;
  uint32_t& tid = st.tid;
  uint32_t& pid = st.pid;
  uint16_t& cpu = st.cpu;
  uint64_t& base_tsc = st.base_tsc;
  std::unordered_map<uint32_t, uint16_t, KeyedIntHash>& thread_cpu = st.thread_cpu;
  size_t& wall_pending = st.wall_pending;
  int32_t& block = st.block;
  bool& extents_past_end_said = st.extents_past_end_said;
  auto cur_block = [&]() { return &log->blocks[static_cast<size_t>(CurrentBlock(log))]; };
  while (off < n) {
    if (w.Ended(off)) break;  // (the file ended before its size: read no zeros as records)
    if (pause && pause->Ask(off)) {  // before the budget: asked once per offset, paused or not
      st.paused = true;
      return;
    }
    if (out.OverBudgetKeeping(off, [&] { return KeptBytes(*log); })) break;
    if (log->version >= 3 && buffer_left == 0) {
      // Find the next BufferExtents record, skipping what lies between buffers.
      size_t at = off;
      while (at < n) {
        int b = byte_at(at);
        if (b < 0 || ((b & 1) && (b >> 1) == kBufferExtents)) break;
        ++at;
      }
      if (at > off) {
        out.records.Add(off, at - off, kTypePadding, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
        if (at >= n)
          out.diags.Warning(DiagCode::kTrailingBytes, off, at - off,
                            Dec(at - off) + " bytes after the last buffer hold no BufferExtents record");
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
        out.records.Add(off, avail, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
        out.diags.Error(DiagCode::kRecordTruncated, off, avail,
                        std::string("the file ends inside a 16-byte ") + MetadataKindName(kind) + " record");
        break;
      }
      if (kind >= kMetadataKinds || (kind == kEndOfBuffer && log->version >= 2)) {
        out.records.Add(off, kMetadataSize, kTypeMetadataBase + (kind & 0x7f), RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
        out.diags.Error(DiagCode::kUnknownRecordType, off, kMetadataSize,
                        kind >= kMetadataKinds ? "unknown metadata record kind " + Dec(kind) + "; skipped 16 bytes"
                                               : "EndOfBuffer records do not exist in FDR version >= 2; skipped");
        off += kMetadataSize;
        if (log->version >= 3) buffer_left = buffer_left > kMetadataSize ? buffer_left - kMetadataSize : 0;
        continue;
      }
      const uint8_t* md = w.Get(off, kMetadataSize);
      if (!md) break;
      uint8_t body[kMetadataSize - 1];
      std::memcpy(body, md + 1, sizeof body);
      ByteReader r(body, sizeof body, off + 1, log->order);
      int32_t row = out.records.Add(off, kMetadataSize, kTypeMetadataBase + kind, RecordKind::kRecord, -1, MetadataCategory(kind));
      size_t used = kMetadataSize;
      switch (kind) {
        case kNewBuffer:
          tid = static_cast<uint32_t>(r.I32());
          if (log->version == 2) pid = tid;
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
          if (wall_pending < log->markers.size()) {
            log->markers[wall_pending].tsc = base_tsc;
            log->markers[wall_pending].cpu = cpu;
          }
          wall_pending = SIZE_MAX;
          auto it = thread_cpu.find(tid);
          if (it == thread_cpu.end() || it->second != cpu) {
            thread_cpu[tid] = cpu;
            log->markers.push_back(XRayMarker{base_tsc, tid, pid, cpu, kNewCPUId, "cpu " + Dec(cpu), row});
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
          wall_pending = log->markers.size();
          log->markers.push_back(XRayMarker{base_tsc, tid, pid, cpu, kWalltimeMarker, buf, row});
          break;
        }
        case kCallArgument: {
          uint64_t arg = r.U64();
          if (fn_open && log->calls.size() != 0) {
            log->calls.args.emplace_back(static_cast<uint32_t>(log->calls.size() - 1), arg);
            log->calls.SetLastAction(CallAction::kEnterArg);
          } else {
            out.diags.Warning(DiagCode::kRecordFieldOverrun, off, kMetadataSize,
                              "CallArgument record with no function record before it in this buffer");
          }
          break;
        }
        case kBufferExtents: {
          buffer_left = r.U64();
          fn_open = false;
          // The buffer is read up to the end of the file either way (as llvm-xray does); a size
          // past it is a log cut short or a size that lies, said once per file.
          const uint64_t after = n - off - kMetadataSize;
          if (buffer_left > after && !extents_past_end_said) {
            extents_past_end_said = true;
            out.diags.Warning(DiagCode::kRecordTruncated, off, kMetadataSize,
                              "BufferExtents declares a buffer of " + Dec(buffer_left) + " bytes but only " + Dec(after) +
                                  " bytes follow in the file: the log was cut short or the size is wrong; its records are read to the end of the file");
          }
          break;
        }
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
          if (kind == kTypedEventMarker || log->version >= 5) {
            int32_t delta = r.I32();
            if (!ignoring) base_tsc += static_cast<uint32_t>(delta);
            tsc = base_tsc;
            if (kind == kTypedEventMarker) ev_type = r.U16();
          } else {
            tsc = r.U64();  // versions 1-4: the full TSC; version 4 adds the CPU
            if (log->version >= 4) ev_cpu = r.U16();
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
            payload_row = out.records.Add(off + kMetadataSize, have, kTypeEventPayload, RecordKind::kPayload, row, RecordCategory::kPayload);
            out.diags.Error(DiagCode::kMissingPayload, off + kMetadataSize, have,
                            "event payload of " + Dec(psize) + " bytes, but only " + Dec(have) + " are left");
            used += have;
          } else {
            payload_row = out.records.Add(off + kMetadataSize, psize, kTypeEventPayload, RecordKind::kPayload, row, RecordCategory::kPayload);
            used += psize;
          }
          if (!ignoring) {
            size_t peek = static_cast<size_t>(std::min<uint64_t>(std::min<uint64_t>(psize, have), 48));
            const uint8_t* pp = peek ? w.Get(off + kMetadataSize, peek) : nullptr;
            std::string label = PayloadPreview(pp, pp ? peek : 0, psize);
            if (kind == kTypedEventMarker) label = "type " + Dec(ev_type) + ", " + label;
            log->markers.push_back(XRayMarker{tsc, tid, pid, ev_cpu, kind, label, payload_row});
          }
          break;
        }
      }
      off += used;
      if (log->version >= 3 && kind != kBufferExtents) {
        if (used > buffer_left) {
          out.diags.Error(DiagCode::kRecordTruncated, off - used, used,
                          "record runs " + Dec(used - buffer_left) + " bytes past the end of its buffer (BufferExtents)");
          buffer_left = 0;
        } else {
          buffer_left -= used;
        }
      }
      if (kind == kEndOfBuffer && log->version == 1 && v1_buffer_size) {
        // The rest of a version-1 buffer after EndOfBuffer is unused memory.
        uint64_t end = buffer_start + v1_buffer_size;
        if (end > off && end <= n) {
          out.records.Add(off, end - off, kTypePadding, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
          off = static_cast<size_t>(end);
        }
      }
      continue;
    }
    // Function record.
    if (avail < kFunctionRecordSize) {
      out.records.Add(off, avail, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      out.diags.Error(DiagCode::kRecordTruncated, off, avail, "the file ends inside an 8-byte function record");
      break;
    }
    const uint8_t* fr = w.Get(off, kFunctionRecordSize);
    if (!fr) break;
    ByteReader r(fr, kFunctionRecordSize, off, log->order);
    uint32_t word = r.U32();
    uint32_t delta = r.U32();
    uint8_t action = (word >> 1) & 7;
    int32_t func = static_cast<int32_t>(word >> 4);
    if (action > kEnterArg) {
      out.records.Add(off, kFunctionRecordSize, 0, RecordKind::kUnparsed, -1, RecordCategory::kUnparsed);
      out.diags.Error(DiagCode::kUnknownRecordType, off, kFunctionRecordSize,
                      "function record with unknown action " + Dec(action) + "; skipped");
      fn_open = false;
    } else {
      int32_t row = out.records.Add(off, kFunctionRecordSize, kTypeFunctionBase + action, RecordKind::kRecord, -1, RecordCategory::kSample);
      if (!ignoring) {
        base_tsc += delta;
        log->calls.Add(tid, pid, CurrentBlock(log), static_cast<CallAction>(action), func, base_tsc, row);
        fn_open = true;
        if (wall_pending < log->markers.size()) {
          log->markers[wall_pending].tsc = base_tsc;
          log->markers[wall_pending].cpu = cpu;
        }
        wall_pending = SIZE_MAX;
      }
    }
    off += kFunctionRecordSize;
    if (log->version >= 3) {
      if (kFunctionRecordSize > buffer_left) {
        out.diags.Error(DiagCode::kRecordTruncated, off - kFunctionRecordSize, kFunctionRecordSize,
                        "function record runs past the end of its buffer (BufferExtents)");
        buffer_left = 0;
      } else {
        buffer_left -= kFunctionRecordSize;
      }
    }
    TakeFunctionStretch(w, n, log, out, pause);
  }
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

void ContinueXRayLog(Window& w, XRayLog* log, DecodeResult& out, PauseCheck* pause) {
  if (!log->read.paused) return;
  log->read.paused = false;
  const size_t n = static_cast<size_t>(w.size());
  if (log->type == kFdrLog) ReadFdr(w, n, log, out, pause);
  else ReadBasic(w, n, log, out, pause);
}

bool ReadXRayLog(Window& w, XRayLog* log, DecodeResult& out, PauseCheck* pause) {
  // Streams through the window: records are read where they lie, never the whole file at once.
  size_t n = static_cast<size_t>(w.size());
  const uint8_t* d = n >= kFileHeaderSize ? w.Get(0, kFileHeaderSize) : nullptr;
  if (!d || !ReadHeader(d, kFileHeaderSize, log->order, log->version, log->type)) {
    out.diags.Fatal(DiagCode::kTruncatedHeader, 0, n, "not an XRay log: a 32-byte header with version 1-5 and type 0/1 is needed");
    return false;
  }
  out.byte_order = log->order == ByteOrder::kLittle ? "little" : "big";
  out.mode = log->type == kFdrLog ? "fdr" : "basic";
  ByteReader h(d, kFileHeaderSize, 0, log->order);
  h.Skip(4);
  uint32_t bits = h.U32();
  log->freq = h.U64();
  out.records.Add(0, kFileHeaderSize, kTypeFileHeader, RecordKind::kFileHeader, -1, RecordCategory::kMetadata);
  out.facts.emplace_back("log version", Dec(log->version));
  out.facts.emplace_back("log type", log->type == kFdrLog ? "FDR" : "basic (naive)");
  out.facts.emplace_back("constant tsc", (bits & 1) ? "true" : "false");
  out.facts.emplace_back("nonstop tsc", (bits & 2) ? "true" : "false");
  out.facts.emplace_back("cycle frequency", Dec(log->freq));
  out.clock_hz = log->freq;
  // Room for every record the bytes can hold (FDR: 8-byte function records; basic: 32-byte records), at
  // most what the budget lets the decode keep, so the columns do not double (and copy) as they grow.
  uint64_t fit = (n - kFileHeaderSize) / (log->type == kFdrLog ? kFunctionRecordSize : kBasicRecordSize);
  size_t rows = static_cast<size_t>(std::min<uint64_t>(fit, out.budget.limit() / (1 + 4 + kCallBytesPerRecord)) + 1);
  // Room the heap cannot give (a lifted budget in a 4 GB WASM heap) is not needed: the columns then grow as
  // they fill, up to what fits.
  try {
    // (the record table also holds the metadata records, a few in a thousand, and the budget is counted
    // every 256 records: a little more room, so that the table does not grow at the very end)
    out.records.Reserve(rows + rows / 32 + 4096);
    CallLog& c = log->calls;
    const size_t calls = rows + 4096;
    c.Reserve(calls);
  } catch (const std::bad_alloc&) {
  }
  if (log->type == kFdrLog) ReadFdr(w, n, log, out, pause);
  else ReadBasic(w, n, log, out, pause);
  return true;
}

}  // namespace profscope::xray
