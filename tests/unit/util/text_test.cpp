// util/text: long values shortened for messages, with their length.
#include "util/text.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Text, ShortValuesStayWhole) {
    EXPECT_EQ(pglab::util::shorten("clients=4"), "clients=4");
}

TEST(Text, LongValuesKeepTheirStartAndSayTheirLength) {
    const std::string huge(100000, 'v');
    const std::string s = pglab::util::shorten(huge);
    EXPECT_LT(s.size(), 250u);
    EXPECT_EQ(s.rfind("vvvv", 0), 0u);
    EXPECT_NE(s.find("(100000 characters)"), std::string::npos) << s;
}

TEST(Text, QuotedPartsOfAMessageAreShortened) {
    const std::string msg = "unknown key \"" + std::string(100000, 'k') + "\" in \"matrix\"";
    const std::string s = pglab::util::shorten_quoted(msg);
    EXPECT_LT(s.size(), 300u);
    EXPECT_EQ(s.rfind("unknown key \"kkk", 0), 0u) << s;
    EXPECT_NE(s.find("characters)\" in \"matrix\""), std::string::npos) << s;
}

TEST(Text, AMultiByteCharacterIsNotCut) {
    std::string huge;
    for (int i = 0; i < 1000; ++i) {
        huge += "é";
    }
    const std::string s = pglab::util::shorten(huge, 25); // 5 bytes kept: two whole "é"
    EXPECT_EQ(s.rfind("éé…", 0), 0u) << s;
    EXPECT_NE(s.find("… (2000 characters)"), std::string::npos) << s;
}

TEST(Text, TrimDropsWhiteSpaceAtBothEndsOnly) {
    EXPECT_EQ(pglab::util::trim("  deb http://x  sid \t\r\n"), "deb http://x  sid");
    EXPECT_EQ(pglab::util::trim(" \t\n"), "");
    EXPECT_EQ(pglab::util::trim("a"), "a");
}

} // namespace
