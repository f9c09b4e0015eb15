// Feature sections of perf.data: the optional sections after the data
// section, one per set bit of the header's 256-bit feature bitmap (in pipe
// mode each arrives as the payload of a PERF_RECORD_HEADER_FEATURE record,
// same bytes). Layouts follow perf's tools/perf/util/header.c (write_* /
// process_* for each feature) and trace-event-read.c for TRACING_DATA.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/diag/diagnostics.h"
#include "core/format/perf/perf_attr.h"
#include "core/format/perf/simpleperf/simpleperf_features.h"
#include "core/io/byte_reader.h"
#include "core/model/fields.h"

namespace profscope::perf {

// Newer perf (2025) added CPU_DOMAIN_INFO as bit 32; perf 6.x before it uses
// a HEADER_FEATURE record with id 32 (then HEADER_LAST_FEATURE) and an empty
// payload to mark the end of the features in pipe mode.
inline constexpr uint32_t kCpuDomainInfoFeatureId = 32;

// What the rest of the decoder (and a summary view) wants to know from the
// feature sections. Each DecodeFeature call replaces the parts its feature
// owns (decoding a feature twice does not duplicate list entries).
struct FeatureContext {
  std::string hostname, os_release, version, arch, cpudesc, cpuid, cmdline;
  std::vector<std::string> cmdline_argv;           // CMDLINE, one entry per argument
  uint32_t nr_cpus_online = 0, nr_cpus_available = 0;
  uint64_t total_mem = 0;                          // kB, as /proc/meminfo says

  struct EventDesc { std::string name; std::vector<uint64_t> ids; PerfEventAttr attr; };
  std::vector<EventDesc> event_desc;

  struct BuildId { int32_t pid; std::string build_id_hex; std::string filename; uint16_t misc; };
  std::vector<BuildId> build_ids;

  int32_t clockid = -1; uint64_t clock_ns_res = 0;  // CLOCK_DATA / CLOCKID
  uint64_t clock_tod_ns = 0, clock_clockid_ns = 0;  // CLOCK_DATA reference times
  bool has_clock_data = false;

  uint64_t sample_time_first = 0, sample_time_last = 0; bool has_sample_time = false;

  // TRACING_DATA
  std::vector<std::string> tracepoint_formats;     // "system:event" of each format text found
  std::map<uint64_t, std::string> tracepoint_ids;   // format ID (= attr.config of a tracepoint) -> "system:event"
  std::string tracing_version;                      // "0.6"
  bool has_tracing_data = false;

  // CPU_TOPOLOGY
  std::vector<std::string> sibling_sockets, sibling_dies, sibling_threads;
  struct CpuTopo { uint32_t core_id = 0, socket_id = 0, die_id = 0; };
  std::vector<CpuTopo> cpus;                        // per CPU, empty when not recorded
  bool has_die_ids = false;

  struct NumaNode { uint32_t node; uint64_t mem_total_kb, mem_free_kb; std::string cpus; };
  std::vector<NumaNode> numa_nodes;

  std::vector<std::pair<uint32_t, std::string>> pmu_mappings;  // type, name

  struct GroupDesc { std::string name; uint32_t leader_idx, nr_members; };
  std::vector<GroupDesc> groups;

  struct AuxtraceIndexEntry { uint64_t file_offset, size; };
  std::vector<AuxtraceIndexEntry> auxtrace_index;
  bool has_auxtrace = false, has_stat = false, has_branch_stack = false;

  struct Cache { uint32_t level, line_size, sets, ways; std::string type, size, map; };
  std::vector<Cache> caches;

  struct MemNode { uint64_t node, size_bits; std::string blocks; };  // blocks: "0-23,32-199"
  uint64_t memory_block_size = 0;
  std::vector<MemNode> memory_nodes;

  uint64_t dir_format_version = 0;

  uint32_t bpf_prog_count = 0, bpf_btf_count = 0;

  bool has_compressed = false;
  uint32_t comp_ver = 0, comp_type = 0, comp_level = 0, comp_ratio = 0, comp_mmap_len = 0;

  std::vector<std::string> cpu_pmu_caps;            // "name=value"
  struct PmuCaps { std::string pmu; std::vector<std::string> caps; };
  std::vector<PmuCaps> pmu_caps;

  struct HybridNode { std::string pmu, cpus; };
  std::vector<HybridNode> hybrid_nodes;

  std::vector<uint32_t> unknown_features;           // ids decoded as opaque blobs with a warning

  SimpleperfInfo simpleperf;                        // simpleperf's 128+ sections (simpleperf_features.h)
};

// Decodes one feature section (the reader covers exactly the section,
// base() = its absolute offset). Appends one top-level Field named after the
// feature (children = its parts, each with absolute offset and size) to
// `out` and fills `ctx`. Never reads outside `r`; malformed data gives a
// diagnostic (kBadFeature / kBadString / kUnknownFeature) and whatever could
// be decoded up to the damage.
void DecodeFeature(uint32_t feature_id, ByteReader r, FeatureContext& ctx, FieldList& out,
                   Diagnostics& diags);

}  // namespace profscope::perf
