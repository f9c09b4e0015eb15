#include "core/format/perf/perf_records.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/format/perf/perf_format.h"

namespace profscope::perf {

namespace {

std::string ProtString(uint32_t prot) {
  std::string s = Hex(prot) + " ";
  s += (prot & 1) ? 'r' : '-';
  s += (prot & 2) ? 'w' : '-';
  s += (prot & 4) ? 'x' : '-';
  return s;
}

std::string MapFlagsString(uint32_t flags) {
  std::string names;
  auto add = [&](const char* n) {
    if (!names.empty()) names += '|';
    names += n;
  };
  uint32_t left = flags;
  if (left & 0x01) { add("MAP_SHARED"); left &= ~0x01u; }
  if (left & 0x02) { add("MAP_PRIVATE"); left &= ~0x02u; }
  if (left & 0x20) { add("MAP_ANONYMOUS"); left &= ~0x20u; }
  if (left & 0x800) { add("MAP_DENYWRITE"); left &= ~0x800u; }
  if (left & 0x1000) { add("MAP_EXECUTABLE"); left &= ~0x1000u; }
  if (left & 0x40000) { add("MAP_HUGETLB"); left &= ~0x40000u; }
  if (left) add(Hex(left).c_str());
  return names.empty() ? Hex(flags) : Hex(flags) + " " + names;
}

// A number member read as u32 and kept signed (pids, tids).
bool S32(FieldReader& r, const char* name, int32_t* v) {
  uint32_t x = 0;
  bool ok = r.U32(name, &x, Fmt::kS32);
  if (ok) *v = static_cast<int32_t>(x);
  return ok;
}

}  // namespace

bool ParseMmap(FieldReader& r, uint32_t type, uint16_t misc, MmapRecord* m) {
  S32(r, "pid", &m->pid);
  S32(r, "tid", &m->tid);
  r.U64("start", &m->start, Fmt::kHex);
  r.U64("len", &m->len, Fmt::kHex);
  r.U64("pgoff", &m->pgoff, Fmt::kHex);
  if (type == kMmap2) {
    m->with_build_id = misc & kMiscMmapBuildId;
    if (m->with_build_id) {
      r.U8("build_id_size", &m->build_id_size);
      r.U8("reserved1", nullptr);
      r.U16("reserved2", nullptr);
      if (r.Need(20, "build_id")) {
        m->build_id = HexBytes(r.cursor(), m->build_id_size <= 20 ? m->build_id_size : 20);
        r.Blob("build_id", 20, m->build_id.empty() ? "(empty)" : m->build_id);
        if (m->build_id_size > 20 && r.fielding())
          r.Last().value += " (build_id_size " + std::to_string(m->build_id_size) + " > 20)";
      }
    } else {
      r.U32("maj", &m->maj);
      r.U32("min", &m->min);
      r.U64("ino", &m->ino);
      r.U64("ino_generation", &m->ino_generation);
    }
    if (r.U32("prot", &m->prot) && r.fielding()) r.Last().value = ProtString(m->prot);
    if (r.U32("flags", &m->flags) && r.fielding()) r.Last().value = MapFlagsString(m->flags);
  }
  m->fixed_ok = r.ok();
  m->filename_ok = r.StrRest("filename", &m->filename);
  return m->fixed_ok && m->filename_ok;
}

bool ParseComm(FieldReader& r, CommRecord* c) {
  S32(r, "pid", &c->pid);
  S32(r, "tid", &c->tid);
  c->ids_ok = r.ok();
  c->comm_ok = r.StrRest("comm", &c->comm);
  return c->ids_ok && c->comm_ok;
}

bool ParseTask(FieldReader& r, TaskRecord* t) {
  S32(r, "pid", &t->pid);
  S32(r, "ppid", &t->ppid);
  S32(r, "tid", &t->tid);
  S32(r, "ptid", &t->ptid);
  r.U64("time", &t->time);
  t->ok = r.ok();
  return t->ok;
}

bool ParseLost(FieldReader& r, LostRecord* l) {
  r.U64("id", &l->id);
  r.U64("lost", &l->lost);
  return r.ok();
}

bool ParseLostSamples(FieldReader& r, LostSamplesRecord* l) { return r.U64("lost", &l->lost); }

bool ParseThrottle(FieldReader& r, ThrottleRecord* t) {
  t->time_ok = r.U64("time", &t->time);
  r.U64("id", &t->id);
  r.U64("stream_id", &t->stream_id);
  return r.ok();
}

bool ParseSwitch(FieldReader& r, uint32_t type, SwitchRecord* s) {
  if (type != kSwitchCpuWide) return true;
  S32(r, "next_prev_pid", &s->next_prev_pid);
  S32(r, "next_prev_tid", &s->next_prev_tid);
  s->ok = r.ok();
  return s->ok;
}

bool ParseKsymbol(FieldReader& r, KsymbolRecord* k) {
  r.U64("addr", &k->addr, Fmt::kHex);
  r.U32("len", &k->len);
  if (r.U16("ksym_type", &k->ksym_type) && r.fielding()) {
    static const char* const names[] = {"UNKNOWN", "BPF", "OOL"};
    if (k->ksym_type < 3) r.Last().value += std::string(" ") + names[k->ksym_type];
  }
  if (r.U16("flags", &k->flags, Fmt::kHex) && (k->flags & 1) && r.fielding()) r.Last().value += " UNREGISTER";
  k->fixed_ok = r.ok();
  r.StrRest("name", &k->name);
  return r.ok();
}

bool ParseBpfEvent(FieldReader& r, BpfEventRecord* b) {
  if (r.U16("type", &b->type) && r.fielding()) {
    static const char* const names[] = {"UNKNOWN", "PROG_LOAD", "PROG_UNLOAD"};
    if (b->type < 3) r.Last().value += std::string(" ") + names[b->type];
  }
  r.U16("flags", &b->flags, Fmt::kHex);
  r.U32("id", &b->id);
  if (r.Need(8, "tag")) {
    b->tag = HexBytes(r.cursor(), 8);
    r.Blob("tag", 8, b->tag);
  }
  return r.ok();
}

const char* NamespaceName(uint64_t i) {
  static const char* const names[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
  return i < 7 ? names[i] : "UNKNOWN";
}

bool ParseNamespaces(FieldReader& r, NamespacesRecord* n) {
  S32(r, "pid", &n->pid);
  S32(r, "tid", &n->tid);
  n->ids_ok = r.ok();
  r.U64("nr_namespaces", &n->nr_namespaces);
  if (r.failed()) return false;
  const uint64_t nr = n->nr_namespaces;
  if (nr > r.remaining() / 16) {
    r.Need(nr <= UINT64_MAX / 16 ? nr * 16 : UINT64_MAX, "link_info[" + std::to_string(nr) + "]");
    return false;
  }
  FieldReader::Group links(r, "link_info", std::to_string(nr) + " namespaces");
  for (uint64_t i = 0; i < nr && !r.failed(); ++i) {
    NamespacesRecord::Link l;
    Field* e = r.Add("[" + std::to_string(i) + "] " + NamespaceName(i), r.abs_pos(), 16, "");
    std::vector<Field>* old = e ? r.Target(&e->children) : nullptr;
    r.U64("dev", &l.dev);
    r.U64("ino", &l.ino, Fmt::kHex);
    if (e) {
      r.Target(old);
      char buf[64];
      std::snprintf(buf, sizeof buf, "dev %llu ino %#llx", static_cast<unsigned long long>(l.dev),
                    static_cast<unsigned long long>(l.ino));
      r.Last().value = buf;
    }
    n->links.push_back(l);
  }
  return r.ok();
}

bool ParseCgroup(FieldReader& r, CgroupRecord* c) {
  c->id_ok = r.U64("id", &c->id);
  r.StrRest("path", &c->path);
  return r.ok();
}

bool ParseTextPoke(FieldReader& r, TextPokeRecord* t) {
  r.U64("addr", &t->addr, Fmt::kHex);
  r.U16("old_len", &t->old_len);
  r.U16("new_len", &t->new_len);
  if (!r.failed() && r.Need(t->old_len, "old_bytes"))
    r.Blob("old_bytes", t->old_len, t->old_len && r.fielding() ? HexBytes(r.cursor(), t->old_len) : "(none)");
  if (!r.failed() && r.Need(t->new_len, "new_bytes"))
    r.Blob("new_bytes", t->new_len, t->new_len && r.fielding() ? HexBytes(r.cursor(), t->new_len) : "(none)");
  return r.ok();
}

bool ParseAux(FieldReader& r, AuxRecord* a) {
  r.U64("aux_offset", &a->aux_offset, Fmt::kHex);
  r.U64("aux_size", &a->aux_size, Fmt::kHex);
  if (r.U64("flags", &a->flags, Fmt::kHex) && r.fielding()) {
    const uint64_t flags = a->flags;
    std::string names;
    auto add = [&](const std::string& n) { names += names.empty() ? n : "|" + n; };
    if (flags & 1) add("TRUNCATED");
    if (flags & 2) add("OVERWRITE");
    if (flags & 4) add("PARTIAL");
    if (flags & 8) add("COLLISION");
    if (flags & 0xff00) add("PMU_FORMAT_TYPE " + Hex((flags >> 8) & 0xff));
    if (!names.empty()) r.Last().value += " " + names;
  }
  return r.ok();
}

bool ParseItraceStart(FieldReader& r, ItraceStartRecord* t) {
  S32(r, "pid", &t->pid);
  S32(r, "tid", &t->tid);
  t->ok = r.ok();
  return t->ok;
}

bool ParseHeaderAttr(FieldReader& r, HeaderAttrRecord* h) {
  ByteReader& br = r.reader();
  const uint64_t left = r.remaining();
  h->declared_size = br.PeekU32(br.pos() + 4);
  h->size_past_record = h->declared_size > left;
  if (!r.Need(kAttrVer0Size, "attr")) return false;
  // The field view shows an attr declared past the record as truncated; the
  // interpretation reads a VER0 attr then, as it does for a size of 0 or
  // below VER0.
  if (h->size_past_record && r.fielding()) return r.Need(h->declared_size, "attr");
  h->used_size = h->declared_size >= kAttrVer0Size && h->declared_size <= left ? h->declared_size : kAttrVer0Size;
  FieldList af;
  ByteReader ar = br.Sub(static_cast<size_t>(h->used_size));
  ParseAttr(ar, &h->attr, r.fielding() ? &af : nullptr);
  if (r.fielding()) {
    Field* f = r.Add("attr", ar.base(), h->used_size,
                     EventName(h->attr, "") + ", size " + std::to_string(h->declared_size));
    f->children = std::move(af.items());
  }
  const uint64_t nids = r.remaining() / 8;
  FieldReader::Group ids(r, "ids", std::to_string(nids) + " ids");
  h->ids.reserve(static_cast<size_t>(nids));
  for (uint64_t i = 0; i < nids; ++i) {
    uint64_t id = 0;
    r.U64(r.fielding() ? "[" + std::to_string(i) + "]" : std::string(), &id);
    h->ids.push_back(id);
  }
  return true;
}

bool ParseHeaderFeature(FieldReader& r, HeaderFeatureRecord* h) {
  if (!r.U64("feat_id", &h->raw_id)) return false;
  h->feature = h->raw_id <= UINT32_MAX ? static_cast<uint32_t>(h->raw_id) : UINT32_MAX;
  ByteReader& br = r.reader();
  h->body = br.Sub(br.remaining());
  return true;
}

std::string CpuListString(const std::vector<int>& cpus) {
  std::string out;
  size_t i = 0;
  while (i < cpus.size()) {
    size_t j = i;
    while (j + 1 < cpus.size() && static_cast<long>(cpus[j + 1]) - cpus[i] == static_cast<long>(j + 1 - i)) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? std::to_string(cpus[i]) : std::to_string(cpus[i]) + "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

std::vector<int> ParseCpuMapData(FieldReader& c) {
  std::vector<int> cpus;
  uint16_t type = 0;
  if (!c.U16("type", &type)) return cpus;
  static const char* const names[] = {"CPUS", "MASK", "RANGE_CPUS"};
  if (type < 3 && c.fielding()) c.Last().value += std::string(" ") + names[type];
  if (type == 0) {
    uint16_t nr = 0;
    c.U16("nr", &nr);
    if (c.failed()) return cpus;
    if (!c.Need(2ull * nr, "cpu[" + std::to_string(nr) + "]")) return cpus;
    FieldReader::Group arr(c, "cpu", std::to_string(nr) + " CPUs");
    for (uint16_t i = 0; i < nr; ++i) {
      uint16_t v = 0;
      c.U16("[" + std::to_string(i) + "]", &v);
      int cpu = v == 0xffff ? -1 : v;
      if (cpu < 0 && c.fielding()) c.Last().value = "-1 (any)";
      cpus.push_back(cpu);
    }
  } else if (type == 1) {
    uint16_t nr = 0, long_size = 0;
    c.U16("nr", &nr);
    c.U16("long_size", &long_size);
    if (c.failed()) return cpus;
    if (long_size != 4 && long_size != 8) {
      if (c.fielding()) c.Last().value += " (unsupported; 4 or 8 expected)";
      c.Rest();
      return cpus;
    }
    if (long_size == 8) c.Blob("pad", 4, "4 bytes");
    if (!c.Need(static_cast<uint64_t>(long_size) * nr, "mask[" + std::to_string(nr) + "]")) return cpus;
    FieldReader::Group arr(c, "mask", std::to_string(nr) + " x " + std::to_string(long_size * 8) + " bits");
    for (uint16_t i = 0; i < nr; ++i) {
      uint64_t m = 0;
      if (long_size == 4) {
        uint32_t m32 = 0;
        c.U32("[" + std::to_string(i) + "]", &m32, Fmt::kHex);
        m = m32;
      } else {
        c.U64("[" + std::to_string(i) + "]", &m, Fmt::kHex);
      }
      for (int b = 0; b < long_size * 8; ++b) {
        if (m & (1ULL << b)) cpus.push_back(i * long_size * 8 + b);
      }
    }
  } else if (type == 2) {
    uint8_t any = 0;
    uint16_t first = 0, last = 0;
    c.U8("any_cpu", &any);
    c.U8("pad", nullptr);
    c.U16("start_cpu", &first);
    c.U16("end_cpu", &last);
    if (c.failed()) return cpus;
    if (any) cpus.push_back(-1);
    for (int i = first; i <= last; ++i) cpus.push_back(i);
  } else {
    c.Rest(" (unknown cpu map encoding)");
  }
  return cpus;
}

bool ParseEventUpdate(FieldReader& c, EventUpdateRecord* e) {
  static const char* const names[] = {"UNIT", "SCALE", "NAME", "CPUS"};
  if (c.U64("type", &e->type) && e->type < 4 && c.fielding()) c.Last().value += std::string(" ") + names[e->type];
  e->id_ok = c.U64("id", &e->id);
  if (c.failed()) return false;
  switch (e->type) {
    case 0:
      c.StrRest("unit", &e->text);
      break;
    case 1: {
      uint64_t bits = 0;
      if (c.U64("scale", &bits)) {
        e->scale_ok = true;
        std::memcpy(&e->scale, &bits, sizeof e->scale);
        if (c.fielding()) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%f", e->scale);
          c.Last().value = buf;
        }
      }
      break;
    }
    case 2:
      c.StrRest("name", &e->text);
      break;
    case 3: {
      FieldReader::Group cpus(c, "cpus", "");
      e->cpus = ParseCpuMapData(c);
      if (Field* f = cpus.parent()) f->value = CpuListString(e->cpus);
      break;
    }
    default:
      c.Rest(" (unknown update type)");
  }
  return c.ok();
}

bool ParseTimeConv(FieldReader& c, TimeConvRecord* t) {
  c.U64("time_shift", &t->time_shift);
  c.U64("time_mult", &t->time_mult);
  c.U64("time_zero", &t->time_zero);
  t->base_ok = c.ok();
  if (c.failed() || c.remaining() == 0) return t->base_ok;  // the short form (perf before 5.10)
  t->extended = true;
  c.U64("time_cycles", &t->time_cycles);
  c.U64("time_mask", &t->time_mask, Fmt::kHex);
  c.U8("cap_user_time_zero", &t->cap_user_time_zero);
  c.U8("cap_user_time_short", &t->cap_user_time_short);
  t->extended_ok = c.ok();
  if (c.Need(6, "reserved")) c.Blob("reserved", 6, "6 bytes");
  return c.ok();
}

bool ParseCompressed(FieldReader& c, uint32_t type, CompressedRecord* z) {
  if (type == kCompressed) {
    z->data_offset = 8;
    z->data = c.cursor();
    z->data_len = c.remaining();
    z->data_size = z->data_len;
    c.Blob("data", z->data_len, std::to_string(z->data_len) + " bytes of compressed records (zstd)");
    return c.ok();
  }
  if (!c.U64("data_size", &z->data_size)) return false;
  z->data_offset = 16;
  z->data = c.cursor();
  z->data_len = static_cast<size_t>(std::min<uint64_t>(z->data_size, c.remaining()));
  // The field view shows a data_size past the record as truncated.
  c.Blob("data", z->data_size, std::to_string(z->data_size) + " bytes of compressed records (zstd)");
  return c.ok();
}

}  // namespace profscope::perf
