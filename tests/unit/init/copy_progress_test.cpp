// CopyProgress: pgbench 15's progress line format and checkpoints.
#include "init/copy_progress.hpp"

#include <gtest/gtest.h>

namespace pglab::init {
namespace {

TEST(CopyProgressTest, FormatsLikePgbench) {
    EXPECT_EQ(CopyProgress::format_line(100000, 300000, 0.5, '\n'),
              "100000 of 300000 tuples (33%) done (elapsed 0.50 s, remaining 1.00 s)\n");
    EXPECT_EQ(CopyProgress::format_line(300000, 300000, 1.234, '\r'),
              "300000 of 300000 tuples (100%) done (elapsed 1.23 s, remaining 0.00 s)\r");
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
}

} // namespace
} // namespace pglab::init
