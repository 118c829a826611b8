// Other benchmarks on this machine (probe.hpp: benchmark_neighbours): a run measured while
// another pglab or pgbench takes CPU measures the two together, and says so.
#include "lab/probe/probe.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <system_error>

namespace pglab::lab::probe {

namespace fs = std::filesystem;

namespace {

std::optional<ProcStat> stat_of(const fs::path& proc_root, pid_t pid) {
    std::ifstream in(proc_root / std::to_string(pid) / "stat");
    std::string line;
    if (!in || !std::getline(in, line)) {
        return std::nullopt;
    }
    return parse_proc_stat(line);
}

std::string comm_of(const fs::path& proc_root, pid_t pid) {
    std::ifstream in(proc_root / std::to_string(pid) / "comm");
    std::string comm;
    std::getline(in, comm);
    return comm;
}

double ticks_to_s(long long ticks) {
    static const long hz = ::sysconf(_SC_CLK_TCK);
    return static_cast<double>(ticks) / static_cast<double>(hz > 0 ? hz : 100);
}

} // namespace

std::vector<Neighbour> benchmark_neighbours(pid_t self, const fs::path& proc_root) {
    std::map<pid_t, ProcStat> all; // every process, for the parent chains
    std::error_code ec;
    for (fs::directory_iterator it(proc_root, ec), end; !ec && it != end; it.increment(ec)) {
        pid_t pid = 0;
        const std::string name = it->path().filename().string();
        const auto [p, err] = std::from_chars(name.data(), name.data() + name.size(), pid);
        if (err != std::errc{} || p != name.data() + name.size()) {
            continue;
        }
        if (auto st = stat_of(proc_root, pid)) {
            all.emplace(pid, *st);
        }
    }
    const auto descends_from_self = [&](pid_t pid) {
        for (int depth = 0; pid > 1 && depth < 64; ++depth) {
            if (pid == self) {
                return true;
            }
            const auto it = all.find(pid);
            if (it == all.end()) {
                return false;
            }
            pid = it->second.ppid;
        }
        return false;
    };
    std::vector<Neighbour> out;
    for (const auto& [pid, st] : all) {
        const std::string comm = comm_of(proc_root, pid);
        if ((comm != "pglab" && comm != "pgbench") || descends_from_self(pid)) {
            continue;
        }
        const long long ticks = static_cast<long long>(st.utime + st.stime) + st.cutime + st.cstime;
        out.push_back(Neighbour{pid, comm, ticks_to_s(ticks)});
    }
    return out;
}

std::vector<std::string> neighbour_cpu_since(const std::vector<Neighbour>& before,
                                             const std::vector<Neighbour>& after, double least_s) {
    std::vector<std::string> out;
    for (const Neighbour& n : after) {
        const auto was = std::find_if(before.begin(), before.end(),
                                      [&](const Neighbour& b) { return b.pid == n.pid; });
        // One that started meanwhile used all its CPU since.
        const double used = n.cpu_s - (was != before.end() ? was->cpu_s : 0.0);
        if (used > least_s) {
            out.push_back(fmt::format("{} (pid {}): {:.1f} s of CPU", n.command, n.pid, used));
        }
    }
    return out;
}

} // namespace pglab::lab::probe
