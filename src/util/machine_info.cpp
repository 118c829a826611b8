// The machine's CPU model, cores, memory and kernel, from /proc and uname().
#include "util/machine_info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace pglab::util {

MachineInfo read_machine_info(const std::filesystem::path& proc_root) {
    MachineInfo m;
    std::ifstream cpuinfo(proc_root / "cpuinfo");
    std::string line;
    while (m.cpu_model.empty() && std::getline(cpuinfo, line)) {
        // "model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz"
        const std::size_t colon = line.find(':');
        if (line.rfind("model name", 0) == 0 && colon != std::string::npos) {
            const std::size_t begin = line.find_first_not_of(" \t", colon + 1);
            m.cpu_model = begin == std::string::npos ? "" : line.substr(begin);
        }
    }
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    m.cores = online > 0 ? static_cast<int>(online) : 0;
    std::ifstream meminfo(proc_root / "meminfo");
    while (std::getline(meminfo, line)) {
        if (line.rfind("MemTotal:", 0) == 0) { // "MemTotal:       24641796 kB"
            std::istringstream fields(line.substr(9));
            std::int64_t kb = 0;
            fields >> kb;
            m.memory_bytes = kb > 0 ? kb * 1024 : 0;
            break;
        }
    }
    utsname u{};
    if (::uname(&u) == 0) {
        m.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
    }
    return m;
}

} // namespace pglab::util
