#include "core/trace/trace_printer.h"

#include <vector>

#if PROFSCOPE_HAVE_TRACEEVENT
extern "C" {
#include <event-parse.h>
#include <trace-seq.h>
}
#endif

namespace profscope::trace {

struct TracePrinter::Impl {
#if PROFSCOPE_HAVE_TRACEEVENT
  tep_handle* tep = nullptr;
#endif
};

TracePrinter::TracePrinter(const TracingData& td) : impl_(std::make_unique<Impl>()), td_(td) {
#if PROFSCOPE_HAVE_TRACEEVENT
  if (!td.ok) return;
  tep_handle* tep = tep_alloc();
  if (!tep) return;
  impl_->tep = tep;
  tep_set_file_bigendian(tep, td.big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
  tep_set_page_size(tep, static_cast<int>(td.page_size));
  tep_set_long_size(tep, td.long_size);
  std::vector<char> hp(td.header_page.begin(), td.header_page.end());
  hp.push_back(0);
  tep_parse_header_page(tep, hp.data(), td.header_page.size(), td.long_size);
  for (const auto& e : td.events) tep_parse_event(tep, e.text.data(), e.text.size(), e.system.c_str());
  if (!td.kallsyms.empty()) tep_parse_kallsyms(tep, td.kallsyms.c_str());
  if (!td.printk.empty()) tep_parse_printk_formats(tep, td.printk.c_str());
  if (!td.saved_cmdlines.empty()) tep_parse_saved_cmdlines(tep, td.saved_cmdlines.c_str());
#endif
}

TracePrinter::~TracePrinter() {
#if PROFSCOPE_HAVE_TRACEEVENT
  if (impl_->tep) tep_free(impl_->tep);
#endif
}

bool TracePrinter::Available() {
#if PROFSCOPE_HAVE_TRACEEVENT
  return true;
#else
  return false;
#endif
}

std::string TracePrinter::Print(uint32_t id, uint32_t cpu, const uint8_t* raw, size_t size) const {
#if PROFSCOPE_HAVE_TRACEEVENT
  if (impl_->tep && tep_find_event(impl_->tep, static_cast<int>(id))) {
    tep_record rec{};
    rec.cpu = static_cast<int>(cpu);
    rec.size = static_cast<int>(size);
    rec.data = const_cast<uint8_t*>(raw);
    trace_seq s;
    trace_seq_init(&s);
    tep_print_event(impl_->tep, &s, &rec, "%s", TEP_PRINT_INFO);
    trace_seq_terminate(&s);
    std::string out(s.buffer, s.len);
    trace_seq_destroy(&s);
    return out;
  }
#endif
  const EventFormat* f = td_.Find(id);
  if (!f) return {};
  std::string out;
  for (const auto& v : DecodeFields(*f, raw, size, td_.big_endian)) {
    if (v.name.rfind("common_", 0) == 0) continue;
    out += (out.empty() ? "" : " ") + v.name + "=" + v.value;
  }
  (void)cpu;
  return out;
}

}  // namespace profscope::trace
