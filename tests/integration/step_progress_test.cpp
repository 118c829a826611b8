// The step progress thread against a real server: a CREATE INDEX CONCURRENTLY held in its
// "waiting for writers before build" phase by another session's open transaction (so it stays
// in progress for as long as the test wants, whatever the machine's speed) shows that phase, from
// pg_stat_progress_create_index, in the step's progress line; once the transaction ends the
// index is built and valid.
#include "lab/run/step_progress.hpp"
#include "support/test_server.hpp"
#include "support/wait.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace {

using pglab::lab::run::StepProgress;

/// The lines the progress thread wrote, for the test to wait on.
class Lines {
public:
    StepProgress::Output output() {
        StepProgress::Output out;
        out.sink = [this](std::string_view line) {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_lines.emplace_back(line);
        };
        out.period = std::chrono::milliseconds(50);
        return out;
    }

    /// The first line holding `text`; "" when none yet.
    std::string find(const std::string& text) {
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (const auto& l : m_lines) {
            if (l.find(text) != std::string::npos) {
                return l;
            }
        }
        return "";
    }

private:
    std::mutex m_mutex;
    std::vector<std::string> m_lines;
};

TEST(StepProgressServer, CreateIndexWaitingOnALockShowsItsPhaseThenCompletes) {
    auto& cluster = support::test_server();
    pglab::pg::Connection setup = support::connect(cluster);
    setup.on_notice({}); // DROP TABLE IF EXISTS says it skipped
    ASSERT_TRUE(setup.exec_command("DROP TABLE IF EXISTS progress_t"));
    ASSERT_TRUE(setup.exec_command("CREATE TABLE progress_t (id int)"));
    ASSERT_TRUE(setup.exec_command("INSERT INTO progress_t SELECT generate_series(1, 1000)"));

    // A writer's open transaction: CREATE INDEX CONCURRENTLY waits for it before building.
    pglab::pg::Connection writer = support::connect(cluster);
    ASSERT_TRUE(writer.exec_command("BEGIN"));
    ASSERT_TRUE(writer.exec_command("INSERT INTO progress_t VALUES (0)"));

    pglab::pg::Connection step = support::connect(cluster);
    ASSERT_TRUE(step.send_query("CREATE INDEX CONCURRENTLY progress_t_idx ON progress_t (id)"));

    Lines lines;
    StepProgress progress(lines.output());
    pglab::pg::ConnParams params;
    params.host = cluster.socket_dir().string();
    params.port = std::to_string(cluster.port());
    params.user = cluster.user();
    params.dbname = "postgres";
    progress.begin("run 1 of 1, step build (sql)", params);

    const std::string phase = "CREATE INDEX CONCURRENTLY: waiting for writers before build";
    ASSERT_TRUE(support::wait_until([&] { return !lines.find(phase).empty(); }))
        << "no progress line showed \"" << phase << "\"";
    const std::string line = lines.find(phase);
    EXPECT_EQ(line.rfind("pglab: run 1 of 1, step build (sql): ", 0), 0U) << line;
    EXPECT_NE(line.find(", lockers 0 of 1"), std::string::npos) << line;

    ASSERT_TRUE(writer.exec_command("COMMIT"));
    bool failed = false;
    for (;;) {
        pglab::pg::QueryResult r = step.get_result();
        if (!r) {
            break;
        }
        failed = failed || r.status() == pglab::pg::ResultStatus::fatal_error;
    }
    progress.end();
    EXPECT_FALSE(failed) << step.error_message();
    EXPECT_EQ(support::run_sql("SELECT indisvalid FROM pg_index "
                               "WHERE indexrelid = 'progress_t_idx'::regclass"),
              "t\n");
}

} // namespace
