#include "core/model/address_space.h"

#include <vector>

namespace profscope {

int32_t AddMappingRow(Profile& p, int32_t pid, uint64_t start, uint64_t end, uint64_t pgoff, int32_t path,
                      int32_t build_id, uint64_t time, int32_t record) {
  MappingTable& m = p.mappings;
  const int32_t row = static_cast<int32_t>(m.size());
  m.pid.push_back(pid);
  m.start.push_back(start);
  m.end.push_back(end);
  m.pgoff.push_back(pgoff);
  m.path.push_back(path);
  m.build_id.push_back(build_id);
  m.time.push_back(time);
  m.record.push_back(record);
  return row;
}

int32_t AddressSpaces::Add(Profile& p, int32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, int32_t path,
                           int32_t build_id, uint64_t time, int32_t record) {
  if (start + len < start) len = ~start;
  const int32_t row = AddMappingRow(p, pid, start, start + len, pgoff, path, build_id, time, record);
  Map(pid, start, start + len, row);
  return row;
}

void AddressSpaces::Map(int32_t pid, uint64_t start, uint64_t end, int32_t row) {
  // What is left of an overlapped older mapping before and after the new one
  // stays (perf's maps__fixup_overlap).
  Space& pm = spaces_[pid];
  versions_[pid] = ++epoch_;
  auto it = pm.lower_bound(start);
  if (it != pm.begin() && std::prev(it)->second.first > start) it = std::prev(it);
  std::vector<std::pair<uint64_t, std::pair<uint64_t, int32_t>>> keep;
  while (it != pm.end() && it->first < end) {
    uint64_t os = it->first, oe = it->second.first;
    int32_t orow = it->second.second;
    if (oe <= start) { ++it; continue; }
    it = pm.erase(it);
    if (os < start) keep.push_back({os, {start, orow}});
    if (oe > end) keep.push_back({end, {oe, orow}});
  }
  for (const auto& k : keep) pm[k.first] = k.second;
  pm[start] = {end, row};
}

const AddressSpaces::Space* AddressSpaces::Find(int32_t pid) const {
  auto it = spaces_.find(pid);
  return it == spaces_.end() || it->second.empty() ? nullptr : &it->second;
}

int32_t AddressSpaces::Lookup(int32_t pid, uint64_t addr, bool kernel) const {
  SampleMaps sm(*this, pid);
  return sm.Find(addr, kernel);
}

SampleMaps::SampleMaps(const AddressSpaces& spaces, int32_t pid) {
  user_.space = spaces.Find(pid);
  kernel_.space = spaces.Find(kKernelPid);
}

int32_t SampleMaps::Look(Cached& c, uint64_t addr) {
  if (!c.space) return kNone;
  if (c.row != kNone && addr >= c.start && addr < c.end) return c.row;
  auto m = c.space->upper_bound(addr);
  if (m == c.space->begin()) return kNone;
  --m;
  if (addr >= m->second.first) return kNone;
  c.start = m->first;
  c.end = m->second.first;
  c.row = m->second.second;
  return c.row;
}

int32_t SampleMaps::Find(uint64_t addr, bool kernel) {
  int32_t r = kNone;
  if (!kernel) r = Look(user_, addr);
  if (r == kNone) r = Look(kernel_, addr);
  if (r == kNone && kernel) r = Look(user_, addr);
  return r;
}

}  // namespace profscope
