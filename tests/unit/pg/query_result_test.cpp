// QueryResult without a server: the empty result and SQLSTATE classification.
#include "pg/query_result.hpp"

#include <gtest/gtest.h>

namespace pglab::pg {
namespace {

TEST(ClassifySqlstateTest, RetryableClasses) {
    EXPECT_EQ(classify_sqlstate("40001"), ErrorClass::serialization);
    EXPECT_EQ(classify_sqlstate("40P01"), ErrorClass::deadlock);
}

TEST(ClassifySqlstateTest, EverythingElseIsOther) {
    EXPECT_EQ(classify_sqlstate("22012"), ErrorClass::other);
    EXPECT_EQ(classify_sqlstate("40002"), ErrorClass::other);
    EXPECT_EQ(classify_sqlstate(""), ErrorClass::other);
    EXPECT_EQ(classify_sqlstate(nullptr), ErrorClass::other);
}

TEST(QueryResultTest, EmptyResultHasNoStatusAndNoError) {
    const QueryResult r;
    EXPECT_FALSE(r);
    EXPECT_EQ(r.status(), ResultStatus::none);
    EXPECT_STREQ(r.sqlstate(), "");
    EXPECT_EQ(r.error_class(), ErrorClass::none);
    EXPECT_STREQ(r.error_message(), "");
    EXPECT_EQ(r.ntuples(), 0);
    EXPECT_EQ(r.nfields(), 0);
}

TEST(QueryResultTest, MoveTransfersOwnership) {
    QueryResult a;
    QueryResult b(std::move(a));
    EXPECT_FALSE(b);
}

} // namespace
} // namespace pglab::pg
