// CopyProgress: pgbench's progress line format (15 and 17+), padding and checkpoints.
#include "init/copy_progress.hpp"

#include <gtest/gtest.h>

namespace pglab::init {
namespace {

TEST(CopyProgressTest, FormatsLikePgbench15) {
    EXPECT_EQ(CopyProgress::format_line(100000, 300000, 0.5),
              "100000 of 300000 tuples (33%) done (elapsed 0.50 s, remaining 1.00 s)");
    EXPECT_EQ(CopyProgress::format_line(300000, 300000, 1.234),
              "300000 of 300000 tuples (100%) done (elapsed 1.23 s, remaining 0.00 s)");
}

TEST(CopyProgressTest, NamesTheTableLikePgbench17) {
    EXPECT_EQ(
        CopyProgress::format_line(100, 100, 0.004, "pgbench_tellers"),
        "100 of 100 tuples (100%) of pgbench_tellers done (elapsed 0.00 s, remaining 0.00 s)");
}

TEST(CopyProgressTest, PadsAShorterLineToTheOneBefore) {
    CopyProgress p(100, false, '\n');
    const std::string longer = p.line_at(100); // "100 of 100 tuples (100%) ..."
    const std::string shorter = p.line_at(99); // "99 of 100 tuples (99%) ...": 2 chars less
    EXPECT_EQ(shorter.size(), longer.size());
    EXPECT_EQ(shorter.substr(shorter.size() - 3), "  \n");
    EXPECT_EQ(shorter.substr(0, 9), "99 of 100");
}

TEST(CopyProgressTest, Checkpoints) {
    const CopyProgress loud(1000000, false, '\n');
    EXPECT_TRUE(loud.is_checkpoint(100000));
    EXPECT_FALSE(loud.is_checkpoint(100100));
    EXPECT_TRUE(loud.is_due(100000));
    const CopyProgress quiet(1000000, true, '\n');
    EXPECT_TRUE(quiet.is_checkpoint(100100));
    EXPECT_FALSE(quiet.is_due(100100)); // less than 5 s elapsed
    EXPECT_TRUE(quiet.is_due(1000000)); // the last row always reports
}

TEST(CopyProgressTest, FinishEndsTerminalLine) {
    EXPECT_EQ(CopyProgress(1, false, '\r').finish(), "\n");
    EXPECT_EQ(CopyProgress(1, false, '\n').finish(), "");
    // 17: the last line is blanked instead, and nothing is printed when no line was
    CopyProgress named(1, false, '\r', "pgbench_accounts");
    EXPECT_EQ(named.finish(), "");
    const std::string line = named.line_at(1);
    EXPECT_EQ(named.finish(), std::string(line.size() - 1, ' ') + "\r");
    EXPECT_EQ(CopyProgress(1, false, '\n', "pgbench_accounts").finish(), "");
}

} // namespace
} // namespace pglab::init
