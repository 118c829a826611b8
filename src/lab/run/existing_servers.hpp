// lab/run: what a plan does to the servers it uses: where each comes from (for --dry-run), and on
// a server pglab did not create (`conninfo`) which steps change data. A step that drops tables
// there (an init step: pgbench_* dropped and made again) needs the user's yes, `--yes` or
// `destructive_ok = true` in the file, before anything starts: it may be their database.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/plan.hpp"
#include "util/result.hpp"

#include <string>
#include <vector>

namespace pglab::lab::run {

/// One line per server of the plan: "server pg16: throwaway, PostgreSQL 16.4 from
/// /usr/lib/postgresql/16/bin (installed)", "server prod: existing, conninfo
/// \"host=db dbname=bench\" (pglab neither starts nor stops it)"...
std::vector<std::string> server_origins(const experiment::ExperimentSpec& spec);

/// What a step does on an existing server.
struct ExistingServerChange {
    std::size_t step = 0;
    std::string server;
    std::string what; ///< "drops and creates again pgbench_accounts, … in dbname=bench"
    bool drops = false;
};

/// The steps that run on an existing server in some cell of `plan`, in step order.
std::vector<ExistingServerChange> existing_server_changes(const experiment::ExperimentSpec& spec,
                                                          const plan::Plan& plan);

/// Error at the first step that drops tables on an existing server, unless `yes` or the file's
/// destructive_ok.
Status check_destructive_steps(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                               bool yes);

} // namespace pglab::lab::run
