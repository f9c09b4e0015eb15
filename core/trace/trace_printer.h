// A tracepoint sample's text as `perf script` prints it: libtraceevent's
// tep_print_event(..., "%s", TEP_PRINT_INFO) over the event's "print fmt",
// with the formats, header_page, kallsyms, printk formats and saved
// cmdlines of the file's TRACING_DATA loaded the way perf's
// util/trace-event-read.c does (event_format__fprintf in trace-event.c).
// Uses libtraceevent itself (PROFSCOPE_HAVE_TRACEEVENT: Debian's
// libtraceevent-dev natively; in WASM its source package, or the kernel
// tree's copy Debian's perf links, see scripts/wasm-deps/traceevent.sh).
// Without it Available() is false and Print gives the fields as
// "name=value" pairs instead.
//
// Plugins: none are loaded. perf script's output shows none in effect either
// (a kmalloc's call_site prints by its print fmt's %pS, not as plugin_kmem's
// "(func+0x..)").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/trace/tracing_data.h"

namespace profscope::trace {

class TracePrinter {
 public:
  explicit TracePrinter(const TracingData& td);
  ~TracePrinter();
  static bool Available();
  // perf names kernel addresses in payloads (%pS, %ps: a timer's function, a
  // kmalloc's call_site) from the session's kernel symbols, not from the
  // TRACING_DATA's kallsyms (perf 6.1 records none): the resolver gives the
  // symbol holding `addr` (its start address, name, and module for a module).
  struct KernelSymbol {
    uint64_t start = 0;
    std::string name, module;
  };
  using KernelResolver = std::function<bool(uint64_t addr, KernelSymbol* out)>;
  void SetKernelResolver(KernelResolver resolve);
  // The TEP_PRINT_INFO text of a sample of event `id` (attr.config).
  std::string Print(uint32_t id, uint32_t cpu, const uint8_t* raw, size_t size) const;

 private:
  // The fields as "name=value" pairs (without libtraceevent, or data it cannot take).
  std::string FieldText(uint32_t id, const uint8_t* raw, size_t size) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
  const TracingData& td_;
};

}  // namespace profscope::trace
