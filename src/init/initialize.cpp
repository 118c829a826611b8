// pgbench -i driver: connect, run each step of the step string in order, time it, and print
// `done in %.2f s (<step> %.2f s, ...).` on stderr.
#include "init/initialize.hpp"

#include "init/generate_client_side.hpp"
#include "init/init_session.hpp"
#include "init/steps.hpp"
#include "pg/connection.hpp"
#include "pg/interrupt_canceller.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"
#include "util/stop_signal.hpp"

#include <fmt/format.h>

#include <string_view>

namespace pglab::init {

namespace {

constexpr std::string_view k_allowed_steps = "dtgGvpf";

using StepFn = Status (*)(const InitSession&);

/// A step character's name in the final timing line and its function.
struct Step {
    const char* name;
    StepFn run;
};

Step step_for(char c) {
    switch (c) {
    case 'd':
        return {"drop tables", drop_tables};
    case 't':
        return {"create tables", create_tables};
    case 'g':
        return {"client-side generate", generate_data_client_side};
    case 'G':
        return {"server-side generate", generate_data_server_side};
    case 'v':
        return {"vacuum", vacuum_tables};
    case 'p':
        return {"primary keys", create_primary_keys};
    case 'f':
        return {"foreign keys", create_foreign_keys};
    default:
        return {nullptr, nullptr};
    }
}

Status check_steps(std::string_view steps) {
    for (const char c : steps) {
        if (c != ' ' && k_allowed_steps.find(c) == std::string_view::npos) {
            return make_error(
                Error(fmt::format("unrecognized initialization step \"{}\"", c),
                      fmt::format("Allowed step characters are: \"{}\".", k_allowed_steps)));
        }
    }
    return {};
}

} // namespace

Status initialize(InitOptions options) {
    PGLAB_TRY(check_steps(options.steps));
    if (options.partitions > 0 && options.partition_method == PartitionMethod::none) {
        options.partition_method = PartitionMethod::range;
    }

    auto conn = pg::Connection::connect(options.conn);
    if (!conn) {
        // pgbench reports libpq's message, then its own
        log::error("{}", conn.error().message);
        return make_error("could not create connection for initialization");
    }
    // pgbench's cancel handler: Ctrl-C cancels the running statement and stops the COPY loop;
    // the step then fails. SIGTERM ends pgbench -i. Inside `pglab run` the lab's scope rules.
    const util::StopSignals stop(util::StopSignals::Repeat::is_noted,
                                 util::StopSignals::Which::interrupt_only);
    const pg::InterruptCanceller canceller(*conn);
    const InitSession session{*conn, options};

    std::string stats;
    double run_time_s = 0.0;
    for (const char c : options.steps) {
        const Step step = step_for(c);
        if (step.run == nullptr) {
            continue; // a space
        }
        const usec_t start_us = now_us();
        PGLAB_TRY(step.run(session));
        const double elapsed_s = static_cast<double>(now_us() - start_us) / 1e6;
        if (!stats.empty()) {
            stats += ", ";
        }
        stats += fmt::format("{} {:.2f} s", step.name, elapsed_s);
        run_time_s += elapsed_s;
    }
    print_stderr(fmt::format("done in {:.2f} s ({}).\n", run_time_s, stats));
    return {};
}

} // namespace pglab::init
