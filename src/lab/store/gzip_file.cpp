// lab/store: read_gzip_file, with zlib's gz* functions.
#include "lab/store/gzip_file.hpp"

#include <fmt/format.h>

#include <zlib.h>

#include <array>
#include <memory>

namespace pglab::lab::store {

Result<std::string> read_gzip_file(const std::filesystem::path& path) {
    const std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
    if (!file) {
        return make_error(fmt::format("cannot open {}", path.string()));
    }
    std::string out;
    std::array<char, 1 << 16> buffer{};
    for (;;) {
        const int n = gzread(file.get(), buffer.data(), static_cast<unsigned>(buffer.size()));
        if (n < 0) {
            int code = 0;
            return make_error(
                fmt::format("{}: damaged: {}", path.string(), gzerror(file.get(), &code)));
        }
        if (n == 0) {
            break;
        }
        out.append(buffer.data(), static_cast<std::size_t>(n));
    }
    return out;
}

} // namespace pglab::lab::store
