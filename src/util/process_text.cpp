// util: the words of a child process for people and for the system: a command line quoted as a
// shell would read it, and a user looked up by name (subprocess.hpp declares both).
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

} // namespace pglab::util
