// A column of integers read by row and appended to at its end, held compactly.
//
// While its values form few runs of a constant step, it holds the runs (first row, first value, step): a
// data section's millions of records share one parent, an XRay log's 8-byte function records follow each
// other 8 bytes apart, a perf file's records are nearly all SAMPLEs. Once the runs would take more memory
// than the values, it holds the values, each in the narrowest width every value so far fits (a perf
// record's size fits 16 bits, an offset into a file under 4 GB 32 bits). A signed column holds v + 1, so that
// -1 (kNone) and small rows fit a narrow width (a profile's samples of a few hundred threads: 1 byte a row);
// a value below -1 widens it to its type's width.
//
// The runs are greedy, as web/src/lib/int-runs.js makes them: a run takes the step from its first value to
// its second and lasts while the step holds; for columns of 32 bits or less a step must fit the column's
// signed type, so int32 runs read the same in JavaScript (wasm/bindings.cc hands them over as they are).
// A value is read by a binary search over the runs, or in one pass with ForEach.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <new>
#include <type_traits>
#include <vector>

// push_back's common cases inline (gcc kept them out of line), its others not.
#if defined(__GNUC__)
#define PROFSCOPE_ALWAYS_INLINE __attribute__((always_inline))
#define PROFSCOPE_NOINLINE __attribute__((noinline))
#else
#define PROFSCOPE_ALWAYS_INLINE
#define PROFSCOPE_NOINLINE
#endif

namespace profscope {

// The capacity a column full at n rows grows to: doubling up to a million rows, then a quarter more. A
// WASM heap never gives memory back, so a doubling near the end of a large decode would keep room for twice
// the table (an XRay log's record table at the budget: 320 MB more).
inline size_t GrownCapacity(size_t n) { return n < (size_t{1} << 20) ? (n < 32 ? 64 : 2 * n) : n + n / 4; }

template <typename T>
class PackedColumn {
  static_assert(std::is_integral_v<T>, "PackedColumn holds integers");
  using U = std::make_unsigned_t<T>;
  using S = std::make_signed_t<T>;
  // A value or the next one of a run, exactly (a run never wraps around, as int-runs.js cannot read that).
  using N = std::conditional_t<(sizeof(T) <= 4), int64_t, __int128>;
  // What a plain value is stored as: v + kBias, as unsigned (signed: -1 is 0, 0 is 1, -2 is the largest).
  static constexpr U kBias = std::is_signed_v<T> ? 1 : 0;
  static U Key(T v) { return static_cast<U>(static_cast<U>(v) + kBias); }
  static T FromKey(uint64_t k) { return static_cast<T>(static_cast<U>(static_cast<U>(k) - kBias)); }

 public:
  using value_type = T;

  PackedColumn() = default;
  PackedColumn(std::initializer_list<T> values) {
    for (T v : values) push_back(v);
  }

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  bool is_runs() const { return width_ == 0; }
  size_t run_count() const { return starts_.size(); }
  // The largest value so far, as unsigned (0 when empty); of a signed column, the largest v + 1 as unsigned.
  U most() const { return most_; }
  // The bytes a plain value takes in a column whose largest value (as most() says) is `most`: the narrowest
  // of 1, 2, 4 and 8 that holds it.
  static int WidthFor(U most) {
    if (most <= 0xFF) return 1;
    if (sizeof(T) >= 2 && most <= 0xFFFF) return 2;
    if (sizeof(T) >= 4 && most <= 0xFFFFFFFFu) return 4;
    return sizeof(T);
  }

  // Appends v. Throws std::bad_alloc with the column unchanged.
  PROFSCOPE_ALWAYS_INLINE void push_back(T v) {
    const U u = Key(v);
    if (width_ == 0) {
      if (going_ && static_cast<N>(v) == next_ && ((n_ + 1) & kCheckEvery) != 0) {  // a run goes on: inline
        next_ += StepOf(steps_.size() - 1);
        ++n_;
        if (u > most_) most_ = u;
        return;
      }
    } else if (u <= fits_ && n_ < PlainCapacity()) {  // a plain value that fits where there is room: inline
      Store(u);
      if (u > most_) most_ = u;
      return;
    }
    PushSlow(v);
  }

  // Appends len values first, first + step, ... (as many push_backs would, wrapping as T): once the column's
  // last run goes on with this step, the rest of them in one go. Throws std::bad_alloc with the values
  // appended so far kept.
  void AppendRun(T first, T step, size_t len) {
    U x = static_cast<U>(first);
    const S ds = static_cast<S>(step);
    size_t k = 0;
    for (; k < len; ++k, x = static_cast<U>(x + static_cast<U>(step))) {
      if (width_ == 0 && going_ && k + 1 < len && StepOf(steps_.size() - 1) == static_cast<N>(ds) && static_cast<N>(static_cast<T>(x)) == next_) {
        // the rest lie on the run if they stay in T's range and on one side of -kBias (their largest key,
        // as most() says, is then one of the two ends)
        const N last = next_ + static_cast<N>(ds) * static_cast<N>(len - k - 1);
        const N lo = static_cast<N>(std::numeric_limits<T>::min()), hi = static_cast<N>(std::numeric_limits<T>::max());
        const N b = static_cast<N>(kBias);
        if (last >= lo && last <= hi && (next_ + b < 0) == (last + b < 0)) break;
      }
      push_back(static_cast<T>(x));
    }
    if (k == len) return;
    const size_t rest = len - k;
    const N last = next_ + static_cast<N>(ds) * static_cast<N>(rest - 1);
    const U a = Key(static_cast<T>(next_)), b = Key(static_cast<T>(last));
    most_ = std::max({most_, a, b});
    next_ = last + static_cast<N>(ds);
    n_ += rest;
    if (RunBytes() > PlainBytes(n_)) {
      try {
        ToPlain();
      } catch (const std::bad_alloc&) {  // (the runs stay: they hold every value)
      }
    }
  }

  // Drops the values from row n on (n <= size()): what a table does when a row was added to some of its
  // columns only.
  void truncate(size_t n) {
    if (n >= n_) return;
    if (width_ != 0) {
      switch (width_) {
        case 1: d8_.resize(n); break;
        case 2: d16_.resize(n); break;
        case 4: d32_.resize(n); break;
        default: d64_.resize(n); break;
      }
      n_ = n;
      return;
    }
    while (!starts_.empty() && starts_.back() >= n) {
      starts_.pop_back();
      firsts_.pop_back();
      steps_.pop_back();
    }
    n_ = n;
    going_ = !starts_.empty() && n_ - starts_.back() >= 2;
    if (going_) next_ = static_cast<N>(RunValue(starts_.size() - 1, n_ - 1)) + StepOf(starts_.size() - 1);
  }

  // The first row holding v, or size() when none.
  size_t find(T v) const {
    if (width_ != 0) {
      for (size_t i = 0; i < n_; ++i)
        if (Plain(i) == v) return i;
      return n_;
    }
    for (size_t r = 0; r < starts_.size(); ++r) {
      const size_t end = r + 1 < starts_.size() ? starts_[r + 1] : n_;
      const N d = static_cast<N>(v) - static_cast<N>(firsts_[r]), step = StepOf(r);
      if (d == 0) return starts_[r];
      if (step != 0 && d % step == 0 && d / step > 0 && d / step < static_cast<N>(end - starts_[r]))
        return starts_[r] + static_cast<size_t>(d / step);
    }
    return n_;
  }

  T operator[](size_t i) const {
    if (width_ == 0) {
      const size_t r = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), static_cast<uint32_t>(i)) - starts_.begin()) - 1;
      return RunValue(r, i);
    }
    return Plain(i);
  }
  T back() const { return (*this)[n_ - 1]; }
  // Value i, for reads that mostly go forward: `run` is the run the last read found (start it at 0), so a
  // read in the same run or the next one costs no search.
  T At(size_t i, size_t* run) const {
    if (width_ != 0) return Plain(i);
    size_t r = *run;
    const auto end_of = [&](size_t k) { return k + 1 < starts_.size() ? starts_[k + 1] : n_; };
    if (r >= starts_.size() || i < starts_[r]) {
      r = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), static_cast<uint32_t>(i)) - starts_.begin()) - 1;
    } else if (i >= end_of(r)) {
      if (i < end_of(r + 1)) ++r;
      else r = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), static_cast<uint32_t>(i)) - starts_.begin()) - 1;
    }
    *run = r;
    return RunValue(r, i);
  }

  // Values [from, from + n) into out (from + n <= size()): one search, then a loop a run or a plain stretch.
  void Read(size_t from, size_t n, T* out) const {
    if (width_ != 0) {
      switch (width_) {
        case 1: for (size_t i = 0; i < n; ++i) out[i] = FromKey(d8_[from + i]); break;
        case 2: for (size_t i = 0; i < n; ++i) out[i] = FromKey(d16_[from + i]); break;
        case 4: for (size_t i = 0; i < n; ++i) out[i] = FromKey(d32_[from + i]); break;
        default: for (size_t i = 0; i < n; ++i) out[i] = FromKey(d64_[from + i]); break;
      }
      return;
    }
    if (!n) return;
    size_t r = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), static_cast<uint32_t>(from)) - starts_.begin()) - 1;
    for (size_t i = from, end = from + n; i < end; ++r) {
      const size_t run_end = std::min(end, r + 1 < starts_.size() ? static_cast<size_t>(starts_[r + 1]) : n_);
      const U step = static_cast<U>(steps_[r]);
      U x = static_cast<U>(static_cast<U>(firsts_[r]) + step * static_cast<U>(i - starts_[r]));
      for (; i < run_end; ++i, x = static_cast<U>(x + step)) out[i - from] = static_cast<T>(x);
    }
  }

  // f(value) for every row in order, without a search per row.
  template <typename F>
  void ForEach(F f) const {
    if (width_ != 0) {  // (the width chosen once, not per value)
      switch (width_) {
        case 1: for (size_t i = 0; i < n_; ++i) f(FromKey(d8_[i])); break;
        case 2: for (size_t i = 0; i < n_; ++i) f(FromKey(d16_[i])); break;
        case 4: for (size_t i = 0; i < n_; ++i) f(FromKey(d32_[i])); break;
        default: for (size_t i = 0; i < n_; ++i) f(FromKey(d64_[i])); break;
      }
      return;
    }
    for (size_t r = 0; r < starts_.size(); ++r) {
      const size_t end = r + 1 < starts_.size() ? starts_[r + 1] : n_;
      U x = static_cast<U>(firsts_[r]);
      const U step = static_cast<U>(steps_[r]);
      for (size_t i = starts_[r]; i < end; ++i, x = static_cast<U>(x + step)) f(static_cast<T>(x));
    }
  }

  // f(first, step, len) for each stretch of values first, first + step, ... (len of them) in order: a run at
  // a time, or (plain) a value at a time with step 0 and len 1. A count per value costs a step per run.
  template <typename F>
  void ForEachRun(F f) const {
    if (width_ != 0) {
      ForEach([&](T v) { f(v, T{0}, size_t{1}); });
      return;
    }
    for (size_t r = 0; r < starts_.size(); ++r) {
      const size_t end = r + 1 < starts_.size() ? starts_[r + 1] : n_;
      f(firsts_[r], steps_[r], end - starts_[r]);
    }
  }

  // f(start, first, step) for each run the values make by the greedy rule the runs follow (a run takes the
  // step from its first value to its second, if the step fits the signed type, and lasts while it holds),
  // in order: a column of runs gives its own, a plain column the ones its values would make. Stops, and
  // returns false, at a run past the first max_runs (a call that counts in f then counts up to the limit).
  template <typename F>
  bool ForEachGreedyRun(size_t max_runs, F f) const {
    if (width_ == 0) {
      const size_t runs = std::min(starts_.size(), max_runs);
      for (size_t r = 0; r < runs; ++r) f(static_cast<size_t>(starts_[r]), firsts_[r], steps_[r]);
      return starts_.size() <= max_runs;
    }
    size_t runs = 0;
    return ForRunsOfPlain([&](size_t start, T first, T step) {
      if (++runs > max_runs) return false;
      f(start, first, step);
      return true;
    });
  }

  // Replaces each value v at row i with f(i, v), in row order: a new column is made beside it, then taken.
  // Throws std::bad_alloc with the column unchanged.
  template <typename F>
  void Transform(F f) {
    PackedColumn<T> out;
    out.reserve(reserved_);
    size_t i = 0;
    ForEach([&](T v) { out.push_back(f(i++, v)); });
    *this = std::move(out);
  }

  // Every value, as a vector (tests; small columns).
  std::vector<T> ToVector() const {
    std::vector<T> out;
    out.reserve(n_);
    ForEach([&](T v) { out.push_back(v); });
    return out;
  }

  // The runs (when is_runs()): run r starts at row starts()[r] with firsts()[r] and adds steps()[r] a row.
  const std::vector<uint32_t>& starts() const { return starts_; }
  const std::vector<T>& firsts() const { return firsts_; }
  const std::vector<T>& steps() const { return steps_; }

  // Room for n values: plain columns reserve at their width; runs take no room per row.
  void reserve(size_t n) {
    reserved_ = std::max(reserved_, n);
    if (width_ != 0) ReservePlain(n);
  }
  size_t capacity() const { return width_ != 0 ? PlainCapacity() : std::max(n_, reserved_); }
  // The bytes its values take, spare capacity aside: the same on every platform (the memory budget counts
  // it, so native and WASM decodes stop at the same record).
  size_t packed_bytes() const { return width_ != 0 ? n_ * width_ : RunBytes(); }
  // The memory the column holds.
  size_t bytes() const {
    return d8_.capacity() + 2 * d16_.capacity() + 4 * d32_.capacity() + 8 * d64_.capacity() + starts_.capacity() * sizeof(uint32_t) + (firsts_.capacity() + steps_.capacity()) * sizeof(T);
  }

 private:
  static constexpr size_t kCheckEvery = 4095;  // runs are weighed against plain values every 4096 rows

  // push_back's other cases: a run starts, runs are weighed against plain values, a column widens or grows.
  PROFSCOPE_NOINLINE void PushSlow(T v) {
    const U u = Key(v);
    if (width_ == 0) {
      if (going_ && static_cast<N>(v) == next_) {  // the run goes on (to the row where runs are weighed)
        next_ += StepOf(steps_.size() - 1);
        ++n_;
      } else {
        PushRun(v);
      }
      if (u > most_) most_ = u;
      if ((n_ & kCheckEvery) == 0 && RunBytes() > PlainBytes(n_)) {
        try {
          ToPlain();
        } catch (const std::bad_alloc&) {  // (the runs stay: they hold every value)
        }
      }
    } else {
      PushPlain(u);
      if (u > most_) most_ = u;
    }
  }

  // A run's step, exactly.
  N StepOf(size_t r) const { return static_cast<N>(static_cast<S>(steps_[r])); }

  // f(start, first, step) for each greedy run of a plain column's values, as PushRun would make them, while
  // f returns true; returns whether it went to the end. (A run is given once its next value leaves it.)
  template <typename F>
  bool ForRunsOfPlain(F f) const {
    size_t start = 0;
    T first{}, step{};
    bool going = false;
    N next = 0;
    const N lo = static_cast<N>(std::numeric_limits<S>::min()), hi = static_cast<N>(std::numeric_limits<S>::max());
    for (size_t i = 0; i < n_; ++i) {
      const T v = Plain(i);
      const N x = static_cast<N>(v), d = x - static_cast<N>(first);
      if (going && x == next) {
        next += static_cast<N>(static_cast<S>(step));
      } else if (!going && i > 0 && d >= lo && d <= hi) {  // (the run has one value: it takes this step)
        step = static_cast<T>(static_cast<S>(d));
        next = x + d;
        going = true;
      } else {
        if (i > 0 && !f(start, first, step)) return false;
        start = i, first = v, step = T{0}, going = false;
      }
    }
    return n_ == 0 || f(start, first, step);
  }

  void PushRun(T v) {
    const size_t len = starts_.empty() ? 0 : n_ - starts_.back();
    if (len == 1) {
      // a step must fit the column's signed type (int-runs.js reads int32 steps)
      const N d = static_cast<N>(v) - static_cast<N>(firsts_.back());
      if (d >= static_cast<N>(std::numeric_limits<S>::min()) && d <= static_cast<N>(std::numeric_limits<S>::max())) {
        steps_.back() = static_cast<T>(static_cast<S>(d));
        next_ = static_cast<N>(v) + d;
        going_ = true;
        ++n_;
        return;
      }
    }
    if (starts_.size() == starts_.capacity()) {  // room first: the three pushes below then cannot throw
      const size_t room = GrownCapacity(starts_.size());
      starts_.reserve(room);
      firsts_.reserve(room);
      steps_.reserve(room);
    }
    starts_.push_back(static_cast<uint32_t>(n_));
    firsts_.push_back(v);
    steps_.push_back(0);
    going_ = false;
    ++n_;
  }

  T RunValue(size_t r, size_t i) const {
    const uint64_t first = static_cast<U>(firsts_[r]), step = static_cast<U>(steps_[r]);
    return static_cast<T>(static_cast<U>(first + step * static_cast<uint64_t>(i - starts_[r])));
  }

  size_t RunBytes() const { return starts_.size() * (sizeof(uint32_t) + 2 * sizeof(T)); }
  size_t PlainBytes(size_t n) const { return n * static_cast<size_t>(WidthFor(most_)); }

  // Holds the values plain from now on; throws std::bad_alloc with the column unchanged.
  void ToPlain() {
    PackedColumn<T> plain;
    plain.width_ = WidthFor(most_);
    plain.fits_ = Fits(plain.width_);
    plain.ReservePlain(std::max(reserved_, GrownCapacity(n_)));
    ForEach([&](T v) { plain.Store(Key(v)); });
    TakePlain(plain);
    going_ = false;
    std::vector<uint32_t>().swap(starts_);
    std::vector<T>().swap(firsts_);
    std::vector<T>().swap(steps_);
  }

  void PushPlain(U u) {
    if (u > fits_ || n_ == PlainCapacity()) {
      if (WidthFor(u) > width_) Widen(WidthFor(u));
      if (n_ == PlainCapacity()) ReservePlain(GrownCapacity(n_));
    }
    Store(u);
  }
  // Re-stores every value at width w (a larger one came).
  void Widen(int w) {
    const size_t n = n_, room = std::max(PlainCapacity(), n + 1);
    PackedColumn<T> wider;
    wider.width_ = w;
    wider.ReservePlain(room);
    wider.fits_ = Fits(w);
    for (size_t i = 0; i < n; ++i) wider.Store(Key(Plain(i)));
    TakePlain(wider);
  }
  // Holds the plain values `made` holds (made aside: a failure to make them left this column as it was).
  void TakePlain(PackedColumn& made) {
    d8_.swap(made.d8_);
    d16_.swap(made.d16_);
    d32_.swap(made.d32_);
    d64_.swap(made.d64_);
    width_ = made.width_;
    fits_ = made.fits_;
  }
  static U Fits(int w) { return w >= static_cast<int>(sizeof(U)) ? std::numeric_limits<U>::max() : static_cast<U>((uint64_t{1} << (8 * w)) - 1); }
  size_t PlainCapacity() const {
    switch (width_) {
      case 1: return d8_.capacity();
      case 2: return d16_.capacity();
      case 4: return d32_.capacity();
      default: return d64_.capacity();
    }
  }
  void ReservePlain(size_t n) {
    switch (width_) {
      case 1: d8_.reserve(n); break;
      case 2: d16_.reserve(n); break;
      case 4: d32_.reserve(n); break;
      default: d64_.reserve(n); break;
    }
  }
  // Appends a plain value's key (Key).
  PROFSCOPE_ALWAYS_INLINE void Store(U u) {
    switch (width_) {
      case 1: d8_.push_back(static_cast<uint8_t>(u)); break;
      case 2: d16_.push_back(static_cast<uint16_t>(u)); break;
      case 4: d32_.push_back(static_cast<uint32_t>(u)); break;
      default: d64_.push_back(static_cast<uint64_t>(u)); break;
    }
    ++n_;
  }
  T Plain(size_t i) const {
    switch (width_) {
      case 1: return FromKey(d8_[i]);
      case 2: return FromKey(d16_[i]);
      case 4: return FromKey(d32_[i]);
      default: return FromKey(d64_[i]);
    }
  }

  size_t n_ = 0;
  U most_ = 0;             // the largest key (Key) so far
  size_t reserved_ = 0;
  int width_ = 0;          // 0: runs; else bytes a plain value
  U fits_ = 0;             // plain: the largest key width_ bytes hold
  bool going_ = false;     // runs: the last run has two values or more (its step is set)
  N next_ = 0;             // then: the value that would continue it
  std::vector<uint32_t> starts_;
  std::vector<T> firsts_, steps_;
  std::vector<uint8_t> d8_;  // plain values: the one of these of width_ bytes
  std::vector<uint16_t> d16_;
  std::vector<uint32_t> d32_;
  std::vector<uint64_t> d64_;
};

}  // namespace profscope
