#include "core/format/perf/perf_record_parser.h"

#include <algorithm>
#include <new>

#include "core/symbols/symbol_store.h"

#include "core/format/perf/perf_format.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"
#include "core/format/perf/simpleperf/simpleperf_record_fields.h"

namespace profscope::perf {

PerfRecordParser::PerfRecordParser(PerfSession& session, DecodeResult& out)
    : session_(session), out_(out), threads_(out.profile), stacks_(out.profile), unwind_(out.profile, out.diags) {
  unwind_.SetTimeConv(&session_.time_conv);
}

RecordWhen PerfRecordParser::When(ByteReader rec, uint32_t type) const {
  RecordWhen w;
  const PerfSession::AttrInfo* a = session_.AttrForRecord(rec, type);
  if (!a || !a->attr.sample_id_all()) return w;
  SampleData sd;
  if (!ParseSampleId(rec.Slice(8, rec.size() - 8), a->attr, &sd, nullptr)) return w;
  const uint64_t st = a->attr.sample_type;
  if (st & kSampleTime) w.time = sd.time;
  if (st & kSampleTid) w.tid = static_cast<int32_t>(sd.tid);
  if (st & kSampleCpu) w.cpu = static_cast<int32_t>(sd.cpu);
  return w;
}

void PerfRecordParser::Overrun(ByteReader rec, const char* what) {
  out_.diags.Error(DiagCode::kRecordFieldOverrun, rec.base(), rec.size(),
                   std::string(what) + " record at " + Hex(rec.base()) + " is " + Dec(rec.size()) +
                       " bytes, too short for its fields");
}

void PerfRecordParser::Record(int32_t row, ByteReader rec) {
  ByteReader r = rec;
  const uint32_t type = r.U32();
  const uint16_t misc = r.U16();
  r.U16();
  FieldReader payload(r.Sub(r.remaining()));
  // simpleperf's reader wants SPLIT pieces back to back, ended by SPLIT_END.
  if (split_.pending() && type != kSpSplit && type != kSpSplitEnd) split_.Interrupted(rec, type, out_);
  RecordWhen when;
  if (type < kKernelMax && type != kSample) when = When(rec, type);
  switch (type) {
    case kSample: Sample(rec, row); break;
    case kMmap:
    case kMmap2: Mmap(rec, payload, type, misc, row, when); break;
    case kComm: Comm(rec, payload, misc, row, when); break;
    case kFork:
    case kExit: Task(rec, payload, type, misc, row, when); break;
    case kHeaderAttr: HeaderAttr(rec, payload, row); break;
    case kHeaderFeature: {
      HeaderFeatureRecord hf;
      if (!ParseHeaderFeature(payload, &hf)) { Overrun(rec, "HEADER_FEATURE"); break; }
      FieldList ignored;
      DecodeFeature(hf.feature, hf.body, session_.features, ignored, out_.diags);
      break;
    }
    case kEventUpdate: {
      EventUpdateRecord e;
      ParseEventUpdate(payload, &e);
      if (e.id_ok && e.type == 2) session_.NameEventId(e.id, e.text);
      break;
    }
    case kCompressed:
    case kCompressed2: break;  // the tokenizer hands on the records inside
    case kTimeConv: TimeConv(rec, payload, row); break;
    case kSpSplit:
    case kSpSplitEnd:
      session_.features.simpleperf.present = true;
      split_.Piece(rec, type, row, session_.order, out_, *this);
      break;
    default:
      if (type < kKernelMax) MarkerOnly(payload, type, misc, row, when);
      Other(rec, type);
      break;
  }
}

std::string PerfRecordParser::FeatureBuildId(const std::string& filename, bool kernel_space) const {
  const auto& ids = session_.features.build_ids;
  for (const auto& b : ids)
    if (b.filename == filename) return b.build_id_hex;
  if (!kernel_space) return {};
  // The kernel map "[kernel.kallsyms]_text" is perf's DSO "[kernel.kallsyms]"
  // (machine__process_kernel_mmap_event), whose BUILD_ID entry has that name;
  // a module's entry may name its file where the MMAP names "[ext4]", or the reverse.
  const symbols::DsoKind kind = symbols::KindOfPath(filename, true);
  for (const auto& b : ids) {
    if ((b.misc & 7) != 1 && b.pid != -1) continue;  // only the kernel's entries (PERF_RECORD_MISC_KERNEL)
    if (kind == symbols::DsoKind::kKernel && symbols::KindOfPath(b.filename, true) == symbols::DsoKind::kKernel)
      return b.build_id_hex;
    if (kind == symbols::DsoKind::kModule && symbols::KindOfPath(b.filename, true) == symbols::DsoKind::kModule &&
        symbols::ModuleName(b.filename) == symbols::ModuleName(filename))
      return b.build_id_hex;
  }
  return {};
}

void PerfRecordParser::Mmap(ByteReader rec, FieldReader& r, uint32_t type, uint16_t misc, int32_t row,
                            const RecordWhen& when) {
  MmapRecord m;
  ParseMmap(r, type, misc, &m);
  if (!m.filename_ok) {
    Overrun(rec, RecordTypeName(type));
  } else {
    Profile& p = out_.profile;
    const int32_t path = p.strings.Intern(m.filename);
    std::string build_id = m.build_id;
    if (build_id.empty()) build_id = FeatureBuildId(m.filename, m.pid == -1);
    const int32_t mrow = spaces_.Add(p, m.pid, m.start, m.len, m.pgoff, path,
                                     build_id.empty() ? kNone : p.strings.Intern(build_id), when.time, row);
    unwind_.Mapped(m.pid, mrow);
    // perf's map__new: the DSO of anonymous executable memory (a JIT's code) is
    // /tmp/perf-PID.map, which names it when the runtime wrote one.
    const std::string& f = m.filename;
    const bool anon = f == "//anon" || f.rfind("/dev/zero", 0) == 0 || f.rfind("/anon_hugepage", 0) == 0 ||
                      (type == kMmap2 && (m.flags & 0x40000));  // MAP_HUGETLB
    const bool no_dso = f.rfind("[stack", 0) == 0 || f.rfind("/SYSV", 0) == 0 || f == "[heap]";
    const bool exec = type == kMmap2 ? (m.prot & 4) != 0 : !(misc & kMiscMmapData);  // PROT_EXEC
    if ((anon || no_dso) && exec && m.pid > 0) {
      if (dso_path_.size() <= static_cast<size_t>(mrow)) dso_path_.resize(static_cast<size_t>(mrow) + 1, kNone);
      dso_path_[static_cast<size_t>(mrow)] = p.strings.Intern("/tmp/perf-" + std::to_string(m.pid) + ".map");
    }
  }
  markers_.Mmap(when, type, m, row, out_.profile);
}

void PerfRecordParser::Comm(ByteReader rec, FieldReader& r, uint16_t misc, int32_t row, const RecordWhen& when) {
  CommRecord c;
  ParseComm(r, &c);
  if (!c.comm_ok) {
    Overrun(rec, "COMM");
  } else {
    int32_t th = threads_.Seen(c.pid, c.tid, when.time);
    threads_.Name(th, when.time, out_.profile.strings.Intern(c.comm));
  }
  markers_.Comm(when, misc, c, row, out_.profile);
}

void PerfRecordParser::Task(ByteReader rec, FieldReader& r, uint32_t type, uint16_t misc, int32_t row,
                            const RecordWhen& when) {
  TaskRecord t;
  ParseTask(r, &t);
  if (!t.ok) {
    Overrun(rec, RecordTypeName(type));
  } else {
    int32_t th = threads_.Seen(t.pid, t.tid, type == kFork ? t.time : 0);
    if (type == kExit) threads_.End(th, t.time);
    if (type == kFork && t.ptid != t.tid) {
      // perf's thread__fork and simpleperf's ThreadTree::ForkThread: the
      // child gets its parent's comm (what perf script and stackcollapse.py
      // print for its samples), and a new process a copy of its parent's
      // maps (perf's maps__clone; threads of one process share them).
      int32_t parent = threads_.Find(t.ptid);
      int32_t name = parent == kNone ? kNone : out_.profile.threads.name[static_cast<size_t>(parent)];
      if (name == kNone && t.ptid == 0) name = out_.profile.strings.Intern("swapper");  // perf's idle task
      if (name != kNone) threads_.Name(th, when.time, name);
      // A FORK perf synthesized for a task that ran before the recording (misc
      // PERF_RECORD_MISC_FORK_EXEC) clones no maps: its own MMAPs follow (machine.c
      // machine__process_fork_event).
      const bool synthesized = (misc & kMiscForkExec) != 0;
      if (t.pid != t.ppid && t.pid != kKernelPid && !synthesized) {
        if (const AddressSpaces::Space* ps = spaces_.Find(t.ppid)) {
          const AddressSpaces::Space copy = *ps;
          for (const auto& [start, v] : copy) spaces_.Map(t.pid, start, v.first, v.second);
        }
        unwind_.Forked(t.ppid, t.pid);
      }
    }
  }
  markers_.Task(when, type, t, row, out_.profile);
}

void PerfRecordParser::HeaderAttr(ByteReader rec, FieldReader& r, int32_t row) {
  HeaderAttrRecord h;
  bool ok = ParseHeaderAttr(r, &h);
  if (h.size_past_record) {
    out_.diags.Error(DiagCode::kBadAttr, rec.base(), rec.size(),
                     "HEADER_ATTR at " + Hex(rec.base()) + " declares attr size " + Dec(h.declared_size) +
                         " but the record holds only " + Dec(rec.size() - 8) + " bytes after its header");
  }
  if (!ok) {
    out_.diags.Error(DiagCode::kBadAttr, rec.base(), rec.size(), "HEADER_ATTR at " + Hex(rec.base()) + " holds no readable attr");
    return;
  }
  session_.AddAttr(h.attr, std::move(h.ids), row);
}

void PerfRecordParser::TimeConv(ByteReader rec, FieldReader& r, int32_t row) {
  TimeConvRecord t;
  ParseTimeConv(r, &t);
  if (!t.base_ok) { Overrun(rec, "TIME_CONV"); return; }
  perf::TimeConv tc;
  tc.time_shift = t.time_shift;
  tc.time_mult = t.time_mult;
  tc.time_zero = t.time_zero;
  tc.extended = t.extended;  // perf's event_contains(time_conv, time_cycles)
  if (tc.extended) {
    tc.time_cycles = t.time_cycles;
    tc.time_mask = t.time_mask;
    tc.cap_user_time_zero = t.cap_user_time_zero != 0;
    tc.cap_user_time_short = t.cap_user_time_short != 0;
    if (!t.extended_ok) Overrun(rec, "TIME_CONV");
  }
  tc.present = true;
  tc.row = row;
  session_.time_conv = tc;
}

void PerfRecordParser::MarkerOnly(FieldReader& r, uint32_t type, uint16_t misc, int32_t row, const RecordWhen& when) {
  Profile& p = out_.profile;
  switch (type) {
    case kLost: { LostRecord x; ParseLost(r, &x); markers_.Lost(when, x, row, p); break; }
    case kLostSamples: { LostSamplesRecord x; ParseLostSamples(r, &x); markers_.LostSamples(when, x, row, p); break; }
    case kThrottle:
    case kUnthrottle: { ThrottleRecord x; ParseThrottle(r, &x); markers_.Throttle(when, type, x, row, p); break; }
    case kSwitch:
    case kSwitchCpuWide: { SwitchRecord x; ParseSwitch(r, type, &x); markers_.Switch(when, type, misc, x, row, p); break; }
    case kKsymbol: { KsymbolRecord x; ParseKsymbol(r, &x); markers_.Ksymbol(when, x, row, p); break; }
    case kBpfEvent: { BpfEventRecord x; ParseBpfEvent(r, &x); markers_.BpfEvent(when, x, row, p); break; }
    case kNamespaces: { NamespacesRecord x; ParseNamespaces(r, &x); markers_.Namespaces(when, x, row, p); break; }
    case kCgroup: { CgroupRecord x; ParseCgroup(r, &x); markers_.Cgroup(when, x, row, p); break; }
    case kTextPoke: { TextPokeRecord x; ParseTextPoke(r, &x); markers_.TextPoke(when, x, row, p); break; }
    case kAux: { AuxRecord x; ParseAux(r, &x); markers_.Aux(when, x, row, p); break; }
    case kItraceStart: { ItraceStartRecord x; ParseItraceStart(r, &x); markers_.ItraceStart(when, x, row, p); break; }
    default: break;  // READ, AUX_OUTPUT_HW_ID: neither interpreted nor a marker
  }
}

void PerfRecordParser::Other(ByteReader rec, uint32_t type) {
  if ((type == kHeaderTracingData && rec.size() > 16) || type == kSpTracingData) {
    // simpleperf's tracing data, inside the record: tracepoint formats.
    uint32_t n = rec.PeekU32(8);
    if (n <= rec.size() - 12) {
      FieldList ignored;
      DecodeFeature(kFeatTracingData, rec.Slice(12, n), session_.features, ignored, out_.diags);
    }
  }
  if (type > kSimpleperfTypeStart) {  // simpleperf's records: symbol tables and joined callchains
    ProcessSimpleperfRecord(rec, session_.features.simpleperf);
    SimpleperfCallchain cc;
    if (type == kSpCallchain && ParseSimpleperfCallchain(rec, &cc) && (cc.chain_type == 2 || cc.chain_type == 3))
      session_.features.simpleperf.joined_callchains[{cc.tid, cc.time}] = std::move(cc.ips);
  }
  if (!IsKnownRecordType(type) && type < kSimpleperfTypeStart) {
    out_.diags.Warning(DiagCode::kUnknownRecordType, rec.base(), rec.size(),
                       "record at " + Hex(rec.base()) + " has unknown type " + Dec(type) + "; kept as opaque bytes");
  }
}

void PerfRecordParser::Sample(ByteReader rec, int32_t row) {
  const PerfSession::AttrInfo* a = session_.AttrForRecord(rec, kSample);
  if (!a) {
    out_.diags.Warning(DiagCode::kUnknownSampleId, rec.base(), rec.size(),
                       "SAMPLE at " + Hex(rec.base()) + " carries a sample id that matches no attr; not counted");
    return;
  }
  SampleData& s = sample_;
  if (!ParseSample(rec.Slice(8, rec.size() - 8), a->attr, &s, nullptr, &out_.diags)) {
    if (!(a->attr.sample_type & kSampleIp)) return;
  }
  const uint64_t st = a->attr.sample_type;
  const int32_t pid = (st & kSampleTid) ? static_cast<int32_t>(s.pid) : -1;
  const int32_t tid = (st & kSampleTid) ? static_cast<int32_t>(s.tid) : -1;
  const uint64_t time = (st & kSampleTime) ? s.time : 0;
  const int32_t th = threads_.Seen(pid, tid, time);
  // perf registers the idle task (pid = tid = 0) as "swapper" before any event
  // (perf_session__register_idle_thread): it has that name without a COMM.
  if (pid == 0 && tid == 0 && out_.profile.threads.name[static_cast<size_t>(th)] == kNone)
    threads_.Name(th, 0, out_.profile.strings.Intern("swapper"));
  threads_.AddSamples(th);
  if (!arch_set_) {  // (the features are read before the records, pipe mode's come first)
    unwind_.SetArch(session_.features.arch);
    // simpleperf numbers the registers of a 32-bit task on arm64 its own way.
    simpleperf_ = session_.features.simpleperf.present || RecordedBySimpleperf(session_.features);
    if (simpleperf_) unwind_.SetRegisterAbi(unwind::RegisterAbi::kSimpleperf);
    arch_set_ = true;
  }
  // --call-graph dwarf: the user frames unwound from the registers and stack copy. simpleperf
  // unwinds while recording (its callchain is then complete, the copy gone); only a sample that
  // still has its copy (simpleperf record --no-unwind) is unwound here.
  const bool copy = !simpleperf_ || (s.stack_user_size && s.stack_user_dyn_size);
  const std::vector<uint64_t>* user = copy ? unwind_.UserFrames(s, a->attr, rec, pid, spaces_) : nullptr;
  const int32_t stack =
      stacks_.Stack(s, a->attr, rec.PeekU16(4), pid, tid, time, th, spaces_, session_.features.simpleperf, user);
  SampleTable& t = out_.profile.samples;
  if (t.time.size() == t.time.capacity() || reestimate_.Due(t.time.size())) ReserveRows(row);
  auto add = [&](const PerfSession::AttrInfo* attr, uint64_t weight) {
    t.time.push_back(time);
    t.thread.push_back(th);
    t.cpu.push_back((st & kSampleCpu) ? static_cast<int32_t>(s.cpu) : kNone);
    t.event.push_back(session_.AttrIndex(attr));  // = the event row FinishEvents gives the attr
    t.weight.push_back(weight);
    if (stacks_.last_chain_empty()) empty_chain_.push_back(static_cast<uint32_t>(t.stack.size()));
    t.stack.push_back(stack);
    t.record.push_back(row);
    sample_comm_.push_back(out_.profile.threads.name[static_cast<size_t>(th)]);
  };
  if ((st & kSampleRead) && DeliverRead(rec)) {
    for (const auto& [member, period] : read_samples_) add(member, period);
  } else {
    add(a, (st & kSamplePeriod) ? s.period : 1);
  }
  if (time) {
    if (!have_time_ || time < out_.time_start) out_.time_start = time;
    if (!have_time_ || time > out_.time_end) out_.time_end = time;
    have_time_ = true;
  }
}

void PerfRecordParser::ReserveRows(int32_t row) {
  SampleTable& t = out_.profile.samples;
  RecordTable& rt = out_.records;
  const size_t n = t.time.size();
  // Only with enough samples to extrapolate, from records at their file offsets (not inside a COMPRESSED
  // record, whose offsets are in the decompressed stream). In the main file, how far the decode has come
  // at a record is its end; a perf --threads recording's data.N files are read in turns after it, so there
  // it is the bytes read of all files so far (DecodeResult::data_files_read). Samples are extrapolated from
  // this sample's record; record rows from the last row, as far as the tokenizer has read (ordered samples
  // come later).
  if (n < 4096) return;
  reestimate_.Looked(n);
  uint64_t size = 0;
  for (uint64_t s : out_.file_sizes) size += s;
  if (out_.file_sizes.empty()) size = out_.file_size;
  // how far through all the files record r ends, or 0 when its offset does not say
  auto reached = [&](int32_t r) -> uint64_t {
    if (r < 0 || static_cast<size_t>(r) >= rt.rows() || rt.kind[static_cast<size_t>(r)] != static_cast<uint8_t>(RecordKind::kRecord)) return 0;
    if (rt.file[static_cast<size_t>(r)] != 0) return out_.data_files_read;
    const uint64_t own = out_.file_sizes.empty() ? out_.file_size : out_.file_sizes[0];
    const uint64_t end = rt.offset[static_cast<size_t>(r)] + rt.size[static_cast<size_t>(r)];
    return end == 0 || end > own ? 0 : end;
  };
  const uint64_t sample_at = reached(row), rows_at = reached(static_cast<int32_t>(rt.rows()) - 1);
  if (!sample_at) return;
  // Never more than the memory budget lets the tables hold (it counts 36 bytes a sample row, and its
  // record row's packed columns at a byte or more).
  const double most = static_cast<double>(out_.budget.limit()) / 37.0;
  const size_t samples = RowsToReserve(n, t.time.capacity(), sample_at, size, most);
  const size_t rows = RowsToReserve(rt.rows(), rt.capacity(), rows_at, size, most);
  try {
    if (samples > t.time.capacity()) {
      t.Reserve(samples);
      sample_comm_.reserve(samples);
    }
    if (rows > rt.capacity()) rt.Reserve(rows);
  } catch (const std::bad_alloc&) {
    // (the columns then grow as they fill)
  }
}

// PERF_SAMPLE_READ (leader sampling, perf record -e '{a,b}:S'): perf 6.1's
// evlist__deliver_sample hands the sample to every counter it read
// (deliver_sample_group; one counter without PERF_FORMAT_GROUP), each as a
// sample of that counter's event whose period is how much the counter moved
// since its last read (per event id); a counter that did not move, or whose id
// names no event, gives none. Returns false, and the sample is kept as recorded,
// when no value's id names an event: read_format without PERF_FORMAT_ID (perf
// record always sets it with PERF_SAMPLE_READ; perf would drop every such
// sample) or ids the file never declared. simpleperf's report keeps its
// samples as they are.
bool PerfRecordParser::DeliverRead(ByteReader rec) {
  read_samples_.clear();
  if (session_.features.simpleperf.present || RecordedBySimpleperf(session_.features)) return false;
  bool any = false;
  for (const auto& v : sample_.read_values) any = any || session_.AttrForId(v.second) != nullptr;
  if (!any) return false;
  for (const auto& [value, id] : sample_.read_values) {
    const PerfSession::AttrInfo* member = session_.AttrForId(id);
    if (!member) {
      if (unknown_read_ids_++ == 0) first_unknown_read_ = rec.base();
      continue;
    }
    uint64_t& last = read_last_[id];
    const uint64_t period = value - last;
    last = value;
    if (period) read_samples_.emplace_back(member, period);
  }
  return true;
}

void PerfRecordParser::Finish() {
  if (unknown_read_ids_)
    out_.diags.Warning(DiagCode::kUnknownSampleId, first_unknown_read_, 0,
                       Dec(unknown_read_ids_) + " counter values read with samples (PERF_SAMPLE_READ) carry an id that "
                       "names no event (or no id: read_format without PERF_FORMAT_ID), the first in the SAMPLE at " +
                           Hex(first_unknown_read_) + "; perf drops them too, so they give no sample");
  markers_.Finish(out_.profile, threads_);
  split_.Finish(out_);
  unwind_.Finish();
}

}  // namespace profscope::perf
