// rewrite_connection_strings with pg::redact_conninfo (what experiment.toml keeps): passwords of
// conninfo, session databases and step options are masked wherever the value is written (plain,
// literal, escaped, multi-line, inline tables), every other byte stays, the result reads back.
#include "lab/experiment/connection_strings.hpp"
#include "lab/experiment/parse_experiment.hpp"
#include "pg/conn_params.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pglab::lab::experiment {
namespace {

Result<std::string> masked(std::string_view text) {
    return rewrite_connection_strings(
        text, [](const std::string& value) { return pg::redact_conninfo(value); });
}

TEST(SpecConnectionStringsTest, MasksConninfoAndKeepsEveryOtherByte) {
    const std::string text = "# a comment: password=kept\n"
                             "name = \"x\"   # trailing comment\n"
                             "description = \"password=not-a-conninfo\"\n\n"
                             "[servers.db]\n"
                             "conninfo   =   \"host=h password=secret dbname=b\" # c\n"
                             "settings = { work_mem = \"4MB\" }\n\n"
                             "[[steps]]\ntype = \"sql\"\nsql = \"ALTER ROLE r PASSWORD 'p'\"\n";
    const auto out = masked(text);
    ASSERT_TRUE(out) << out.error().message;
    std::string want = text;
    want.replace(want.find("secret"), 6, "********");
    EXPECT_EQ(*out, want);
}

TEST(SpecConnectionStringsTest, TextWithoutPasswordsIsReturnedAsItIs) {
    const std::string text = "[servers.db]\nconninfo = 'host=h dbname=b'\n\n[[steps]]\n"
                             "type = \"bench\"\noptions = [\"--client=4\", \"-Dpassword=x\"]\n";
    const auto out = masked(text);
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(*out, text);
}

TEST(SpecConnectionStringsTest, UriInLiteralStringStaysALiteralString) {
    const std::string text = "[servers.db]\nconninfo = 'postgresql://u:s3cret@h:5432/db'\n";
    const auto out = masked(text);
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(*out, "[servers.db]\nconninfo = 'postgresql://u:********@h:5432/db'\n");
}

TEST(SpecConnectionStringsTest, EscapedAndMultiLineValuesBecomeBasicStrings) {
    // "password='a\'b'": TOML escapes for the quote of the value and the backslash of libpq's.
    const std::string text =
        "[servers.a]\nconninfo = \"host=h password='a\\\\'b' dbname=\\\"q\\\"\"\n"
        "[servers.b]\nconninfo = '''\nhost=h\npassword=x'''\nsettings = {}\n";
    const auto out = masked(text);
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(*out, "[servers.a]\nconninfo = \"host=h password=******** dbname=\\\"q\\\"\"\n"
                    "[servers.b]\nconninfo = \"host=h\\npassword=********\"\nsettings = {}\n");
}

TEST(SpecConnectionStringsTest, InlineTablesDottedKeysSessionsAndStepOptions) {
    // A multi-byte character before a value on its line: toml++ counts columns in characters.
    const std::string text =
        "servers = { \"é€\" = { conninfo = \"password=one\" }, b = { version = \"16\" } }\n"
        "sessions.s.database = \"dbname=d password=two\"\n"
        "[[steps]]\ntype = \"init\"\noptions = \"postgres://u:three@h/db\"\n"
        "[[steps]]\ntype = \"bench\"\noptions = [\"-c\", \"4\", \"host=h password=four\"]\n";
    const auto out = masked(text);
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(*out,
              "servers = { \"é€\" = { conninfo = \"password=********\" }, b = { version = \"16\" } "
              "}\n"
              "sessions.s.database = \"dbname=d password=********\"\n"
              "[[steps]]\ntype = \"init\"\noptions = \"postgres://u:********@h/db\"\n"
              "[[steps]]\ntype = \"bench\"\noptions = [\"-c\", \"4\", \"host=h "
              "password=********\"]\n");
}

TEST(SpecConnectionStringsTest, TheMaskedCopyParsesAsTheSameExperiment) {
    const std::string text = "name = \"e\"\nrepeat = 2\n\n[servers.db]\n"
                             "conninfo = \"host=/tmp port=5433 password=secret\"\n\n"
                             "[matrix]\nclients = [1, 2]\n\n[[steps]]\ntype = \"bench\"\n";
    const auto out = masked(text);
    ASSERT_TRUE(out) << out.error().message;
    const auto a = parse_experiment(text, "e.toml", ".");
    const auto b = parse_experiment(*out, "e.toml", ".");
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->servers.at(0).conninfo, "host=/tmp port=5433 password=********");
    EXPECT_EQ(b->repeat, a->repeat);
    EXPECT_EQ(b->matrix.variables.size(), a->matrix.variables.size());
}

TEST(SpecConnectionStringsTest, InvalidTomlIsAnError) {
    EXPECT_FALSE(masked("[servers.db\nconninfo = \"password=x\"\n"));
}

} // namespace
} // namespace pglab::lab::experiment
