// perf.data's TRACING_DATA feature read for what tracepoint samples need:
// the format text of every event (ftrace and event systems), header_page,
// the kernel's kallsyms/printk texts and saved_cmdlines (perf's
// util/trace-event-read.c trace_report), and each format's fields parsed
// ("field:TYPE NAME; offset:N; size:N; signed:N;"), so that a tracepoint
// sample's raw bytes decode into named fields in both builds. Printing an
// event through its "print fmt" is trace_printer.h's job (libtraceevent).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/byte_reader.h"
#include "core/model/fields.h"

namespace profscope::trace {

struct FormatField {
  std::string type;     // "unsigned short", "char[16]", "__data_loc char[]"
  std::string name;
  uint32_t offset = 0, size = 0;
  bool is_signed = false;
  bool common = false;  // the "common_*" header fields
};

struct EventFormat {
  std::string system, name;  // "sched", "sched_switch"
  uint32_t id = 0;
  std::vector<FormatField> fields;
  std::string print_fmt;
  std::string text;          // the whole format file
};

struct TracingData {
  bool ok = false;
  bool big_endian = false;
  uint8_t long_size = 8;
  uint32_t page_size = 4096;
  std::string header_page, header_event;
  std::vector<EventFormat> events;  // ftrace formats (system "ftrace") then the event systems'
  std::string kallsyms, printk, saved_cmdlines;
  std::string problem;       // what stopped the walk, with its offset
  const EventFormat* Find(uint32_t id) const;
};

// What in a format text (or header_page) libtraceevent, the parser perf
// uses, cannot survive, and where: such a text is never given to it (its
// events' samples are then shown by their fields).
//  - a quoted string that never closes: its tokenizer reads on past the text's
//    end forever, growing the token (outside a string every ' or " opens one;
//    a quote after a backslash does not close it, as the tokenizer reads);
//  - before the print fmt, a field's array "[" whose "]" is not on its line
//    (outside strings): its field loop reads tokens until the "]" and compares
//    a null token at the text's end (a crash natively);
//  - in the print fmt, brackets nested deeper than kMaxNesting, or more than
//    kMaxOperators operator characters: its parser, and its printer, recurse once per
//    bracket and per operator of a chain ("1+1+1..."), and overflow the stack
//    (a crash natively, the module's end in WASM). Real kernels' formats stay
//    far inside both (Linux 6.1's 2 323 formats: nesting <= 14, <= 271);
//  - in the print fmt, a shift (<< >>) whose right operand is not a literal
//    number below 64, or a division (/ %) whose right operand is not a literal
//    number other than 0: the library computes them on the sample's values as
//    C does, undefined past 63 and a crash natively for a division by 0 (real
//    formats shift and divide by literal numbers: 1UL << (10), REC->dev >> 20).
constexpr size_t kMaxNesting = 32;
constexpr size_t kMaxOperators = 1024;
struct TextHazard {
  size_t at = std::string_view::npos;  // npos: none
  const char* what = "";               // "a quoted string that never closes", ...
  explicit operator bool() const { return at != std::string_view::npos; }
};
TextHazard LibraryHazard(std::string_view text);

// Parses one format file's text.
EventFormat ParseFormat(const std::string& text, const std::string& system);

// The TRACING_DATA feature section (reader over exactly the section).
TracingData ReadTracingData(ByteReader r);

struct FieldValue {
  std::string name;
  uint32_t offset = 0, size = 0;  // within the raw data
  std::string value;              // decimal, a string, or hex bytes
};

// A tracepoint sample's raw data (PERF_SAMPLE_RAW) as named fields, by its
// format: integers of 1/2/4/8 bytes in the file's byte order (signed as the
// format says), char arrays and __data_loc strings as text, other arrays as
// hex. Fields past the raw data's end are left out.
std::vector<FieldValue> DecodeFields(const EventFormat& f, const uint8_t* raw, size_t size, bool big_endian);

// The same as one Field "raw" of the record view with a child per field
// (absolute offsets: raw_offset is where the raw data starts in the file),
// strings quoted: what a sched_switch record shows instead of "68 bytes".
Field TraceFieldsForView(const EventFormat& f, const uint8_t* raw, size_t size, bool big_endian, uint64_t raw_offset);

}  // namespace profscope::trace
