// The report's Environment section (environment_section.hpp).
#include "lab/report/environment_section.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace pglab::lab::report {

namespace {

using util::join;

constexpr double k_bytes_per_gib = 1024.0 * 1024.0 * 1024.0;

std::vector<std::string> environment_items(const Environment& env, const ResultsDir& results,
                                           const std::vector<std::string>& varying) {
    std::vector<std::string> items;
    items.push_back(fmt::format(
        "pglab: {}{}", env.pglab_version.empty() ? "version not recorded" : env.pglab_version,
        env.pglab_commit.empty() ? "" : fmt::format(" (built from commit {})", env.pglab_commit)));
    const util::MachineInfo& m = env.machine;
    items.push_back(fmt::format(
        "machine: {}, {} cores, {:.1f} GiB memory, {}{}",
        m.cpu_model.empty() ? "CPU model unknown" : m.cpu_model, m.cores,
        static_cast<double>(m.memory_bytes) / k_bytes_per_gib,
        m.kernel.empty() ? "kernel unknown" : m.kernel,
        env.machine_recorded ? ""
                             : " (not recorded with the results: this is the machine that made "
                               "the report)"));
    items.emplace_back("units: MB = 10⁶ bytes, GiB = 2³⁰ bytes, a block = 8192 bytes");
    if (const auto& plan = results.plan) {
        const auto known = [](const auto& v) { return v ? std::to_string(*v) : std::string("?"); };
        items.push_back(fmt::format(
            "plan: order {}, seed {} ({}), repeat {}, warm-up {} per cell{}",
            plan->order.empty() ? "?" : plan->order, known(plan->seed),
            plan->seed_source.empty() ? "source unknown" : plan->seed_source, known(plan->repeat),
            known(plan->warmup), plan->created_at.empty() ? "" : ", made " + plan->created_at));
    } else {
        items.emplace_back("plan: unknown (plan.json is missing)");
    }
    std::string runs = fmt::format("runs: {} finished ({} ok, {} failed", env.finished_runs,
                                   env.ok_runs, env.failed_runs);
    runs += fmt::format(", {} warm-up{})", env.warmup_runs, env.warmup_runs == 1 ? "" : "s");
    if (env.planned_runs >= 0) {
        runs += fmt::format(" of {} planned", env.planned_runs);
    }
    items.push_back(runs);
    if (!varying.empty()) {
        items.push_back("varied: " + join(varying, ", "));
    }
    return items;
}

/// One row per server: version, installation, initdb options, settings, emulation.
Table servers_table(const Environment& env) {
    Table servers;
    servers.header = {"server", "version", "installation", "initdb options",
                      "settings set by the experiment"};
    // The emulated machine (memory_limit, sync_delay) gets a column where a server had one.
    const bool emulated = std::any_of(env.servers.begin(), env.servers.end(),
                                      [](const ServerInfo& s) { return !s.emulation.empty(); });
    if (emulated) {
        servers.header.push_back("emulated machine");
    }
    for (const auto& s : env.servers) {
        std::vector<std::string> settings;
        for (const auto& [name, values] : s.settings) {
            std::vector<std::string> v(values.begin(), values.end());
            settings.push_back(fmt::format("`{}={}`", name, join(v, " / ")));
        }
        std::string installation = join({s.bin_dirs.begin(), s.bin_dirs.end()}, ", ");
        if (!s.source.empty()) {
            // The directory is the build's key: commit, uncommitted changes, options.
            installation +=
                fmt::format("{}built from `{}`{}", installation.empty() ? "" : ", ", s.source,
                            s.configure.empty() ? std::string(" with PostgreSQL's default options")
                                                : " with `" + join(s.configure, " ") + "`");
        }
        servers.rows.push_back(
            {s.name, s.versions.empty() ? "?" : join({s.versions.begin(), s.versions.end()}, ", "),
             installation, s.initdb.empty() ? "none" : "`" + s.initdb + "`",
             settings.empty() ? "none (defaults)" : join(settings, " ")});
        if (emulated) {
            servers.rows.back().push_back(
                s.emulation.empty() ? "none"
                                    : join({s.emulation.begin(), s.emulation.end()}, "; "));
        }
    }
    return servers;
}

} // namespace

void add_environment_section(const Environment& env, const ResultsDir& results,
                             const std::vector<std::string>& varying, Document& doc) {
    doc.heading(2, "Environment");
    doc.list(environment_items(env, results, varying));
    Table servers = servers_table(env);
    if (!servers.rows.empty()) {
        doc.heading(3, "Servers");
        doc.paragraph("Every setting not listed is the server's default.");
        doc.table(std::move(servers));
    }
}

} // namespace pglab::lab::report
