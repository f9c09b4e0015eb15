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
#include <memory>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/perf/perf_session.h"
#include "core/format/perf/perf_zstd_stream.h"
#include "core/format/perf/simpleperf/simpleperf_split.h"

#ifndef PROFSCOPE_PERF_DATA_TURN
#define PROFSCOPE_PERF_DATA_TURN (2u << 20)
#endif

namespace profscope::perf {

class PerfTokenizer : private RecordSink {
 public:
  PerfTokenizer(PerfSession& session, DecodeResult& out, RecordSink& sink, SplitJoiner& split)
      : session_(session), out_(out), sink_(sink), split_(split) {}

  // The main file (its byte order and mode are in the session already).
  bool File(Window& w, const ProgressFn& progress);
  bool Pipe(Window& w, const ProgressFn& progress);
  // The data.N files of a perf --threads directory (records only, no header;
  // files[k] is file k + 1), read as perf reads them (session.c,
  // __perf_session__process_dir_events): a turn of kDataTurn bytes from each
  // file in order, until all are read, so the records of about the same time
  // from every writer thread reach the ordered-events queue together (read one
  // file after the other, its bound would flush one file's records before the
  // others' of the same time: wrong thread names and stacks).
  void DataFiles(const std::vector<Window*>& files, const ProgressFn& progress);
  // perf's READER_MAX_SIZE: the bytes of one data file's turn (the fuzz build takes a few hundred,
  // so that its small inputs take turns too).
  static constexpr uint64_t kDataTurn = PROFSCOPE_PERF_DATA_TURN;

  // Pausing between top-level records (see PauseFn): File, Pipe or DataFiles
  // return early with paused() true; Resume goes on from there, Stop ends the
  // decode there (a diagnostic says where; the feature rows are still listed).
  // In the data files, Resume and Stop use the paused file's window, not `w`.
  void SetPause(PauseFn pause, uint64_t every) { pause_.Set(std::move(pause), every); }
  bool paused() const { return paused_; }
  uint64_t paused_at() const { return resume_off_; }
  uint8_t paused_file() const { return paused_ ? data_file_ : 0; }
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
  // What follows a file's records once they are all read (or stopped): the main file's feature rows (FileEnd).
  void AfterRecords(Window& w);
  // The data files' turns from turn_ on (a paused one first, when `resumed`), until all are read or one pauses.
  void Turns(const ProgressFn& progress, bool resumed);
  // Rows belong to the main file again.
  void LeaveDataFiles();

  PerfSession& session_;
  DecodeResult& out_;
  RecordSink& sink_;
  SplitJoiner& split_;
  ZstdStream main_zstd_;
  ZstdStream* zstd_ = &main_zstd_;  // the stream of the file being read (each data file's writer had its own)
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
  // The data files, each where its next turn starts.
  struct DataCursor {
    Window* w = nullptr;
    int32_t row = kNone;  // its data-section row
    uint64_t off = 0;
    bool done = false;
    std::unique_ptr<ZstdStream> zstd;
  };
  std::vector<DataCursor> data_;
  size_t turn_ = 0;                 // the data file whose turn it is
  uint64_t turn_end_ = UINT64_MAX;  // Records ends the turn before a record at or past it (turn_over_)
  bool turn_over_ = false;
  uint64_t turn_off_ = 0;           // where the ended turn's file goes on
  uint64_t read_before_ = 0;        // bytes read of the files other than the one in its turn (progress)
  // Pausing: between top-level records (of the main file and of data.N files).
  PauseCheck pause_;
  bool paused_ = false;
  uint64_t resume_off_ = 0, resume_end_ = 0;
  int32_t resume_parent_ = -1;
};

}  // namespace profscope::perf
