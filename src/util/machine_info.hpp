// The machine pglab runs on, as results record it and reports show it: CPU model, cores, memory
// and kernel, read from /proc and uname(). Linux only; what cannot be read stays unknown.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace pglab::util {

struct MachineInfo {
    std::string cpu_model;         ///< the first "model name" of cpuinfo; "" when unknown
    int cores = 0;                 ///< online CPUs (sysconf); 0 when unknown
    std::int64_t memory_bytes = 0; ///< MemTotal of meminfo; 0 when unknown
    std::string kernel;            ///< uname "sysname release machine"; "" when unknown

    bool operator==(const MachineInfo&) const = default;
};

/// This machine, with cpuinfo and meminfo read under `proc_root` (tests give a directory of
/// their own). Never fails: a file or line that is missing leaves its field unknown.
MachineInfo read_machine_info(const std::filesystem::path& proc_root = "/proc");

} // namespace pglab::util
