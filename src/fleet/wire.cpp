#include "fleet/wire.hpp"

#include <nlohmann/json.hpp>

namespace pglab::fleet {

namespace {

using nlohmann::json;

json simple_json(const stats::SimpleStats& s) {
    return json::array({s.count, s.min, s.max, s.sum, s.sum2});
}

stats::SimpleStats simple_from(const json& j) {
    stats::SimpleStats s;
    s.count = j.at(0).get<int64_t>();
    s.min = j.at(1).get<double>();
    s.max = j.at(2).get<double>();
    s.sum = j.at(3).get<double>();
    s.sum2 = j.at(4).get<double>();
    return s;
}

json tx_json(const bench::TxStats& t) {
    return json{{"count", t.count},
                {"skipped", t.skipped},
                {"serialization", t.serialization_failures},
                {"deadlock", t.deadlock_failures},
                {"other", t.other_failures},
                {"retried", t.retried},
                {"retries", t.retries},
                {"late", t.late},
                {"latency", simple_json(t.latency_us)},
                {"lag", simple_json(t.lag_us)},
                {"histogram", t.histogram.serialize()},
                {"service", t.service_histogram.serialize()}};
}

void tx_from(const json& j, bench::TxStats& t) {
    t.count = j.at("count").get<int64_t>();
    t.skipped = j.at("skipped").get<int64_t>();
    t.serialization_failures = j.at("serialization").get<int64_t>();
    t.deadlock_failures = j.at("deadlock").get<int64_t>();
    t.other_failures = j.at("other").get<int64_t>();
    t.retried = j.at("retried").get<int64_t>();
    t.retries = j.at("retries").get<int64_t>();
    t.late = j.at("late").get<int64_t>();
    t.latency_us = simple_from(j.at("latency"));
    t.lag_us = simple_from(j.at("lag"));
    if (!stats::LatencyHistogram::parse(j.at("histogram").get<std::string>(), t.histogram)
        || !stats::LatencyHistogram::parse(j.at("service").get<std::string>(),
                                           t.service_histogram)) {
        throw std::invalid_argument("bad histogram");
    }
}

json process_json(const bench::ProcessStats& p) {
    return json{{"rank", p.rank},          {"host", p.host},       {"pid", p.pid},
                {"clients", p.clients},    {"threads", p.threads}, {"cpu_s", p.cpu_s},
                {"cpu_share", p.cpu_share}};
}

void process_from(const json& j, bench::ProcessStats& p) {
    p.rank = j.at("rank").get<int>();
    p.host = j.at("host").get<std::string>();
    p.pid = j.at("pid").get<int64_t>();
    p.clients = j.at("clients").get<int>();
    p.threads = j.at("threads").get<int>();
    p.cpu_s = j.at("cpu_s").get<double>();
    p.cpu_share = j.at("cpu_share").get<double>();
}

} // namespace

std::string encode_part(const Part& part) {
    const bench::RunResult& r = part.result;
    json scripts = json::array();
    for (const bench::ScriptStats& s : r.scripts) {
        json commands = json::array();
        for (const bench::CommandStats& c : s.commands) {
            commands.push_back(json::array({simple_json(c.elapsed_us), c.failures, c.retries}));
        }
        scripts.push_back(json{{"tx", tx_json(s.tx)}, {"commands", std::move(commands)}});
    }
    json series = json::array();
    for (const bench::SecondStats& s : r.series) {
        series.push_back(json::array({s.epoch_s, s.count, s.failures, s.skipped, s.latency_sum_us,
                                      s.latency_p99_us, s.latency_max_us}));
    }
    const json j{{"total", tx_json(r.total)},
                 {"scripts", std::move(scripts)},
                 {"aborted", r.aborted_clients},
                 {"duration_us", r.bench_duration_us},
                 {"conn_us", r.conn_total_us},
                 {"start_wall_us", r.start_wall_us},
                 {"thread_cpus", r.thread_cpus},
                 {"thread_socket_io", r.thread_socket_io},
                 {"stop_signal", r.stop_signal},
                 {"series", std::move(series)},
                 {"process", process_json(part.process)}};
    return j.dump();
}

Result<Part> decode_part(const std::string& text) {
    try {
        const json j = json::parse(text);
        Part part;
        bench::RunResult& r = part.result;
        tx_from(j.at("total"), r.total);
        for (const json& s : j.at("scripts")) {
            bench::ScriptStats& out = r.scripts.emplace_back();
            tx_from(s.at("tx"), out.tx);
            for (const json& c : s.at("commands")) {
                bench::CommandStats& cs = out.commands.emplace_back();
                cs.elapsed_us = simple_from(c.at(0));
                cs.failures = c.at(1).get<int64_t>();
                cs.retries = c.at(2).get<int64_t>();
            }
        }
        r.aborted_clients = j.at("aborted").get<int64_t>();
        r.bench_duration_us = j.at("duration_us").get<usec_t>();
        r.conn_total_us = j.at("conn_us").get<usec_t>();
        r.start_wall_us = j.at("start_wall_us").get<usec_t>();
        r.thread_cpus = j.at("thread_cpus").get<std::vector<int>>();
        r.thread_socket_io = j.at("thread_socket_io").get<std::vector<std::string>>();
        r.stop_signal = j.at("stop_signal").get<int>();
        r.interrupted = r.stop_signal != 0;
        for (const json& s : j.at("series")) {
            r.series.push_back(bench::SecondStats{s.at(0).get<int64_t>(), s.at(1).get<int64_t>(),
                                                  s.at(2).get<int64_t>(), s.at(3).get<int64_t>(),
                                                  s.at(4).get<double>(), s.at(5).get<int64_t>(),
                                                  s.at(6).get<int64_t>()});
        }
        process_from(j.at("process"), part.process);
        return part;
    } catch (const std::exception& e) {
        return make_error(std::string("malformed result from a fleet process: ") + e.what());
    }
}

} // namespace pglab::fleet
