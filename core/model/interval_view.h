// Reads a profile's intervals (Profile::intervals), whether kept in their
// columns or made from the samples of the same rows (IntervalTable::
// from_samples): XRay keeps a call that exited once, as its sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/model/profile.h"

namespace profscope {

class IntervalView {
 public:
  explicit IntervalView(const Profile& p);
  size_t size() const { return p_.intervals.size(); }
  // (reads that mostly go forward cost no search when the samples' threads are runs)
  int32_t thread(size_t i) const { return i < from_ ? rows_.thread(i) : p_.intervals.thread[i - from_]; }
  int32_t func(size_t i) const;
  uint64_t start(size_t i) const { return i < from_ ? p_.samples.time[i] : p_.intervals.start[i - from_]; }
  uint64_t end(size_t i) const {
    if (i >= from_) return p_.intervals.end[i - from_];
    const uint64_t t = p_.samples.time[i], d = p_.samples.weight[i];
    return d > UINT64_MAX - t ? UINT64_MAX : t + d;
  }
  int32_t depth(size_t i) const {
    if (i >= from_) return p_.intervals.depth[i - from_];
    const int32_t s = rows_.stack(i);
    // the call's own frame is one below the thread's root: depth 0 for the outermost call
    return s >= 0 && static_cast<size_t>(s) < stack_depth_.size() ? stack_depth_[static_cast<size_t>(s)] - 1 : 0;
  }
  int32_t record(size_t i) const { return i < from_ ? rows_.record(i) : p_.intervals.record[i - from_]; }
  // f(start, end) of every interval in order, the samples' weights read a run or a plain stretch at a time
  // (not a look-up a row).
  template <typename F>
  void ForEachSpan(F f) const {
    size_t i = 0;
    if (from_ > 0)
      p_.samples.weight.ForEach([&](uint64_t d) {
        if (i >= from_) return;
        const uint64_t t = p_.samples.time[i++];
        f(t, d > UINT64_MAX - t ? UINT64_MAX : t + d);
      });
    for (size_t k = 0; k + from_ < size(); ++k) f(p_.intervals.start[k], p_.intervals.end[k]);
  }
  // The interval of sample i, when the intervals are made from the samples (else kNone).
  int32_t OfSample(size_t i) const { return i < from_ ? static_cast<int32_t>(i) : kNone; }
  // How many of the first calls are the samples of the same rows (0 when the intervals are kept apart).
  size_t from_samples() const { return from_; }

 private:
  const Profile& p_;
  size_t from_;
  std::vector<int32_t> stack_depth_;  // per stack: frames below the root (the root's is 0); made when from_ > 0
  mutable SampleCursor rows_{p_.samples};  // (safe while the core has no threads)
};

}  // namespace profscope
