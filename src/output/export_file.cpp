// Writing an export to its file.
#include "output/export_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace pglab::output {

Status write_export_file(const std::string& path, const std::string& text, std::string_view kind) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr) {
        return make_error(
            fmt::format("could not write {} file \"{}\": {}", kind, path, std::strerror(errno)));
    }
    const size_t written = std::fwrite(text.data(), 1, text.size(), f);
    const int write_errno = errno;
    if (std::fclose(f) != 0 || written != text.size()) {
        return make_error(fmt::format("could not write {} file \"{}\": {}", kind, path,
                                      std::strerror(written != text.size() ? write_errno : errno)));
    }
    return {};
}

} // namespace pglab::output
