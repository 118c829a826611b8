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

/// The cells of `blocks` in a fresh order: the blocks shuffled, and the cells within each, so that
/// a block's cells run back to back.
std::vector<std::size_t> shuffled_blocks(std::vector<std::vector<std::size_t>>& blocks,
                                         PlanRng& rng) {
    rng.shuffle(blocks);
    std::vector<std::size_t> out;
    for (auto& block : blocks) {
        rng.shuffle(block);
        out.insert(out.end(), block.begin(), block.end());
    }
    return out;
}

/// The cells a claim compares (each selector's matches; a shape's every level).
std::vector<std::size_t> cells_of_claim(const experiment::Claim& c,
                                        const std::vector<Cell>& cells) {
    std::vector<const experiment::CellSelector*> selectors = {&c.cell};
    if (c.kind != experiment::ClaimKind::value && c.kind != experiment::ClaimKind::shape) {
        selectors.push_back(&c.baseline);
    }
    if (c.kind == experiment::ClaimKind::ratio_of_ratios) {
        selectors.push_back(&c.divided_by_cell);
        selectors.push_back(&c.divided_by_baseline);
    }
    std::vector<std::size_t> out;
    for (const Cell& cell : cells) {
        for (const auto* s : selectors) {
            if (experiment::cell_matches(cell, *s)) {
                out.push_back(cell.index);
                break;
            }
        }
    }
    return out;
}

} // namespace

std::vector<std::vector<std::size_t>> claim_blocks(const experiment::ExperimentSpec& spec,
                                                   const std::vector<Cell>& cells) {
    // Union-find over the cells: each claim joins the cells it compares.
    std::vector<std::size_t> parent(cells.size());
    for (std::size_t i = 0; i < parent.size(); ++i) {
        parent[i] = i;
    }
    const auto root = [&](std::size_t i) {
        while (parent[i] != i) {
            i = parent[i] = parent[parent[i]];
        }
        return i;
    };
    for (const experiment::Claim& c : spec.claims) {
        if (!c.untestable.empty() || c.kind == experiment::ClaimKind::value) {
            continue;
        }
        const std::vector<std::size_t> joined = cells_of_claim(c, cells);
        for (std::size_t i = 1; i < joined.size(); ++i) {
            parent[root(joined[i])] = root(joined[0]);
        }
    }
    std::vector<std::vector<std::size_t>> blocks;
    std::vector<std::size_t> block_of(cells.size(), cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
        std::size_t& b = block_of[root(i)];
        if (b == cells.size()) {
            b = blocks.size();
            blocks.emplace_back();
        }
        blocks[b].push_back(i);
    }
    return blocks;
}

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
    case experiment::RunOrder::paired: {
        std::vector<std::vector<std::size_t>> blocks = claim_blocks(spec, cells);
        for (std::uint32_t round = 1; round <= spec.repeat; ++round) {
            for (const std::size_t c : shuffled_blocks(blocks, rng)) {
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

std::vector<PlannedRun> add_round(Plan& plan, std::vector<std::size_t> cells,
                                  const std::vector<std::vector<std::size_t>>& blocks) {
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
    if (blocks.empty()) {
        rng.shuffle(cells);
    } else { // the round's cells grouped as the blocks group them, each block back to back
        std::vector<std::vector<std::size_t>> round_blocks;
        for (const auto& block : blocks) {
            std::vector<std::size_t> in_round;
            for (const std::size_t c : block) {
                if (std::find(cells.begin(), cells.end(), c) != cells.end()) {
                    in_round.push_back(c);
                }
            }
            if (!in_round.empty()) {
                round_blocks.push_back(std::move(in_round));
            }
        }
        cells = shuffled_blocks(round_blocks, rng);
    }
    std::vector<PlannedRun> added;
    for (const std::size_t c : cells) {
        added.push_back(PlannedRun{plan.runs.size(), c, ++repetitions[c], false, round});
        plan.runs.push_back(added.back());
    }
    return added;
}

} // namespace pglab::lab::plan
