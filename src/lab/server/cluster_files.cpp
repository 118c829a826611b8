// lab/server: cluster_files.hpp.
#include "lab/server/cluster_files.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace pglab::lab::server {

namespace fs = std::filesystem;

std::string tail_lines(const std::string& text, int lines) {
    size_t pos = text.size();
    if (pos > 0 && text[pos - 1] == '\n') {
        --pos;
    }
    for (int i = 0; i < lines && pos != std::string::npos && pos > 0; ++i) {
        pos = text.rfind('\n', pos - 1);
    }
    return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

Status write_file(const fs::path& path, const std::string& text, std::ios::openmode mode) {
    std::ofstream out(path, std::ios::binary | mode);
    out << text;
    out.close();
    if (!out) {
        return make_error(fmt::format("could not write \"{}\"", path.string()));
    }
    return {};
}

Status make_directory(const fs::path& path) {
    std::error_code ec;
    fs::create_directory(path, ec);
    if (ec) {
        return make_error(
            fmt::format("could not create directory \"{}\": {}", path.string(), ec.message()));
    }
    return {};
}

Status chown_to(const fs::path& path, const std::optional<util::RunAs>& who) {
    if (who && ::chown(path.c_str(), who->uid, who->gid) != 0) {
        return make_error(fmt::format("could not change owner of \"{}\" to \"{}\": {}",
                                      path.string(), who->name, std::strerror(errno)));
    }
    return {};
}

std::string pid_namespace() {
    std::error_code ec;
    const fs::path ns = fs::read_symlink("/proc/self/ns/pid", ec);
    return ec ? std::string("unknown") : ns.string();
}

bool copy_tree(const fs::path& from, const fs::path& to) {
    util::SpawnOptions o;
    o.argv = {"cp", "-a", from.string(), to.string()};
    o.output = util::Output::discard;
    const auto r = util::run_process(o);
    return r && r->status.success();
}

Status tool_succeeded(std::string_view tool, const util::ProcessResult& r) {
    if (r.status.success()) {
        return {};
    }
    return make_error(
        Error(fmt::format("{} {}{}", tool, r.status.describe(), r.timed_out ? " (timed out)" : ""))
            .with_detail(tail_lines(r.out + r.err, 15)));
}

} // namespace pglab::lab::server
