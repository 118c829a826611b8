// The checks the damaged-results fuzzer runs on one input, shared by the libFuzzer target
// (fuzz/results_fuzz.cpp) and its unit test (tests/unit/lab/results_fuzz_harness_test.cpp).
//
// An input chooses a stored result (the report fixtures of tests/golden, every line sealed as
// pglab writes lines now, or none sealed as older results are) and a damage to its
// results.jsonl: bytes flipped, a number turned into a string or a string into a number, a key
// renamed, a line duplicated, a run or cell number changed (sealed again or not), bytes inserted.
// The damaged directory goes through `pglab report` (load, build, the JSON and checks exports),
// `report --recheck` (as a stored result whose kept runs are the damaged lines) and `compare`
// (against the undamaged one). What must hold:
// - nothing crashes (the sanitizers watch), and every error has a message;
// - every line that is not a finished run is named by a problem;
// - when the report, the recheck's verdicts or anything exported differs from the undamaged
//   result's, a problem names a damaged line: a damaged value is never used or dropped without
//   a word (the report's problems are in what it exports).
#pragma once

#include "lab/report/compare.hpp"
#include "lab/report/recheck.hpp"
#include "lab/report/report.hpp"
#include "lab/report/results.hpp"
#include "lab/store/line_seal.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::fuzz {

namespace results_fuzz {

namespace fs = std::filesystem;
namespace store = lab::store;
using nlohmann::json;

inline std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

inline std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t nl = text.find('\n', pos);
        const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
        lines.emplace_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return lines;
}

/// A stored result to damage: its plan.json and experiment.toml (either may be "") and its
/// good lines, each a JSON object.
struct Seed {
    std::string name;
    std::string plan;
    std::string experiment;
    std::vector<json> lines;
};

/// The report fixtures, their damaged lines left out (they are the report tests' own damage),
/// each cut to its first runs: a report of a few runs holds every kind of figure, and the
/// fuzzer runs more inputs a second the smaller they are.
inline const std::vector<Seed>& seeds() {
    static const std::vector<Seed> all = [] {
        std::vector<Seed> out;
        const fs::path golden = fs::path(PGLAB_SOURCE_DIR) / "tests/golden";
        const std::pair<const char*, std::size_t> fixtures[] = {
            {"report/checks-fixture", 4}, {"report/results-fixture", 6}, {"store/step-kinds", 3}};
        for (const auto& [dir, runs] : fixtures) {
            Seed seed;
            seed.name = dir;
            const fs::path d = golden / dir;
            if (fs::exists(d / "plan.json")) {
                seed.plan = read_file(d / "plan.json");
            }
            if (fs::exists(d / "experiment.toml")) {
                seed.experiment = read_file(d / "experiment.toml");
            }
            for (const std::string& line : split_lines(read_file(d / "results.jsonl"))) {
                json doc = json::parse(line, nullptr, false);
                if (!doc.is_discarded() && doc.is_object() && seed.lines.size() < runs) {
                    seed.lines.push_back(std::move(doc));
                }
            }
            out.push_back(std::move(seed));
        }
        return out;
    }();
    return all;
}

inline std::string line_text(json line, bool sealed) {
    if (sealed) {
        return store::sealed_text(std::move(line));
    }
    line.erase(store::k_seal_key);
    return line.dump(-1, ' ', false, json::error_handler_t::replace);
}

inline std::string file_text(const std::vector<json>& lines, bool sealed) {
    std::string text;
    for (const json& line : lines) {
        text += line_text(line, sealed) + "\n";
    }
    return text;
}

/// The leaves of one kind in `j`, as JSON pointers (keys: the pointer of the member whose key
/// is meant).
inline void leaves(const json& j, const json::json_pointer& at, int kind,
                   std::vector<json::json_pointer>& out) {
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            if (kind == 2) {
                out.push_back(at / key);
            }
            leaves(value, at / key, kind, out);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) {
            leaves(j[i], at / i, kind, out);
        }
    } else if ((kind == 0 && j.is_number()) || (kind == 1 && j.is_string())) {
        out.push_back(at);
    }
}

/// The little-endian number of up to 4 bytes of `input` from `at`.
inline std::uint32_t number_at(std::string_view input, std::size_t at) {
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < 4 && at + i < input.size(); ++i) {
        n |= static_cast<std::uint32_t>(static_cast<unsigned char>(input[at + i])) << (8 * i);
    }
    return n;
}

/// A damaged results.jsonl.
struct Damaged {
    const Seed* seed = nullptr;
    bool sealed = true;
    std::string original;
    std::string text;
    std::string what;
    /// A run or cell number changed in a line that still reads as written (sealed again, or
    /// never sealed): only plan.json can tell it, so without one the report's word that cells
    /// are rebuilt from the runs is all there is to say.
    bool needs_plan = false;
    /// Bytes changed in a line without a checksum, or a key renamed in a line that still reads as
    /// written: a changed value of the right type (a digit) or a name no reader knows cannot be
    /// told there (docs/results-format.md says so), so only the rest is checked.
    bool undetectable = false;
};

/// Applies the damage `input` chooses: byte 0 the seed, 1 the kind, 2 flags (bit 0: seal the
/// changed line again; bit 1: no line sealed), 3–6 a position, the rest a payload.
inline Damaged damage(std::string_view input) {
    Damaged d;
    const auto byte = [&](std::size_t i) {
        return i < input.size() ? static_cast<unsigned char>(input[i]) : 0u;
    };
    d.seed = &seeds()[byte(0) % seeds().size()];
    const unsigned kind = byte(1) % 8;
    const bool reseal = (byte(2) & 1U) != 0;
    d.sealed = (byte(2) & 2U) == 0;
    const std::uint32_t pos = number_at(input, 3);
    const std::string_view payload = input.size() > 7 ? input.substr(7) : std::string_view();
    std::vector<json> lines = d.seed->lines;
    d.original = file_text(lines, d.sealed);
    const std::size_t n = lines.size();
    const std::size_t target = n == 0 ? 0 : pos % n;
    // A changed line keeps its old checksum (unless sealed again), which then no longer fits.
    const auto put = [&](std::size_t i, json changed) {
        if (!reseal || !d.sealed) {
            changed[store::k_seal_key] = json::parse(line_text(lines[i], d.sealed), nullptr, false)
                                             .value(store::k_seal_key, json());
            if (changed[store::k_seal_key].is_null()) {
                changed.erase(store::k_seal_key);
            }
            lines[i] = std::move(changed);
            d.text = "";
            for (std::size_t k = 0; k < lines.size(); ++k) {
                d.text += (k == i ? lines[k].dump(-1, ' ', false, json::error_handler_t::replace)
                                  : line_text(lines[k], d.sealed))
                          + "\n";
            }
            return;
        }
        lines[i] = std::move(changed);
        d.text = file_text(lines, d.sealed);
    };
    d.text = d.original;
    // A key renamed in a line that still reads as written (sealed again, or never sealed) is a
    // field a newer or older pglab might have written: the round trip names those of the
    // record, but probes, settings, matrix values and bench documents take any name.
    d.undetectable =
        (!d.sealed && (kind == 0 || kind == 7)) || (kind == 3 && (reseal || !d.sealed));
    if (n == 0) {
        d.what = "no line";
        return d;
    }
    switch (kind) {
    case 0: { // bytes flipped
        const std::size_t at = pos % d.text.size();
        const std::string_view mask = payload.empty() ? std::string_view("\x01") : payload;
        for (std::size_t i = 0; i < 4 && i < mask.size() && at + i < d.text.size(); ++i) {
            d.text[at + i] = static_cast<char>(d.text[at + i] ^ (mask[i] == 0 ? 1 : mask[i]));
        }
        d.what = fmt::format("bytes flipped at {}", at);
        break;
    }
    case 1:   // a number into a string
    case 2:   // a string into a number
    case 3: { // a key renamed
        std::vector<json::json_pointer> found;
        leaves(lines[target], json::json_pointer(), static_cast<int>(kind - 1), found);
        found.erase(std::remove_if(found.begin(), found.end(),
                                   [](const json::json_pointer& p) {
                                       return p.to_string() == "/" + std::string(store::k_seal_key);
                                   }),
                    found.end());
        if (found.empty()) {
            d.what = "nothing of the kind";
            break;
        }
        const json::json_pointer& at = found[(pos / n) % found.size()];
        json changed = lines[target];
        if (kind == 1) {
            changed[at] = changed[at].dump();
        } else if (kind == 2) {
            changed[at] = payload.empty() ? 0 : static_cast<int>(payload[0]);
        } else {
            const std::string key = at.back();
            json& parent = changed[at.parent_pointer()];
            json value = parent[key];
            parent.erase(key);
            parent[(payload.empty() ? std::string("x") : std::string(payload.substr(0, 1)))
                   + key.substr(key.empty() ? 0 : 1)] = std::move(value);
        }
        d.what = fmt::format("line {}: {} at {}", target + 1,
                             kind == 1 ? "number to string"
                                       : (kind == 2 ? "string to number" : "key renamed"),
                             at.to_string());
        put(target, std::move(changed));
        break;
    }
    case 4: { // a line duplicated
        std::vector<std::string> text_lines = split_lines(d.original);
        const std::size_t to = (pos / n) % (n + 1);
        text_lines.insert(text_lines.begin() + static_cast<std::ptrdiff_t>(to), text_lines[target]);
        d.text.clear();
        for (const std::string& l : text_lines) {
            d.text += l + "\n";
        }
        d.what = fmt::format("line {} copied before line {}", target + 1, to + 1);
        break;
    }
    case 5: { // a run number changed
        json changed = lines[target];
        changed["run"] = lines[(pos / n) % n].value("run", 0) + (payload.empty() ? 0 : payload[0]);
        d.what = fmt::format("line {}: run {}", target + 1, changed["run"].dump());
        d.needs_plan = reseal || !d.sealed;
        put(target, std::move(changed));
        break;
    }
    case 6: { // a cell number changed
        json changed = lines[target];
        changed["cell"] = changed.value("cell", 0) + 1 + (payload.empty() ? 0 : payload[0] % 3);
        d.what = fmt::format("line {}: cell {}", target + 1, changed["cell"].dump());
        d.needs_plan = reseal || !d.sealed;
        put(target, std::move(changed));
        break;
    }
    default: { // bytes inserted
        const std::size_t at = pos % (d.text.size() + 1);
        d.text.insert(at, payload.empty() ? std::string_view("\"") : payload.substr(0, 64));
        d.what = fmt::format("bytes inserted at {}", at);
        break;
    }
    }
    return d;
}

/// The lines of `damaged` (numbered from 1) that are not the undamaged file's: between the
/// longest common head and tail, and any line with the same text as one of those.
inline std::set<std::size_t> touched_lines(const std::string& original,
                                           const std::string& damaged) {
    const std::vector<std::string> a = split_lines(original);
    const std::vector<std::string> b = split_lines(damaged);
    std::size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head]) {
        ++head;
    }
    std::size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head
           && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
        ++tail;
    }
    std::set<std::string> texts;
    std::set<std::size_t> out;
    for (std::size_t i = head; i < b.size() - tail; ++i) {
        out.insert(i + 1);
        texts.insert(b[i]);
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (texts.count(b[i]) != 0) {
            out.insert(i + 1);
        }
    }
    return out;
}

/// What a user sees of a report, its problems and warnings left out.
inline std::string view(const lab::report::ResultsDir& results, const lab::report::Report& report) {
    json doc = json::parse(lab::report::export_json(results, report));
    doc.erase("warnings");
    doc.erase("problems");
    return doc.dump() + "\n" + lab::report::export_checks_csv(results) + "\n"
           + lab::report::export_claims_csv(report);
}

/// Where two views part: "…was… / …now…", 30 characters around the first difference.
inline std::string first_difference(const std::string& was, const std::string& now) {
    const auto at = static_cast<std::size_t>(
        std::mismatch(was.begin(),
                      was.begin() + static_cast<std::ptrdiff_t>(std::min(was.size(), now.size())),
                      now.begin())
            .first
        - was.begin());
    const std::size_t from = at < 30 ? 0 : at - 30;
    return "\"" + was.substr(from, 60) + "\" became \"" + now.substr(from, 60) + "\"";
}

/// A scratch directory for the process, removed at exit.
inline const fs::path& scratch() {
    static const fs::path dir = [] {
        char tmpl[] = "/tmp/pglab-results-fuzz-XXXXXX";
        if (::mkdtemp(tmpl) == nullptr) {
            std::abort();
        }
        return fs::path(tmpl);
    }();

    static const struct Remover {
        ~Remover() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    } remover;

    return dir;
}

inline void write_dir(const fs::path& dir, const Seed& seed, const std::string& lines) {
    fs::remove_all(dir); // another seed's plan.json must not stay
    fs::create_directories(dir);
    if (!seed.plan.empty()) {
        std::ofstream(dir / "plan.json", std::ios::binary | std::ios::trunc) << seed.plan;
    }
    if (!seed.experiment.empty()) {
        std::ofstream(dir / "experiment.toml", std::ios::binary | std::ios::trunc)
            << seed.experiment;
    }
    std::ofstream(dir / "results.jsonl", std::ios::binary | std::ios::trunc) << lines;
}

/// `dir` as `scripts/doc-tables store` keeps a result: claims.csv as judged from `claims_csv`,
/// its runs under runs/ (results.jsonl.gz of `lines`).
inline void write_stored(const fs::path& dir, const Seed& seed, const std::string& claims_csv,
                         const std::string& lines) {
    write_dir(dir / "runs", seed, "");
    fs::remove(dir / "runs" / "results.jsonl");
    std::ofstream(dir / "claims.csv", std::ios::binary | std::ios::trunc) << claims_csv;
    gzFile gz = gzopen((dir / "runs" / "results.jsonl.gz").c_str(), "wb");
    if (gz == nullptr) {
        std::abort();
    }
    if (!lines.empty()) {
        gzwrite(gz, lines.data(), static_cast<unsigned>(lines.size()));
    }
    gzclose(gz);
}

/// Whether one of `problems` names one of `lines` ("FILE line N: …", FILE ending as `file`).
inline bool names_a_line(const std::vector<std::string>& problems, std::string_view file,
                         const std::set<std::size_t>& lines) {
    for (const std::string& p : problems) {
        const std::size_t at = p.find(std::string(file) + " line ");
        if (at == std::string::npos) {
            continue;
        }
        const std::size_t number = std::strtoul(p.c_str() + at + file.size() + 6, nullptr, 10);
        if (lines.count(number) != 0) {
            return true;
        }
    }
    return false;
}

/// The undamaged result's report, recheck verdicts and claims, once per seed and sealing.
struct Baseline {
    std::string view;
    std::string claims_csv;
    std::optional<lab::report::ResultsDir> results;
    bool recheck_clean = false;
};

inline lab::report::ReportOptions report_options() {
    lab::report::ReportOptions options;
    options.output_dir = scratch() / "report";
    return options;
}

inline const Baseline& baseline(const Seed& seed, bool sealed) {
    static std::map<std::pair<const Seed*, bool>, Baseline> cache;
    auto [it, fresh] = cache.try_emplace({&seed, sealed});
    if (!fresh) {
        return it->second;
    }
    Baseline& b = it->second;
    const fs::path dir = scratch() / fmt::format("baseline-{}-{}", &seed - seeds().data(), sealed);
    write_dir(dir, seed, file_text(seed.lines, sealed));
    auto results = lab::report::load_results(dir);
    if (!results) {
        std::abort(); // a fixture that cannot be read
    }
    const lab::report::Report report = lab::report::build_report(*results, report_options());
    b.view = view(*results, report);
    b.claims_csv = lab::report::export_claims_csv(report);
    b.results = std::move(*results);
    const fs::path stored = dir.string() + "-stored";
    write_stored(stored, seed, b.claims_csv, file_text(seed.lines, sealed));
    const auto recheck = lab::report::recheck_stored(stored);
    b.recheck_clean = recheck && recheck->differences.empty();
    return b;
}

} // namespace results_fuzz

/// "" when every check holds for the damage `input` chooses, else what went wrong (the fuzz
/// target aborts with it).
inline std::string check_results_input(std::string_view input) {
    using namespace results_fuzz;
    namespace rp = lab::report;
    const Damaged d = damage(input);
    const Baseline& base = baseline(*d.seed, d.sealed);
    const std::set<std::size_t> touched = touched_lines(d.original, d.text);
    const std::string context = fmt::format("{} ({}): ", d.seed->name, d.what);

    const fs::path dir = scratch() / "damaged";
    write_dir(dir, *d.seed, d.text);
    auto results = rp::load_results(dir);
    if (!results) {
        return results.error().message.empty() ? context + "an error without a message" : "";
    }
    // Every line that is not a finished run is named.
    std::set<std::size_t> kept;
    for (const auto& run : results->runs) {
        kept.insert(run.line);
    }
    const std::vector<std::string> lines = split_lines(d.text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].empty() && kept.count(i + 1) == 0
            && !names_a_line(results->problems, "results.jsonl", {i + 1})) {
            return context + fmt::format("line {} is not a run and nothing names it", i + 1);
        }
    }
    const rp::Report report = rp::build_report(*results, report_options());
    const std::string damaged_view = view(*results, report);
    const bool without_plan = d.needs_plan && d.seed->plan.empty()
                              && std::any_of(results->problems.begin(), results->problems.end(),
                                             [](const std::string& p) {
                                                 return p.rfind("plan.json is missing", 0) == 0;
                                             });
    const bool named =
        without_plan || d.undetectable || names_a_line(results->problems, "results.jsonl", touched);
    if (damaged_view != base.view && !named) {
        return context + "the report differs and no problem names a damaged line: "
               + first_difference(base.view, damaged_view);
    }
    const std::string exported = rp::export_json(*results, report);
    for (const std::string& p : results->problems) {
        if (exported.find(json(p).dump()) == std::string::npos) {
            return context + "a problem the report does not say: " + p;
        }
    }

    // compare, both ways, against the undamaged result.
    for (const bool damaged_first : {true, false}) {
        rp::CompareSide a{damaged_first ? &*results : &*base.results, {}, "a"};
        rp::CompareSide b{damaged_first ? &*base.results : &*results, {}, "b"};
        const auto comparison = rp::compare(a, b, rp::CompareOptions{});
        if (!comparison && comparison.error().message.empty()) {
            return context + "compare failed without a message";
        }
        if (comparison) {
            (void)rp::comparison_text(*comparison);
            (void)rp::comparison_json(*comparison);
        }
    }

    // --recheck of the damaged lines kept as a stored result's runs.
    if (base.recheck_clean) {
        const fs::path stored = scratch() / "stored";
        fs::remove_all(stored);
        write_stored(stored, *d.seed, base.claims_csv, d.text);
        const auto recheck = rp::recheck_stored(stored);
        if (!recheck) {
            return recheck.error().message.empty() ? context + "recheck failed without a message"
                                                   : "";
        }
        if (!recheck->differences.empty() && !d.undetectable
            && !names_a_line(recheck->problems, "runs/results.jsonl.gz", touched)) {
            return context + "recheck differs (" + recheck->differences.front()
                   + ") and no problem names a damaged line";
        }
    }
    return {};
}

} // namespace pglab::fuzz
