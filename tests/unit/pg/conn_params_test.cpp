// redact_conninfo: password values are masked in keyword/value strings and URIs.
#include "pg/conn_params.hpp"

#include <gtest/gtest.h>

namespace pglab::pg {
namespace {

TEST(RedactConninfoTest, LeavesStringsWithoutPasswordAlone) {
    EXPECT_EQ(redact_conninfo(""), "");
    EXPECT_EQ(redact_conninfo("bench"), "bench");
    EXPECT_EQ(redact_conninfo("host=/tmp port=5432 dbname=x"), "host=/tmp port=5432 dbname=x");
    EXPECT_EQ(redact_conninfo("postgresql://user@host:5432/db"), "postgresql://user@host:5432/db");
}

TEST(RedactConninfoTest, MasksKeywordValues) {
    EXPECT_EQ(redact_conninfo("host=h password=secret dbname=x"),
              "host=h password=******** dbname=x");
    EXPECT_EQ(redact_conninfo("password=secret"), "password=********");
    EXPECT_EQ(redact_conninfo("user=u password = secret"), "user=u password = ********");
}

TEST(RedactConninfoTest, MasksQuotedValuesWithEscapes) {
    EXPECT_EQ(redact_conninfo("password='a b\\' c' user=u"), "password=******** user=u");
    EXPECT_EQ(redact_conninfo("dbname='my db' password='x'"), "dbname='my db' password=********");
}

TEST(RedactConninfoTest, DoesNotMaskOtherKeysContainingPassword) {
    EXPECT_EQ(redact_conninfo("passfile=/p password=s"), "passfile=/p password=********");
    EXPECT_EQ(redact_conninfo("dbname='password=x'"), "dbname='password=x'");
}

TEST(RedactConninfoTest, MasksUriUserInfo) {
    EXPECT_EQ(redact_conninfo("postgresql://user:secret@host/db"),
              "postgresql://user:********@host/db");
    EXPECT_EQ(redact_conninfo("postgres://u:p%40ss@h:5432"), "postgres://u:********@h:5432");
    EXPECT_EQ(redact_conninfo("postgresql://u:p@ss@h/db"), "postgresql://u:********@h/db");
}

TEST(RedactConninfoTest, MasksUriQueryParameter) {
    EXPECT_EQ(redact_conninfo("postgresql://h/db?user=u&password=secret&sslmode=disable"),
              "postgresql://h/db?user=u&password=********&sslmode=disable");
    EXPECT_EQ(redact_conninfo("postgresql:///db?password=x"), "postgresql:///db?password=********");
}

} // namespace
} // namespace pglab::pg
