// The SQL of pgbench 15's -i steps, checked against the text pgbench sends (no server needed).
#include "init/init_sql.hpp"

#include <gtest/gtest.h>

namespace pglab::init {
namespace {

TEST(CreateTableStatementsTest, DefaultOptions) {
    const InitOptions o;
    const auto sql = create_table_statements(o, "");
    ASSERT_EQ(sql.size(), 4U);
    EXPECT_EQ(sql[0], "create table pgbench_history(tid int,bid int,aid    int,delta int,"
                      "mtime timestamp,filler char(22))");
    EXPECT_EQ(sql[1], "create table pgbench_tellers(tid int not null,bid int,tbalance int,"
                      "filler char(84)) with (fillfactor=100)");
    EXPECT_EQ(sql[2], "create table pgbench_accounts(aid    int not null,bid int,abalance int,"
                      "filler char(84)) with (fillfactor=100)");
    EXPECT_EQ(sql[3], "create table pgbench_branches(bid int not null,bbalance int,"
                      "filler char(88)) with (fillfactor=100)");
}

TEST(CreateTableStatementsTest, UnloggedPartitionedWithTablespaceAndBigIds) {
    InitOptions o;
    o.pgbench = compat::find_pgbench_profile(17);
    o.unlogged = true;
    o.scale = 20000;
    o.fillfactor = 90;
    o.partitions = 2;
    o.partition_method = PartitionMethod::hash;
    const auto sql = create_table_statements(o, "\"my ts\"");
    EXPECT_EQ(sql[0], "create unlogged table pgbench_history(tid int,bid int,aid bigint,delta int,"
                      "mtime timestamp,filler char(22)) tablespace \"my ts\"");
    EXPECT_EQ(sql[2], "create unlogged table pgbench_accounts(aid bigint not null,bid int,"
                      "abalance int,filler char(84)) partition by hash (aid) tablespace \"my ts\"");
    EXPECT_EQ(sql[3], "create unlogged table pgbench_branches(bid int not null,bbalance int,"
                      "filler char(88)) with (fillfactor=90) tablespace \"my ts\"");
}

TEST(CreateTableStatementsTest, UnloggedPartitionedAs18KeepsTheFourTablesLogged) {
    InitOptions o;
    o.pgbench = compat::find_pgbench_profile(18);
    o.unlogged = true;
    o.partitions = 2;
    o.partition_method = PartitionMethod::range;
    for (const std::string& sql : create_table_statements(o, "")) {
        EXPECT_EQ(sql.rfind("create table ", 0), 0u) << sql;
    }
    EXPECT_EQ(
        create_partition_statements(o)[0].rfind("create unlogged table pgbench_accounts_1", 0), 0u);
    o.partitions = 0;
    o.partition_method = PartitionMethod::none;
    EXPECT_EQ(create_table_statements(o, "")[0].rfind("create unlogged table ", 0), 0u);
}

TEST(CreateTableStatementsTest, PartitionsWithoutMethodMeanRange) {
    InitOptions o;
    o.partitions = 3;
    EXPECT_EQ(effective_partition_method(o), PartitionMethod::range);
    EXPECT_NE(create_table_statements(o, "")[2].find(" partition by range (aid)"),
              std::string::npos);
    o.partitions = 0;
    o.partition_method = PartitionMethod::hash;
    EXPECT_EQ(effective_partition_method(o), PartitionMethod::none);
}

TEST(CreatePartitionStatementsTest, RangeBounds) {
    InitOptions o;
    o.partitions = 3;
    o.partition_method = PartitionMethod::range;
    const auto sql = create_partition_statements(o);
    ASSERT_EQ(sql.size(), 3U);
    EXPECT_EQ(sql[0], "create table pgbench_accounts_1\n  partition of pgbench_accounts\n"
                      "  for values from (minvalue) to (33335) with (fillfactor=100)");
    EXPECT_EQ(sql[1], "create table pgbench_accounts_2\n  partition of pgbench_accounts\n"
                      "  for values from (33335) to (66669) with (fillfactor=100)");
    EXPECT_EQ(sql[2], "create table pgbench_accounts_3\n  partition of pgbench_accounts\n"
                      "  for values from (66669) to (maxvalue) with (fillfactor=100)");
}

TEST(CreatePartitionStatementsTest, HashModuli) {
    InitOptions o;
    o.partitions = 2;
    o.partition_method = PartitionMethod::hash;
    o.unlogged = true;
    o.fillfactor = 98;
    const auto sql = create_partition_statements(o);
    ASSERT_EQ(sql.size(), 2U);
    EXPECT_EQ(sql[1], "create unlogged table pgbench_accounts_2\n  partition of pgbench_accounts\n"
                      "  for values with (modulus 2, remainder 1) with (fillfactor=98)");
}

TEST(CreatePartitionStatementsTest, NoneWhenNotPartitioned) {
    EXPECT_TRUE(create_partition_statements(InitOptions{}).empty());
}

TEST(ServerSideGenerateTest, Statements) {
    const auto sql = server_side_generate_statements(3);
    ASSERT_EQ(sql.size(), 3U);
    EXPECT_EQ(sql[0], "insert into pgbench_branches(bid,bbalance) select bid, 0 "
                      "from generate_series(1, 3) as bid");
    EXPECT_EQ(sql[1], "insert into pgbench_tellers(tid,bid,tbalance) select tid, (tid - 1) / 10 "
                      "+ 1, 0 from generate_series(1, 30) as tid");
    EXPECT_EQ(sql[2], "insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - "
                      "1) / 100000 + 1, 0, '' from generate_series(1, 300000) as aid");
}

TEST(KeysTest, PrimaryKeysWithIndexTablespace) {
    const auto sql = primary_key_statements("\"ts\"");
    ASSERT_EQ(sql.size(), 3U);
    EXPECT_EQ(sql[2], "alter table pgbench_accounts add primary key (aid) using index tablespace "
                      "\"ts\"");
    EXPECT_EQ(primary_key_statements("")[0], "alter table pgbench_branches add primary key (bid)");
}

TEST(KeysTest, ForeignKeysInPgbenchOrder) {
    const auto sql = foreign_key_statements();
    ASSERT_EQ(sql.size(), 5U);
    EXPECT_NE(sql[0].find("pgbench_tellers_bid_fkey"), std::string::npos);
    EXPECT_NE(sql[4].find("pgbench_history_aid_fkey foreign key (aid) references pgbench_accounts"),
              std::string::npos);
}

TEST(CopyStatementTest, FreezeOnlyFrom14AndUnpartitioned) {
    InitOptions o;
    EXPECT_EQ(copy_accounts_statement(o, 150000),
              "copy pgbench_accounts from stdin with (freeze on)");
    EXPECT_EQ(copy_accounts_statement(o, 130011), "copy pgbench_accounts from stdin");
    o.partitions = 2;
    EXPECT_EQ(copy_accounts_statement(o, 150000), "copy pgbench_accounts from stdin");
}

TEST(ClientSideInsertTest, BranchesAndTellers) {
    EXPECT_EQ(branch_insert_statement(1), "insert into pgbench_branches(bid,bbalance) values(1,0)");
    EXPECT_EQ(teller_insert_statement(10),
              "insert into pgbench_tellers(tid,bid,tbalance) values (10,1,0)");
    EXPECT_EQ(teller_insert_statement(11),
              "insert into pgbench_tellers(tid,bid,tbalance) values (11,2,0)");
}

} // namespace
} // namespace pglab::init
