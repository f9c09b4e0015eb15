#include "core/model/interval_view.h"

#include <algorithm>

namespace profscope {

IntervalView::IntervalView(const Profile& p) : p_(p), from_(std::min(p.intervals.from_samples, p.samples.size())) {
  if (from_ == 0) return;
  const StackTable& st = p.stacks;
  stack_depth_.assign(st.frame.size(), 0);
  // A prefix comes before its stack (StackBuilder adds it first); one that does not is a root here.
  for (size_t s = 0; s < st.frame.size(); ++s) {
    const int32_t pre = st.prefix[s];
    stack_depth_[s] = pre >= 0 && static_cast<size_t>(pre) < s ? stack_depth_[static_cast<size_t>(pre)] + 1 : 0;
  }
}

int32_t IntervalView::func(size_t i) const {
  if (i >= from_) return p_.intervals.func[i - from_];
  const int32_t s = p_.samples.stack[i];
  if (s < 0 || static_cast<size_t>(s) >= p_.stacks.frame.size()) return kNone;
  const int32_t f = p_.stacks.frame[static_cast<size_t>(s)];
  return f >= 0 && static_cast<size_t>(f) < p_.frames.func.size() ? p_.frames.func[static_cast<size_t>(f)] : kNone;
}

}  // namespace profscope
