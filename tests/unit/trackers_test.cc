// The shared trackers of core/model: ThreadTracker (one row per tid, names
// over time, start/end/sample counts) and AddressSpaces (mappings over time
// per process with perf's overlap fix-up, and SampleMaps' per-sample lookup).
#include <gtest/gtest.h>

#include "core/model/address_space.h"
#include "core/model/thread_tracker.h"

namespace profscope {
namespace {

TEST(ThreadTracker, OneRowPerTidWithItsProcessAndTimes) {
  Profile p;
  ThreadTracker t(p);
  int32_t a = t.Seen(-1, 10, 500);  // pid not known yet
  EXPECT_EQ(t.Seen(7, 10, 300), a);  // pid filled in, start moved back
  EXPECT_EQ(t.Seen(7, 10, 0), a);    // 0 = no time: start stays
  int32_t b = t.Seen(7, 11, 900);
  EXPECT_NE(a, b);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(p.threads.pid[static_cast<size_t>(a)], 7);
  EXPECT_EQ(p.threads.start[static_cast<size_t>(a)], 300u);
  EXPECT_EQ(t.Find(11), b);
  EXPECT_EQ(t.Find(12), kNone);
  t.End(b, 1000);
  t.AddSamples(b);
  t.AddSamples(b, 4);
  EXPECT_EQ(p.threads.end[static_cast<size_t>(b)], 1000u);
  EXPECT_EQ(p.threads.samples[static_cast<size_t>(b)], 5u);
}

TEST(ThreadTracker, NamesOverTime) {
  Profile p;
  ThreadTracker t(p);
  int32_t r = t.Row(5, 5, 0);
  EXPECT_EQ(p.threads.name[static_cast<size_t>(r)], kNone);
  t.Name(r, 10, p.strings.Intern("bash"));
  t.Name(r, 20, p.strings.Intern("ls"));
  EXPECT_EQ(p.strings.Get(p.threads.name[static_cast<size_t>(r)]), "ls");
  ASSERT_EQ(p.thread_names.thread.size(), 2u);
  EXPECT_EQ(p.thread_names.time[0], 10u);
  EXPECT_EQ(p.strings.Get(p.thread_names.name[0]), "bash");
}

TEST(ThreadTracker, CoverAndStartBy) {
  Profile p;
  ThreadTracker t(p);
  int32_t r = t.Row(1, 1, 50);
  t.Cover(r, 50);
  t.Cover(r, 80);
  t.Cover(r, 20);
  EXPECT_EQ(p.threads.start[0], 20u);
  EXPECT_EQ(p.threads.end[0], 80u);
  t.StartBy(r, 0);  // unlike Seen, a time 0 counts
  EXPECT_EQ(p.threads.start[0], 0u);
}

TEST(ThreadTracker, IndexesTheRowsAProfileHas) {
  Profile p;
  {
    ThreadTracker t(p);
    t.Row(3, 3, 0);
    t.Row(4, 3, 0);
  }
  ThreadTracker again(p);
  EXPECT_EQ(again.Find(4), 1);
  EXPECT_EQ(again.Row(4, 9, 0), 1);
  EXPECT_EQ(again.size(), 2u);
}

TEST(AddressSpaces, LookupPerProcessAndKernel) {
  Profile p;
  AddressSpaces s;
  const int32_t path = p.strings.Intern("/bin/x");
  int32_t user = s.Add(p, 10, 0x1000, 0x1000, 0, path, kNone, 5, 7);
  int32_t kern = s.Add(p, kKernelPid, 0xffff0000, 0x1000, 0, path, kNone, 0, 8);
  EXPECT_EQ(p.mappings.size(), 2u);
  EXPECT_EQ(p.mappings.end[static_cast<size_t>(user)], 0x2000u);
  EXPECT_EQ(p.mappings.record[static_cast<size_t>(user)], 7);
  EXPECT_EQ(s.Lookup(10, 0x1800, false), user);
  EXPECT_EQ(s.Lookup(10, 0x2000, false), kNone);  // end is exclusive
  EXPECT_EQ(s.Lookup(11, 0x1800, false), kNone);  // another process
  EXPECT_EQ(s.Lookup(10, 0xffff0010, false), kern);  // user frames fall back to the kernel's maps
  EXPECT_EQ(s.Lookup(11, 0xffff0010, true), kern);
}

TEST(AddressSpaces, ANewMappingReplacesWhatItOverlaps) {
  Profile p;
  AddressSpaces s;
  int32_t old = s.Add(p, 1, 0x1000, 0x3000, 0, p.strings.Intern("old"), kNone, 0, 0);   // [1000, 4000)
  int32_t mid = s.Add(p, 1, 0x2000, 0x1000, 0, p.strings.Intern("mid"), kNone, 0, 1);   // [2000, 3000)
  EXPECT_EQ(s.Lookup(1, 0x1800, false), old);  // what is left before it
  EXPECT_EQ(s.Lookup(1, 0x2800, false), mid);
  EXPECT_EQ(s.Lookup(1, 0x3800, false), old);  // and after it
  int32_t front = s.Add(p, 1, 0x0800, 0x1000, 0, p.strings.Intern("front"), kNone, 0, 2);  // [800, 1800)
  EXPECT_EQ(s.Lookup(1, 0x1000, false), front);
  EXPECT_EQ(s.Lookup(1, 0x1900, false), old);
  EXPECT_EQ(p.mappings.size(), 3u);  // every mapping stays in the table
}

TEST(AddressSpaces, RangesThatWrapAreClipped) {
  Profile p;
  AddressSpaces s;
  int32_t m = s.Add(p, 1, ~uint64_t{0} - 0xf, 0x100, 0, p.strings.Intern("top"), kNone, 0, 0);
  EXPECT_EQ(p.mappings.end[static_cast<size_t>(m)], ~uint64_t{0});
  EXPECT_EQ(s.Lookup(1, ~uint64_t{0} - 1, false), m);
}

TEST(SampleMaps, RemembersTheLastHitAndPrefersTheFrameContext) {
  Profile p;
  AddressSpaces s;
  int32_t u = s.Add(p, 4, 0x100, 0x100, 0, p.strings.Intern("u"), kNone, 0, 0);
  int32_t k = s.Add(p, kKernelPid, 0x100, 0x100, 0, p.strings.Intern("k"), kNone, 0, 0);
  SampleMaps sm(s, 4);
  EXPECT_EQ(sm.Find(0x150, false), u);
  EXPECT_EQ(sm.Find(0x160, false), u);
  EXPECT_EQ(sm.Find(0x150, true), k);  // a kernel frame looks in the kernel's maps first
  EXPECT_EQ(sm.Find(0x900, true), kNone);
}

}  // namespace
}  // namespace profscope
