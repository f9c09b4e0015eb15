#include "core/format/xray/xray_calls.h"

#include <algorithm>
#include <map>
#include <new>
#include <unordered_map>

#include "core/format/xray/xray_format.h"
#include "core/io/keyed_hash.h"
#include "core/model/min_heap.h"
#include "core/model/thread_tracker.h"

namespace profscope::xray {

// (the runs of non-decreasing times merged pairwise in place, a pass over the order per halving of their
// number; std::inplace_merge borrows a buffer of the shorter run: at most half the order, as a stable sort's)
std::vector<uint32_t> TimeOrder(const std::vector<uint64_t>& t) {
  const size_t n = t.size();
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  std::vector<size_t> bounds{0};
  for (size_t i = 1; i < n; ++i)
    if (t[i] < t[i - 1]) bounds.push_back(i);
  bounds.push_back(n);
  const auto at = [&](size_t k) { return order.begin() + static_cast<std::ptrdiff_t>(k); };
  while (bounds.size() > 2) {
    std::vector<size_t> next{0};
    for (size_t j = 0; j + 1 < bounds.size(); j += 2) {
      if (j + 2 == bounds.size()) {  // an odd run left over
        next.push_back(bounds[j + 1]);
        break;
      }
      // (stable: among equal times the first run's come first)
      std::inplace_merge(at(bounds[j]), at(bounds[j + 1]), at(bounds[j + 2]), [&](uint32_t a, uint32_t b) { return t[a] < t[b]; });
      next.push_back(bounds[j + 2]);
    }
    bounds.swap(next);
  }
  return order;
}

TimeMerge::TimeMerge(const CallLog& log) : log_(log) {
  const size_t n = log.size();
  const size_t most = 64 + n / 32;  // segments past this many: the whole order is then about as small
  // The segments: the log cut where a time is below the one before it.
  CallLog::Reader rd(log);
  uint64_t prev = 0;
  for (size_t i = 0; i < n && segs_.size() <= most; ++i) {
    const CallLog::Call c = rd.Next();
    if (i == 0 || c.tsc < prev) {
      if (!segs_.empty()) {
        segs_.back().end = static_cast<uint32_t>(i);
        segs_.back().last = prev;
      }
      segs_.push_back(Segment{rd, c.tsc, prev, static_cast<uint32_t>(i), static_cast<uint32_t>(n), kNoSegment, c.action});
    }
    prev = c.tsc;
  }
  if (!segs_.empty()) segs_.back().last = prev;
  if (segs_.size() > most) {
    std::vector<Segment>().swap(segs_);
    tsc_.reserve(n);
    action_.reserve(n);
    CallLog::Reader all(log);
    for (size_t i = 0; i < n; ++i) {
      const CallLog::Call c = all.Next();
      tsc_.push_back(c.tsc);
      action_.push_back(c.action);
    }
    order_ = TimeOrder(tsc_);
    return;
  }
  // Each segment, in file order, goes on after the chain whose last time is the latest one not after its
  // first time, else starts a chain: a chain's records are then in (time, file order), as the merge yields
  // them, and the chains are few (a thread's buffers follow each other in time: about a chain a thread).
  std::multimap<uint64_t, uint32_t> tails;  // a chain's last time -> its cursor
  std::vector<uint32_t> tail_seg;           // a cursor's last segment
  for (uint32_t k = 0; k < segs_.size(); ++k) {
    const Segment& g = segs_[k];
    auto it = tails.upper_bound(g.tsc);
    uint32_t cur;
    if (it != tails.begin()) {
      --it;
      cur = it->second;
      segs_[tail_seg[cur]].next = k;
      tail_seg[cur] = k;
      tails.erase(it);
    } else {
      cur = static_cast<uint32_t>(cursors_.size());
      const size_t run = log.RunOf(g.begin);
      cursors_.push_back(Cursor{g.rd, g.action, g.end, static_cast<uint32_t>(run), static_cast<uint32_t>(log.RunEnd(run)), 0, k});
      heap_.push_back(Key{g.tsc, g.begin, cur});
      tail_seg.push_back(k);
    }
    tails.emplace(g.last, cur);
  }
  merged_ = true;
  MakeHeap(heap_, Before{});  // (the chains' keys)
}

bool TimeMerge::Next(Item* out) {
  if (!merged_) {
    if (next_ >= order_.size()) return false;
    const uint32_t i = order_[next_++];
    *out = Item{i, tsc_[i], action_[i], static_cast<uint32_t>(log_.RunOf(i)), log_.row[i]};
    return true;
  }
  if (heap_.empty()) return false;
  Key& top = heap_[0];
  Cursor& cur = cursors_[top.cursor];
  *out = Item{top.index, top.tsc, cur.action, cur.run, log_.row.At(top.index, &cur.row_run)};
  if (top.index + 1 < cur.end) {
    const CallLog::Call c = cur.rd.Next();
    top.tsc = c.tsc;
    if (++top.index == cur.run_end) {
      ++cur.run;
      cur.run_end = static_cast<uint32_t>(log_.RunEnd(cur.run));
    }
    cur.action = c.action;
  } else if (segs_[cur.seg].next != kNoSegment) {  // on to the chain's next segment
    cur.seg = segs_[cur.seg].next;
    const Segment& g = segs_[cur.seg];
    cur.rd = g.rd;
    cur.action = g.action;
    cur.end = g.end;
    cur.run = static_cast<uint32_t>(log_.RunOf(g.begin));
    cur.run_end = static_cast<uint32_t>(log_.RunEnd(cur.run));
    top.tsc = g.tsc;
    top.index = g.begin;
  } else {  // this chain is done
    top = heap_.back();
    heap_.pop_back();
    if (heap_.empty()) return true;
  }
  SiftDown(heap_, 0, Before{});
  return true;
}

void BuildCalls(const XRayLog& log, const XRayFunctionMap& names, DecodeResult& out) {
  Profile& p = out.profile;
  StackBuilder sb(p);
  ThreadTracker threads(p);
  // A thread's row, made (spanning `tsc`) the first time its tid shows.
  auto thread_of_tid = [&](uint32_t tid, uint32_t pid, uint64_t tsc) {
    int32_t row = threads.Find(static_cast<int32_t>(tid));
    if (row != kNone) return row;
    row = threads.Row(static_cast<int32_t>(tid), static_cast<int32_t>(pid), tsc);
    threads.Cover(row, tsc);
    return row;
  };
  p.events.name.push_back(p.strings.Intern("calls"));
  p.events.samples.push_back(0);
  // llvm-xray stack processes the records sorted by TSC (stable): merged from the runs already in order.
  const CallLog& calls = log.calls;
  // Frames: one per thread root ("thread_TID") and one per function id (by id while the ids are few
  // enough for an array, a program's are; else hashed).
  std::vector<int32_t> frame_by_id(calls.func.most() < (1u << 20) ? calls.func.most() + 1 : 0, kNone);
  std::unordered_map<int32_t, int32_t, KeyedIntHash> func_frame;
  auto frame_of = [&](int32_t id) {
    const auto u = static_cast<uint32_t>(id);
    if (u < frame_by_id.size() && frame_by_id[u] != kNone) return frame_by_id[u];
    if (u >= frame_by_id.size()) {
      auto it = func_frame.find(id);
      if (it != func_frame.end()) return it->second;
    }
    int32_t fn = sb.Func(p.strings.Intern(names.Name(id)), kNone);
    int32_t fr = sb.Frame(names.Address(id), fn, kNone);
    if (u < frame_by_id.size()) frame_by_id[u] = fr;
    else func_frame[id] = fr;
    return fr;
  };
  TimeMerge order(calls);
  // A sample per entry that exits: room for them at once.
  const size_t entries = calls.entries();
  try {  // (as in ReadXRayLog: without the room, the tables grow as they fill)
    p.samples.Reserve(p.samples.size() + entries);
  } catch (const std::bad_alloc&) {
  }
  // A call that exits is one sample and one interval: the interval is read from the sample
  // (IntervalView), not kept twice. Only the calls that never exit are kept as intervals.
  const bool from_samples = p.samples.size() == 0 && p.intervals.size() == 0;
  struct Open { int32_t stack; int32_t func; uint64_t tsc; int32_t row; };
  struct ThreadState { std::vector<Open> stack; bool last_exit = false; int32_t root = kNone; uint64_t last_tsc = 0; };
  std::unordered_map<uint32_t, ThreadState, KeyedIntHash> states;
  uint64_t repaired = 0;
  auto add_sample = [&](int32_t thread, const Open& o, uint64_t end) {
    p.samples.time.push_back(o.tsc);
    p.samples.thread.push_back(thread);
    p.samples.cpu.push_back(kNone);
    p.samples.event.push_back(0);
    p.samples.weight.push_back(end >= o.tsc ? end - o.tsc : o.tsc - end);
    p.samples.stack.push_back(o.stack);
    p.samples.record.push_back(o.row);
    p.events.samples[0]++;
    threads.AddSamples(thread);
  };
  auto add_interval = [&](int32_t thread, const Open& o, uint64_t end, int32_t depth) {
    p.intervals.thread.push_back(thread);
    p.intervals.func.push_back(p.frames.func[static_cast<size_t>(frame_of(o.func))]);
    p.intervals.start.push_back(o.tsc);
    p.intervals.end.push_back(end);
    p.intervals.depth.push_back(depth);
    p.intervals.record.push_back(o.row);
  };
  struct Event { uint32_t tid; uint32_t pid; int32_t func; uint64_t tsc; int32_t row; };
  // Each run's thread row and state, looked up the first time the run shows (records of a few threads
  // interleave in time).
  std::vector<int32_t> run_thread(calls.runs.size(), kNone);
  std::vector<ThreadState*> run_state(calls.runs.size(), nullptr);
  size_t events = 0;
  uint64_t lo = 0, hi = 0;  // the first and last time
  for (TimeMerge::Item item; order.Next(&item);) {
    const uint32_t idx = item.index;
    const CallLog::Run& r = calls.runs[item.run];
    const Event e{r.tid, r.pid, calls.Func(idx), item.tsc, item.row};
    if (events++ == 0) lo = e.tsc;
    hi = e.tsc;
    if (!run_state[item.run]) {
      run_thread[item.run] = threads.Row(static_cast<int32_t>(e.tid), static_cast<int32_t>(e.pid), e.tsc);
      run_state[item.run] = &states[e.tid];  // unordered_map: references stay valid
    }
    const int32_t th = run_thread[item.run];
    ThreadState& st = *run_state[item.run];
    if (st.root == kNone) {
      int32_t fn = sb.Func(p.strings.Intern("thread_" + Dec(e.tid)), kNone);
      st.root = sb.Stack(kNone, sb.Frame(0, fn, kNone));
    }
    threads.Cover(th, e.tsc);
    st.last_tsc = std::max(st.last_tsc, e.tsc);
    const auto at = [&]() -> uint64_t { return e.row >= 0 ? out.records.offset[static_cast<size_t>(e.row)] : 0; };  // (for a warning)
    if (IsEntry(item.action)) {
      st.last_exit = false;
      int32_t prefix = st.stack.empty() ? st.root : st.stack.back().stack;
      st.stack.push_back(Open{sb.Stack(prefix, frame_of(e.func)), e.func, e.tsc, e.row});
      continue;
    }
    bool was_exit = st.last_exit;
    st.last_exit = true;
    if (st.stack.empty()) {
      ++repaired;
      out.diags.Warning(DiagCode::kStackRepaired, at(), kFunctionRecordSize,
                        "exit of " + names.Name(e.func) + " on thread " + Dec(e.tid) +
                            " with no function on the stack: ignored (llvm-xray stack: entry not found)");
      continue;
    }
    size_t match = st.stack.size();
    for (size_t k = st.stack.size(); k-- > 0;)
      if (st.stack[k].func == e.func) { match = k; break; }
    size_t from = match;
    if (match == st.stack.size()) {
      from = 0;
      ++repaired;
      out.diags.Warning(DiagCode::kStackRepaired, at(), kFunctionRecordSize,
                        "exit of " + names.Name(e.func) + " on thread " + Dec(e.tid) + " matches no open call: the whole stack of " +
                            Dec(st.stack.size()) + " calls was closed here, as llvm-xray stack does");
    } else if (match + 1 != st.stack.size()) {
      ++repaired;
      out.diags.Warning(DiagCode::kStackRepaired, at(), kFunctionRecordSize,
                        "exit of " + names.Name(e.func) + " on thread " + Dec(e.tid) + " closes " +
                            Dec(st.stack.size() - match - 1) + " inner call(s) that never exited (a tail call or a lost exit)");
    }
    (void)was_exit;
    for (size_t k = from; k < st.stack.size(); ++k) {
      add_sample(th, st.stack[k], e.tsc);
      if (from_samples) p.intervals.from_samples = p.samples.size();  // (kept current: an allocation may fail)
      else add_interval(th, st.stack[k], e.tsc, static_cast<int32_t>(k));
    }
    st.stack.resize(from);
  }
  uint64_t open = 0;
  // The calls still open, thread by thread in tid order (the map's own order is its secret's).
  std::vector<std::pair<uint32_t, const ThreadState*>> by_tid;
  by_tid.reserve(states.size());
  for (const auto& [tid, st] : states)
    if (!st.stack.empty()) by_tid.emplace_back(tid, &st);
  std::sort(by_tid.begin(), by_tid.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [tid, stp] : by_tid) {
    const ThreadState& st = *stp;
    int32_t th = threads.Find(static_cast<int32_t>(tid));
    for (size_t k = 0; k < st.stack.size(); ++k) {
      add_interval(th, st.stack[k], st.last_tsc, static_cast<int32_t>(k));
      ++open;
    }
  }
  if (open)
    out.diags.Add(DiagCode::kStackRepaired, Severity::kInfo, 0, 0,
                  Dec(open) + " call(s) never exited before the log ended; their intervals end at the thread's last record");
  (void)repaired;
  // Markers, in time order (stable: file order among equal times).
  const std::vector<XRayMarker>& markers = log.markers;
  std::vector<size_t> morder(markers.size());
  for (size_t i = 0; i < morder.size(); ++i) morder[i] = i;
  std::stable_sort(morder.begin(), morder.end(), [&](size_t a, size_t b) { return markers[a].tsc < markers[b].tsc; });
  for (size_t idx : morder) {
    const XRayMarker& m = markers[idx];
    const char* kind = m.kind == kCustomEventMarker ? "custom event"
                       : m.kind == kTypedEventMarker ? "typed event"
                       : m.kind == kWalltimeMarker   ? "wall time"
                                                     : "cpu";
    p.markers.Add(m.tsc, p.strings.Intern(kind), thread_of_tid(m.tid, m.pid, m.tsc), m.cpu, p.strings.Intern(m.label), m.row);
  }
  if (events) {
    out.time_start = lo;
    out.time_end = hi;
  }
  out.facts.emplace_back("function records", Dec(calls.size()));
  out.facts.emplace_back("time unit", log.freq ? "TSC ticks (" + Dec(log.freq) + " per second)" : "TSC ticks");
}

uint32_t LoaderKeyHash(uint64_t pid, int32_t tid) {
  uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(pid * 37ULL)) << 32 | static_cast<uint32_t>(static_cast<uint32_t>(tid) * 37U);
  key += ~(key << 32);
  key ^= (key >> 22);
  key += ~(key << 13);
  key ^= (key >> 8);
  key += (key << 3);
  key ^= (key >> 15);
  key += ~(key << 27);
  key ^= (key >> 31);
  return static_cast<uint32_t>(key);
}

std::vector<uint32_t> LoaderOrder(const XRayLog& log, Diagnostics& diags) {
  const std::vector<CallLog::Run>& runs = log.calls.runs;
  const std::vector<XRayBlock>& blocks = log.blocks;
  std::vector<uint32_t> order;
  if (log.type != kFdrLog || blocks.empty()) {
    for (size_t r = 0; r < runs.size(); ++r) order.push_back(static_cast<uint32_t>(r));
    return order;
  }
  // LLVM's loader keeps FDR blocks in a DenseMap<pair<uint64_t pid, int32_t
  // tid>, blocks> and expands it in bucket order: the same hash (each half
  // times 37, then mixed), power-of-two tables of at least 64 buckets,
  // quadratic probing, growth at 3/4 full re-inserting in bucket order.
  std::vector<std::pair<uint64_t, int32_t>> keys;            // in first-flush order
  std::map<std::pair<uint64_t, int32_t>, std::vector<size_t>> key_blocks;
  for (size_t b = 0; b < blocks.size(); ++b) {
    auto k = std::make_pair(blocks[b].pid, blocks[b].tid);
    auto& v = key_blocks[k];
    if (v.empty()) keys.push_back(k);
    v.push_back(b);
  }
  std::vector<int32_t> table(64, -1);  // key index per bucket
  // Keys a file chose to share LLVM's (unkeyed) hash would probe the same buckets: a quadratic cost. The
  // probes are counted, and past a few dozen per key on average (random keys take one or two) the
  // emulation gives up: the keys are taken in the order they were first flushed.
  const uint64_t probe_budget = 32 * static_cast<uint64_t>(keys.size()) + 4096;
  uint64_t probes = 0;
  bool gave_up = false;  // (a key left unplaced)
  auto place = [&](std::vector<int32_t>& t, int32_t ki) {
    size_t mask = t.size() - 1;
    size_t at = LoaderKeyHash(keys[static_cast<size_t>(ki)].first, keys[static_cast<size_t>(ki)].second) & mask;
    for (size_t probe = 1; t[at] >= 0 && probes <= probe_budget; ++probe, ++probes) at = (at + probe) & mask;
    if (t[at] < 0) t[at] = ki;
    else gave_up = true;
  };
  size_t entries = 0;
  for (size_t ki = 0; ki < keys.size() && !gave_up; ++ki) {
    if ((entries + 1) * 4 >= table.size() * 3) {
      std::vector<int32_t> bigger(table.size() * 2, -1);
      for (int32_t k : table)
        if (k >= 0) place(bigger, k);
      table.swap(bigger);
    }
    place(table, static_cast<int32_t>(ki));
    ++entries;
  }
  if (gave_up) {
    diags.Warning(DiagCode::kLimitExceeded, 0, 0,
                  "the log's " + Dec(keys.size()) + " (pid, tid) pairs collide in llvm-xray's hash table beyond " + Dec(probe_budget) +
                      " probes: its loader's order of the threads is not reproduced; they are taken in the order their first "
                      "buffers were flushed (`llvm-xray account` may count differently)");
    table.resize(keys.size());
    for (size_t ki = 0; ki < keys.size(); ++ki) table[ki] = static_cast<int32_t>(ki);
  }
  // Each key's blocks sorted by wall time with LLVM's comparator (seconds and
  // micros both smaller), by insertion as libstdc++'s std::sort does for up to
  // 16 elements. (That comparator is no strict weak order, so for longer runs
  // std::sort's result is its implementation's accident: there, and to stay
  // O(n log n), blocks are stably sorted by (seconds, micros) instead.)
  auto before = [&](size_t a, size_t b) {
    return blocks[a].seconds < blocks[b].seconds && blocks[a].micros < blocks[b].micros;
  };
  std::vector<std::vector<uint32_t>> block_runs(blocks.size());
  for (size_t r = 0; r < runs.size(); ++r)
    if (runs[r].block >= 0) block_runs[static_cast<size_t>(runs[r].block)].push_back(static_cast<uint32_t>(r));
  for (int32_t ki : table) {
    if (ki < 0) continue;
    std::vector<size_t> bl = key_blocks[keys[static_cast<size_t>(ki)]];
    if (bl.size() > 16)
      std::stable_sort(bl.begin(), bl.end(), [&](size_t a, size_t b) {
        return std::make_pair(blocks[a].seconds, blocks[a].micros) < std::make_pair(blocks[b].seconds, blocks[b].micros);
      });
    for (size_t i = 1; bl.size() <= 16 && i < bl.size(); ++i) {
      size_t v = bl[i];
      if (before(v, bl[0])) {
        std::move_backward(bl.begin(), bl.begin() + static_cast<long>(i), bl.begin() + static_cast<long>(i) + 1);
        bl[0] = v;
        continue;
      }
      size_t j = i;
      while (j > 0 && before(v, bl[j - 1])) {
        bl[j] = bl[j - 1];
        --j;
      }
      bl[j] = v;
    }
    for (size_t b : bl)
      for (uint32_t r : block_runs[b]) order.push_back(r);
  }
  return order;
}

}  // namespace profscope::xray
