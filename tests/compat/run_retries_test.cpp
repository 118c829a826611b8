// pgbench's retry cases (001_pgbench_with_server.pl, PGBENCH.md §8.4): a serialization failure
// and a deadlock, each made certain by an advisory-lock choreography between two clients, run
// with pgbench and with `pglab bench`: same exit code, same stdout keys, same counts, the TAP
// regexes on both (the retried transaction repeats the same random value).
#include "support/compat.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr const char* k_retries_db = "h8_retries";

constexpr const char* k_serialization_script = R"(-- What's happening:
-- The first client starts the transaction with the isolation level Repeatable
-- Read:
--
-- BEGIN;
-- UPDATE xy SET y = ... WHERE x = 1;
--
-- The second client starts a similar transaction with the same isolation level:
--
-- BEGIN;
-- UPDATE xy SET y = ... WHERE x = 1;
-- <waiting for the first client>
--
-- The first client commits its transaction, and the second client gets a
-- serialization error.

\set delta random(-5000, 5000)

-- The second client will stop here
SELECT pg_advisory_lock(0);

-- Start transaction with concurrent update
BEGIN;
UPDATE xy SET y = y + :delta WHERE x = 1 AND pg_advisory_lock(1) IS NOT NULL;

-- Wait for the second client
DO $$
DECLARE
  exists boolean;
  waiters integer;
BEGIN
  -- The second client always comes in second, and the number of rows in the
  -- table first_client_table reflect this. Here the first client inserts a row,
  -- so the second client will see a non-empty table when repeating the
  -- transaction after the serialization error.
  SELECT EXISTS (SELECT * FROM first_client_table) INTO STRICT exists;
  IF NOT exists THEN
	-- Let the second client begin
	PERFORM pg_advisory_unlock(0);
	-- And wait until the second client tries to get the same lock
	LOOP
	  SELECT COUNT(*) INTO STRICT waiters FROM pg_locks WHERE
	  locktype = 'advisory' AND objsubid = 1 AND
	  ((classid::bigint << 32) | objid::bigint = 1::bigint) AND NOT granted;
	  IF waiters = 1 THEN
		INSERT INTO first_client_table VALUES (1);

		-- Exit loop
		EXIT;
	  END IF;
	END LOOP;
  END IF;
END$$;

COMMIT;
SELECT pg_advisory_unlock_all();
)";

constexpr const char* k_deadlock_script = R"(-- What's happening:
-- The first client gets the lock 2.
-- The second client gets the lock 3 and tries to get the lock 2.
-- The first client tries to get the lock 3 and one of them gets a deadlock
-- error.
--
-- A client that does not get a deadlock error must hold a lock at the
-- transaction start. Thus in the end it releases all of its locks before the
-- client with the deadlock error starts a retry (we do not want any errors
-- again).

-- Since the client with the deadlock error has not released the blocking locks,
-- let's do this here.
SELECT pg_advisory_unlock_all();

-- The second client and the client with the deadlock error stop here
SELECT pg_advisory_lock(0);
SELECT pg_advisory_lock(1);

-- The second client and the client with the deadlock error always come after
-- the first and the number of rows in the table first_client_table reflects
-- this. Here the first client inserts a row, so in the future the table is
-- always non-empty.
DO $$
DECLARE
  exists boolean;
BEGIN
  SELECT EXISTS (SELECT * FROM first_client_table) INTO STRICT exists;
  IF exists THEN
	-- We are the second client or the client with the deadlock error

	-- The first client will take care by itself of this lock (see below)
	PERFORM pg_advisory_unlock(0);

	PERFORM pg_advisory_lock(3);

	-- The second client can get a deadlock here
	PERFORM pg_advisory_lock(2);
  ELSE
	-- We are the first client

	-- This code should not be used in a new transaction after an error
	INSERT INTO first_client_table VALUES (1);

	PERFORM pg_advisory_lock(2);
  END IF;
END$$;

DO $$
DECLARE
  num_rows integer;
  waiters integer;
BEGIN
  -- Check if we are the first client
  SELECT COUNT(*) FROM first_client_table INTO STRICT num_rows;
  IF num_rows = 1 THEN
	-- This code should not be used in a new transaction after an error
	INSERT INTO first_client_table VALUES (2);

	-- Let the second client begin
	PERFORM pg_advisory_unlock(0);
	PERFORM pg_advisory_unlock(1);

	-- Make sure the second client is ready for deadlock
	LOOP
	  SELECT COUNT(*) INTO STRICT waiters FROM pg_locks WHERE
	  locktype = 'advisory' AND
	  objsubid = 1 AND
	  ((classid::bigint << 32) | objid::bigint = 2::bigint) AND
	  NOT granted;

	  IF waiters = 1 THEN
	    -- Exit loop
		EXIT;
	  END IF;
	END LOOP;

	PERFORM pg_advisory_lock(0);
    -- And the second client took care by itself of the lock 1
  END IF;
END$$;

-- The first client can get a deadlock here
SELECT pg_advisory_lock(3);

SELECT pg_advisory_unlock_all();
)";

std::vector<std::string> retry_words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) {
        out.push_back(w);
    }
    return out;
}

/// The value of the first stdout line starting with `key`, e.g. "number of transactions
/// retried: 1 (50.000%)" -> "1 (50.000%)"; "" when absent.
std::string value_of(const std::string& out, const std::string& key) {
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(key, 0) == 0) {
            return line.substr(key.size());
        }
    }
    return {};
}

class RunRetriesTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        support::run_sql(std::string("drop database if exists ") + k_retries_db);
        support::run_sql(std::string("create database ") + k_retries_db);
        support::run_sql("CREATE UNLOGGED TABLE first_client_table (value integer); "
                         "CREATE UNLOGGED TABLE xy (x integer, y integer); "
                         "INSERT INTO xy VALUES (1, 2);",
                         k_retries_db);
        s_dir = fs::temp_directory_path() / ("pglab_run_retries_" + std::to_string(::getpid()));
        fs::create_directories(s_dir);
        std::ofstream(s_dir / "001_pgbench_serialization") << k_serialization_script;
        std::ofstream(s_dir / "001_pgbench_deadlock") << k_deadlock_script;
    }

    static void TearDownTestSuite() {
        fs::remove_all(s_dir);
        support::run_sql(std::string("drop database if exists ") + k_retries_db);
    }

    /// Runs pgbench or pglab bench with `args` + `-f script` under `isolation`; the table the
    /// choreography uses to tell the first client is emptied first.
    static support::CommandResult run(bool pglab, const std::string& args,
                                      const std::string& script, const std::string& isolation) {
        support::run_sql("DELETE FROM first_client_table", k_retries_db);
        std::vector<std::string> argv = support::bench_program(pglab);
        for (auto& w : retry_words(args)) {
            argv.push_back(w);
        }
        argv.push_back("-f");
        argv.push_back((s_dir / script).string());
        auto env = support::server_env(k_retries_db);
        env.emplace_back("PGOPTIONS", "-c default_transaction_isolation=" + isolation);
        return support::run_command(argv, env, {}, std::chrono::seconds(60));
    }

    static fs::path s_dir;
};

fs::path RunRetriesTest::s_dir;

void expect_same_counts(const support::CommandResult& pg, const support::CommandResult& lab) {
    EXPECT_EQ(pg.exit_code, lab.exit_code);
    EXPECT_EQ(support::masked_stdout_keys(pg.out), support::masked_stdout_keys(lab.out))
        << support::describe(pg) << support::describe(lab);
    for (const char* key : {"number of transactions actually processed: ",
                            "number of failed transactions: ", "number of transactions retried: ",
                            "total number of retries: ", "maximum number of tries: "}) {
        EXPECT_EQ(value_of(pg.out, key), value_of(lab.out, key)) << key;
    }
}

TEST_F(RunRetriesTest, SerializationFailureIsRetriedWithTheSameRandomValue) {
    // 15 spells debug -d; the "sending" line of the retried UPDATE repeats the same delta.
    const std::string err_pattern =
        R"((client (0|1) sending UPDATE xy SET y = y \+ -?\d+\b)[\s\S]*)"
        R"(client \2 got an error in command 3 \(SQL\) of script 0; )"
        R"(ERROR:  could not serialize access due to concurrent update\b[\s\S]*\1)";
    const auto pg = run(false, "-n -c 2 -t 1 -d --verbose-errors --max-tries 2",
                        "001_pgbench_serialization", "repeatable\\ read");
    const auto lab = run(true, "-n -c 2 -t 1 -d --verbose-errors --max-tries 2",
                         "001_pgbench_serialization", "repeatable\\ read");
    expect_same_counts(pg, lab);
    for (const auto* r : {&pg, &lab}) {
        EXPECT_EQ(r->exit_code, 0) << support::describe(*r);
        for (const char* re : {R"(processed: 2/2\b)", R"(number of transactions retried: 1\b)",
                               R"(total number of retries: 1\b)"}) {
            EXPECT_TRUE(std::regex_search(r->out, std::regex(re))) << re << "\n"
                                                                   << support::describe(*r);
        }
        EXPECT_TRUE(std::regex_search(r->err, std::regex(err_pattern, std::regex::ECMAScript)))
            << r->err;
    }
}

TEST_F(RunRetriesTest, DeadlockIsRetried) {
    const std::string err_pattern = R"(client (0|1) got an error in command (3|5) \(SQL\) of )"
                                    R"(script 0; ERROR:  deadlock detected\b)";
    const auto pg = run(false, "-n -c 2 -t 1 --max-tries 2 --verbose-errors",
                        "001_pgbench_deadlock", "read\\ committed");
    const auto lab = run(true, "-n -c 2 -t 1 --max-tries 2 --verbose-errors",
                         "001_pgbench_deadlock", "read\\ committed");
    expect_same_counts(pg, lab);
    for (const auto* r : {&pg, &lab}) {
        EXPECT_EQ(r->exit_code, 0) << support::describe(*r);
        for (const char* re : {R"(processed: 2/2\b)", R"(number of transactions retried: 1\b)",
                               R"(total number of retries: 1\b)"}) {
            EXPECT_TRUE(std::regex_search(r->out, std::regex(re))) << re << "\n"
                                                                   << support::describe(*r);
        }
        EXPECT_TRUE(std::regex_search(r->err, std::regex(err_pattern))) << r->err;
    }
}

} // namespace
