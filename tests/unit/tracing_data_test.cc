// core/trace/tracing_data.h: the check that keeps a format text whose quoted
// string never closes away from libtraceevent (its tokenizer reads such a
// string forever).
#include "core/trace/tracing_data.h"

#include <gtest/gtest.h>

#include <string>

using profscope::trace::UnclosedQuoteAt;

namespace {
constexpr size_t kNone = std::string_view::npos;
}

TEST(UnclosedQuote, ClosedStringsOfEitherQuoteAndEmptyText) {
  EXPECT_EQ(UnclosedQuoteAt(""), kNone);
  EXPECT_EQ(UnclosedQuoteAt("name: sched_switch\nprint fmt: \"prev_comm=%s\", REC->prev_comm\n"), kNone);
  EXPECT_EQ(UnclosedQuoteAt("print fmt: \"a\" \"b\", 'c'"), kNone);
  // A quote of the other kind inside a string is text.
  EXPECT_EQ(UnclosedQuoteAt("\"it's\" '\"'"), kNone);
  // The escaped quote does not close; the next one does.
  EXPECT_EQ(UnclosedQuoteAt("\"a\\\"b\""), kNone);
}

TEST(UnclosedQuote, OpeningOffsetOfTheStringThatNeverCloses) {
  EXPECT_EQ(UnclosedQuoteAt("print fmt: \"abc"), 11u);
  EXPECT_EQ(UnclosedQuoteAt("\"a\" 'b"), 4u);
  // Its only closing quote is escaped.
  EXPECT_EQ(UnclosedQuoteAt("x \"abc\\\""), 2u);
  // The tokenizer's "\\" pair does not keep the next backslash from escaping: "\\\"" stays open as it does
  // in libtraceevent (the last character before the quote is still a backslash).
  EXPECT_EQ(UnclosedQuoteAt("\"\\\\\""), 0u);
  // A NUL is text to the tokenizer (it reads the format's whole size).
  EXPECT_EQ(UnclosedQuoteAt(std::string("\"a\0b", 4)), 0u);
}
