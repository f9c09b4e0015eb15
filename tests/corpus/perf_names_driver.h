// Test-only driver until the perf decoder interprets records in perf's
// order: replays a perf.data the way perf 6.1's session does for `perf
// script` and names every frame through the symbol store, so that the
// store's names and the script writer's text can be checked against perf's
// own outputs now. What it emulates (the integration step must do the same):
//  - ordered events (util/ordered-events.c): records with a timestamp are
//    queued and delivered in time order (ties in file order), flushed at each
//    FINISHED_ROUND up to the largest timestamp seen at the round before;
//    records without a time (or time 0: synthesized ones) are delivered at
//    once, in file order; the rest at the end;
//  - threads (machine.c): COMM names a thread; FORK makes the child with the
//    parent's comm and, for a new process, a copy of the parent's maps;
//    threads of one process share its maps; an unknown thread is ":tid";
//  - maps: MMAP/MMAP2 of a process insert a map, cutting the ones it overlaps
//    (maps__fixup_overlappings); kernel-space MMAPs: "[kernel.kallsyms]_text"
//    is the kernel map (relocation reference), others are module maps;
//  - callchains (thread__resolve_callchain_sample): context markers switch
//    between kernel and user maps, at most 127 entries.
// Only uncompressed records (no perf record -z) are replayed.
#pragma once

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/api/script_writer.h"
#include "core/format/perf/perf_decoder.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_sample.h"
#include "core/symbols/symbol_store.h"
#include "core/trace/trace_printer.h"
#include "core/trace/tracing_data.h"

namespace profscope::testing {

struct NamedFrame {
  std::string name;  // symbol or "[unknown]"
  script::Frame fr;
};

struct ReplayedSample {
  std::string comm;
  int32_t pid = 0, tid = 0;
  uint32_t cpu = 0;
  uint64_t time = 0, period = 0;
  int attr = -1;
  bool callchain = false;
  std::vector<NamedFrame> frames;  // leaf first
  std::string trace;               // tracepoint text
};

class PerfReplay {
 public:
  PerfReplay(const std::vector<uint8_t>& bytes, symbols::SymbolStore& store) : bytes_(bytes), store_(store) {}

  bool Run() {
    MemorySource src(bytes_);
    Window w(src);
    if (!dec_.Decode(w, res_, nullptr)) return false;
    dec_.Finish(res_);
    order_ = res_.byte_order == "big" ? ByteOrder::kBig : ByteOrder::kLittle;
    for (const auto& b : dec_.features().build_ids) build_ids_[b.filename] = b.build_id_hex;
    id_pos_ = perf::ComputeIdPos(dec_.attrs().empty() ? 0 : dec_.attrs()[0].attr.sample_type);
    for (size_t i = 0; i < res_.records.rows(); ++i) {
      if (res_.records.kind[i] != static_cast<uint8_t>(RecordKind::kFeature) || res_.records.type[i] != 1) continue;
      uint64_t off = res_.records.offset[i], size = res_.records.size[i];
      if (off + size <= bytes_.size())
        tracing_ = trace::ReadTracingData(ByteReader(bytes_.data() + off, static_cast<size_t>(size), off, order_));
    }
    printer_ = std::make_unique<trace::TracePrinter>(tracing_);
    // Replay in perf's delivery order.
    struct Ev { uint64_t time; size_t seq; int32_t row; };
    std::vector<Ev> queue;
    uint64_t max_ts = 0, next_flush = 0;
    size_t seq = 0;
    auto flush = [&](uint64_t limit) {
      std::stable_sort(queue.begin(), queue.end(), [](const Ev& a, const Ev& b) { return a.time < b.time; });
      size_t k = 0;
      while (k < queue.size() && queue[k].time <= limit) Deliver(queue[k++].row);
      queue.erase(queue.begin(), queue.begin() + static_cast<long>(k));
    };
    const RecordTable& rt = res_.records;
    for (size_t i = 0; i < rt.rows(); ++i) {
      if (rt.kind[i] != static_cast<uint8_t>(RecordKind::kRecord) || rt.file[i] != 0) continue;
      uint32_t type = rt.type[i];
      if (type == perf::kFinishedRound) {
        flush(next_flush);
        next_flush = max_ts;
        continue;
      }
      uint64_t t = Time(static_cast<int32_t>(i));
      if (t == 0 || t == ~0ull) { Deliver(static_cast<int32_t>(i)); continue; }
      max_ts = std::max(max_ts, t);
      queue.push_back({t, seq++, static_cast<int32_t>(i)});
    }
    flush(~0ull);
    return true;
  }

  const std::vector<ReplayedSample>& samples() const { return samples_; }
  const perf::PerfDecoder& decoder() const { return dec_; }

  // perf_fold.py's folded stacks of one event ("" = all): root first, ';', count; sorted.
  std::string Folded(const std::string& event) const {
    std::map<std::string, uint64_t> agg;
    for (const auto& s : samples_) {
      if (!event.empty() && dec_.attrs()[static_cast<size_t>(s.attr)].name != event) continue;
      std::string k;
      for (size_t i = s.frames.size(); i-- > 0;) k += (k.empty() ? "" : ";") + s.frames[i].name;
      ++agg[k];
    }
    std::string out;
    for (auto& [k, v] : agg) out += k + " " + std::to_string(v) + "\n";
    return out;
  }

  // perf script's default output.
  std::string Script() const {
    int width = 0;
    bool any_callchain = false;
    for (const auto& a : dec_.attrs()) {
      width = std::max(width, static_cast<int>(a.name.size()));
      any_callchain = any_callchain || (a.attr.sample_type & (1u << 5));
    }
    std::string out;
    for (const auto& s : samples_) {
      const auto& a = dec_.attrs()[static_cast<size_t>(s.attr)];
      script::Fields f = script::DefaultFields(a.attr.type, a.attr.sample_type, any_callchain);
      script::Sample ss;
      ss.comm = s.comm;
      ss.pid = s.pid;
      ss.tid = s.tid;
      ss.cpu = s.cpu;
      ss.time = s.time;
      ss.period = s.period;
      ss.event = a.name;
      ss.callchain = s.callchain;
      ss.trace = s.trace;
      for (const auto& nf : s.frames) ss.frames.push_back(nf.fr);
      script::AppendSample(f, ss, width, out);
    }
    return out;
  }

 private:
  struct Map { uint64_t start, end, pgoff; int32_t dso; };
  using Maps = std::map<uint64_t, Map>;  // by start
  struct Thread { std::string comm; int32_t pid; std::shared_ptr<Maps> maps; };

  ByteReader Payload(int32_t row) const {
    uint64_t off = res_.records.offset[static_cast<size_t>(row)], size = res_.records.size[static_cast<size_t>(row)];
    if (off + size > bytes_.size() || size < 8) return ByteReader();
    return ByteReader(bytes_.data() + off + 8, static_cast<size_t>(size - 8), off + 8, order_);
  }
  uint16_t Misc(int32_t row) const {
    ByteReader r(bytes_.data() + res_.records.offset[static_cast<size_t>(row)], 8, 0, order_);
    r.U32();
    return r.U16();
  }
  int AttrOf(ByteReader p, bool sample) const {
    const auto& attrs = dec_.attrs();
    if (attrs.size() == 1) return 0;
    uint64_t id = 0;
    if (sample) {
      if (id_pos_.sample_pos < 0) return 0;
      ByteReader r = p;
      r.Skip(static_cast<size_t>(id_pos_.sample_pos) * 8);
      id = r.U64();
    } else {
      if (id_pos_.trailer_pos < 0 || p.size() < static_cast<size_t>(id_pos_.trailer_pos) * 8) return 0;
      ByteReader r = p;
      r.Seek(p.size() - static_cast<size_t>(id_pos_.trailer_pos) * 8);
      id = r.U64();
    }
    for (size_t i = 0; i < attrs.size(); ++i)
      for (uint64_t x : attrs[i].ids)
        if (x == id) return static_cast<int>(i);
    return 0;
  }
  uint64_t Time(int32_t row) const {
    uint32_t type = res_.records.type[static_cast<size_t>(row)];
    if (type >= 64) return 0;  // user records: delivered in place
    ByteReader p = Payload(row);
    if (dec_.attrs().empty()) return 0;
    if (type == perf::kSample) {
      perf::SampleData sd;
      const auto& a = dec_.attrs()[static_cast<size_t>(AttrOf(p, true))].attr;
      if (!(a.sample_type & (1u << 2))) return 0;
      if (!perf::ParseSample(p, a, &sd, nullptr, nullptr)) return 0;
      return sd.time;
    }
    const auto& a = dec_.attrs()[static_cast<size_t>(AttrOf(p, false))].attr;
    if (!a.sample_id_all() || !(a.sample_type & (1u << 2))) return 0;
    perf::SampleData sd;
    if (!perf::ParseSampleId(p, a, &sd, nullptr)) return 0;
    return sd.time;
  }
  Thread& FindThread(int32_t pid, int32_t tid) {
    auto it = threads_.find(tid);
    if (it != threads_.end()) return it->second;
    Thread t;
    t.comm = ":" + std::to_string(tid);
    t.pid = pid;
    if (pid != tid && pid >= 0) t.maps = FindThread(pid, pid).maps;  // thread__init_maps: share the leader's
    if (!t.maps) t.maps = std::make_shared<Maps>();
    return threads_.emplace(tid, std::move(t)).first->second;
  }
  static void Insert(Maps& m, Map n) {
    // maps__fixup_overlappings: keep the parts of older maps outside [start, end).
    std::vector<Map> keep;
    for (auto it = m.begin(); it != m.end();) {
      Map o = it->second;
      if (o.end <= n.start || o.start >= n.end) { ++it; continue; }
      if (o.start < n.start) keep.push_back({o.start, n.start, o.pgoff, o.dso});
      if (o.end > n.end) keep.push_back({n.end, o.end, o.pgoff + (n.end - o.start), o.dso});
      it = m.erase(it);
    }
    for (auto& k : keep) m[k.start] = k;
    m[n.start] = n;
  }
  static const Map* Lookup(const Maps& m, uint64_t a) {
    auto it = m.upper_bound(a);
    if (it == m.begin()) return nullptr;
    --it;
    return a < it->second.end ? &it->second : nullptr;
  }
  void Deliver(int32_t row) {
    uint32_t type = res_.records.type[static_cast<size_t>(row)];
    ByteReader p = Payload(row);
    if (type == perf::kComm) {
      int32_t pid = static_cast<int32_t>(p.U32()), tid = static_cast<int32_t>(p.U32());
      std::string comm = p.CString();
      Thread& t = FindThread(pid, tid);
      t.comm = comm;
    } else if (type == perf::kFork) {
      int32_t pid = static_cast<int32_t>(p.U32()), ppid = static_cast<int32_t>(p.U32());
      int32_t tid = static_cast<int32_t>(p.U32()), ptid = static_cast<int32_t>(p.U32());
      Thread& parent = FindThread(ppid, ptid);
      std::string comm = parent.comm;
      auto pm = parent.maps;
      threads_.erase(tid);
      Thread t;
      t.comm = comm;
      t.pid = pid;
      if (pid == ppid) t.maps = pm;
      else if (pid != tid) t.maps = FindThread(pid, pid).maps;
      else t.maps = std::make_shared<Maps>(*pm);
      threads_[tid] = std::move(t);
    } else if (type == perf::kMmap || type == perf::kMmap2) {
      int32_t pid = static_cast<int32_t>(p.U32()), tid = static_cast<int32_t>(p.U32());
      uint64_t start = p.U64(), len = p.U64(), pgoff = p.U64();
      std::string bid;
      uint16_t misc = Misc(row);
      if (type == perf::kMmap2) {
        if (misc & (1u << 14)) {  // PERF_RECORD_MISC_MMAP_BUILD_ID
          uint8_t n = p.U8();
          p.Skip(3);
          const uint8_t* b = p.cursor();
          static const char* hx = "0123456789abcdef";
          for (size_t i = 0; i < n && i < 20 && p.Has(i + 1); ++i) { bid += hx[b[i] >> 4]; bid += hx[b[i] & 15]; }
          p.Skip(20);
        } else {
          p.Skip(24);
        }
        p.Skip(8);  // prot, flags
      }
      std::string name = p.CString();
      if (bid.empty()) {
        auto it = build_ids_.find(name);
        if (it != build_ids_.end()) bid = it->second;
      }
      bool kernel = (misc & 7) == 1;
      if (kernel) {
        if (name.rfind("[kernel.kallsyms]", 0) == 0) {
          auto it = build_ids_.find("[kernel.kallsyms]");
          int32_t d = store_.Dso("[kernel.kallsyms]", it == build_ids_.end() ? std::string() : it->second, true);
          store_.SetKernelMap(name, start, start + len, pgoff);
          kernel_dso_ = d;
          kmaps_.erase(kernel_start_);
          uint64_t end = start + len < start ? ~0ull : start + len;
          if (start == 0 && len == 0) end = ~0ull;
          kmaps_[start] = {start, end, pgoff, d};
          kernel_start_ = start;
          kernel_fixed_ = false;
        } else if (name[0] == '/' || name[0] == '[') {
          int32_t d = store_.Dso(name, bid, true);
          store_.SetModuleMap(d, start);
          Insert(kmaps_, {start, start + len, 0, d});
        }
        return;
      }
      Thread& t = FindThread(pid, tid);
      int32_t d = store_.Dso(name, bid, false);
      Insert(*t.maps, {start, start + len, pgoff, d});
    } else if (type == perf::kSample) {
      Sample(p, Misc(row));
    }
  }
  void FixKernelMap() {
    if (kernel_fixed_ || kernel_dso_ < 0) return;
    kernel_fixed_ = true;
    uint64_t s, e;
    if (!store_.KernelMapRange(&s, &e)) return;
    // map__fixup_start/end after kallsyms loaded.
    Map k = kmaps_[kernel_start_];
    kmaps_.erase(kernel_start_);
    k.start = s;
    k.end = e;
    kernel_start_ = s;
    Insert(kmaps_, k);
  }
  NamedFrame Resolve(Thread& t, bool kernel, uint64_t ip) {
    NamedFrame nf;
    nf.fr.ip = ip;
    if (kernel) FixKernelMap();
    const Map* m = Lookup(kernel ? kmaps_ : *t.maps, ip);
    nf.name = "[unknown]";
    if (!m) return nf;
    nf.fr.has_map = true;
    symbols::DsoKind k = store_.Kind(m->dso);
    nf.fr.kernel_dso = k == symbols::DsoKind::kKernel || k == symbols::DsoKind::kModule;
    uint64_t a = k == symbols::DsoKind::kKernel ? ip : ip - m->start + m->pgoff;
    nf.fr.map_addr = a;
    nf.fr.dso = store_.DsoName(m->dso);
    if (const symbols::Symbol* s = store_.Find(m->dso, a)) {
      nf.fr.has_sym = true;
      nf.fr.sym = s->name;
      nf.fr.sym_offset = a - s->start;
      nf.name = s->name;
    }
    return nf;
  }
  void Sample(ByteReader p, uint16_t misc) {
    int ai = AttrOf(p, true);
    const auto& a = dec_.attrs()[static_cast<size_t>(ai)].attr;
    perf::SampleData sd;
    if (!perf::ParseSample(p, a, &sd, nullptr, nullptr)) return;
    ReplayedSample s;
    s.attr = ai;
    s.pid = static_cast<int32_t>(sd.pid);
    s.tid = static_cast<int32_t>(sd.tid);
    s.cpu = sd.cpu;
    s.time = sd.time;
    s.period = sd.period;
    Thread& t = FindThread(s.pid, s.tid);
    s.comm = t.comm;
    if (a.type == 2 && sd.raw_size && sd.raw_offset + sd.raw_size <= bytes_.size())
      s.trace = printer_->Print(static_cast<uint32_t>(a.config), sd.cpu, bytes_.data() + sd.raw_offset, sd.raw_size);
    if (a.sample_type & (1u << 5)) {
      s.callchain = true;
      bool kernel = false;
      size_t n = 0;
      for (uint64_t ip : sd.callchain) {
        if (ip >= 0xfffffffffffff001ull) {
          if (ip == 0xffffffffffffff80ull) kernel = true;        // PERF_CONTEXT_KERNEL
          else if (ip == 0xfffffffffffffe00ull) kernel = false;  // PERF_CONTEXT_USER
          else { s.frames.clear(); break; }
          continue;
        }
        if (n++ >= 127) break;
        s.frames.push_back(Resolve(t, kernel, ip));
      }
    } else {
      bool kernel = (misc & 7) == 1;
      s.frames.push_back(Resolve(t, kernel, sd.ip));
      if (!s.frames.back().fr.has_map) s.frames.back() = Resolve(t, !kernel, sd.ip);  // thread__find_map_fb
      s.frames.back().fr.ip = sd.ip;
    }
    samples_.push_back(std::move(s));
  }

  const std::vector<uint8_t>& bytes_;
  symbols::SymbolStore& store_;
  perf::PerfDecoder dec_;
  DecodeResult res_;
  ByteOrder order_ = ByteOrder::kLittle;
  perf::IdPos id_pos_;
  std::unordered_map<std::string, std::string> build_ids_;
  std::unordered_map<int32_t, Thread> threads_;
  Maps kmaps_;
  int32_t kernel_dso_ = -1;
  uint64_t kernel_start_ = 0;
  bool kernel_fixed_ = false;
  std::vector<ReplayedSample> samples_;
  trace::TracingData tracing_;
  std::unique_ptr<trace::TracePrinter> printer_;
};

}  // namespace profscope::testing
