// lab/run: the `bench` step, in-process or as a fleet under mpirun.
#include "bench/run.hpp"
#include "lab/run/captured_output.hpp"
#include "lab/run/fleet_step.hpp"
#include "lab/run/step_kinds.hpp"
#include "lab/run/step_options.hpp"
#include "output/json_export.hpp"
#include "output/report.hpp"
#include "util/stop_signal.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace pglab::lab::run {

namespace {

/// The `[scripts.NAME]` that `bench_args` name ("--file=pglab-script:NAME@W") written as files
/// under `dir`, for the fleet's processes: the arguments then name the files.
Status scripts_as_files(const experiment::ExperimentSpec& spec, const std::filesystem::path& dir,
                        std::vector<std::string>& bench_args) {
    constexpr std::string_view lab_script = "--file=pglab-script:";
    for (std::string& a : bench_args) {
        if (a.rfind(lab_script, 0) != 0) {
            continue;
        }
        const std::string ref = a.substr(lab_script.size());
        const std::string name = ref.substr(0, ref.rfind('@'));
        const auto* script = spec.find_script(name);
        const std::filesystem::path file = dir / (name + ".sql");
        std::ofstream written;
        if (script != nullptr) {
            written.open(file);
            written << script->text;
            written.close();
        }
        if (script == nullptr || !written) {
            return make_error("could not write script \"" + name + "\" for the fleet");
        }
        a = "--file=" + file.string() + ref.substr(name.size());
    }
    return {};
}

/// A bench step with `processes` > 1: the options, checked in-process, go to `pglab bench`
/// under mpirun (fleet_step.hpp); its scripts ([scripts.NAME]) as files in a temporary directory.
StepOutcome run_bench_fleet(const experiment::Step& step, StepContext& ctx,
                            const std::vector<std::string>& args, StepOutcome out) {
    auto& record = std::get<store::BenchStep>(out.details);
    const auto failed = [&out, &record](const std::string& why) {
        out.fail(why);
        record.exit_status = 1;
        return out;
    };
    auto params = ctx.servers.params(ctx.server, "");
    if (!params) {
        return failed(error_text(params.error()));
    }
    char dir_template[] = "/tmp/pglab-fleet-scripts-XXXXXX";
    if (::mkdtemp(dir_template) == nullptr) {
        return failed("could not create a temporary directory for the fleet's scripts");
    }
    const std::filesystem::path dir = dir_template;
    std::vector<std::string> bench_args = full_arguments(step, *params, false, args);
    if (auto st = scripts_as_files(ctx.spec, dir, bench_args); !st) {
        std::filesystem::remove_all(dir);
        return failed(st.error().message);
    }
    std::vector<std::pair<std::string, std::string>> env{{"PGDATABASE", "postgres"}};
    if (ctx.servers.at(ctx.server).existing()) {
        bench_args.push_back(params->dbname); // its conninfo
    }
    if (!params->password.empty()) {
        env.emplace_back("PGPASSWORD", params->password);
    }
    if (!params->options.empty()) {
        env.emplace_back("PGOPTIONS", params->options);
    }
    const FleetRun fleet =
        run_fleet_step(step, bench_args, env, ctx.log, [] { return util::stop_requested(); });
    std::filesystem::remove_all(dir);
    out.wrote_log = true;
    record.document = fleet.bench;
    record.exit_status = fleet.exit_code;
    if (util::stop_requested()) {
        out.stop(util::stop_signalled() ? store::StepStatus::interrupted
                                        : store::StepStatus::timed_out,
                 "the fleet was stopped");
    } else if (!fleet.error.empty()) {
        out.fail(fleet.error);
    } else if (fleet.exit_code != 0) {
        out.fail(fmt::format("mpirun exited with code {}: a process failed or was lost (see the "
                             "step's log)",
                             fleet.exit_code));
    }
    return out;
}

} // namespace

StepOutcome run_bench(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    auto options = options_or_fail<store::BenchStep>(step, ctx, out);
    if (!options) {
        return out;
    }
    if (step.processes > 1) {
        return run_bench_fleet(step, ctx, options->arguments, std::move(out));
    }
    auto& record = std::get<store::BenchStep>(out.details);
    bench::RunConfig& config = options->parsed.run;
    config.quiet = true;
    Result<bench::RunResult> result = make_error("not run");
    {
        CaptureOutput capture(ctx.log);
        result = bench::run(config);
        if (result) {
            std::fputs(output::format_report(config, *result).c_str(), stdout);
        }
    }
    out.wrote_log = true;
    if (!result) {
        out.fail(error_text(result.error()));
        record.exit_status = 1;
        return out;
    }
    record.document = output::to_json(config, *result);
    int status = 0;
    if (result->aborted_clients > 0) {
        status = 2;
        out.fail(fmt::format("{} client(s) aborted (see the step's log)", result->aborted_clients));
    }
    if (result->interrupted) {
        status = 2;
        if (result->stop_signal == util::k_stop_deadline) {
            out.stop(store::StepStatus::timed_out, "stopped at the run's deadline (run_timeout)");
        } else {
            out.stop(store::StepStatus::interrupted, "interrupted by signal");
        }
    }
    record.exit_status = status;
    return out;
}

} // namespace pglab::lab::run
