#include "core/trace/trace_printer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#if PROFSCOPE_HAVE_TRACEEVENT
extern "C" {
#include <event-parse.h>
#include <trace-seq.h>
}
#endif

namespace profscope::trace {
namespace {

// Calls fn with each non-empty line of text (strtok_r(text, "\n") in perf).
template <typename Fn>
void ForEachLine(const std::string& text, Fn fn) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) fn(std::string_view(text).substr(at, end - at));
    at = end + 1;
  }
}

}  // namespace

#if PROFSCOPE_HAVE_TRACEEVENT
constexpr size_t kPadding = (size_t{128} << 10) + 16;

// Every field of `ev` (or only its common ones) lies inside `size` bytes of raw data.
bool FieldsInside(const tep_event* ev, size_t size, bool common_only = false) {
  if (!ev) return false;
  for (const tep_format_field* list : {ev->format.common_fields, common_only ? nullptr : ev->format.fields})
    for (const tep_format_field* f = list; f; f = f->next)
      if (f->offset < 0 || f->size < 0 || static_cast<uint64_t>(f->offset) + static_cast<uint64_t>(f->size) > size)
        return false;
  return true;
}
#endif

struct TracePrinter::Impl {
#if PROFSCOPE_HAVE_TRACEEVENT
  tep_handle* tep = nullptr;
#endif
  KernelResolver resolve;
  std::vector<uint8_t> padded;  // the raw data being printed, zeros after it
  KernelSymbol last;  // the library keeps the returned pointers until the next call

  // tep_func_resolver_t: the symbol's name (and *addrp its start), or null.
  static char* Resolve(void* priv, unsigned long long* addrp, char** modp) {
    auto* self = static_cast<Impl*>(priv);
    self->last = KernelSymbol{};
    if (!self->resolve || !self->resolve(*addrp, &self->last) || self->last.name.empty()) return nullptr;
    *addrp = self->last.start;
    *modp = self->last.module.empty() ? nullptr : self->last.module.data();
    return self->last.name.data();
  }
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
  // (A text the library cannot survive is not given to it: see LibraryHazard. Its event's payloads are
  // then shown by their fields; the feature's reader warns about it.)
  if (!LibraryHazard(td.header_page)) tep_parse_header_page(tep, hp.data(), td.header_page.size(), td.long_size);
  for (const auto& e : td.events)
    if (!LibraryHazard(e.text)) tep_parse_event(tep, e.text.data(), e.text.size(), e.system.c_str());
  // Through the registration calls both copies of the library have (the
  // kernel tree's, which Debian's perf links and the WASM build may use, has
  // no tep_parse_kallsyms/printk_formats/saved_cmdlines), line by line as
  // perf's util/trace-event-parse.c does.
  ForEachLine(td.kallsyms, [tep](std::string_view line) {
    // "ffffffff81000000 T _text" or "... t name\t[module]"
    unsigned long long addr = 0;
    char type = 0;
    int name_end = 0;
    std::string l(line);
    std::vector<char> name(l.size() + 1);
    if (std::sscanf(l.c_str(), "%llx %c %s%n", &addr, &type, name.data(), &name_end) != 3) return;
    std::string mod;
    if (auto open = l.find('[', static_cast<size_t>(name_end)); open != std::string::npos) {
      auto close = l.find(']', open);
      mod = l.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1);
    }
    tep_register_function(tep, name.data(), addr, mod.empty() ? nullptr : mod.data());
  });
  ForEachLine(td.printk, [tep](std::string_view line) {
    // "0xffffffff8234abcd : \"format\\n\"": perf splits at the first ':' and
    // skips the one space after it; the library strips the quotes and "\n".
    auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return;
    std::string addr(line.substr(0, colon));
    std::string fmt(line.substr(std::min(colon + 2, line.size())));
    // Both copies look two bytes before the end of the (unquoted) format for
    // its "\n": shorter ones would read before the string.
    // (The text may hold a NUL: the library sees the C string.)
    const char* text = fmt.c_str();
    if (std::strlen(text + (*text == '"' ? 1 : 0)) < 3) return;
    tep_register_print_string(tep, fmt.c_str(), std::strtoull(addr.c_str(), nullptr, 16));
  });
  ForEachLine(td.saved_cmdlines, [tep](std::string_view line) {
    int pid = 0;
    char comm[64] = {};
    std::string l(line);
    if (std::sscanf(l.c_str(), "%d %63s", &pid, comm) == 2) tep_register_comm(tep, comm, pid);
  });
#endif
}

TracePrinter::~TracePrinter() {
#if PROFSCOPE_HAVE_TRACEEVENT
  if (impl_->tep) tep_free(impl_->tep);
#endif
}

void TracePrinter::SetKernelResolver(KernelResolver resolve) {
  impl_->resolve = std::move(resolve);
#if PROFSCOPE_HAVE_TRACEEVENT
  if (impl_->tep) tep_set_function_resolver(impl_->tep, &Impl::Resolve, impl_.get());
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
  // (With no event parsed the library's lookups bsearch a null array.)
  tep_event* ev = impl_->tep && tep_get_events_count(impl_->tep) > 0 ? tep_find_event(impl_->tep, static_cast<int>(id))
                                                                     : nullptr;
  // The library reads the fields where the formats (from the file) put them and
  // never checks them against the record: only formats whose fields lie inside
  // the raw data go to it, and the data is handed over with zeros after it for
  // what __data_loc offsets (16-bit) and strings may reach.
  if (ev && size <= (64u << 20) && FieldsInside(ev, size) && 
      // the library reads every record's common_type and common_pid where the first event has them
      FieldsInside(tep_get_event(impl_->tep, 0), size, true)) {
    std::vector<uint8_t>& padded = impl_->padded;  // all zeros between prints
    if (padded.size() < size + kPadding) padded.resize(size + kPadding, 0);
    if (size) std::memcpy(padded.data(), raw, size);
    struct Rezero {
      std::vector<uint8_t>& b;
      size_t n;
      ~Rezero() { std::memset(b.data(), 0, n); }
    } rezero{padded, size};
    tep_record rec{};
    rec.cpu = static_cast<int>(cpu);
    rec.size = static_cast<int>(size);
    rec.data = padded.data();
    // The event the library will print is the one the record's common_type names.
    if (tep_find_event_by_record(impl_->tep, &rec) != ev) return FieldText(id, raw, size);
    trace_seq s;
    trace_seq_init(&s);
    tep_print_event(impl_->tep, &s, &rec, "%s", TEP_PRINT_INFO);
    trace_seq_terminate(&s);
    std::string out(s.buffer, s.len);
    trace_seq_destroy(&s);
    return out;
  }
#endif
  return FieldText(id, raw, size);
}

std::string TracePrinter::FieldText(uint32_t id, const uint8_t* raw, size_t size) const {
  const EventFormat* f = td_.Find(id);
  if (!f) return {};
  std::string out;
  for (const auto& v : DecodeFields(*f, raw, size, td_.big_endian)) {
    if (v.name.rfind("common_", 0) == 0) continue;
    out += (out.empty() ? "" : " ") + v.name + "=" + v.value;
  }
  return out;
}

}  // namespace profscope::trace
