#include "core/format/perf/perf_decoder.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_inlines.h"
#include "core/format/perf/perf_jit.h"
#include "core/format/perf/perf_ordered_events.h"
#include "core/format/perf/perf_record_fields.h"
#include "core/format/perf/perf_record_parser.h"
#include "core/format/perf/perf_symbols.h"
#include "core/format/perf/perf_tokenizer.h"
#include "core/symbols/symbol_store.h"
#include "core/trace/trace_printer.h"
#include "core/trace/tracing_data.h"
#include "core/format/perf/perf_zstd_stream.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"
#include "core/format/perf/simpleperf/simpleperf_split.h"

namespace profscope::perf {

bool Sniff(const uint8_t* head, size_t n) {
  if (n < 16) return false;
  uint64_t m;
  std::memcpy(&m, head, 8);
  return m == kMagic2 || m == kMagic2Swapped;
}

PerfDecoder::PerfDecoder() = default;

bool PerfDecoder::ScriptSamples(const DecodeResult& res, const std::function<Window&(int32_t)>& row_window,
                                ScriptHeader& header, const std::function<void(const ScriptSampleInfo&)>& each) {
  const Profile& p = res.profile;
  if (!store_) store_ = std::make_unique<symbols::SymbolStore>();
  if (mapping_dso_.size() != p.mappings.size())
    mapping_dso_ = BindMappings(p, *store_, parser_ ? &parser_->dso_paths() : nullptr);
  const auto& attrs = session_.attrs();
  for (const auto& a : attrs) {
    header.name_width = std::max(header.name_width, static_cast<int>(a.name.size()));
    header.any_callchain = header.any_callchain || (a.attr.sample_type & kSampleCallchain);
  }
  // Tracepoint texts: the file's TRACING_DATA (feature section or pipe-mode payload).
  trace::TracingData td;
  std::unique_ptr<trace::TracePrinter> printer;
  if (const int32_t row = TracingDataRow(res); row != kNone) {
    std::vector<uint8_t> keep;
    td = trace::ReadTracingData(RowBytes(row_window(row), res, row, session_.order, keep));
    printer = std::make_unique<trace::TracePrinter>(td);
    std::vector<size_t> kernel_maps;  // once, not per address printed
    for (size_t m = 0; m < p.mappings.size() && m < mapping_dso_.size(); ++m)
      if (p.mappings.pid[m] == -1 && mapping_dso_[m] != kNone) kernel_maps.push_back(m);
    printer->SetKernelResolver([this, &p, kernel_maps](uint64_t addr, trace::TracePrinter::KernelSymbol* out) {
      return KernelSymbolAt(p, kernel_maps, addr, out);
    });
  }
  const SampleTable& st = p.samples;
  ScriptSampleInfo s;
  std::vector<uint8_t> keep;
  size_t next_empty = 0, comm_run = 0;
  SampleCursor at(st);
  for (size_t i = 0; i < st.size(); ++i) {
    const int32_t ev = at.event(i);
    if (ev < 0 || static_cast<size_t>(ev) >= attrs.size()) continue;
    const PerfSession::AttrInfo& a = attrs[static_cast<size_t>(ev)];
    const size_t th = static_cast<size_t>(at.thread(i));
    s.tid = p.threads.tid[th];
    s.pid = p.threads.pid[th];
    const int32_t comm = i < sample_comm_.size() ? sample_comm_.At(i, &comm_run) : kNone;
    s.comm = comm == kNone ? ":" + std::to_string(s.tid) : p.strings.Get(comm);
    const int32_t cpu = at.cpu(i);
    s.cpu = cpu == kNone ? 0 : static_cast<uint32_t>(cpu);
    s.time = st.time[i];
    s.period = at.weight(i);
    s.event = a.name;
    s.attr_type = a.attr.type;
    s.sample_type = a.attr.sample_type;
    s.callchain = a.attr.sample_type & kSampleCallchain;
    s.frames.clear();
    // A callchain perf shows empty prints no line (its stack is the sample's ip).
    while (next_empty < empty_chain_.size() && empty_chain_[next_empty] < i) ++next_empty;
    const bool chain_empty = next_empty < empty_chain_.size() && empty_chain_[next_empty] == i;
    for (int32_t k = chain_empty ? kNone : at.stack(i); k != kNone; k = p.stacks.prefix[static_cast<size_t>(k)]) {
      const size_t f = static_cast<size_t>(p.stacks.frame[static_cast<size_t>(k)]);
      ScriptFrameInfo fr;
      fr.ip = p.frames.address[f];
      const int32_t m = p.frames.mapping[f];
      if (m != kNone && static_cast<size_t>(m) < mapping_dso_.size()) {
        const int32_t d = mapping_dso_[static_cast<size_t>(m)];
        const symbols::DsoKind kind = store_->Kind(d);
        fr.has_map = true;
        fr.kernel_dso = kind == symbols::DsoKind::kKernel || kind == symbols::DsoKind::kModule;
        fr.map_addr = MapIp(*store_, d, p.mappings, static_cast<size_t>(m), fr.ip);
        fr.dso = store_->DsoName(d);
        if (const symbols::Symbol* sym = store_->Find(d, fr.map_addr)) {
          fr.has_sym = true;
          fr.sym = sym->name;
          fr.sym_offset = fr.map_addr - sym->start;
          if (f < inlined_frames_.size() && inlined_frames_[f]) {
            // perf's inline symbol: the inlined function's name, the frame symbol's start.
            fr.inlined = true;
            fr.sym = p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[f])]);
          }
        }
      }
      s.frames.push_back(std::move(fr));
    }
    s.trace.clear();
    if (a.attr.type == kTypeTracepoint && printer && st.record[i] != kNone) {
      const int32_t row = st.record[i];
      ByteReader rec = RowBytes(row_window(row), res, row, session_.order, keep);
      SampleData sd;
      if (rec.size() > 8 && ParseSample(rec.Slice(8, rec.size() - 8), a.attr, &sd, nullptr, nullptr) && sd.raw_size &&
          sd.raw_offset >= rec.base() && sd.raw_offset - rec.base() + sd.raw_size <= rec.size())
        s.trace = printer->Print(static_cast<uint32_t>(a.attr.config), sd.cpu,
                                 rec.data() + (sd.raw_offset - rec.base()), sd.raw_size);
    }
    each(s);
  }
  return true;
}
PerfDecoder::~PerfDecoder() = default;

bool PerfDecoder::KernelSymbolAt(const Profile& p, const std::vector<size_t>& kernel_maps, uint64_t addr,
                                 trace::TracePrinter::KernelSymbol* out) const {
  // perf's machine__find_kernel_symbol: the kernel map holding addr (a
  // module's, else the kernel's, which perf stretches up to the next map).
  const MappingTable& mt = p.mappings;
  int32_t best = kNone;
  for (const size_t m : kernel_maps) {
    if (addr < mt.start[m]) continue;
    if (addr < mt.end[m]) { best = static_cast<int32_t>(m); break; }
    if (store_->Kind(mapping_dso_[m]) == symbols::DsoKind::kKernel &&
        (best == kNone || mt.start[m] > mt.start[static_cast<size_t>(best)]))
      best = static_cast<int32_t>(m);
  }
  if (best == kNone) return false;
  const size_t mk = static_cast<size_t>(best);
  const int32_t d = mapping_dso_[mk];
  const uint64_t map_addr = MapIp(*store_, d, mt, mk, addr);
  const symbols::Symbol* sym = store_->Find(d, map_addr);
  if (!sym) return false;
  out->name = sym->name;
  out->start = addr - (map_addr - sym->start);
  out->module.clear();
  if (store_->Kind(d) == symbols::DsoKind::kModule) out->module = store_->DsoName(d);
  return true;
}

bool PerfDecoder::Decode(Window& w, DecodeResult& out, const ProgressFn& progress) {
  out.format = "perf.data";
  out.file_size = w.size();
  parser_ = std::make_unique<PerfRecordParser>(session_, out);
  // The side files' symbol inputs go to the store now: the DWARF unwinder
  // takes its binaries from it while decoding, the names come from it after.
  store_ = std::make_unique<symbols::SymbolStore>();
  store_->set_memory_limit(out.budget.limit());
  AddSymbolInputs(early_side_, *store_);
  parser_->UseBinaries(early_side_, store_.get());
  ordered_ = std::make_unique<PerfOrderedEvents>(session_, out, *parser_);
  if (queue_size_) ordered_->set_max_queued_bytes(queue_size_);
  tokenizer_ = std::make_unique<PerfTokenizer>(session_, out, *ordered_, parser_->split());
  tokenizer_->SetPause(pause_, pause_every_);
  const uint8_t* head = w.Get(0, 16);
  if (!head) {
    out.diags.Fatal(DiagCode::kTruncatedHeader, 0, w.size(),
                    "file is " + Dec(w.size()) + " bytes; a perf.data header needs at least 16");
    return false;
  }
  uint64_t magic;
  std::memcpy(&magic, head, 8);
  if (magic == kMagic2) {
    session_.order = ByteOrder::kLittle;
  } else if (magic == kMagic2Swapped) {
    session_.order = ByteOrder::kBig;
  } else {
    out.diags.Fatal(DiagCode::kUnknownFormat, 0, 8, "no PERFILE2 magic at offset 0");
    return false;
  }
  out.byte_order = session_.order == ByteOrder::kLittle ? "little" : "big";
  ByteReader r(head, 16, 0, session_.order);
  r.Skip(8);
  session_.pipe = r.U64() == kPipeHeaderSize;
  out.mode = session_.pipe ? "pipe" : "file";
  bool ok = session_.pipe ? tokenizer_->Pipe(w, progress) : tokenizer_->File(w, progress);
  if (progress && !tokenizer_->paused()) progress(w.size(), w.size());
  return ok;
}

bool PerfDecoder::Paused() const { return tokenizer_ && tokenizer_->paused(); }
uint64_t PerfDecoder::PausedAt() const { return tokenizer_ ? tokenizer_->paused_at() : 0; }

bool PerfDecoder::Resume(Window& w, DecodeResult& out, const ProgressFn& progress) {
  (void)out;
  if (!Paused()) return true;
  const bool in_data_files = tokenizer_->paused_file() != 0;
  tokenizer_->Resume(w, progress);
  if (progress && !tokenizer_->paused() && !in_data_files) progress(w.size(), w.size());
  return true;
}

uint8_t PerfDecoder::PausedFile() const { return tokenizer_ ? tokenizer_->paused_file() : 0; }

void PerfDecoder::Stop(Window& w, DecodeResult& out) {
  (void)out;
  if (Paused()) tokenizer_->Stop(w);
}

bool PerfDecoder::DecodeDataFiles(const std::vector<Window*>& files, DecodeResult& out, const ProgressFn& progress) {
  if (!tokenizer_) return false;  // (the tokenizer fills the result it was made with, `out`)
  // One round of turns (kDataTurn of every file) must fit in the queue with room to spare, or its
  // half-flush would interpret one file's records before another's of the same time; but never more
  // than a quarter of the memory budget (which counts the queue: DecodeResult::pending_bytes; past
  // the bound, the queue's half-flush says so in a diagnostic).
  if (!queue_size_ && ordered_) {
    const uint64_t rounds = 2 * files.size() * PerfTokenizer::kDataTurn;
    ordered_->set_max_queued_bytes(std::max<uint64_t>(PerfOrderedEvents::kMaxQueuedBytes, std::min<uint64_t>(rounds, out.budget.limit() / 4)));
  }
  tokenizer_->DataFiles(files, progress);
  return true;
}

bool PerfDecoder::SetOption(const std::string& key, const std::string& value) {
  if (key != "queue_size") return false;
  // digits, then an optional K, M or G (perf_config_u64's suffixes)
  uint64_t v = 0;
  size_t i = 0;
  for (; i < value.size() && value[i] >= '0' && value[i] <= '9' && v < (1ull << 50); ++i) v = v * 10 + static_cast<uint64_t>(value[i] - '0');
  if (i == 0) return false;
  if (i < value.size()) {
    const char u = static_cast<char>(value[i] | 0x20);
    if (i + 1 != value.size() || (u != 'k' && u != 'm' && u != 'g')) return false;
    const int shift = u == 'k' ? 10 : u == 'm' ? 20 : 30;
    if (v > (UINT64_MAX >> shift)) return false;
    v <<= shift;
  }
  if (v == 0) return false;
  queue_size_ = v;
  return true;
}

void PerfDecoder::Finish(DecodeResult& out) {
  if (ordered_) ordered_->Finish();  // the records still waiting for their time
  session_.FinishEvents(out.profile);
  if (parser_) parser_->Finish();
  if (parser_) sample_comm_ = std::exchange(parser_->sample_comms(), PackedColumn<int32_t>());  // (the parser's left empty)
  if (parser_) empty_chain_ = std::move(parser_->empty_chain_samples());
  if (parser_) {
    const PerfUnwind& u = parser_->unwind();
    missing_in_.unwind = u.MissingBinaries();
    missing_in_.stack_short_samples = u.counts().stack_too_small;
    missing_in_.stack_copy_bytes = u.stack_copy_bytes();
    missing_in_.stack_needed_bytes = u.stack_needed_bytes();
    missing_in_.dso_paths = parser_->dso_paths();
    out.missing = FindMissing(out.profile, missing_in_);
  }
  out.stacks_thread_root = session_.features.simpleperf.present || RecordedBySimpleperf(session_.features);
  if (parser_ && !out.stacks_thread_root) MarkUnknownFuncs(out.profile, parser_->address_named_funcs());
  if (parser_) parser_->Release();
}

void PerfDecoder::MarkUnknownFuncs(Profile& p, const std::vector<uint8_t>& address_named) {
  // perf names a frame without a symbol "[unknown]" (its Python callchain,
  // perf script). Where the DSO's file was not given the frame keeps its
  // `path+0xoffset` in folded stacks too: perf had the file where it recorded.
  std::vector<uint8_t>& unknown = p.funcs.unknown;
  unknown.assign(p.funcs.name.size(), 0);
  for (size_t f = 0; f < unknown.size() && f < address_named.size(); ++f) {
    if (!address_named[f]) continue;
    const int32_t m = p.funcs.mapping[f];
    if (m == kNone) { unknown[f] = 1; continue; }
    const size_t mk = static_cast<size_t>(m);
    const bool anon = symbols::KindOfPath(p.strings.Get(p.mappings.path[mk]), p.mappings.pid[mk] == -1) ==
                      symbols::DsoKind::kAnon;
    unknown[f] = anon || (store_ && mk < mapping_dso_.size() && mapping_dso_[mk] != kNone && store_->HasFile(mapping_dso_[mk]));
  }
}

void PerfDecoder::UseSideFiles(std::vector<SideFile>& files, DecodeResult& out) {
  if (!parser_) return;
  if (ordered_) ordered_->Finish();  // every sample is in before frames are named
  JitJoinInput in;
  for (const auto& a : session_.attrs()) in.clocks.push_back({(a.attr.flags >> 25) & 1, a.attr.clockid});
  in.time_conv = session_.time_conv;
  StackBuilder& sb = parser_->stacks();
  // Program binaries first (symbols of mapped files), then jit dumps (anonymous JIT code).
  std::vector<bool> used(files.size(), false);
  for (const SideFile& f : files) {
    if (f.kind == "elf" && f.window && !f.implicit) missing_in_.elves.push_back({f.name, symbols::ReadDebugInfoRefs(f.window->source())});
    missing_in_.archive_given = missing_in_.archive_given || f.kind == "archive";
    missing_in_.kallsyms_given = missing_in_.kallsyms_given || f.kind == "kallsyms";
  }
  NameFramesFromElf(files, used, sb, out, *store_, mapping_dso_, &parser_->dso_paths());
  // perf's inlined frames of the unwound (--call-graph dwarf) user frames.
  const InlineCounts ic = AddInlineFrames(parser_->unwound_frames(), mapping_dso_, *store_, sb, out, &inlined_frames_);
  out.profile.frames.inlined = inlined_frames_;
  if (ic.inline_frames)
    out.facts.push_back({"inlined frames", Dec(ic.inline_frames) + " added to " + Dec(ic.expanded) + " frames (" +
                                               Dec(ic.samples) + " samples), from DWARF debug information"});
  std::vector<SideFile> rest;
  for (size_t i = 0; i < files.size(); ++i)
    if (!used[i]) rest.push_back(files[i]);
  UseJitDumps(rest, in, sb, out);
  parser_->ForgetFrames();  // frames may have been renamed; no sample is added after this
}

bool PerfDecoder::IsListedRecord(const DecodeResult& res, int32_t row) const {
  auto k = static_cast<RecordKind>(res.records.kind[static_cast<size_t>(row)]);
  return k == RecordKind::kRecord || k == RecordKind::kNested;
}

std::string PerfDecoder::TypeName(const DecodeResult& res, int32_t row) const {
  size_t i = static_cast<size_t>(row);
  switch (static_cast<RecordKind>(res.records.kind[i])) {
    case RecordKind::kAttr: return "attr";
    case RecordKind::kAttrIds: return "attr ids";
    default: return RecordLabel(res, row);
  }
}

std::string PerfDecoder::RecordLabel(const DecodeResult& res, int32_t row) const {
  size_t i = static_cast<size_t>(row);
  uint32_t type = res.records.type[i];
  switch (static_cast<RecordKind>(res.records.kind[i])) {
    case RecordKind::kFileHeader: return session_.pipe ? "pipe header" : "file header";
    case RecordKind::kAttr: {
      std::string s = "attr " + Dec(type);
      if (type < session_.attrs().size()) s += " (" + session_.attrs()[type].name + ")";
      return s;
    }
    case RecordKind::kAttrIds: return "ids of attr " + Dec(type);
    case RecordKind::kEventTypes: return "event_types";
    case RecordKind::kDataSection: return "data section";
    case RecordKind::kFeatureTable: return "feature sections";
    case RecordKind::kFeature: {
      const char* n = FeatureName(type);
      return std::string("feature ") + (n[0] ? n : Dec(type).c_str());
    }
    case RecordKind::kPayload: return std::string(RecordTypeName(type)) + " payload";
    case RecordKind::kUnparsed: return "unparsed bytes";
    case RecordKind::kRecord:
    case RecordKind::kNested: {
      const char* n = RecordTypeName(type);
      return n[0] ? std::string(n) : "type " + Dec(type);
    }
  }
  return "?";
}

void PerfDecoder::SectionFields(ByteReader r, const DecodeResult& res, int32_t row, FieldList& out) const {
  switch (static_cast<RecordKind>(res.records.kind[static_cast<size_t>(row)])) {
    case RecordKind::kFileHeader: {
      auto u64 = [&](const char* n, bool hex) { uint64_t at = r.abs_pos(); uint64_t v = r.U64(); out.Add(n, at, 8, hex ? Hex(v) : Dec(v)); return v; };
      out.Add("magic", 0, 8, session_.order == ByteOrder::kLittle ? "\"PERFILE2\" (little-endian)" : "\"2ELIFREP\" (big-endian)");
      r.Skip(8);
      u64("size", false);
      if (session_.pipe) break;
      u64("attr_size", false);
      u64("attrs.offset", true); u64("attrs.size", false);
      u64("data.offset", true); u64("data.size", false);
      u64("event_types.offset", true); u64("event_types.size", false);
      std::string feats;
      uint64_t at = r.abs_pos();
      for (int k = 0; k < 4; ++k) {
        uint64_t b = r.U64();
        for (int bit = 0; bit < 64; ++bit)
          if (b & (1ULL << bit)) {
            if (!feats.empty()) feats += ' ';
            const char* n = FeatureName(static_cast<uint32_t>(k * 64 + bit));
            feats += n[0] ? n : Dec(k * 64 + bit);
          }
      }
      out.Add("features", at, 32, feats);
      break;
    }
    case RecordKind::kAttr: {
      ByteReader ar = r.Sub(static_cast<size_t>(session_.attr_size - 16));
      PerfEventAttr attr;
      Field& f = out.Add("attr", ar.base(), ar.size(), RecordLabel(res, row));
      FieldList sub;
      ParseAttr(ar, &attr, &sub);
      f.children = std::move(sub.items());
      uint64_t at = r.abs_pos();
      uint64_t o = r.U64(), s = r.U64();
      out.Add("ids", at, 16, "offset " + Hex(o) + ", size " + Dec(s));
      break;
    }
    case RecordKind::kAttrIds: {
      size_t k = 0;
      while (r.remaining() >= 8) { uint64_t at = r.abs_pos(); out.Add("id[" + Dec(k++) + "]", at, 8, Dec(r.U64())); }
      break;
    }
    case RecordKind::kEventTypes: {
      size_t k = 0;
      while (r.remaining() >= 72) {
        uint64_t at = r.abs_pos();
        uint64_t id = r.U64();
        std::string n = r.FixedString(64);
        out.Add("event_type[" + Dec(k++) + "]", at, 72, Dec(id) + " " + QuoteString(n));
      }
      break;
    }
    case RecordKind::kFeatureTable: {
      size_t k = 0;
      while (r.remaining() >= 16) {
        uint64_t at = r.abs_pos();
        uint64_t o = r.U64(), s = r.U64();
        out.Add("section[" + Dec(k++) + "]", at, 16, "offset " + Hex(o) + ", size " + Dec(s));
      }
      break;
    }
    default:
      break;
  }
}

bool PerfDecoder::ContainerBytes(Window& w, const DecodeResult& res, int32_t row, std::vector<uint8_t>& out) {
  return perf::ContainerBytes(w, res, row, session_.order, out, session_.features.comp_mmap_len);
}

void PerfDecoder::AddUnwoundFields(ByteReader rec, const DecodeResult& res, int32_t row, FieldList& out) {
  if (!parser_ || rec.size() < 8) return;
  const PerfSession::AttrInfo* a = session_.AttrForRecord(rec, kSample);
  if (!a || !(a->attr.sample_type & kSampleRegsUser) || !(a->attr.sample_type & kSampleStackUser)) return;
  SampleData sd;
  if (!ParseSample(rec.Slice(8, rec.size() - 8), a->attr, &sd, nullptr, nullptr)) return;
  unwind::UnwindResult u;
  if (!parser_->unwind().Reunwind(sd, a->attr, rec, static_cast<int32_t>(sd.pid), &u) || u.frames.empty()) return;
  // Shown only when the frames are the sample's own (its stack's user part, leaf first,
  // with perf's inlined repeats of an address folded).
  const Profile& p = res.profile;
  std::vector<uint64_t> stack;
  for (size_t k = 0; k < p.samples.size(); ++k) {
    if (p.samples.record[k] != row) continue;
    for (int32_t n = p.samples.stack[k]; n != kNone; n = p.stacks.prefix[static_cast<size_t>(n)]) {
      const uint64_t addr = p.frames.address[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(n)])];
      if (stack.empty() || stack.back() != addr) stack.push_back(addr);
    }
    break;
  }
  std::vector<uint64_t> mine;
  for (const auto& f : u.frames)
    if (mine.empty() || mine.back() != f.address) mine.push_back(f.address);
  if (mine.size() > stack.size() || !std::equal(mine.begin(), mine.end(), stack.end() - static_cast<long>(mine.size())))
    return;
  Field& f = out.Add("unwound", sd.stack_user_offset, sd.stack_user_size,
                     Dec(u.frames.size()) + " user frames from regs_user and the stack copy (" +
                         StopReasonName(u.stop) + ")");
  for (size_t k = 0; k < u.frames.size(); ++k) {
    const unwind::UnwoundFrame& fr = u.frames[k];
    std::string v = Hex(fr.address);
    if (k == 0) v += " (the sampled ip, regs_user)";
    else if (fr.ra_slot != unwind::kNoSlot && fr.ra_slot >= sd.stack_user_offset)
      v += " (return address " + Hex(fr.pc) + " at sp+" + Hex(fr.ra_slot - sd.stack_user_offset) + ")";
    const bool slot = fr.ra_slot != unwind::kNoSlot;
    f.children.push_back(Field{"frame[" + Dec(k) + "]", slot ? fr.ra_slot : sd.stack_user_offset, slot ? 8u : 0u, v, {}});
  }
}

int32_t PerfDecoder::TracingDataRow(const DecodeResult& res) {
  for (size_t i = 0; i < res.records.rows(); ++i) {
    const auto kind = static_cast<RecordKind>(res.records.kind[i]);
    if ((kind == RecordKind::kFeature && res.records.type[i] == kFeatTracingData) ||
        (kind == RecordKind::kPayload && res.records.type[i] == kHeaderTracingData))
      return static_cast<int32_t>(i);
  }
  return kNone;
}

void PerfDecoder::AddTracepointFields(Window& w, ByteReader rec, const DecodeResult& res, int32_t row, FieldList& out) {
  if (rec.size() < 8) return;
  const PerfSession::AttrInfo* a = session_.AttrForRecord(rec, kSample);
  if (!a || a->attr.type != kTypeTracepoint || !(a->attr.sample_type & kSampleRaw)) return;
  // The file's TRACING_DATA (feature section, or pipe mode's payload) is read once, through the
  // window of a main-file row (a perf --threads data.N row's window is its own file's).
  if (!tracing_read_ && res.records.file[static_cast<size_t>(row)] == 0) {
    tracing_read_ = true;
    if (const int32_t t = TracingDataRow(res); t != kNone) {
      std::vector<uint8_t> keep;
      tracing_ = trace::ReadTracingData(RowBytes(w, res, t, session_.order, keep));
    }
  }
  const trace::EventFormat* f = tracing_.ok ? tracing_.Find(static_cast<uint32_t>(a->attr.config)) : nullptr;
  if (!f) return;
  SampleData sd;
  if (!ParseSample(rec.Slice(8, rec.size() - 8), a->attr, &sd, nullptr, nullptr) || !sd.raw_size ||
      sd.raw_offset < rec.base() || sd.raw_offset - rec.base() + sd.raw_size > rec.size())
    return;
  // The "raw" field (its bytes' size) gets a child per field of the event's format, by name.
  for (Field& fl : out.items()) {
    if (fl.name != "raw") continue;
    Field named = trace::TraceFieldsForView(*f, rec.data() + (sd.raw_offset - rec.base()), sd.raw_size,
                                            tracing_.big_endian, sd.raw_offset);
    fl.value = f->system + ":" + f->name + ", " + fl.value;
    fl.children = std::move(named.children);
    break;
  }
}

void PerfDecoder::RecordFields(Window& w, const DecodeResult& res, int32_t row, FieldList& out) {
  if (row < 0 || static_cast<size_t>(row) >= res.records.rows()) return;
  size_t i = static_cast<size_t>(row);
  std::vector<uint8_t> keep;
  ByteReader r = RowBytes(w, res, row, session_.order, keep, session_.features.comp_mmap_len);
  Diagnostics scratch;
  switch (static_cast<RecordKind>(res.records.kind[i])) {
    case RecordKind::kFeature: {
      FeatureContext ctx;
      ctx.simpleperf.debug_unwind_files = session_.features.simpleperf.debug_unwind_files;  // DEBUG_UNWIND_FILE's list
      DecodeFeature(res.records.type[i], r, ctx, out, scratch);
      break;
    }
    case RecordKind::kRecord:
    case RecordKind::kNested: {
      auto decode = [&](ByteReader rec, FieldList& fields, Diagnostics& diags) {
        const PerfSession::AttrInfo* a = rec.size() >= 8 ? session_.AttrForRecord(rec, rec.PeekU32(0)) : nullptr;
        DecodeRecordFields(rec, a ? &a->attr : nullptr, fields, &diags);
      };
      decode(r, out, scratch);
      if (res.records.type[i] == kSample) {
        AddUnwoundFields(r, res, row, out);
        AddTracepointFields(w, r, res, row, out);
      }
      if (res.records.type[i] == kSpSplitEnd) JoinedSplitFields(w, res, row, session_.order, decode, out);
      break;
    }
    case RecordKind::kPayload:
      if (res.records.type[i] == kHeaderTracingData) {
        FeatureContext ctx;
        DecodeFeature(kFeatTracingData, r, ctx, out, scratch);
      } else {
        out.Add("payload", r.base(), r.size(), Dec(r.size()) + " bytes");
      }
      break;
    case RecordKind::kDataSection:
      out.Add("data", r.base(), res.records.size[i], Dec(res.records.size[i]) + " bytes of records");
      break;
    case RecordKind::kUnparsed:
      out.Add("bytes", r.base(), res.records.size[i], Dec(res.records.size[i]) + " bytes that form no complete record");
      break;
    default:
      SectionFields(r, res, row, out);
      break;
  }
  // Diagnostics while decoding one row on demand are shown as fields.
  for (const auto& d : scratch.items()) out.Add("problem", d.offset, d.length, d.message);
}

}  // namespace profscope::perf
