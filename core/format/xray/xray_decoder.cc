#include "core/format/xray/xray_decoder.h"

#include <algorithm>

#include "core/format/xray/xray_calls.h"
#include "core/format/xray/xray_format.h"
#include "core/model/field_reader.h"

namespace profscope::xray {

bool XRayDecoder::Decode(Window& w, DecodeResult& out, const ProgressFn& progress) {
  out.format = "xray";
  out.record_types_are_numbers = false;
  out.samples_are_calls = true;
  if (!ReadXRayLog(w, &log_, out, &pause_)) return false;
  if (progress && !Paused()) progress(w.size(), w.size());
  return true;
}

bool XRayDecoder::Resume(Window& w, DecodeResult& out, const ProgressFn& progress) {
  ContinueXRayLog(w, &log_, out, &pause_);
  if (progress && !Paused()) progress(w.size(), w.size());
  return true;
}

void XRayDecoder::Stop(Window& w, DecodeResult& out) {
  if (!Paused()) return;
  log_.read.paused = false;
  NoteDecodeStopped(out.diags, log_.read.off, w.size(), w.size());
}

void XRayDecoder::UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) {
  int32_t max_id = 0;
  log_.calls.func.ForEach([&](uint32_t f) { max_id = std::max(max_id, static_cast<int32_t>(f)); });
  names_.UseSideFiles(files, max_id, out);
}

void XRayDecoder::Finish(DecodeResult& out) {
  BuildCalls(log_, names_, out);
  log_.calls.loader_runs = LoaderOrder(log_, out.diags);
  calls_ = std::move(log_.calls);
  log_.calls = CallLog();
  calls_.ticks_per_second = log_.freq;
  calls_.names.clear();
  // (each id looked up once: by a bit per id while the ids are few enough, else in the names)
  std::vector<bool> named(calls_.func.most() < (1u << 24) ? calls_.func.most() + 1 : 0);
  calls_.func.ForEach([&](uint32_t bits) {
    const auto f = static_cast<int32_t>(bits);
    if (bits < named.size()) {
      if (named[bits]) return;
      named[bits] = true;
    }
    if (!calls_.names.count(f)) calls_.names.emplace(f, names_.Name(f));
  });
}

bool XRayDecoder::IsListedRecord(const DecodeResult& res, int32_t row) const {
  (void)res;
  (void)row;
  return true;
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
    return std::string("function ") + CallActionName(static_cast<CallAction>(t - kTypeFunctionBase));
  if (t >= kTypeBasicBase && t <= kTypeBasicBase + kEnterArg)
    return std::string("basic ") + CallActionName(static_cast<CallAction>(t - kTypeBasicBase));
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
  FieldReader f(ByteReader(keep.data(), keep.size(), off, log_.order), &out.items());
  ByteReader& r = f.reader();
  auto add = [&](const char* name, size_t n, const std::string& v) { f.Add(name, r.abs_pos(), n, v); };
  if (kind == RecordKind::kFileHeader) {
    f.U16("version", nullptr);
    uint64_t at = r.abs_pos();
    uint16_t ty = r.U16();
    out.Add("type", at, 2, Dec(ty) + (ty == kFdrLog ? " (FDR)" : ty == kNaiveLog ? " (basic)" : ""));
    at = r.abs_pos();
    uint32_t bits = r.U32();
    out.Add("bitfield", at, 4, std::string("constant_tsc=") + ((bits & 1) ? "1" : "0") + " nonstop_tsc=" + ((bits & 2) ? "1" : "0"));
    f.U64("cycle_frequency", nullptr);
    if (log_.type == kFdrLog && log_.version == 1) {
      f.U64("buffer_size", nullptr);
      add("free_form", 8, "");
    } else {
      add("free_form", 16, "");
    }
    return;
  }
  if (kind == RecordKind::kUnparsed || t == kTypeEventPayload || t == kTypePadding) {
    std::string hex = HexBytes(keep.data(), std::min<size_t>(keep.size(), 32));
    if (size > 32) hex += "...";
    out.Add("bytes", off, size, hex);
    return;
  }
  if (t >= kTypeBasicBase && t <= kTypeBasicBase + kEnterArg) {
    f.U16("record_type", nullptr);
    f.U8("cpu", nullptr);
    uint64_t at = r.abs_pos();
    uint8_t a = r.U8();
    out.Add("type", at, 1, Dec(a) + " (" + CallActionName(static_cast<CallAction>(a)) + ")");
    f.I32("func_id", nullptr);
    f.U64("tsc", nullptr);
    f.U32("tid", nullptr);
    f.U32("pid", nullptr);
    add("padding", 8, "");
    return;
  }
  if (t == kTypeBasicArg) {
    f.U16("record_type", nullptr);
    r.Skip(2);
    f.I32("func_id", nullptr);
    f.U32("tid", nullptr);
    f.U32("pid", nullptr);
    f.U64("arg", nullptr);
    return;
  }
  if (t >= kTypeFunctionBase && t <= kTypeFunctionBase + kEnterArg) {
    uint64_t at = r.abs_pos();
    uint32_t word = r.U32();
    out.Add("record_kind", at, 1, "function");
    out.Add("action", at, 1, Dec((word >> 1) & 7) + " (" + CallActionName(static_cast<CallAction>((word >> 1) & 7)) + ")");
    out.Add("func_id", at, 4, Dec(word >> 4));
    f.U32("tsc_delta", nullptr);
    return;
  }
  uint8_t mk = static_cast<uint8_t>(t - kTypeMetadataBase);
  uint64_t at = r.abs_pos();
  r.U8();
  out.Add("record_kind", at, 1, std::string("metadata ") + MetadataKindName(mk) + " (" + Dec(mk) + ")");
  switch (mk) {
    case kNewBuffer: f.I32("tid", nullptr); break;
    case kEndOfBuffer: break;
    case kNewCPUId: f.U16("cpu", nullptr); f.U64("tsc", nullptr); break;
    case kTSCWrap: f.U64("base_tsc", nullptr); break;
    case kWalltimeMarker: f.U64("seconds", nullptr); f.U32("micros", nullptr); break;
    case kCallArgument: f.U64("arg", nullptr); break;
    case kBufferExtents: f.U64("size", nullptr); break;
    case kPid: f.I32("pid", nullptr); break;
    case kCustomEventMarker:
      f.I32("size", nullptr);
      if (log_.version >= 5) f.I32("tsc_delta", nullptr);
      else { f.U64("tsc", nullptr); if (log_.version >= 4) f.U16("cpu", nullptr); }
      break;
    case kTypedEventMarker: f.I32("size", nullptr); f.I32("tsc_delta", nullptr); f.U16("event_type", nullptr); break;
    default: break;
  }
}

}  // namespace profscope::xray
