// Shared by every fuzz target: one input = one file handed to profscope::Session (perf_dir_fuzz: a
// perf --threads recording's files),
// as the CLI and the web worker do (whole, or in steps as the worker decodes). Detection picks the decoder; each target is
// seeded with one format's test files (fuzz/run.sh), so it mostly explores that
// decoder. Every text the CLI can print (`script` too), the fields of every record row and
// the page's call trees (plain and inverted) are produced, every export written and the
// profile diffed with itself. Any crash, sanitizer report, leak, >1 GiB allocation or timeout is a bug.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/api/compare.h"
#include "core/api/export/exporter.h"
#include "core/api/output_sink.h"
#include "core/api/session.h"
#include "core/io/byte_source.h"

// Decodes the session (whole or in steps, as `mode` says) and asks it everything the shells ask.
inline void DriveSession(profscope::Session& s, uint8_t mode) {
  // Half the inputs decode in steps as the page's worker does (pausing every 64 bytes of records,
  // resumed; some stopped after a few pauses, keeping what was read), chosen by `mode`.
  bool ok;
  if (mode & 1) {
    int stop_after = (mode & 2) ? (mode >> 2) % 8 : -1;
    auto state = s.DecodeStart(nullptr, [](uint64_t, uint8_t) { return true; }, 64);
    while (state == profscope::Session::DecodeState::kPaused) {
      if (stop_after-- == 0) {
        s.DecodeStop();
        break;
      }
      state = s.DecodeResume();
    }
    ok = s.DecodeOk();
  } else {
    ok = s.Decode();
  }
  std::string sink = s.InfoJson();
  if (ok) {
    sink += s.RecordsText();
    sink += s.StacksText(false, "");
    sink += s.StacksText(true, "");
    sink += s.EventsText();
    sink += s.SummaryJson();
    sink += s.ThreadsJson();
    sink += s.MappingsJson();
    sink += s.EventsJson();
    const auto rows = static_cast<int32_t>(s.result().records.rows());
    for (int32_t r = 0; r < rows; ++r) {
      sink += s.RecordLabel(r);
      sink += s.RecordFieldsJson(r);
    }
    profscope::AnalysisOptions o;
    sink += std::to_string(s.Analyze(o).size());
    o.invert = true;
    sink += std::to_string(s.Analyze(o).size());
    // the views built stage by stage from the stacks' trie (core/analysis/call_tree.cc)
    o = {};
    o.transforms = {{profscope::AnalysisTransform::Type::kCollapseRecursion, 0, {}, ""},
                    {profscope::AnalysisTransform::Type::kFocusFunction, 1, {}, ""}};
    o.sandwich = profscope::AnalysisOptions::Sandwich::kCallers;
    o.sandwich_func = 0;
    sink += std::to_string(s.Analyze(o).size());
    o.sandwich = profscope::AnalysisOptions::Sandwich::kCallees;
    sink += std::to_string(s.Analyze(o).size());
    // every export (the writers trust no table: ids, times, counts come from the file)
    for (const char* f : {"folded", "speedscope", "gecko", "pprof", "chrome"}) {
      for (const char* w : {"samples", "period", "time"}) {
        profscope::exporter::Output out = profscope::exporter::ExportByName(s.result(), f, w, "");
        sink += out.error;
        sink.append(out.bytes, 0, 16);
      }
    }
    sink += profscope::DiffCommand(s.result(), s.result(), "", true).text;
    // perf script's text (tracepoint payloads through libtraceevent, from the file's TRACING_DATA)
    {
      profscope::StringSink script(sink);
      s.WriteScript(script);
    }
    // the flame chart's: lanes, and the rows of exact calls with their boxes over the whole span and a
    // slice of it (the page asks for them as its view changes)
    const profscope::SampleLanes lanes = s.Lanes(false);
    sink += std::to_string(lanes.samples.size() + s.Lanes(true).samples.size());
    const profscope::IntervalRows& flame_rows = s.FlameRows();
    {
      // the lanes and rows made from the calls' nesting (an XRay log's) are the sorted ones
      const profscope::Profile& p = s.result().profile;
      const profscope::SampleLanes sorted =
          profscope::OrderLanes(p.samples.thread, static_cast<int32_t>(p.threads.size()), p.samples.time, s.TimeOrigin());
      const profscope::IntervalRows checked = profscope::OrderIntervalRows(s.Calls(), s.TimeOrigin());
      if (sorted.samples != lanes.samples || sorted.start != lanes.start || checked.order != flame_rows.order || checked.first != flame_rows.first)
        __builtin_trap();
    }
    const auto span = s.IntervalSpan();
    std::vector<int32_t> which;
    for (int32_t r = -1; r <= static_cast<int32_t>(flame_rows.thread.size()) && which.size() < 4096; ++r) which.push_back(r);
    for (const int32_t cols : {1, 977}) {
      sink += std::to_string(s.FlameBoxes(which, 1.0, span.first, span.second + 1, cols).row.size());
      sink += std::to_string(s.FlameBoxes(which, 2.5, span.first * 2.5 + 7, (span.first + span.second) * 1.25, cols).row.size());
    }
    // the record tree's: its index and the table's composition; the totals and CPUs the page shows
    const profscope::RecordIndex index = s.BuildRecordIndex();
    sink += std::to_string(index.kids.size() + index.kids_start.size() + index.leaf_order.size() + index.leaf_max_end.size() + index.containers.size());
    sink += std::to_string(s.RecordComposition().size() + s.ListRecordTypes().first.size() + s.EventTotals().size() + s.CpuRows().size());
    sink += s.AccountJson();
  }
  sink += s.DiagnosticsJson();
}

#ifndef PROFSCOPE_FUZZ_OWN_INPUT
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  profscope::MemorySource src(data, size);
  profscope::Session s(src, "fuzz.data");
  DriveSession(s, size ? data[size - 1] : 0);  // (the last byte chooses the steps)
  return 0;
}
#endif
