// lab/plan: matrix expansion and run ordering.
#include "lab/plan/plan.hpp"

#include "lab/plan/plan_rng.hpp"

#include <algorithm>

namespace pglab::lab::plan {

namespace {

Unexpected plan_error(const experiment::SourcePos& pos, const std::string& message,
                      const std::string& hint) {
    return make_error(Error(pos.to_string() + ": " + message).with_hint(hint));
}

/// Whether `cell` passes the matrix's filter (true when there is none).
Result<bool> passes_filter(const experiment::ExperimentSpec& spec, const Cell& cell) {
    if (!spec.matrix.filter) {
        return true;
    }
    auto verdict = spec.matrix.filter->evaluate(
        [&](std::string_view name) -> std::optional<experiment::Scalar> {
            if (const auto* v = cell.find(name)) {
                return *v;
            }
            if (name == "server") {
                return experiment::Scalar{cell.server, {}};
            }
            return std::nullopt;
        });
    if (!verdict) {
        return plan_error(spec.matrix.filter_pos,
                          "filter fails for cell " + experiment::cell_label(cell.bindings) + ": "
                              + verdict.error().message,
                          "compare numbers with numbers and strings with strings");
    }
    return *verdict;
}

} // namespace

Result<std::vector<Cell>> expand_matrix(const experiment::ExperimentSpec& spec) {
    const auto& vars = spec.matrix.variables;
    const experiment::SourcePos matrix_pos =
        vars.empty() ? experiment::SourcePos{spec.file, 0, 0} : vars.front().pos;
    const std::size_t per_cell = std::size_t{spec.repeat} + spec.warmup;
    std::size_t total = 1;
    for (const auto& v : vars) {
        if (v.values.empty() || total > k_max_runs / v.values.size()) {
            total = k_max_runs + 1;
            break;
        }
        total *= v.values.size();
    }
    if (total > k_max_runs || total * per_cell > k_max_runs) {
        return plan_error(matrix_pos,
                          "the matrix and repetitions give more than " + std::to_string(k_max_runs)
                              + " runs",
                          "use fewer values, a filter, or fewer repetitions");
    }
    std::vector<Cell> cells;
    std::vector<std::size_t> digit(vars.size(), 0); // odometer over the value lists
    for (std::size_t n = 0; n < total; ++n) {
        Cell cell;
        for (std::size_t i = 0; i < vars.size(); ++i) {
            cell.bindings.push_back(Binding{vars[i].name, vars[i].values[digit[i]]});
        }
        const experiment::Scalar* server = cell.find("server");
        cell.server = server != nullptr ? server->text() : spec.default_server;
        PGLAB_TRY_ASSIGN(const bool keep, passes_filter(spec, cell));
        if (keep) {
            cell.index = cells.size();
            cell.label = experiment::cell_label(cell.bindings);
            cells.push_back(std::move(cell));
        }
        for (std::size_t i = vars.size(); i-- > 0;) { // the last variable varies fastest
            if (++digit[i] < vars[i].values.size()) {
                break;
            }
            digit[i] = 0;
        }
    }
    if (cells.empty()) {
        return plan_error(spec.matrix.filter_pos, "the filter leaves no cell to run",
                          "relax the filter; it must be true for at least one combination");
    }
    return cells;
}

std::uint64_t choose_seed(const experiment::ExperimentSpec& spec, std::uint64_t fallback) {
    return spec.seed.value_or(fallback);
}

namespace {

/// Numbers each cell's measured runs 1, 2... in execution order and puts its warm-ups right
/// before the first one; then numbers the whole plan.
std::vector<PlannedRun> finish_order(const std::vector<PlannedRun>& measured, std::size_t cells,
                                     std::uint32_t warmup) {
    std::vector<std::uint32_t> seen(cells, 0);
    std::vector<PlannedRun> out;
    out.reserve(measured.size() + cells * warmup);
    for (PlannedRun run : measured) {
        if (seen[run.cell] == 0) {
            for (std::uint32_t w = 1; w <= warmup; ++w) {
                out.push_back(PlannedRun{0, run.cell, w, true, run.round});
            }
        }
        run.repetition = ++seen[run.cell];
        out.push_back(run);
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].ordinal = i;
    }
    return out;
}

} // namespace

Result<Plan> build_plan(const experiment::ExperimentSpec& spec, std::uint64_t seed) {
    PGLAB_TRY_ASSIGN(std::vector<Cell> cells, expand_matrix(spec));
    Plan plan;
    plan.seed = seed;
    plan.order = spec.order;
    PlanRng rng(seed);
    std::vector<PlannedRun> measured;
    switch (spec.order) {
    case experiment::RunOrder::as_written:
    case experiment::RunOrder::random:
        for (std::size_t c = 0; c < cells.size(); ++c) {
            for (std::uint32_t r = 0; r < spec.repeat; ++r) {
                measured.push_back(PlannedRun{0, c, 0, false, 0});
            }
        }
        if (spec.order == experiment::RunOrder::random) {
            rng.shuffle(measured);
        }
        break;
    case experiment::RunOrder::interleaved: {
        std::vector<std::size_t> order(cells.size());
        for (std::size_t c = 0; c < cells.size(); ++c) {
            order[c] = c;
        }
        for (std::uint32_t round = 1; round <= spec.repeat; ++round) {
            rng.shuffle(order);
            for (const std::size_t c : order) {
                measured.push_back(PlannedRun{0, c, 0, false, round});
            }
        }
        break;
    }
    }
    plan.runs = finish_order(measured, cells.size(), spec.warmup);
    plan.cells = std::move(cells);
    return plan;
}

std::vector<PlannedRun> add_round(Plan& plan, std::vector<std::size_t> cells) {
    std::uint32_t last_round = 0;
    std::vector<std::uint32_t> repetitions(plan.cells.size(), 0);
    for (const PlannedRun& run : plan.runs) {
        last_round = std::max(last_round, run.round);
        if (!run.warmup) {
            repetitions[run.cell] = std::max(repetitions[run.cell], run.repetition);
            last_round = std::max(last_round, run.repetition);
        }
    }
    const std::uint32_t round = last_round + 1;
    constexpr std::uint64_t k_golden = 0x9E3779B97F4A7C15ULL; // spreads the rounds' seeds apart
    PlanRng rng(plan.seed ^ (k_golden * round));
    rng.shuffle(cells);
    std::vector<PlannedRun> added;
    for (const std::size_t c : cells) {
        added.push_back(PlannedRun{plan.runs.size(), c, ++repetitions[c], false, round});
        plan.runs.push_back(added.back());
    }
    return added;
}

} // namespace pglab::lab::plan
