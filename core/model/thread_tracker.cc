#include "core/model/thread_tracker.h"

namespace profscope {

ThreadTracker::ThreadTracker(Profile& p) : p_(p), t_(p.threads) {
  for (size_t i = 0; i < t_.size(); ++i) rows_.emplace(t_.tid[i], static_cast<int32_t>(i));
}

int32_t ThreadTracker::Find(int32_t tid) const {
  auto it = rows_.find(tid);
  return it == rows_.end() ? kNone : it->second;
}

int32_t ThreadTracker::Row(int32_t tid, int32_t pid, uint64_t time) {
  Recent& r = recent_[static_cast<uint32_t>(tid) & 63];
  if (r.row != kNone && r.tid == tid) return r.row;
  // (find first: emplace makes and frees a node when the thread is known, as it mostly is)
  if (auto known = rows_.find(tid); known != rows_.end()) {
    r = Recent{tid, known->second};
    return known->second;
  }
  auto [it, added] = rows_.emplace(tid, static_cast<int32_t>(t_.size()));
  if (!added) return it->second;
  r = Recent{tid, it->second};
  t_.tid.push_back(tid);
  t_.pid.push_back(pid);
  t_.name.push_back(kNone);
  t_.start.push_back(time);
  t_.end.push_back(0);
  t_.samples.push_back(0);
  return it->second;
}

int32_t ThreadTracker::Seen(int32_t pid, int32_t tid, uint64_t time) {
  const size_t before = t_.size();
  int32_t row = Row(tid, pid, time);
  if (t_.size() != before) return row;
  size_t r = static_cast<size_t>(row);
  if (pid != -1 && t_.pid[r] == -1) t_.pid[r] = pid;
  if (time && (t_.start[r] == 0 || time < t_.start[r])) t_.start[r] = time;
  return row;
}

void ThreadTracker::StartBy(int32_t row, uint64_t time) {
  uint64_t& s = t_.start[static_cast<size_t>(row)];
  if (time < s) s = time;
}

void ThreadTracker::Cover(int32_t row, uint64_t time) {
  size_t r = static_cast<size_t>(row);
  if (time < t_.start[r]) t_.start[r] = time;
  if (time > t_.end[r]) t_.end[r] = time;
}

void ThreadTracker::End(int32_t row, uint64_t time) { t_.end[static_cast<size_t>(row)] = time; }

void ThreadTracker::Name(int32_t row, uint64_t time, int32_t name) {
  t_.name[static_cast<size_t>(row)] = name;
  p_.thread_names.thread.push_back(row);
  p_.thread_names.time.push_back(time);
  p_.thread_names.name.push_back(name);
}

void ThreadTracker::AddSamples(int32_t row, uint32_t n) { t_.samples[static_cast<size_t>(row)] += n; }

}  // namespace profscope
