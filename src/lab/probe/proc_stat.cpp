// Reading /proc: CPU times of the postmaster and its children, and of this process.
#include "lab/probe/probe.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <system_error>

namespace pglab::lab::probe {

namespace fs = std::filesystem;

namespace {

template <class T>
bool parse_number(std::string_view text, T& out) {
    const auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), out);
    return err == std::errc{} && end == text.data() + text.size();
}

std::optional<std::string> read_first_line(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) {
        return std::nullopt;
    }
    return line;
}

std::optional<ProcStat> read_proc_stat(const fs::path& proc_root, pid_t pid) {
    const std::optional<std::string> line =
        read_first_line(proc_root / std::to_string(pid) / "stat");
    if (!line) {
        return std::nullopt;
    }
    return parse_proc_stat(*line);
}

double ticks_to_seconds(long long ticks) {
    static const long hz = ::sysconf(_SC_CLK_TCK);
    return static_cast<double>(ticks) / static_cast<double>(hz > 0 ? hz : 100);
}

} // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view line) {
    // "pid (comm) state ppid ...": comm may hold anything, so split at the last ')'.
    const size_t open = line.find(" (");
    const size_t close = line.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
        return std::nullopt;
    }
    ProcStat st;
    if (!parse_number(line.substr(0, open), st.pid)) {
        return std::nullopt;
    }
    // Fields after comm, numbered as in proc(5): 3 state, 4 ppid, 14 utime, 15 stime,
    // 16 cutime, 17 cstime.
    std::vector<std::string_view> fields;
    std::string_view rest = line.substr(close + 1);
    while (!rest.empty() && fields.size() < 15) {
        const size_t start = rest.find_first_not_of(' ');
        if (start == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(start);
        const size_t end = rest.find(' ');
        fields.push_back(rest.substr(0, end));
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
    }
    if (fields.size() < 15) {
        return std::nullopt;
    }
    auto field = [&](int number) { return fields[static_cast<size_t>(number - 3)]; };
    if (!parse_number(field(4), st.ppid) || !parse_number(field(14), st.utime)
        || !parse_number(field(15), st.stime) || !parse_number(field(16), st.cutime)
        || !parse_number(field(17), st.cstime)) {
        return std::nullopt;
    }
    return st;
}

std::optional<CpuTimes> server_cpu_times(pid_t postmaster_pid, const fs::path& proc_root) {
    if (postmaster_pid <= 0) {
        return std::nullopt;
    }
    const std::optional<ProcStat> postmaster = read_proc_stat(proc_root, postmaster_pid);
    if (!postmaster) {
        return std::nullopt;
    }
    long long user = static_cast<long long>(postmaster->utime) + postmaster->cutime;
    long long system = static_cast<long long>(postmaster->stime) + postmaster->cstime;
    std::error_code ec;
    for (fs::directory_iterator it(proc_root, ec), end; !ec && it != end; it.increment(ec)) {
        pid_t pid = 0;
        if (!parse_number(it->path().filename().string(), pid) || pid == postmaster_pid) {
            continue;
        }
        // A child that exits meanwhile is gone here and not yet in the postmaster's cutime
        // (read above) or already in it: a few ticks may be lost or counted twice.
        const std::optional<ProcStat> child = read_proc_stat(proc_root, pid);
        if (child && child->ppid == postmaster_pid) {
            user += static_cast<long long>(child->utime) + child->cutime;
            system += static_cast<long long>(child->stime) + child->cstime;
        }
    }
    return CpuTimes{ticks_to_seconds(user), ticks_to_seconds(system)};
}

CpuTimes client_cpu_times() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& tv) {
        return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
    };
    return CpuTimes{seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

std::optional<HostCpu> parse_host_cpu(std::string_view cpu_line) {
    if (!cpu_line.starts_with("cpu ")) {
        return std::nullopt;
    }
    // user nice system idle iowait irq softirq steal: the first 8 fields, in clock ticks.
    long long ticks[8] = {};
    std::string_view rest = cpu_line.substr(4);
    for (long long& t : ticks) {
        while (!rest.empty() && rest.front() == ' ') {
            rest.remove_prefix(1);
        }
        const size_t end = std::min(rest.find(' '), rest.size());
        if (end == 0 || !parse_number(rest.substr(0, end), t)) {
            return std::nullopt;
        }
        rest.remove_prefix(end);
    }
    // Processes' time only (user, nice, system): interrupts and softirqs are mostly the work the
    // benchmark itself causes (its sockets, its disk), not another process's.
    const long long busy = ticks[0] + ticks[1] + ticks[2];
    return HostCpu{ticks_to_seconds(busy), ticks_to_seconds(ticks[7])};
}

std::optional<HostCpu> host_cpu_times(const fs::path& proc_root) {
    std::ifstream in(proc_root / "stat");
    std::string line;
    if (!std::getline(in, line)) {
        return std::nullopt;
    }
    std::optional<HostCpu> host = parse_host_cpu(line);
    // The CPUs the first line sums, from the same file: a share of the machine (host.cpu_pct)
    // then counts what its seconds count, under a test's proc_root too.
    while (host && std::getline(in, line) && line.starts_with("cpu")) {
        if (line.size() > 3 && line[3] >= '0' && line[3] <= '9') {
            ++host->cpus;
        }
    }
    return host;
}

} // namespace pglab::lab::probe
