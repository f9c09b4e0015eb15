// Cuts a perf.data file into the record table: the file header, the attrs
// (with their ids), the old event_types section, the data section's records
// (and the payloads that follow AUXTRACE / HEADER_TRACING_DATA), the records
// inside COMPRESSED containers and the feature sections; pipe mode (the
// header, then records only) and the data.N files of perf record --threads.
// A record whose size is below 8 is resynchronised past (the next offset
// where two consecutive plausible headers start). Each record is handed, with
// its row, to a RecordSink (the interpretation); the tokenizer itself only
// reads what it needs to cut: the header, the attrs and the feature sections
// (event names, tracing formats), which it puts into the PerfSession.
// Layout: perf's tools/perf/util/header.c (perf_session__read_header,
// perf_file_section) and session.c (reader loop, user event payloads).
#pragma once

#include <cstdint>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/perf/perf_session.h"
#include "core/format/perf/perf_zstd_stream.h"
#include "core/format/perf/simpleperf/simpleperf_split.h"

namespace profscope::perf {

class PerfTokenizer : private RecordSink {
 public:
  PerfTokenizer(PerfSession& session, DecodeResult& out, RecordSink& sink, SplitJoiner& split)
      : session_(session), out_(out), sink_(sink), split_(split) {}

  // The main file (its byte order and mode are in the session already).
  bool File(Window& w, const ProgressFn& progress);
  bool Pipe(Window& w, const ProgressFn& progress);
  // A data.N file of a perf --threads directory: records only, no header.
  void DataFile(Window& w, uint8_t file_index, const ProgressFn& progress);

  // Pausing between top-level records (see PauseFn): File, Pipe or DataFile
  // return early with paused() true; Resume goes on from there, Stop ends that
  // file there (a diagnostic says where; the feature rows are still listed).
  void SetPause(PauseFn pause, uint64_t every) { pause_.Set(std::move(pause), every); }
  bool paused() const { return paused_; }
  uint64_t paused_at() const { return resume_off_; }
  void Resume(Window& w, const ProgressFn& progress);
  void Stop(Window& w);

 private:
  struct Sec {  // a feature section: id, offset, size
    uint32_t id;
    uint64_t off, size;
  };
  // Decodes the feature sections into the session (and INIT_MAP's records when asked).
  void ReadFeatures(Window& w, const std::vector<Sec>& secs, bool with_init_map);
  // The records of [off, end), rows under `parent`.
  void Records(Window& w, uint64_t off, uint64_t end, int32_t parent, const ProgressFn& progress);
  // A record cut from the file or a container: interpreted, and a container's records cut in turn.
  void Record(int32_t row, ByteReader rec) override;
  void Progress(uint64_t off, const ProgressFn& progress);
  // True when the pause function asks to pause before the record at `off` (then saved to resume).
  bool PauseAt(uint64_t off, uint64_t end, int32_t parent);
  // The rows after the data section: the feature table and its sections.
  void FileEnd(Window& w);
  // What follows a file's records once they are all read (or stopped): a data.N
  // file's rows are over; the main file's feature rows (FileEnd).
  void AfterRecords(Window& w);

  PerfSession& session_;
  DecodeResult& out_;
  RecordSink& sink_;
  SplitJoiner& split_;
  ZstdStream zstd_;
  InitMap init_map_;
  uint64_t last_progress_ = 0;
  uint64_t total_ = 0;
  bool stopped_ = false;  // the memory budget was reached inside a container
  // What FileEnd lists (read by File before the data).
  std::vector<Sec> secs_;
  uint64_t feat_table_ = 0;
  bool data_ok_ = true;
  bool file_mode_ = false;
  uint8_t data_file_ = 0;  // the data.N file being read (0: the main file)
  // Pausing: between top-level records (of the main file and of data.N files).
  PauseCheck pause_;
  bool paused_ = false;
  uint64_t resume_off_ = 0, resume_end_ = 0;
  int32_t resume_parent_ = -1;
};

}  // namespace profscope::perf
