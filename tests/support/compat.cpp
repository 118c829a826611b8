// Normalisation and comparison of two command results for compatibility tests.
#include "support/compat.hpp"

#include <regex>
#include <sstream>

namespace support {

namespace {

std::string_view trim(std::string_view s) {
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) {
        return {};
    }
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        lines.push_back(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    }
    return lines;
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
        s.replace(at, from.size(), to);
    }
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) {
        out += "  " + s + "\n";
    }
    return out;
}

} // namespace

std::vector<std::string> stdout_keys(std::string_view out) {
    // Measured numbers inside a key (the per-command lines of -r start with their latency)
    // are masked; counts are compared separately where they are deterministic.
    static const std::regex number(R"(\d+(\.\d+)?)");
    std::vector<std::string> keys;
    bool first = true;
    for (const std::string_view line : lines_of(out)) {
        const std::string_view t = trim(line);
        if (t.empty()) {
            continue;
        }
        // The banner is a key as a whole: pglab's must be pgbench's, byte for byte
        // ("pgbench (15.18 (Debian 15.18-0+deb12u1))").
        if (first && t.substr(0, 9) == "pgbench (") {
            keys.emplace_back(t);
            first = false;
            continue;
        }
        first = false;
        const std::string key(trim(t.substr(0, t.find_first_of(":="))));
        keys.push_back(std::regex_replace(key, number, "#"));
    }
    return keys;
}

std::vector<std::string> masked_stdout_keys(std::string_view out) {
    static const std::regex number(R"(-?\d+(\.\d+)?)");
    std::vector<std::string> keys = stdout_keys(out);
    for (auto& key : keys) {
        key = std::regex_replace(key, number, "N");
    }
    return keys;
}

std::string normalise_stderr(std::string_view err, const CompareOptions& options) {
    static const std::regex decimal(R"(\d+\.\d+)");
    std::string out;
    for (std::string_view line : lines_of(err)) {
        for (const std::string_view prefix : {"pgbench: ", "pglab bench: ", "pglab: "}) {
            if (line.substr(0, prefix.size()) == prefix) {
                line.remove_prefix(prefix.size());
                break;
            }
        }
        if (options.ignore_progress && line.substr(0, 10) == "progress: ") {
            continue;
        }
        std::string l(line);
        replace_all(l, "pglab bench", "pgbench");
        if (options.mask_decimals) {
            l = std::regex_replace(l, decimal, "<num>");
        }
        out += l + "\n";
    }
    return out;
}

::testing::AssertionResult same_behaviour(const CommandResult& pgbench, const CommandResult& pglab,
                                          const CompareOptions& options) {
    std::ostringstream why;
    if (pgbench.exit_code != pglab.exit_code || pgbench.signal != pglab.signal) {
        why << "exit codes differ: pgbench " << pgbench.exit_code << ", pglab " << pglab.exit_code
            << "\n";
    }
    const std::vector<std::string> a = stdout_keys(pgbench.out);
    std::vector<std::string> b = stdout_keys(pglab.out);
    if (options.allow_extra_trailing_stdout && b.size() > a.size()) {
        b.resize(a.size());
    }
    if (a != b) {
        why << "stdout keys differ:\npgbench:\n" << join(a) << "pglab:\n" << join(b);
    }
    const std::string ea = normalise_stderr(pgbench.err, options);
    const std::string eb = normalise_stderr(pglab.err, options);
    if (ea != eb) {
        why << "normalised stderr differs:\n--- pgbench ---\n" << ea << "--- pglab ---\n" << eb;
    }
    if (why.str().empty()) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << why.str() << "\n=== pgbench ===\n"
                                         << describe(pgbench) << "\n=== pglab ===\n"
                                         << describe(pglab);
}

} // namespace support
