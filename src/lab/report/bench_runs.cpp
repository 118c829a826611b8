// lab/report: what a bench step ran in each cell.
#include "lab/report/bench_runs.hpp"

#include "lab/report/number_format.hpp"
#include "lab/report/statistics.hpp"
#include "lab/store/bench_figures.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace pglab::lab::report {

std::vector<BenchRan> bench_ran(const ResultsDir& results, const std::string& step_key) {
    std::map<std::int64_t, BenchRan> by_cell;
    for (const FinishedRun& finished : results.runs) {
        const store::RunRecord& run = finished.record;
        if (run.warmup || run.status() != store::RunStatus::ok) {
            continue;
        }
        for (const store::StepRecord& step : run.steps) {
            const auto* bench = step.key == step_key ? step.as<store::BenchStep>() : nullptr;
            const auto figures = bench != nullptr ? store::bench_figures(*bench) : std::nullopt;
            if (!figures || !figures->duration_s || !figures->transactions) {
                continue;
            }
            const auto cell = static_cast<std::int64_t>(run.cell);
            BenchRan& ran = by_cell[cell];
            const std::vector<std::string> arguments =
                bench->arguments.value_or(std::vector<std::string>{});
            if (ran.runs.empty()) {
                ran.cell = cell;
                ran.arguments = arguments;
            } else if (arguments != ran.arguments) {
                ran.arguments_vary = true;
            }
            ran.durations_s.push_back(*figures->duration_s);
            ran.transactions.push_back(*figures->transactions);
            ran.runs.push_back(static_cast<std::int64_t>(run.run));
        }
    }
    std::vector<BenchRan> out;
    for (auto& [cell, ran] : by_cell) {
        out.push_back(std::move(ran));
    }
    return out;
}

namespace {

/// "10.00", or "10.00 (9.94 – 10.00)": the median, and the range when the runs differ; a count
/// (`whole`) without decimals: "11933 (11711 – 11967)".
std::string median_and_range(const std::vector<double>& values, bool whole) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    const double middle = median(values);
    if (whole) {
        return *low == *high ? fmt::format("{:.0f}", middle)
                             : fmt::format("{:.0f} ({:.0f} – {:.0f})", middle, *low, *high);
    }
    return *low == *high ? format_number(middle)
                         : fmt::format("{} ({})", format_number(middle),
                                       format_interval(Interval{*low, *high, true}));
}

} // namespace

Table bench_ran_table(const std::vector<BenchRan>& ran,
                      const std::function<std::string(std::int64_t)>& label) {
    Table t;
    t.header = {"cell", "arguments", "measured s", "transactions"};
    t.numeric = {false, false, true, true};
    for (const BenchRan& r : ran) {
        const std::string arguments = r.arguments.empty()
                                          ? std::string("(not recorded)")
                                          : "`" + util::join(r.arguments, " ") + "`"
                                                + (r.arguments_vary ? " (other runs: others)" : "");
        t.rows.push_back({label(r.cell), arguments, median_and_range(r.durations_s, false),
                          median_and_range(r.transactions, true)});
    }
    return t;
}

std::vector<std::string>
short_bench_warnings(const std::string& step_key, const std::vector<BenchRan>& ran,
                     const std::function<std::string(std::int64_t)>& label) {
    std::vector<std::string> out;
    for (const BenchRan& r : ran) {
        std::vector<std::string> runs;
        std::vector<double> short_s;
        for (std::size_t i = 0; i < r.runs.size(); ++i) {
            if (r.durations_s[i] < k_short_bench_s) {
                runs.push_back(std::to_string(r.runs[i]));
                short_s.push_back(r.durations_s[i]);
            }
        }
        if (runs.empty()) {
            continue;
        }
        const auto [low, high] = std::minmax_element(short_s.begin(), short_s.end());
        out.push_back(fmt::format(
            "Step {} ({}): the benchmark measured under a second in run{} {} ({} s): its figures "
            "are mostly its first and last transactions; give it a longer duration or more "
            "transactions",
            step_key, label(r.cell), runs.size() == 1 ? "" : "s", util::join(runs, ", "),
            *low == *high ? format_number(*low) : format_interval(Interval{*low, *high, true})));
    }
    return out;
}

} // namespace pglab::lab::report
