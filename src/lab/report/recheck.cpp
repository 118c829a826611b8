// recheck_stored: the kept runs (read where they are kept, compressed) judged again and compared
// with the claims.csv they gave.
#include "lab/report/recheck.hpp"

#include "lab/judge/claim_judge.hpp"
#include "lab/report/claim_words.hpp"
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

/// claims.csv's rows by column name.
class StoredClaims {
public:
    explicit StoredClaims(std::vector<std::vector<std::string>> rows) : m_rows(std::move(rows)) {
        for (std::size_t i = 0; !m_rows.empty() && i < m_rows.front().size(); ++i) {
            m_column[m_rows.front()[i]] = i;
        }
    }

    bool has_header() const { return !m_rows.empty(); }

    std::size_t size() const { return m_rows.empty() ? 0 : m_rows.size() - 1; }

    /// Claim `i`'s (from 0) value in column `name`; "" when it has none.
    std::string at(std::size_t i, const char* name) const {
        const auto it = m_column.find(name);
        const std::vector<std::string>& row = m_rows[i + 1];
        return it != m_column.end() && it->second < row.size() ? row[it->second] : std::string();
    }

private:
    std::vector<std::vector<std::string>> m_rows;
    std::map<std::string, std::size_t> m_column;
};

std::optional<double> low(const std::optional<Interval>& ci) {
    return ci && ci->bounded ? std::optional(ci->low) : std::nullopt;
}

std::optional<double> high(const std::optional<Interval>& ci) {
    return ci && ci->bounded ? std::optional(ci->high) : std::nullopt;
}

/// How claim `i` as judged again differs from its stored row, one sentence each.
void claim_differences(const StoredClaims& stored, std::size_t i, const judge::ClaimJudgement& r,
                       std::vector<std::string>& out) {
    const std::string which = fmt::format("claim {} (\"{}\")", i + 1, r.claim.text);
    if (stored.at(i, "claim") != r.claim.text) {
        out.push_back(fmt::format("{}: stored as \"{}\"", which, stored.at(i, "claim")));
        return;
    }
    const judge::Judgement& j = r.judgement;
    if (stored.at(i, "verdict") != verdict_name(j.verdict)) {
        out.push_back(fmt::format("{}: verdict stored {}, now {}", which, stored.at(i, "verdict"),
                                  verdict_name(j.verdict)));
    }
    const std::pair<const char*, std::optional<double>> figures[] = {
        {"value", j.value},        {"ci95_low", low(j.ci95)},   {"ci95_high", high(j.ci95)},
        {"ci90_low", low(j.ci90)}, {"ci90_high", high(j.ci90)},
    };
    for (const auto& [name, now] : figures) {
        const auto was = figure(stored.at(i, name));
        if (!same_figure(was, now)) {
            out.push_back(
                fmt::format("{}: {} stored {}, now {}", which, name, shown(was), shown(now)));
        }
    }
    // The look it was decided at (stored since 7 December 2026).
    const std::string look = fmt::format("{} of {}", j.look, j.looks);
    const std::string stored_look = stored.at(i, "look") + " of " + stored.at(i, "looks");
    if (!stored.at(i, "look").empty() && stored_look != look) {
        out.push_back(fmt::format("{}: look stored {}, now {}", which, stored_look, look));
    }
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
    // Values against values: the judge's figures, not the report's words of them.
    const std::vector<judge::ClaimJudgement> judged =
        judge::judge_claims(read_claims(results).claims, results);
    out.claims = judged.size();
    const StoredClaims claims(parse_csv(csv));
    if (!claims.has_header()) {
        return make_error(fmt::format("{}: no header", (stored / "claims.csv").string()));
    }
    if (claims.size() != judged.size()) {
        out.differences.push_back(
            fmt::format("{} claims stored, {} judged again", claims.size(), judged.size()));
        return out;
    }
    for (std::size_t i = 0; i < judged.size(); ++i) {
        claim_differences(claims, i, judged[i], out.differences);
    }
    return out;
}

} // namespace pglab::lab::report
