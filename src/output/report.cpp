// format_report: pgbench's printResults() of the selected release (15 to 19), condition for
// condition and formula for formula, formatted with pg_format so NaN prints as pgbench prints it.
#include "output/report.hpp"

#include "output/percentile_block.hpp"
#include "stats/pg_format.hpp"
#include "util/named_values.hpp"

#include <cmath>
#include <cstdio>

namespace pglab::output {

namespace {

using stats::pg_append;

long long ll(int64_t v) {
    return static_cast<long long>(v);
}

/// pgbench's printSimpleStats(): average and population stddev in ms, nothing when empty.
/// The variance is not clamped at 0, as in pgbench (rounding can make it "NaN").
void append_simple_stats(std::string& out, const char* prefix, const stats::SimpleStats& ss) {
    if (ss.count <= 0) {
        return;
    }
    const auto n = static_cast<double>(ss.count);
    const double latency = ss.sum / n;
    const double stddev = std::sqrt(ss.sum2 / n - latency * latency);
    pg_append(out, "%s average = %.3f ms\n", prefix, 0.001 * latency);
    pg_append(out, "%s stddev = %.3f ms\n", prefix, 0.001 * stddev);
}

/// The failure and retry lines of the whole run (`prefix` "") or of one script (" - "); the
/// percentages are of `total_cnt` (successful + skipped + failed transactions).
void append_failure_lines(std::string& out, const char* prefix, const bench::RunConfig& config,
                          const bench::TxStats& s, double total_cnt) {
    pg_append(out, "%snumber of failed transactions: %lld (%.3f%%)\n", prefix, ll(s.failures()),
              100.0 * static_cast<double>(s.failures()) / total_cnt);
    if (config.failures_detailed) {
        pg_append(out, "%snumber of serialization failures: %lld (%.3f%%)\n", prefix,
                  ll(s.serialization_failures),
                  100.0 * static_cast<double>(s.serialization_failures) / total_cnt);
        pg_append(out, "%snumber of deadlock failures: %lld (%.3f%%)\n", prefix,
                  ll(s.deadlock_failures),
                  100.0 * static_cast<double>(s.deadlock_failures) / total_cnt);
        if (config.pgbench->continue_on_error) {
            pg_append(out, "%snumber of other failures: %lld (%.3f%%)\n", prefix,
                      ll(s.other_failures),
                      100.0 * static_cast<double>(s.other_failures) / total_cnt);
        }
    }
    if (config.max_tries != 1) {
        pg_append(out, "%snumber of transactions retried: %lld (%.3f%%)\n", prefix, ll(s.retried),
                  100.0 * static_cast<double>(s.retried) / total_cnt);
        pg_append(out, "%stotal number of retries: %lld\n", prefix, ll(s.retries));
    }
}

/// The per-script block (only with more than one script). Up to 17 a script's line counts its
/// successful transactions; 18 counts all of them and gives the successful ones a line of their
/// own, and prints the failure lines only for a script that ran.
void append_script_stats(std::string& out, const bench::RunConfig& config,
                         const bench::RunResult& result, size_t i, int total_weight,
                         double bench_duration) {
    const script::Script& script = config.scripts.scripts()[i];
    static const bench::TxStats k_empty;
    const bench::TxStats& s = i < result.scripts.size() ? result.scripts[i].tx : k_empty;
    const int64_t failures = s.failures();
    const int64_t script_total = s.count + s.skipped + failures;
    const auto total_cnt = static_cast<double>(script_total);
    const double tps = static_cast<double>(s.count) / bench_duration;
    const bool skipped_line = config.rate_tps > 0 && config.latency_limit_us > 0;

    pg_append(out, "SQL script %d: %s\n - weight: %d (targets %.1f%% of total)\n",
              static_cast<int>(i + 1), script.desc.c_str(), script.weight,
              100.0 * script.weight / total_weight);
    if (config.pgbench->per_script_processed_line) {
        const bench::TxStats& all = result.total;
        const auto run_total = static_cast<double>(all.count + all.skipped + all.failures());
        pg_append(out, " - %lld transactions (%.1f%% of total)\n", ll(script_total),
                  100.0 * total_cnt / run_total);
        if (script_total > 0) {
            pg_append(out, " - number of transactions actually processed: %lld (tps = %f)\n",
                      ll(s.count), tps);
            append_failure_lines(out, " - ", config, s, total_cnt);
            if (skipped_line) {
                pg_append(out, " - number of transactions skipped: %lld (%.3f%%)\n", ll(s.skipped),
                          100.0 * static_cast<double>(s.skipped) / total_cnt);
            }
        }
    } else {
        pg_append(out, " - %lld transactions (%.1f%% of total, tps = %f)\n", ll(s.count),
                  100.0 * static_cast<double>(s.count) / static_cast<double>(result.total.count),
                  tps);
        append_failure_lines(out, " - ", config, s, total_cnt);
        if (skipped_line && script_total > 0) {
            pg_append(out, " - number of transactions skipped: %lld (%.3f%%)\n", ll(s.skipped),
                      100.0 * static_cast<double>(s.skipped) / total_cnt);
        }
    }
    append_simple_stats(out, " - latency", s.latency_us);
}

/// The -r lines of script `i`: average ms, failures, [retries], the command's first line.
void append_command_stats(std::string& out, const bench::RunConfig& config,
                          const bench::RunResult& result, size_t i, bool per_script) {
    const script::Script& script = config.scripts.scripts()[i];
    pg_append(out, "%sstatement latencies in milliseconds%s:\n", per_script ? " - " : "",
              config.max_tries == 1 ? " and failures" : ", failures and retries");
    static const bench::CommandStats k_empty;
    for (size_t c = 0; c < script.commands.size(); ++c) {
        const bench::CommandStats& cs =
            i < result.scripts.size() && c < result.scripts[i].commands.size()
                ? result.scripts[i].commands[c]
                : k_empty;
        const double avg_ms =
            cs.elapsed_us.count > 0
                ? 0.001 * cs.elapsed_us.sum / static_cast<double>(cs.elapsed_us.count)
                : 0.0;
        const char* text = script.commands[c].first_line.c_str();
        const char* gap = config.pgbench->narrow_command_lines ? " " : "  "; // 18: one space
        if (config.max_tries == 1) {
            pg_append(out, "   %11.3f  %10lld%s%s\n", avg_ms, ll(cs.failures), gap, text);
        } else {
            pg_append(out, "   %11.3f  %10lld%s%10lld%s%s\n", avg_ms, ll(cs.failures), gap,
                      ll(cs.retries), gap, text);
        }
    }
}

/// The run's description: script, scale, partitions, mode, clients, threads, tries, and the
/// transactions asked for and processed.
void append_header(std::string& out, const bench::RunConfig& config,
                   const bench::RunResult& result) {
    const auto& scripts = config.scripts.scripts();
    const bench::TxStats& total = result.total;
    pg_append(out, "transaction type: %s\n",
              scripts.size() == 1 ? scripts[0].desc.c_str() : "multiple scripts");
    pg_append(out, "scaling factor: %d\n", result.scale);
    if (!result.partition_method.empty()) {
        pg_append(out, "partition method: %s\npartitions: %d\n", result.partition_method.c_str(),
                  result.partitions);
    }
    pg_append(out, "query mode: %s\n", util::name_of(script::k_query_modes, config.query_mode));
    pg_append(out, "number of clients: %d\n", config.clients);
    pg_append(out, "number of threads: %d\n", config.threads);
    if (config.max_tries != 0) {
        pg_append(out, "maximum number of tries: %u\n", config.max_tries);
    }
    if (config.duration_s <= 0) {
        // pgbench multiplies two ints; the truncation keeps its wrap-around.
        const auto nxacts = static_cast<int>(config.transactions);
        pg_append(out, "number of transactions per client: %d\n", nxacts);
        pg_append(out, "number of transactions actually processed: %lld/%d\n", ll(total.count),
                  static_cast<int>(static_cast<int64_t>(nxacts) * config.clients));
    } else {
        pg_append(out, "duration: %d s\n", config.duration_s);
        pg_append(out, "number of transactions actually processed: %lld\n", ll(total.count));
    }
}

/// The figures of a run that processed transactions: skipped and late ones, latency, the rate
/// limit's lag, connection time and tps.
void append_figures(std::string& out, const bench::RunConfig& config,
                    const bench::RunResult& result, double total_cnt) {
    const bench::TxStats& total = result.total;
    const int64_t failures = total.failures();
    const double tps = static_cast<double>(total.count)
                       / (0.000001 * static_cast<double>(result.bench_duration_us));
    const bool throttled = config.rate_tps > 0;
    const bool limited = config.latency_limit_us > 0;
    if (throttled && limited) {
        pg_append(out, "number of transactions skipped: %lld (%.3f%%)\n", ll(total.skipped),
                  100.0 * static_cast<double>(total.skipped) / total_cnt);
    }
    if (limited) {
        pg_append(
            out, "number of transactions above the %.1f ms latency limit: %lld/%lld (%.3f%%)\n",
            static_cast<double>(config.latency_limit_us) / 1000.0, ll(total.late), ll(total.count),
            total.count > 0
                ? 100.0 * static_cast<double>(total.late) / static_cast<double>(total.count)
                : 0.0);
    }
    if (config.measure_latency()) {
        append_simple_stats(out, "latency", total.latency_us);
    } else {
        // Not measured per transaction: derived from the run time, as pgbench does.
        pg_append(out, "latency average = %.3f ms%s\n",
                  0.001 * static_cast<double>(result.bench_duration_us) * config.clients
                      / total_cnt,
                  failures > 0 ? " (including failures)" : "");
    }
    if (throttled) {
        pg_append(out, "rate limit schedule lag: avg %.3f (max %.3f) ms\n",
                  0.001 * total.lag_us.sum / static_cast<double>(total.count),
                  0.001 * total.lag_us.max);
    }
    if (config.connect_per_tx) {
        pg_append(out, "average connection time = %.3f ms\n",
                  0.001 * static_cast<double>(result.conn_total_us)
                      / static_cast<double>(total.count + failures));
        pg_append(out, "tps = %f (including reconnection times)\n", tps);
    } else {
        pg_append(out, "initial connection time = %.3f ms\n",
                  0.001 * static_cast<double>(result.conn_total_us));
        pg_append(out, "tps = %f (without initial connection time)\n", tps);
    }
}

} // namespace

std::string format_pgbench_report(const bench::RunConfig& config, const bench::RunResult& result) {
    const auto& scripts = config.scripts.scripts();
    const bench::TxStats& total = result.total;
    const int64_t failures = total.failures();
    // pgbench divides by this int64 converted to double: 0 gives NaN percentages.
    const auto total_cnt = static_cast<double>(total.count + total.skipped + failures);
    const double bench_duration = 0.000001 * static_cast<double>(result.bench_duration_us);
    std::string out;
    append_header(out, config, result);
    // The remaining figures are meaningless when no transaction was executed: up to 17 the
    // failure lines come first (with NaN percentages when nothing ran at all); 18 stops before.
    if (config.pgbench->report_ends_when_nothing_ran) {
        if (total_cnt <= 0) {
            return out;
        }
        append_failure_lines(out, "", config, total, total_cnt);
    } else {
        append_failure_lines(out, "", config, total, total_cnt);
        if (total.count + total.skipped <= 0) {
            return out;
        }
    }

    append_figures(out, config, result, total_cnt);

    const bool per_script = scripts.size() > 1;
    if (per_script || config.report_per_command) {
        int total_weight = 0;
        for (const auto& s : scripts) {
            total_weight += s.weight;
        }
        for (size_t i = 0; i < scripts.size(); ++i) {
            if (per_script) {
                append_script_stats(out, config, result, i, total_weight, bench_duration);
            }
            if (config.report_per_command) {
                append_command_stats(out, config, result, i, per_script);
            }
        }
    }
    return out;
}

std::string format_report(const bench::RunConfig& config, const bench::RunResult& result) {
    std::string text = format_pgbench_report(config, result);
    if (config.percentiles) {
        text += percentile_block(config, result);
    }
    return text;
}

void print_report(const bench::RunConfig& config, const bench::RunResult& result, std::FILE* out) {
    const std::string text = format_report(config, result);
    std::fwrite(text.data(), 1, text.size(), out);
}

} // namespace pglab::output
