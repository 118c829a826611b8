// recheck_stored: the kept runs (read where they are kept, compressed) judged again and compared
// with the claims.csv they gave.
#include "lab/report/recheck.hpp"

#include "lab/report/claims.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>

namespace pglab::lab::report {

namespace fs = std::filesystem;

namespace {

/// RFC 4180 rows: fields separated by commas, quoted when they hold a comma, a quote ("") or a
/// line break.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
        } else if (c == '\n') {
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
        } else if (c != '\r') {
            field += c;
        }
    }
    if (!field.empty() || !row.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
    }
    return rows;
}

Result<std::string> read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return make_error(fmt::format("cannot read {}", path.string()));
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A figure as the CSV holds it: empty, or a number.
std::optional<double> figure(const std::string& text) {
    if (text.empty()) {
        return std::nullopt;
    }
    return std::strtod(text.c_str(), nullptr);
}

bool same_figure(std::optional<double> a, std::optional<double> b) {
    if (!a || !b) {
        return a.has_value() == b.has_value();
    }
    return std::fabs(*a - *b) <= 1e-9 * std::max(1.0, std::fabs(*a));
}

std::string shown(std::optional<double> v) {
    return v ? fmt::format("{}", *v) : std::string("none");
}

/// A problem of the kept runs ("results.jsonl.gz line 7: …") named by their directory
/// ("runs/results.jsonl.gz line 7: …").
std::string kept_file_problem(const std::string& problem) {
    return "runs/" + problem;
}

} // namespace

Result<RecheckOutcome> recheck_stored(const fs::path& stored) {
    RecheckOutcome out;
    PGLAB_TRY_ASSIGN(const std::string csv, read_text(stored / "claims.csv"));
    const fs::path runs = stored / "runs";
    if (!fs::exists(runs / "plan.json") || !fs::exists(runs / "results.jsonl.gz")) {
        return out;
    }
    out.runs_kept = true;
    PGLAB_TRY_ASSIGN(const ResultsDir results, load_results(runs));
    for (const std::string& problem : results.problems) {
        out.problems.push_back(kept_file_problem(problem));
    }
    const std::vector<ClaimResult> judged =
        evaluate_claims(read_claims(results).claims, results, collect_steps(results, /*cores=*/0));
    out.claims = judged.size();

    const auto rows = parse_csv(csv);
    if (rows.empty()) {
        return make_error(fmt::format("{}: no header", (stored / "claims.csv").string()));
    }
    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < rows.front().size(); ++i) {
        column[rows.front()[i]] = i;
    }
    const auto cell = [&](const std::vector<std::string>& row, const char* name) {
        const auto it = column.find(name);
        return it != column.end() && it->second < row.size() ? row[it->second] : std::string();
    };
    if (rows.size() - 1 != judged.size()) {
        out.differences.push_back(
            fmt::format("{} claims stored, {} judged again", rows.size() - 1, judged.size()));
        return out;
    }
    for (std::size_t i = 0; i < judged.size(); ++i) {
        const auto& row = rows[i + 1];
        const ClaimResult& r = judged[i];
        const std::string which = fmt::format("claim {} (\"{}\")", i + 1, r.claim.text);
        if (cell(row, "claim") != r.claim.text) {
            out.differences.push_back(
                fmt::format("{}: stored as \"{}\"", which, cell(row, "claim")));
            continue;
        }
        if (cell(row, "verdict") != verdict_name(r.judgement.verdict)) {
            out.differences.push_back(fmt::format("{}: verdict stored {}, now {}", which,
                                                  cell(row, "verdict"),
                                                  verdict_name(r.judgement.verdict)));
        }
        const judge::Judgement& j = r.judgement;
        const auto low = [](const std::optional<Interval>& ci) {
            return ci && ci->bounded ? std::optional(ci->low) : std::nullopt;
        };
        const auto high = [](const std::optional<Interval>& ci) {
            return ci && ci->bounded ? std::optional(ci->high) : std::nullopt;
        };
        const std::pair<const char*, std::optional<double>> figures[] = {
            {"value", j.value},        {"ci95_low", low(j.ci95)},   {"ci95_high", high(j.ci95)},
            {"ci90_low", low(j.ci90)}, {"ci90_high", high(j.ci90)},
        };
        for (const auto& [name, now] : figures) {
            const auto was = figure(cell(row, name));
            if (!same_figure(was, now)) {
                out.differences.push_back(
                    fmt::format("{}: {} stored {}, now {}", which, name, shown(was), shown(now)));
            }
        }
    }
    return out;
}

} // namespace pglab::lab::report
