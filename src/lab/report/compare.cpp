// Cell pairing and verdicts of `pglab compare`. Ratios are always B over A for rates and A over
// B for times when B is faster, so that "faster" numbers are above 1.
#include "lab/report/compare.hpp"

#include "lab/judge/claim_evidence.hpp"
#include "lab/report/cells.hpp"
#include "lab/report/claim_words.hpp"
#include "lab/report/number_format.hpp"
#include "lab/report/side_facts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace pglab::lab::report {

namespace {

using judge::paired_runs;
using judge::PairedRuns;
using nlohmann::json;

constexpr double k_times_threshold = 1.5; // from here on, "2.3x faster" instead of "130% faster"

} // namespace

namespace {

bool same_rest(const Cell& a, const Cell& b, const std::set<std::string>& selected) {
    std::set<std::string> names;
    for (const Cell* cell : {&a, &b}) {
        for (const auto& binding : cell->bindings) {
            names.insert(binding.name);
        }
    }
    for (const auto& name : names) {
        if (selected.count(name) != 0) {
            continue;
        }
        const experiment::Scalar* va = a.find(name);
        const experiment::Scalar* vb = b.find(name);
        if (va == nullptr || vb == nullptr || va->text() != vb->text()) {
            return false;
        }
    }
    return true;
}

std::string side_name(const CompareSide& side) {
    if (!side.name.empty()) {
        return side.name;
    }
    if (side.selector.items.size() == 1) {
        return side.selector.items.front().second;
    }
    if (!side.selector.empty()) {
        std::string out;
        for (const auto& [n, v] : side.selector.items) {
            out += (out.empty() ? "" : " ") + n + "=" + v;
        }
        return out;
    }
    return side.results->dir.filename().string();
}

/// A side's typical value (the one the ratio is of), its runs' standard deviation and number.
std::string typical_sd(const Summary& s, double typical) {
    if (s.n == 0) {
        return "-";
    }
    return fmt::format("{}{} (n={})", format_number(typical),
                       s.stddev ? " ± " + format_number(*s.stddev) : std::string(), s.n);
}

std::string ratio_cell(const ComparisonRow& r) {
    if (!r.welch_ba || r.welch_ba->mean_b == 0.0) {
        return "-";
    }
    const auto& w = *r.welch_ba;
    if (!w.ratio_ci.bounded) {
        return fmt::format("{:.3f} (CI unbounded)", w.ratio);
    }
    return fmt::format("{:.3f} ({:.3f}–{:.3f})", w.ratio, w.ratio_ci.low, w.ratio_ci.high);
}

std::string difference_cell(const ComparisonRow& r) {
    if (!r.welch_ba) {
        return "-";
    }
    const auto& w = *r.welch_ba;
    return fmt::format("{} ({})", format_number(w.difference), format_interval(w.difference_ci));
}

std::string p_cell(const ComparisonRow& r) {
    if (!r.welch_ba) {
        return "-";
    }
    return r.welch_ba->p_value < 0.001 ? std::string("<0.001")
                                       : fmt::format("{:.3f}", r.welch_ba->p_value);
}

Interval invert(const Interval& ci) {
    if (!ci.bounded || ci.low <= 0 || ci.high <= 0) {
        return Interval{0, 0, false};
    }
    return Interval{1.0 / ci.high, 1.0 / ci.low, true};
}

/// "30.0% lower than pg16 (95% CI 25.0–35.0%)" or "2.00x lower than pg16 (95% CI 1.80–2.20x)"
/// from the ratio B/A and its interval, with the words for a ratio above and below 1 ("higher"
/// and "lower"; for speeds "faster" and "slower", or the reverse for times). The percentage is
/// of A, the baseline: (ratio − 1) · 100 above, (1 − ratio) · 100 below (a tps ratio of 0.700
/// is "30.0% slower"); the factor is B/A above, A/B below. A B of 0 is "100.0% lower", never
/// "infx lower".
std::string change(double ratio, const Interval& ci, std::string_view tail,
                   std::string_view above = "higher", std::string_view below = "lower") {
    const bool lower = ratio < 1.0;
    const double factor = lower ? (ratio > 0.0 ? 1.0 / ratio : HUGE_VAL) : ratio;
    const std::string_view word = lower ? below : above;
    if (factor >= k_times_threshold && std::isfinite(factor)) {
        const Interval fci = lower ? invert(ci) : ci;
        return fmt::format("{:.2f}x {}{}{}", factor, word, tail,
                           fci.bounded ? fmt::format(" (95% CI {:.2f}–{:.2f}x)", fci.low, fci.high)
                                       : std::string(" (95% CI unbounded)"));
    }
    const double pct = lower ? (1.0 - ratio) * 100.0 : (ratio - 1.0) * 100.0;
    std::string ci_text = " (95% CI unbounded)";
    if (ci.bounded && lower) {
        ci_text = fmt::format(" (95% CI {:.1f}–{:.1f}%)", (1.0 - ci.high) * 100.0,
                              (1.0 - ci.low) * 100.0);
    } else if (ci.bounded) {
        ci_text = fmt::format(" (95% CI {:.1f}–{:.1f}%)", (ci.low - 1.0) * 100.0,
                              (ci.high - 1.0) * 100.0);
    }
    return fmt::format("{:.1f}% {}{}{}", pct, word, tail, ci_text);
}

/// Rates and times: the metrics that "faster" and "slower" (and --fail-if-slower) apply to.
bool is_speed(const MetricInfo& m) {
    return m.id == "tps" || m.unit == "ms" || m.unit == "s";
}

using CellPair = std::pair<const Cell*, const Cell*>;

/// Each selected cell of A with the cell of B whose other variables have the same values (a note
/// for one without); an error when none pairs.
Result<std::vector<CellPair>> pair_cells(const CompareSide& a, const CompareSide& b,
                                         const std::set<std::string>& selected, Comparison& out) {
    std::vector<CellPair> pairs;
    for (const auto& ca : a.results->cells) {
        if (!cell_matches(ca, a.selector)) {
            continue;
        }
        const Cell* partner = nullptr;
        for (const auto& cb : b.results->cells) {
            if (cell_matches(cb, b.selector) && same_rest(ca, cb, selected)
                && !(a.results == b.results && ca.index == cb.index)) {
                partner = &cb;
                break;
            }
        }
        if (partner == nullptr) {
            out.notes.push_back(fmt::format("{} \"{}\" has no matching cell in {}", out.name_a,
                                            ca.label, out.name_b));
            continue;
        }
        pairs.emplace_back(&ca, partner);
    }
    if (pairs.empty()) {
        return make_error(
            Error(fmt::format("no cell of {} pairs with a cell of {}", out.name_a, out.name_b))
                .with_hint("Cells pair up when every matrix variable that the selectors do not "
                           "name has the same value; check --by/--a/--b against the cell labels."));
    }
    return pairs;
}

/// The row of one metric in one pair of cells: both summaries, Welch's test of B against A,
/// the slowdown of a speed, the verdict.
ComparisonRow compare_cells(const std::string& step, const MetricInfo& metric, std::string cell,
                            const std::vector<double>& a_values,
                            const std::vector<double>& b_values, const PairedRuns& rounds,
                            const CompareOptions& options, const Comparison& out) {
    ComparisonRow row;
    row.step = step;
    row.metric = metric;
    row.cell = std::move(cell);
    row.a = summarize(a_values);
    row.b = summarize(b_values);
    const Sample sa = sample_of(a_values);
    const Sample sb = sample_of(b_values);
    row.geometric = sa.log && sb.log;
    row.typical_a = row.geometric ? typical_value(sa) : sa.linear.mean;
    row.typical_b = row.geometric ? typical_value(sb) : sb.linear.mean;
    // Runs made in rounds are compared in pairs, as the report judges a claim's ratio: drift
    // between rounds moves both runs of a round, and cancels in their ratio.
    if (rounds.a.size() >= k_min_runs_for_interval) {
        row.welch_ba = paired_test(rounds.b, rounds.a);
        row.rounds = rounds.a.size();
    } else {
        row.welch_ba = welch(b_values, a_values);
    }
    if (row.welch_ba) {
        const auto& w = *row.welch_ba;
        row.significant = w.p_value < options.alpha;
        if (!is_speed(metric)) {
            // WAL volume, hit ratios...: no speed, no gate.
        } else if (metric.direction == Direction::lower_is_better) {
            row.slowdown_pct = (w.ratio - 1.0) * 100.0;
        } else if (metric.direction == Direction::higher_is_better) {
            row.slowdown_pct = (1.0 - w.ratio) * 100.0;
        }
    }
    row.verdict = verdict_text(row, out.name_a, out.name_b);
    return row;
}

} // namespace

std::string verdict_text(const ComparisonRow& row, const std::string& name_a,
                         const std::string& name_b) {
    if (!row.welch_ba) {
        return fmt::format("not enough runs to compare (needs {} on each side)",
                           k_min_runs_for_interval);
    }
    const WelchResult& w = *row.welch_ba; // ratio = B / A
    const std::string how =
        row.rounds > 0 ? fmt::format(", judged in pairs over {} rounds", row.rounds) : "";
    if (!row.significant) {
        return fmt::format("no significant difference (p = {:.2f}{})", w.p_value, how);
    }
    const double ba = w.ratio;
    if (!is_speed(row.metric) || row.metric.direction == Direction::neutral) {
        return fmt::format("{} is {}{}", name_b, change(ba, w.ratio_ci, " than " + name_a), how);
    }
    // Percentages of the baseline's own value, as --fail-if-slower reads them: a tps ratio of
    // 0.700 is "30.0% slower", a time ratio of 1.300 "30.0% slower", of 0.700 "30.0% faster".
    const bool rate = row.metric.direction == Direction::higher_is_better;
    return fmt::format(
        "{} is {}{}", name_b,
        change(ba, w.ratio_ci, "", rate ? "faster" : "slower", rate ? "slower" : "faster"), how);
}

namespace {

/// The rows of metric `ma` of A's step against the same metric of B's (`mb`, null when B's
/// step lacks it), one per pair of cells.
void compare_metric(const CompareSide& a, const CompareSide& b, const std::string& step,
                    const MetricValues& ma, const MetricValues* mb,
                    const std::vector<CellPair>& pairs, const std::vector<std::string>& shared,
                    const CompareOptions& options, Comparison& out) {
    for (const auto& [ca, cb] : pairs) {
        if (!ma.by_cell.contains(static_cast<std::int64_t>(ca->index))) {
            continue;
        }
        const std::vector<double> b_values =
            mb != nullptr ? mb->values_in(static_cast<std::int64_t>(cb->index))
                          : std::vector<double>{};
        // Rounds pair runs of one plan only.
        const PairedRuns rounds =
            a.results == b.results
                ? paired_runs(*a.results, ma, static_cast<std::int64_t>(ca->index),
                              static_cast<std::int64_t>(cb->index))
                : PairedRuns{};
        out.rows.push_back(compare_cells(step, ma.info, cell_label(*ca, shared),
                                         ma.values_in(static_cast<std::int64_t>(ca->index)),
                                         b_values, rounds, options, out));
    }
}

bool listed_or_all(const std::vector<std::string>& listed, const std::string& item) {
    return listed.empty() || std::find(listed.begin(), listed.end(), item) != listed.end();
}

} // namespace

Result<Comparison> compare(const CompareSide& a, const CompareSide& b,
                           const CompareOptions& options) {
    Comparison out;
    out.name_a = side_name(a);
    out.name_b = side_name(b);
    if (out.name_a == out.name_b) {
        out.name_a = "A (" + out.name_a + ")";
        out.name_b = "B (" + out.name_b + ")";
    }
    std::set<std::string> selected;
    for (const auto* side : {&a, &b}) {
        for (const auto& [n, v] : side->selector.items) {
            selected.insert(n);
        }
    }
    PGLAB_TRY_ASSIGN(const auto pairs, pair_cells(a, b, selected, out));
    out.differences = fact_differences(side_facts(*a.results, a.selector),
                                       side_facts(*b.results, b.selector), out.name_a, out.name_b);
    // The shared values: variables that are not selected and vary among the paired cells.
    std::vector<std::string> shared;
    for (const auto& name : analyze_dimensions(*a.results).varying) {
        if (selected.count(name) == 0) {
            shared.push_back(name);
        }
    }
    const std::vector<StepData> steps_a = collect_steps(*a.results, 0);
    const std::vector<StepData> steps_b =
        a.results == b.results ? steps_a : collect_steps(*b.results, 0);
    for (const auto& sa : steps_a) {
        if (!listed_or_all(options.steps, sa.key)) {
            continue;
        }
        const auto sb = std::find_if(steps_b.begin(), steps_b.end(),
                                     [&](const StepData& s) { return s.key == sa.key; });
        if (sb == steps_b.end()) {
            out.notes.push_back(fmt::format("step {} is missing in {}", sa.key, out.name_b));
            continue;
        }
        for (const auto& ma : sa.metrics) {
            const bool wanted = options.metrics.empty()
                                    ? ma.info.headline
                                    : listed_or_all(options.metrics, ma.info.id);
            if (wanted) {
                compare_metric(a, b, sa.key, ma, find_metric(*sb, ma.info.id), pairs, shared,
                               options, out);
            }
        }
    }
    return out;
}

std::vector<const ComparisonRow*> slower_than(const Comparison& c, double pct) {
    std::vector<const ComparisonRow*> out;
    for (const auto& r : c.rows) {
        if (r.significant && r.slowdown_pct && *r.slowdown_pct > pct) {
            out.push_back(&r);
        }
    }
    return out;
}

namespace {

std::vector<std::vector<std::string>> table_rows(const Comparison& c) {
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"step", "metric", "cell", c.name_a, c.name_b,
                    fmt::format("{}/{} (95% CI)", c.name_b, c.name_a),
                    fmt::format("{} − {} (95% CI)", c.name_b, c.name_a), "p", "verdict"});
    for (const auto& r : c.rows) {
        const std::string metric =
            r.metric.unit.empty() ? r.metric.title : r.metric.title + " (" + r.metric.unit + ")";
        rows.push_back({r.step, metric, r.cell, typical_sd(r.a, r.typical_a),
                        typical_sd(r.b, r.typical_b), ratio_cell(r), difference_cell(r), p_cell(r),
                        r.verdict});
    }
    return rows;
}

size_t display_width(std::string_view s) {
    size_t n = 0;
    for (const char c : s) {
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0; // count UTF-8 code points
    }
    return n;
}

/// What differs between the sides, said before any figure; and how the means are read.
std::vector<std::string> preamble(const Comparison& c) {
    std::vector<std::string> out;
    if (c.differences.empty()) {
        out.push_back(fmt::format("{} and {} ran alike besides what is compared: the same pglab, "
                                  "machine, form, server versions and settings, and bench "
                                  "arguments and durations.",
                                  c.name_a, c.name_b));
    } else {
        out.push_back(
            fmt::format("What differs between {} and {} besides the figures:", c.name_a, c.name_b));
        for (const std::string& d : c.differences) {
            out.push_back("  - " + d);
        }
    }
    return out;
}

constexpr const char* k_means_note =
    "Each side shows its geometric mean where every run is positive (the ratio is of those), "
    "± its runs' standard deviation; rows of one plan run in rounds are judged in pairs, round "
    "by round, as the report judges a claim.";

} // namespace

std::string comparison_text(const Comparison& c) {
    std::string out;
    for (const std::string& line : preamble(c)) {
        out += line + "\n";
    }
    out += "\n";
    const auto rows = table_rows(c);
    std::vector<size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows) {
        for (size_t i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], display_width(row[i]));
        }
    }
    for (size_t r = 0; r < rows.size(); ++r) {
        std::string line;
        for (size_t i = 0; i < rows[r].size(); ++i) {
            const std::string& cell = rows[r][i];
            line += cell;
            if (i + 1 < rows[r].size()) {
                line += std::string(widths[i] - display_width(cell) + 2, ' ');
            }
        }
        out += line + "\n";
        if (r == 0) {
            size_t total = 0;
            for (const size_t w : widths) {
                total += w + 2;
            }
            out += std::string(total - 2, '-') + "\n";
        }
    }
    for (const auto& note : c.notes) {
        out += "note: " + note + "\n";
    }
    out += std::string(k_means_note) + "\n";
    return out;
}

std::string comparison_markdown(const Comparison& c) {
    const auto rows = table_rows(c);
    std::string out = fmt::format("# {} vs {}\n\n", c.name_b, c.name_a);
    for (const std::string& line : preamble(c)) {
        out += line + "\n";
    }
    out += "\n";
    for (size_t r = 0; r < rows.size(); ++r) {
        out += "|";
        for (const auto& cell : rows[r]) {
            std::string escaped;
            for (const char ch : cell) {
                escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
            }
            out += " " + escaped + " |";
        }
        out += "\n";
        if (r == 0) {
            out += "|---|---|---|---:|---:|---:|---:|---:|---|\n";
        }
    }
    if (!c.notes.empty()) {
        out += "\n";
        for (const auto& note : c.notes) {
            out += "- " + note + "\n";
        }
    }
    out += std::string("\n") + k_means_note + "\n";
    return out;
}

std::string comparison_json(const Comparison& c) {
    auto summary = [](const Summary& s, double typical, bool geometric) {
        return json{{"n", s.n},
                    {"mean", s.n > 0 ? json(s.mean) : json(nullptr)},
                    {"typical", s.n > 0 ? json(typical) : json(nullptr)},
                    {"typical_kind", geometric ? "geometric mean" : "mean"},
                    {"stddev", s.stddev ? json(*s.stddev) : json(nullptr)}};
    };
    json rows = json::array();
    for (const auto& r : c.rows) {
        json row = {{"step", r.step},
                    {"metric", r.metric.id},
                    {"unit", r.metric.unit},
                    {"cell", r.cell},
                    {"a", summary(r.a, r.typical_a, r.geometric)},
                    {"b", summary(r.b, r.typical_b, r.geometric)},
                    {"paired_rounds", r.rounds},
                    {"significant", r.significant},
                    {"slowdown_pct", r.slowdown_pct ? json(*r.slowdown_pct) : json(nullptr)},
                    {"verdict", r.verdict}};
        if (r.welch_ba) {
            const auto& w = *r.welch_ba;
            row["ratio"] = w.ratio;
            row["ratio_ci95"] =
                w.ratio_ci.bounded ? json::array({w.ratio_ci.low, w.ratio_ci.high}) : json(nullptr);
            row["difference"] = w.difference;
            row["difference_ci95"] = json::array({w.difference_ci.low, w.difference_ci.high});
            row["t"] = std::isfinite(w.t) ? json(w.t) : json(nullptr);
            row["df"] = w.df;
            row["p_value"] = w.p_value;
        }
        rows.push_back(std::move(row));
    }
    const json doc = {
        {"version", "pglab.compare/1"}, {"a", c.name_a}, {"b", c.name_b},   {"ratio", "b / a"},
        {"differences", c.differences}, {"rows", rows},  {"notes", c.notes}};
    return doc.dump(2) + "\n";
}

} // namespace pglab::lab::report
