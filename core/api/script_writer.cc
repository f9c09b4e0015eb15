#include "core/api/script_writer.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>

namespace profscope::script {

namespace {

constexpr uint32_t kTypeHardware = 0, kTypeSoftware = 1, kTypeTracepoint = 2, kTypeRaw = 4, kTypeBreakpoint = 5;
constexpr uint64_t kSampleIp = 1u << 0, kSampleTid = 1u << 1, kSampleTime = 1u << 2, kSampleAddr = 1u << 3,
                   kSampleCallchain = 1u << 5, kSampleCpu = 1u << 7, kSamplePeriod = 1u << 8, kSampleRaw = 1u << 10;

void Appendf(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void Appendf(std::string& out, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    out.append(buf, static_cast<size_t>(n));
    return;
  }
  std::string big(static_cast<size_t>(n) + 1, '\0');
  va_start(ap, fmt);
  std::vsnprintf(big.data(), big.size(), fmt, ap);
  va_end(ap);
  big.pop_back();
  out += big;
}

void AppendPadLeft(std::string& out, std::string_view s, size_t width) {
  if (s.size() < width) out.append(width - s.size(), ' ');
  out.append(s.data(), s.size());
}

// __symbol__fprintf_symname_offs with print_offsets, unknown_as_addr off.
void AppendSym(std::string& out, const Frame& fr, bool symoff) {
  if (!fr.has_sym) { out += "[unknown]"; return; }
  out.append(fr.sym.data(), fr.sym.size());
  if (symoff) Appendf(out, "+0x%" PRIx64, fr.sym_offset);
}

// " sym+off" and " (dso)" after a frame's address, as the fields ask.
void AppendSymDso(std::string& out, const Fields& f, const Frame& fr) {
  if (f.sym) {
    out += ' ';
    AppendSym(out, fr, f.symoff);
  }
  if (f.dso && !fr.inlined) {
    out += " (";
    if (fr.has_map) out.append(fr.dso.data(), fr.dso.size());
    else out += "[unknown]";
    out += ')';
  }
  if (fr.inlined) out += " (inlined)";
}

}  // namespace

std::string Usec(uint64_t ns) {
  char b[48];
  std::snprintf(b, sizeof b, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u, (ns % 1000000000u) / 1000u);
  return b;
}

Fields DefaultFields(uint32_t type, uint64_t st, bool any_callchain) {
  Fields f;
  f.comm = f.tid = f.cpu = f.time = f.event = true;
  if (type == kTypeTracepoint) {
    f.trace = true;
    // With callchains, perf adds ip/sym/dso to tracepoints (perf_session__check_output_opt).
    if (any_callchain && (st & kSampleCallchain)) f.ip = f.sym = f.dso = f.symoff = true;
  } else {
    f.ip = f.sym = f.symoff = f.dso = f.period = true;
  }
  (void)kTypeHardware; (void)kTypeSoftware; (void)kTypeRaw; (void)kTypeBreakpoint; (void)kSampleAddr; (void)kSampleRaw;
  // Fields the samples do not carry are dropped (evsel__check_stype).
  if (!(st & kSampleIp)) f.ip = false;
  if (!(st & kSampleTid)) f.tid = f.pid = false;
  if (!(st & kSampleTime)) f.time = false;
  if (!(st & kSampleCpu)) f.cpu = false;
  if (!(st & kSamplePeriod)) f.period = false;
  return f;
}

void AppendSample(const Fields& f, const Sample& s, int name_width, std::string& out) {
  if (f.comm) {
    if (f.ip && s.callchain) {
      out.append(s.comm.data(), s.comm.size());
      out += ' ';
    } else {
      AppendPadLeft(out, s.comm, 16);
      out += ' ';
    }
  }
  if (f.pid && f.tid) Appendf(out, "%5d/%-5d ", s.pid, s.tid);
  else if (f.pid) Appendf(out, "%5d ", s.pid);
  else if (f.tid) Appendf(out, "%5d ", s.tid);
  if (f.cpu) Appendf(out, "[%03u] ", s.cpu);
  if (f.time) {
    AppendPadLeft(out, Usec(s.time), 12);
    out += ": ";
  }
  if (f.period) Appendf(out, "%10" PRIu64 " ", s.period);
  if (f.event) {
    AppendPadLeft(out, s.event, static_cast<size_t>(name_width > 0 ? name_width : 0));
    out += ": ";
  }
  if (f.trace) out.append(s.trace.data(), s.trace.size());
  if (f.ip) {
    if (s.callchain) {
      out += '\n';
      for (const Frame& fr : s.frames) {
        // "Show binary offset for userspace addr" (perf 6.1 evsel_fprintf.c).
        Appendf(out, "\t%16" PRIx64, fr.has_map && !fr.kernel_dso ? fr.map_addr : fr.ip);
        AppendSymDso(out, f, fr);
        out += '\n';
      }
    } else if (!s.frames.empty()) {
      const Frame& fr = s.frames[0];
      Appendf(out, " %16" PRIx64, fr.ip);
      AppendSymDso(out, f, fr);
    }
  }
  out += '\n';
}

}  // namespace profscope::script
