// core/trace/tracing_data.h LibraryHazard: what keeps a format text away from
// libtraceevent (its tokenizer reads an unclosed quoted string forever; its
// parser and printer recurse per bracket and per operator of a chain).
#include "core/trace/tracing_data.h"

#include <gtest/gtest.h>

#include <string>

using profscope::trace::kMaxNesting;
using profscope::trace::kMaxOperators;
using profscope::trace::LibraryHazard;

namespace {
constexpr size_t kNone = std::string_view::npos;
size_t At(std::string_view text) { return LibraryHazard(text).at; }
}  // namespace

TEST(LibraryHazard, ClosedStringsOfEitherQuoteAndEmptyText) {
  EXPECT_EQ(At(""), kNone);
  EXPECT_EQ(At("name: sched_switch\nprint fmt: \"prev_comm=%s\", REC->prev_comm\n"), kNone);
  EXPECT_EQ(At("print fmt: \"a\" \"b\", 'c'"), kNone);
  // A quote of the other kind inside a string is text.
  EXPECT_EQ(At("\"it's\" '\"'"), kNone);
  // The escaped quote does not close; the next one does.
  EXPECT_EQ(At("\"a\\\"b\""), kNone);
}

TEST(LibraryHazard, OpeningOffsetOfTheStringThatNeverCloses) {
  EXPECT_EQ(At("print fmt: \"abc"), 11u);
  EXPECT_STREQ(LibraryHazard("print fmt: \"abc").what, "a quoted string that never closes");
  EXPECT_EQ(At("\"a\" 'b"), 4u);
  // Its only closing quote is escaped.
  EXPECT_EQ(At("x \"abc\\\""), 2u);
  // The tokenizer's "\\" pair does not keep the next backslash from escaping: "\\\"" stays open as it does
  // in libtraceevent (the last character before the quote is still a backslash).
  EXPECT_EQ(At("\"\\\\\""), 0u);
  // A NUL is text to the tokenizer (it reads the format's whole size).
  EXPECT_EQ(At(std::string("\"a\0b", 4)), 0u);
}

TEST(LibraryHazard, AFieldsArrayBracketMustCloseOnItsLine) {
  // libtraceevent reads tokens until the "]" and compares a null token at the text's end (found by
  // perf_fuzz: a segfault natively, fuzz/regressions/perf_fuzz/ubsan-traceevent-array-bracket-never-closes).
  const std::string real = "name: sched_switch\nID: 1\nformat:\n\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
                           "\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:1;\n"
                           "\tfield:u8 saddr[sizeof(struct sockaddr_in6)];\toffset:28;\tsize:28;\tsigned:0;\n\n"
                           "print fmt: \"%s\", REC->prev_comm[0]\n";
  EXPECT_EQ(At(real), kNone);
  const std::string open = "name: main\nID: 1329\nformat:\n\tfield:unsigned shor[\n1\n";
  EXPECT_EQ(At(open), open.find('['));
  EXPECT_STREQ(LibraryHazard(open).what, "an array bracket that does not close on its line");
  // closed only on a later line, or only inside a string: the same
  EXPECT_EQ(At("format:\n\tfield:int a[\n4];\n"), 20u);
  EXPECT_EQ(At("format:\n\tfield:int a[\"]\"];\n"), 20u);
  // (in the print fmt the bracket is an operator of an expression: counted, as before)
  EXPECT_EQ(At("print fmt: \"%d\", REC->a[\n0]"), kNone);
}

TEST(LibraryHazard, ShiftsAndDivisionsOnlyByLiteralNumbersInRange) {
  // libtraceevent shifts and divides the sample's values as C does: a shift by 64 or more is undefined, a
  // division by 0 a crash natively (found by perf_fuzz: 1 >> (REC->gfp_flags & ...),
  // fuzz/regressions/perf_fuzz/ubsan-traceevent-shift-by-a-field).
  const std::string head = "name: x\nID: 1\nformat:\n\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\nprint fmt: \"%d\", ";
  // what real formats do: kmem's gfp flags, block's MAJOR/MINOR, sched_switch's prev_state, a division by 1000
  for (const char* ok : {"(( gfp_t)((((1UL))) << (10))|((((1UL))) << (11)))", "((unsigned int) ((REC->dev) >> 20))",
                         "((unsigned int) ((REC->dev) & ((1U << 20) - 1)))", "REC->prev_state & ((((0x00000001) + 1) << 1) - 1)",
                         "REC->delta / 1000", "REC->a % 10", "REC->a >> 0x3f", "REC->a << 63UL", "REC->a / (2) * REC->a"})
    EXPECT_EQ(At(head + ok), kNone) << ok;
  for (const char* bad : {"1 >> (REC->gfp_flags & ( unsigned long)(( gfp_t)((((1UL))) << (22))))", "REC->a >> 64", "REC->a << REC->a",
                          "REC->a / REC->a", "REC->a % 0", "REC->a / (0)", "REC->a >> 2 * REC->a", "REC->a << (2) + REC->a",
                          "REC->a >> -1", "REC->a >> 99999999999999999999999", "REC->a / ", "REC->a >> (3"}) {
    EXPECT_NE(At(head + bad), kNone) << bad;
  }
  EXPECT_STREQ(LibraryHazard(head + "REC->a >> 64").what, "a shift by what is not a number below 64");
  EXPECT_STREQ(LibraryHazard(head + "REC->a / REC->a").what, "a division by what is not a number other than 0");
  // (comparisons, and the percent signs and slashes of strings, are no such operators)
  EXPECT_EQ(At(head + "REC->a < REC->a ? \"a/b\" : \"%s\", REC->a <= 2, REC->a > 1, REC->a >= 1"), kNone);
}

TEST(LibraryHazard, DeepBracketsAndLongOperatorChainsInThePrintFmt) {
  const std::string head = "name: x\nID: 1\nformat:\n\tfield:int a[4];\toffset:8;\tsize:16;\tsigned:1;\n\nprint fmt: \"%d\", ";
  std::string ok = head + std::string(kMaxNesting, '(') + "REC->a" + std::string(kMaxNesting, ')');
  EXPECT_EQ(At(ok), kNone);
  std::string deep = head + std::string(kMaxNesting + 1, '(') + "REC->a" + std::string(kMaxNesting + 1, ')');
  EXPECT_EQ(At(deep), head.size() + kMaxNesting);
  EXPECT_STREQ(LibraryHazard(deep).what, "brackets nested deeper than 32");
  // Brackets that close again do not add up; nor do brackets and operators inside strings.
  std::string wide = head;
  for (int i = 0; i < 1000; ++i) wide += "((a)), \"((((|||\", ";
  EXPECT_EQ(At(wide), kNone);
  // ("print fmt:" and "->" count: every operator character after the print fmt's start does.)
  std::string chain = head;
  while (chain.size() < head.size() + 2 * kMaxOperators) chain += "1+";
  chain += "1";
  const size_t counted = 1 + 1 + (chain.size() - head.size()) / 2;  // ':', the "->"-free chain's '+'
  EXPECT_GT(counted, kMaxOperators);
  EXPECT_NE(At(chain), kNone);
  EXPECT_STREQ(LibraryHazard(chain).what, "more than 1024 operators");
  // Colons and brackets of the fields before the print fmt are not counted.
  std::string fields = "name: x\nformat:\n";
  for (int i = 0; i < 2000; ++i) fields += "\tfield:char c[16];\toffset:0;\tsize:16;\tsigned:0;\n";
  EXPECT_EQ(At(fields + "\nprint fmt: \"%d\", REC->c"), kNone);
}
