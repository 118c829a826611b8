// util: the words of a child process for people and for the system: a command line quoted as a
// shell would read it, a user looked up by name, and a failed child told as an error
// (subprocess.hpp declares them).
#include "util/subprocess.hpp"

#include <fmt/format.h>

#include <pwd.h>

#include <vector>

namespace pglab::util {

Result<RunAs> lookup_user(const std::string& name) {
    passwd pw{};
    passwd* found = nullptr;
    std::vector<char> buf(16384);
    const int rc = ::getpwnam_r(name.c_str(), &pw, buf.data(), buf.size(), &found);
    if (rc != 0 || found == nullptr) {
        return make_error(fmt::format("user \"{}\" does not exist", name));
    }
    return RunAs{pw.pw_uid, pw.pw_gid, pw.pw_name, pw.pw_dir != nullptr ? pw.pw_dir : "/"};
}

std::string quote_command(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) {
        if (!out.empty()) {
            out += ' ';
        }
        const bool plain = !a.empty()
                           && a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                  "abcdefghijklmnopqrstuvwxyz"
                                                  "0123456789_./=:,+-")
                                  == std::string::npos;
        if (plain) {
            out += a;
            continue;
        }
        out += '\'';
        for (const char c : a) {
            if (c == '\'') {
                out += "'\\''";
            } else {
                out += c;
            }
        }
        out += '\'';
    }
    return out;
}

Result<ProcessResult> run_checked(const SpawnOptions& options) {
    PGLAB_TRY_ASSIGN(ProcessResult r, run_process(options));
    if (r.status.success() && !r.timed_out && !r.stopped) {
        return r;
    }
    std::string out = r.err.empty() ? r.out : r.err;
    while (!out.empty() && out.back() == '\n') {
        out.pop_back();
    }
    const std::string how = r.timed_out ? "timed out"
                            : r.stopped ? "was stopped"
                                        : r.status.describe();
    return make_error(
        Error(fmt::format("\"{}\" {}", quote_command(options.argv), how)).with_detail(out));
}

} // namespace pglab::util
