#include "fleet/launcher.hpp"

#include <cstdlib>

namespace pglab::fleet {

namespace {

std::optional<int> int_var(const std::function<std::optional<std::string>(const char*)>& getenv,
                           const char* name) {
    const auto text = getenv(name);
    if (!text || text->empty()) {
        return std::nullopt;
    }
    char* end = nullptr;
    const long v = std::strtol(text->c_str(), &end, 10);
    if (*end != '\0' || v < 0 || v > 1 << 24) {
        return std::nullopt;
    }
    return static_cast<int>(v);
}

} // namespace

std::optional<LaunchInfo>
detect_launcher(const std::function<std::optional<std::string>(const char*)>& getenv) {
    struct Pair {
        const char* rank;
        const char* size;
    };

    for (const Pair& p : {Pair{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                          Pair{"PMI_RANK", "PMI_SIZE"}, Pair{"PMIX_RANK", "SLURM_NTASKS"}}) {
        if (const auto rank = int_var(getenv, p.rank)) {
            return LaunchInfo{*rank, int_var(getenv, p.size).value_or(0)};
        }
    }
    return std::nullopt;
}

std::optional<LaunchInfo> detect_launcher() {
    return detect_launcher([](const char* name) -> std::optional<std::string> {
        const char* v = std::getenv(name);
        return v != nullptr ? std::optional<std::string>(v) : std::nullopt;
    });
}

bool built_with_mpi() {
#ifdef PGLAB_HAVE_MPI
    return true;
#else
    return false;
#endif
}

} // namespace pglab::fleet
