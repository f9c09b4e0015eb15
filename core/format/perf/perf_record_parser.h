// The interpretation of perf records into the profile tables: COMM/FORK/EXIT
// into threads with names over time, MMAP/MMAP2 into each process's
// mappings over time, SAMPLE into samples with their stacks, HEADER_ATTR /
// HEADER_FEATURE / EVENT_UPDATE / TIME_CONV into the session, and a timeline
// marker for each record that explains a profile without being a sample.
//
// Records arrive through Record() (a RecordSink) in perf's time order:
// perf_ordered_events.h sits between the tokenizer and this sink (the record
// table, what the tokenizer adds, stays in file order).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/perf/perf_markers.h"
#include "core/format/perf/perf_session.h"
#include "core/format/perf/perf_stacks.h"
#include "core/format/perf/perf_unwind.h"
#include "core/format/perf/perf_zstd_stream.h"
#include "core/format/perf/simpleperf/simpleperf_split.h"
#include "core/io/keyed_hash.h"
#include "core/model/address_space.h"
#include "core/model/packed_column.h"
#include "core/model/row_estimate.h"
#include "core/model/thread_tracker.h"

namespace profscope::perf {

class PerfRecordParser : public RecordSink {
 public:
  PerfRecordParser(PerfSession& session, DecodeResult& out);
  // One record (header included); `row` is its record-table row (kNone for
  // simpleperf's INIT_MAP records).
  void Record(int32_t row, ByteReader rec) override;

  // ELF side files that unwind --call-graph dwarf samples (before the first record).
  void UseBinaries(const std::vector<SideFile>& files, symbols::SymbolStore* store) { unwind_.AddBinaries(files, store); }
  const PerfUnwind& unwind() const { return unwind_; }
  PerfUnwind& unwind() { return unwind_; }
  SplitJoiner& split() { return split_; }
  StackBuilder& stacks() { return stacks_.builder(); }
  // After the last record: markers get their thread rows, waiting SPLIT pieces are reported.
  void Finish();
  // Frees the caches once no sample can follow.
  void Release() { stacks_.Release(); }
  void ForgetFrames() { stacks_.ForgetFrames(); }
  const std::vector<uint8_t>& unwound_frames() const { return stacks_.unwound_frames(); }
  const std::vector<uint8_t>& address_named_funcs() const { return stacks_.address_named_funcs(); }
  // Per sample (sample-table order), its thread's comm when it was
  // interpreted (string id; kNone: perf names the thread ":tid"). Packed: a thread's samples mostly come
  // in stretches with one name (no room per row while they form runs).
  PackedColumn<int32_t>& sample_comms() { return sample_comm_; }
  // Mapping row -> perf's DSO path where it is not the mapping's own
  // (/tmp/perf-PID.map for anonymous executable memory); kNone or past the end: its path.
  const std::vector<int32_t>& dso_paths() const { return dso_path_; }
  // The samples (in order) whose callchain perf shows empty (PerfStacks::last_chain_empty).
  std::vector<uint32_t>& empty_chain_samples() { return empty_chain_; }

 private:
  // Where and when the record happened, from its sample_id trailer.
  RecordWhen When(ByteReader rec, uint32_t type) const;
  void Sample(ByteReader rec, int32_t row);
  // Before the sample table grows, and each time its rows double from 4096: room for the rows the file will
  // hold, extrapolated from how far into it this record is (RowsToReserve), for the samples and the records.
  void ReserveRows(int32_t row);
  EstimateRows reestimate_;
  void Overrun(ByteReader rec, const char* what);
  void Mmap(ByteReader rec, FieldReader& r, uint32_t type, uint16_t misc, int32_t row, const RecordWhen& when);
  // The BUILD_ID feature's build-id of a mapped file ("" when none): by name; the kernel map and
  // modules also by perf's DSO name ("[kernel.kallsyms]", "[ext4]").
  std::string FeatureBuildId(const std::string& filename, bool kernel_space) const;
  void Comm(ByteReader rec, FieldReader& r, uint16_t misc, int32_t row, const RecordWhen& when);
  void Task(ByteReader rec, FieldReader& r, uint32_t type, uint16_t misc, int32_t row, const RecordWhen& when);
  void HeaderAttr(ByteReader rec, FieldReader& r, int32_t row);
  void TimeConv(ByteReader rec, FieldReader& r, int32_t row);
  // Fills read_samples_ (the samples a PERF_SAMPLE_READ sample becomes); false: keep it as recorded.
  bool DeliverRead(ByteReader rec);
  // Records that only become markers (LOST, THROTTLE, SWITCH, KSYMBOL, ...).
  void MarkerOnly(FieldReader& r, uint32_t type, uint16_t misc, int32_t row, const RecordWhen& when);
  void Other(ByteReader rec, uint32_t type);

  PerfSession& session_;
  DecodeResult& out_;
  ThreadTracker threads_;
  AddressSpaces spaces_;
  PerfStacks stacks_;
  PerfUnwind unwind_;
  bool arch_set_ = false;
  bool simpleperf_ = false;  // a simpleperf recording (its register numbering, its unwinding)
  PerfMarkers markers_;
  SplitJoiner split_;
  SampleData sample_;  // scratch
  PackedColumn<int32_t> sample_comm_;
  std::vector<int32_t> dso_path_;
  std::vector<uint32_t> empty_chain_;
  // PERF_SAMPLE_READ: each event id's last counter value; values whose id names no event.
  std::unordered_map<uint64_t, uint64_t, KeyedIntHash> read_last_;
  std::vector<std::pair<const PerfSession::AttrInfo*, uint64_t>> read_samples_;
  uint64_t unknown_read_ids_ = 0, first_unknown_read_ = 0;
  bool have_time_ = false;
};

}  // namespace profscope::perf
