// A tracepoint sample's text as `perf script` prints it: libtraceevent's
// tep_print_event(..., "%s", TEP_PRINT_INFO) over the event's "print fmt",
// with the formats, header_page, kallsyms, printk formats and saved
// cmdlines of the file's TRACING_DATA loaded the way perf's
// util/trace-event-read.c does (event_format__fprintf in trace-event.c).
// Uses libtraceevent itself (PROFSCOPE_HAVE_TRACEEVENT: Debian's
// libtraceevent-dev natively). Without it (the WASM build while Debian's
// libtraceevent source cannot be fetched) Available() is false and Print
// gives the fields as "name=value" pairs instead.
//
// Plugins: Debian's perf 6.1 loads the libtraceevent plugins of
// /usr/lib/traceevent/plugins (sched_switch, kmem, ...). The plugins are not
// loaded here yet (see the report): events a plugin overrides may print
// differently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/trace/tracing_data.h"

namespace profscope::trace {

class TracePrinter {
 public:
  explicit TracePrinter(const TracingData& td);
  ~TracePrinter();
  static bool Available();
  // The TEP_PRINT_INFO text of a sample of event `id` (attr.config).
  std::string Print(uint32_t id, uint32_t cpu, const uint8_t* raw, size_t size) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  const TracingData& td_;
};

}  // namespace profscope::trace
