#include "core/format/perf/perf_attr.h"

#include <cstdio>

#include "core/format/perf/perf_format.h"
#include "core/model/field_reader.h"

namespace profscope::perf {

const char* AttrFlagName(int bit) {
  static const char* const names[] = {
      "disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
      "exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec",
      "task", "watermark", "precise_ip", "precise_ip", "mmap_data", "sample_id_all",
      "exclude_host", "exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user",
      "mmap2", "comm_exec", "use_clockid", "context_switch", "write_backward", "namespaces",
      "ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
      "inherit_thread", "remove_on_exec", "sigtrap"};
  if (bit >= 0 && bit < static_cast<int>(sizeof(names) / sizeof(*names))) return names[bit];
  return nullptr;
}

static uint64_t ReverseBitsInBytes(uint64_t v) {
  uint64_t out = 0;
  for (int byte = 0; byte < 8; ++byte) {
    uint8_t b = static_cast<uint8_t>(v >> (byte * 8));
    uint8_t r = 0;
    for (int i = 0; i < 8; ++i) if (b & (1u << i)) r |= static_cast<uint8_t>(1u << (7 - i));
    out |= static_cast<uint64_t>(r) << (byte * 8);
  }
  return out;
}

static std::string FlagsString(uint64_t flags) {
  std::string out;
  for (int bit = 0; bit < 64; ++bit) {
    if (bit == 16) continue;  // second bit of precise_ip
    if (bit == 15) {
      int p = static_cast<int>((flags >> 15) & 3);
      if (p) { if (!out.empty()) out += ' '; out += "precise_ip=" + std::to_string(p); }
      continue;
    }
    if (!(flags & (1ULL << bit))) continue;
    if (!out.empty()) out += ' ';
    const char* n = AttrFlagName(bit);
    out += n ? n : ("bit" + std::to_string(bit));
  }
  return out;
}

bool ParseAttr(ByteReader attr, PerfEventAttr* a, FieldList* fields) {
  if (attr.size() < kAttrVer0Size) return false;
  FieldReader w(attr, fields ? &fields->items() : nullptr);
  ByteReader& r = w.reader();
  auto u32 = [&](const char* name, uint32_t* dst) { w.U32(name, dst); };
  auto u64 = [&](const char* name, uint64_t* dst, bool hex) { w.U64(name, dst, hex ? Fmt::kHex : Fmt::kDec); };
  u32("type", &a->type);
  u32("size", &a->size);
  u64("config", &a->config, true);
  u64("sample_period/freq", &a->sample_period_or_freq, false);
  {
    uint64_t at = r.abs_pos();
    a->sample_type = r.U64();
    if (w.fielding()) w.Add("sample_type", at, 8, Hex(a->sample_type) + " " + SampleTypeString(a->sample_type));
  }
  {
    uint64_t at = r.abs_pos();
    a->read_format = r.U64();
    if (w.fielding()) w.Add("read_format", at, 8, Hex(a->read_format) + " " + ReadFormatString(a->read_format));
  }
  {
    uint64_t at = r.abs_pos();
    uint64_t raw = r.U64();
    // Bitfields of a file written on the other byte order: the word is not
    // byte-swapped but each byte's bits are reversed (perf: swap_bitfield()).
    a->flags = r.swapped() ? ReverseBitsInBytes(Swap64(raw)) : raw;
    if (w.fielding()) w.Add("flags", at, 8, Hex(a->flags) + " " + FlagsString(a->flags));
  }
  u32("wakeup_events/watermark", &a->wakeup);
  u32("bp_type", &a->bp_type);
  u64("config1/bp_addr", &a->config1, true);
  size_t n = r.size();
  if (n >= 72) u64("config2/bp_len", &a->config2, true);
  if (n >= 80) u64("branch_sample_type", &a->branch_sample_type, true);
  if (n >= 96) {
    u64("sample_regs_user", &a->sample_regs_user, true);
    u32("sample_stack_user", &a->sample_stack_user);
    uint32_t c; u32("clockid", &c); a->clockid = static_cast<int32_t>(c);
  }
  if (n >= 104) u64("sample_regs_intr", &a->sample_regs_intr, true);
  if (n >= 112) {
    u32("aux_watermark", &a->aux_watermark);
    uint64_t at = r.abs_pos();
    a->sample_max_stack = r.U16();
    if (w.fielding()) w.Add("sample_max_stack", at, 2, std::to_string(a->sample_max_stack));
    at = r.abs_pos();
    r.U16();
    if (w.fielding()) w.Add("reserved", at, 2, "");
  }
  if (n >= 120) {
    u32("aux_sample_size", &a->aux_sample_size);
    uint32_t res; u32("reserved", &res);
  }
  if (n >= 128) u64("sig_data", &a->sig_data, true);
  if (n >= 136) u64("config3", &a->config3, true);
  if (r.pos() < n && fields) {
    fields->Add("unknown_tail", r.abs_pos(), n - r.pos(), std::to_string(n - r.pos()) + " bytes newer than this decoder");
  }
  return w.ok();
}

static const char* HwName(uint64_t c) {
  static const char* const names[] = {"cycles", "instructions", "cache-references", "cache-misses",
                                      "branches", "branch-misses", "bus-cycles",
                                      "stalled-cycles-frontend", "stalled-cycles-backend",
                                      "ref-cycles"};
  return c < 10 ? names[c] : nullptr;
}
static const char* SwName(uint64_t c) {
  static const char* const names[] = {"cpu-clock", "task-clock", "page-faults",
                                      "context-switches", "cpu-migrations", "minor-faults",
                                      "major-faults", "alignment-faults", "emulation-faults",
                                      "dummy", "bpf-output", "cgroup-switches"};
  return c < 12 ? names[c] : nullptr;
}

std::string EventName(const PerfEventAttr& attr, const std::string& given) {
  if (!given.empty()) return given;
  std::string base;
  char buf[64];
  switch (attr.type) {
    case kTypeHardware: {
      const char* n = HwName(attr.config & 0xffffffff);
      if (n) base = n; else { std::snprintf(buf, sizeof buf, "unknown-hardware:0x%llx", (unsigned long long)attr.config); base = buf; }
      break;
    }
    case kTypeSoftware: {
      const char* n = SwName(attr.config);
      if (n) base = n; else { std::snprintf(buf, sizeof buf, "unknown-software:0x%llx", (unsigned long long)attr.config); base = buf; }
      break;
    }
    case kTypeTracepoint: base = "unknown tracepoint"; break;
    case kTypeHwCache: {
      // perf's evsel__hw_cache_type_op_res_name(): accesses "L1-dcache-loads",
      // misses "L1-dcache-load-misses", "LLC-prefetches".
      static const char* const caches[] = {"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"};
      static const char* const ops[] = {"load", "store", "prefetch"};
      static const char* const op_plural[] = {"loads", "stores", "prefetches"};
      uint64_t c = attr.config & 0xff, op = (attr.config >> 8) & 0xff, res = (attr.config >> 16) & 0xff;
      if (c < 7 && op < 3 && res < 2) base = std::string(caches[c]) + "-" + (res ? std::string(ops[op]) + "-misses" : op_plural[op]);
      else { std::snprintf(buf, sizeof buf, "unknown-hw-cache:0x%llx", (unsigned long long)attr.config); base = buf; }
      break;
    }
    case kTypeRaw: std::snprintf(buf, sizeof buf, "raw 0x%llx", (unsigned long long)attr.config); base = buf; break;
    case kTypeBreakpoint: {
      // bp_type: HW_BREAKPOINT_R 1, W 2, X 4 (perf's __evsel__bp_name).
      std::string rwx;
      if (attr.bp_type & 1) rwx += 'r';
      if (attr.bp_type & 2) rwx += 'w';
      if (attr.bp_type & 4) rwx += 'x';
      std::snprintf(buf, sizeof buf, "mem:0x%llx", (unsigned long long)attr.config1);
      base = buf;
      if (!rwx.empty()) base += ":" + rwx;
      break;
    }
    default: std::snprintf(buf, sizeof buf, "unknown-type%u:0x%llx", attr.type, (unsigned long long)attr.config); base = buf;
  }
  // Modifiers as perf's evsel__add_modifiers() prints them.
  bool ex_user = attr.flags & (1ULL << 4), ex_kernel = attr.flags & (1ULL << 5),
       ex_hv = attr.flags & (1ULL << 6), ex_host = attr.flags & (1ULL << 19),
       ex_guest = attr.flags & (1ULL << 20);
  std::string mods;
  bool exclude_guest_default = false;
  if (ex_kernel || ex_user || ex_hv) {
    if (!ex_kernel) mods += 'k';
    if (!ex_user) mods += 'u';
    if (!ex_hv) mods += 'h';
    exclude_guest_default = true;
  }
  if (attr.precise_ip()) {
    mods.append(static_cast<size_t>(attr.precise_ip()), 'p');
    exclude_guest_default = true;
  }
  if (ex_host || ex_guest == exclude_guest_default) {
    if (!ex_host) mods += 'H';
    if (!ex_guest) mods += 'G';
  }
  return mods.empty() ? base : base + ":" + mods;
}

uint32_t SampleIdSize(uint64_t st) {
  uint32_t n = 0;
  if (st & kSampleTid) n += 8;
  if (st & kSampleTime) n += 8;
  if (st & kSampleId) n += 8;
  if (st & kSampleStreamId) n += 8;
  if (st & kSampleCpu) n += 8;
  if (st & kSampleIdentifier) n += 8;
  return n;
}

}  // namespace profscope::perf
