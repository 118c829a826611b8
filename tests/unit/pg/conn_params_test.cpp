// redact_conninfo: password values are masked in keyword/value strings and URIs.
// client_environment: the PG* variables that make another client connect as ConnParams say.
#include "pg/conn_params.hpp"

#include <gtest/gtest.h>

#include <map>

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

std::map<std::string, std::string> environment_of(const ConnParams& p) {
    auto env = client_environment(p);
    EXPECT_TRUE(env) << env.error().message;
    return env ? std::map<std::string, std::string>(env->begin(), env->end())
               : std::map<std::string, std::string>{};
}

TEST(ClientEnvironmentTest, FieldsOfAThrowawayCluster) {
    ConnParams p;
    p.host = "/tmp/sock";
    p.port = "5433";
    p.user = "postgres";
    p.dbname = "postgres";
    p.password = "pw";
    const std::map<std::string, std::string> want = {{"PGHOST", "/tmp/sock"},
                                                     {"PGPORT", "5433"},
                                                     {"PGUSER", "postgres"},
                                                     {"PGDATABASE", "postgres"},
                                                     {"PGPASSWORD", "pw"}};
    EXPECT_EQ(environment_of(p), want);
    p.password.clear(); // trust: no PGPASSWORD at all
    EXPECT_EQ(environment_of(p).count("PGPASSWORD"), 0U);
}

TEST(ClientEnvironmentTest, KeywordsOfAConninfoWinAndOptionsGoLast) {
    ConnParams p;
    p.host = "ignored";
    p.dbname = "host=db1 port=6432 dbname=bench password='a b' sslmode=disable";
    p.options = "-c work_mem=64MB";
    const std::map<std::string, std::string> want = {
        {"PGHOST", "db1"},     {"PGPORT", "6432"},       {"PGDATABASE", "bench"},
        {"PGPASSWORD", "a b"}, {"PGSSLMODE", "disable"}, {"PGOPTIONS", "-c work_mem=64MB"}};
    EXPECT_EQ(environment_of(p), want);
}

TEST(ClientEnvironmentTest, UriWithAPassword) {
    ConnParams p;
    p.dbname = "postgresql://bench:s%40cret@/db?host=/run/pg&port=5432";
    const auto env = environment_of(p);
    EXPECT_EQ(env.at("PGUSER"), "bench");
    EXPECT_EQ(env.at("PGPASSWORD"), "s@cret");
    EXPECT_EQ(env.at("PGHOST"), "/run/pg");
    EXPECT_EQ(env.at("PGDATABASE"), "db");
}

TEST(ClientEnvironmentTest, AnInvalidConninfoIsNotQuoted) {
    ConnParams p;
    p.dbname = "host=h password=secret nonsense=1";
    const auto env = client_environment(p);
    ASSERT_FALSE(env);
    EXPECT_EQ(env.error().message.find("secret"), std::string::npos) << env.error().message;
}

} // namespace
} // namespace pglab::pg
