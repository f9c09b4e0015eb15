// One parser per perf record kind that the decoder interprets or turns into
// a timeline marker: each fills a parse struct and, when its FieldReader has
// a field list, describes every member (name, offset, size, value) for the
// record tree. Interpretation (perf_record_parser.cc), the markers
// (perf_markers.cc) and the field view (perf_record_fields.cc) all read the
// bytes through these, so the three never disagree.
//
// Each parser's reader covers the record's payload (after the 8-byte
// header): the interpretation passes the whole payload, the field view the
// payload without its sample_id trailer. A member that does not fit stops the
// reader; what was read before it stays in the struct, the rest keeps its
// zero default. Layouts: the kernel's include/uapi/linux/perf_event.h
// (struct perf_event_type comments) and perf's tools/lib/perf/include/perf/event.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format/perf/perf_attr.h"
#include "core/model/field_reader.h"

namespace profscope::perf {

// MMAP and MMAP2.
struct MmapRecord {
  int32_t pid = 0, tid = 0;
  uint64_t start = 0, len = 0, pgoff = 0;
  // MMAP2 only: a build id (misc MMAP_BUILD_ID) or the inode fields.
  bool with_build_id = false;
  uint8_t build_id_size = 0;
  std::string build_id;  // hex, build_id_size (at most 20) bytes
  uint32_t maj = 0, min = 0;
  uint64_t ino = 0, ino_generation = 0;
  uint32_t prot = 0, flags = 0;
  std::string filename;
  bool fixed_ok = false;     // every member before the filename was there
  bool filename_ok = false;  // a filename area was there (possibly without a NUL)
};
bool ParseMmap(FieldReader& r, uint32_t type, uint16_t misc, MmapRecord* out);

struct CommRecord {
  int32_t pid = 0, tid = 0;
  std::string comm;
  bool ids_ok = false, comm_ok = false;
};
bool ParseComm(FieldReader& r, CommRecord* out);

// FORK and EXIT.
struct TaskRecord {
  int32_t pid = 0, ppid = 0, tid = 0, ptid = 0;
  uint64_t time = 0;
  bool ok = false;
};
bool ParseTask(FieldReader& r, TaskRecord* out);

struct LostRecord {
  uint64_t id = 0, lost = 0;
};
bool ParseLost(FieldReader& r, LostRecord* out);

struct LostSamplesRecord {
  uint64_t lost = 0;
};
bool ParseLostSamples(FieldReader& r, LostSamplesRecord* out);

// THROTTLE and UNTHROTTLE.
struct ThrottleRecord {
  uint64_t time = 0, id = 0, stream_id = 0;
  bool time_ok = false;
};
bool ParseThrottle(FieldReader& r, ThrottleRecord* out);

// SWITCH (no members) and SWITCH_CPU_WIDE (the next/previous task).
struct SwitchRecord {
  int32_t next_prev_pid = 0, next_prev_tid = 0;
  bool ok = false;
};
bool ParseSwitch(FieldReader& r, uint32_t type, SwitchRecord* out);

struct KsymbolRecord {
  uint64_t addr = 0;
  uint32_t len = 0;
  uint16_t ksym_type = 0, flags = 0;
  std::string name;
  bool fixed_ok = false;
};
bool ParseKsymbol(FieldReader& r, KsymbolRecord* out);

struct BpfEventRecord {
  uint16_t type = 0, flags = 0;
  uint32_t id = 0;
  std::string tag;  // hex
};
bool ParseBpfEvent(FieldReader& r, BpfEventRecord* out);

struct NamespacesRecord {
  int32_t pid = 0, tid = 0;
  uint64_t nr_namespaces = 0;
  struct Link { uint64_t dev = 0, ino = 0; };
  std::vector<Link> links;
  bool ids_ok = false;
};
bool ParseNamespaces(FieldReader& r, NamespacesRecord* out);
const char* NamespaceName(uint64_t index);  // "net", "uts", ... or "UNKNOWN"

struct CgroupRecord {
  uint64_t id = 0;
  std::string path;
  bool id_ok = false;
};
bool ParseCgroup(FieldReader& r, CgroupRecord* out);

struct TextPokeRecord {
  uint64_t addr = 0;
  uint16_t old_len = 0, new_len = 0;
};
bool ParseTextPoke(FieldReader& r, TextPokeRecord* out);

struct AuxRecord {
  uint64_t aux_offset = 0, aux_size = 0, flags = 0;
};
bool ParseAux(FieldReader& r, AuxRecord* out);

struct ItraceStartRecord {
  int32_t pid = 0, tid = 0;
  bool ok = false;
};
bool ParseItraceStart(FieldReader& r, ItraceStartRecord* out);

// HEADER_ATTR (pipe mode): a perf_event_attr of its declared size, then ids.
struct HeaderAttrRecord {
  PerfEventAttr attr;
  uint32_t declared_size = 0;  // attr.size as written (0 = VER0)
  uint64_t used_size = 0;      // bytes read as the attr
  bool size_past_record = false;  // declared_size is more than the record holds (VER0 was read;
                                  // the field view stops there instead)
  std::vector<uint64_t> ids;
};
bool ParseHeaderAttr(FieldReader& r, HeaderAttrRecord* out);

// HEADER_FEATURE (pipe mode): a feature id, then the feature section's bytes.
struct HeaderFeatureRecord {
  uint32_t feature = 0;  // ids past 2^32 clamp to UINT32_MAX (unknown)
  uint64_t raw_id = 0;
  ByteReader body;
};
bool ParseHeaderFeature(FieldReader& r, HeaderFeatureRecord* out);

// EVENT_UPDATE: the unit, scale, name or cpus of an event id.
struct EventUpdateRecord {
  uint64_t type = 0, id = 0;  // type 0 UNIT, 1 SCALE, 2 NAME, 3 CPUS
  std::string text;           // UNIT / NAME
  double scale = 0;
  bool scale_ok = false;
  std::vector<int> cpus;
  bool id_ok = false;
};
bool ParseEventUpdate(FieldReader& r, EventUpdateRecord* out);
// perf_record_cpu_map_data (CPU_MAP and EVENT_UPDATE CPUS): the CPUs listed.
std::vector<int> ParseCpuMapData(FieldReader& r);
// perf's cpu_map__snprint(): runs of consecutive CPUs as "a-b", comma separated.
std::string CpuListString(const std::vector<int>& cpus);

// TIME_CONV (see perf_jit.h TimeConv for what it is used for).
struct TimeConvRecord {
  uint64_t time_shift = 0, time_mult = 0, time_zero = 0;
  bool extended = false;  // perf 5.10+: the members below are there
  uint64_t time_cycles = 0, time_mask = 0;
  uint8_t cap_user_time_zero = 0, cap_user_time_short = 0;
  bool base_ok = false, extended_ok = false;
};
bool ParseTimeConv(FieldReader& r, TimeConvRecord* out);

// COMPRESSED (the rest is zstd data) and COMPRESSED2 (data_size, then the
// data, padded to 8 bytes).
struct CompressedRecord {
  uint64_t data_size = 0;
  uint64_t data_offset = 0;  // within the record, header included
  const uint8_t* data = nullptr;
  size_t data_len = 0;
};
bool ParseCompressed(FieldReader& r, uint32_t type, CompressedRecord* out);

}  // namespace profscope::perf
