// Reading apt's sources: the one-line format of sources.list and the deb822 stanzas of .sources
// files, and the choice of Debian's main archive among them.
#include "lab/server/apt_sources.hpp"

#include "util/text.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <sstream>

namespace pglab::lab::server {

namespace fs = std::filesystem;

namespace {

using util::trim;

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::istringstream in{std::string(s)};
    for (std::string w; in >> w;) {
        out.push_back(w);
    }
    return out;
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

/// "yes"/"no" as apt reads booleans (also "true"/"false", "1"/"0").
bool truthy(std::string_view v) {
    const std::string l = lower(trim(v));
    return !(l == "no" || l == "false" || l == "0" || l == "without" || l == "off");
}

/// A Signed-By value names a keyring when it is one line (a path or fingerprints); a key block
/// pasted into the stanza spans lines and cannot be handed to apt as a file.
std::string keyring_file(std::string_view value) {
    const std::string_view v = trim(value);
    if (v.empty() || v.find('\n') != std::string_view::npos || v.front() != '/') {
        return {};
    }
    return std::string(v);
}

/// Applies one `[opt=value ...]` option of a one-line entry.
void apply_option(AptSource& source, std::string_view option) {
    const size_t eq = option.find('=');
    if (eq == std::string_view::npos) {
        return;
    }
    std::string key = lower(option.substr(0, eq));
    if (!key.empty() && (key.back() == '+' || key.back() == '-')) {
        key.pop_back(); // "arch+=": an addition to a list pglab does not read
    }
    const std::string_view value = option.substr(eq + 1);
    if (key == "signed-by") {
        source.signed_by = keyring_file(value.substr(0, value.find(',')));
    } else if (key == "enabled") {
        source.enabled = truthy(value);
    }
}

} // namespace

std::vector<AptSource> parse_sources_list(std::string_view text, const std::string& file) {
    std::vector<AptSource> out;
    std::istringstream in{std::string(text)};
    int number = 0;
    for (std::string raw; std::getline(in, raw);) {
        ++number;
        std::string_view line = raw;
        line = line.substr(0, line.find('#'));
        line = trim(line);
        if (line.empty()) {
            continue;
        }
        AptSource source;
        source.origin = fmt::format("{}:{}", file, number);
        // Options sit in brackets right after the type: "deb [signed-by=/k.gpg arch=amd64] URI".
        const size_t open = line.find('[');
        std::string head(line);
        if (open != std::string_view::npos) {
            const size_t close = line.find(']', open);
            if (close == std::string_view::npos) {
                continue;
            }
            for (const std::string& option : words(line.substr(open + 1, close - open - 1))) {
                apply_option(source, option);
            }
            head = std::string(line.substr(0, open)) + " " + std::string(line.substr(close + 1));
        }
        const std::vector<std::string> w = words(head);
        // A suite without components is a flat repository, which apt writes with a trailing
        // slash; any other suite without one is a line apt refuses.
        if (w.size() < 3 || (w.size() == 3 && !w[2].ends_with('/'))) {
            continue;
        }
        source.types = {w[0]};
        source.uris = {w[1]};
        source.suites = {w[2]};
        source.components.assign(w.begin() + 3, w.end());
        out.push_back(std::move(source));
    }
    return out;
}

std::vector<AptSource> parse_deb822_sources(std::string_view text, const std::string& file) {
    std::vector<AptSource> out;
    std::istringstream in{std::string(text)};
    std::vector<std::pair<std::string, std::string>> fields;
    int number = 0;
    int stanza_line = 0;
    auto flush = [&] {
        AptSource source;
        source.origin = fmt::format("{}:{}", file, stanza_line);
        for (const auto& [key, value] : fields) {
            if (key == "types") {
                source.types = words(value);
            } else if (key == "uris") {
                source.uris = words(value);
            } else if (key == "suites") {
                source.suites = words(value);
            } else if (key == "components") {
                source.components = words(value);
            } else if (key == "signed-by") {
                source.signed_by = keyring_file(value);
            } else if (key == "enabled") {
                source.enabled = truthy(value);
            }
        }
        if (!source.types.empty() && !source.uris.empty()) {
            out.push_back(std::move(source));
        }
        fields.clear();
    };
    for (std::string raw; std::getline(in, raw);) {
        ++number;
        if (!raw.empty() && raw.front() == '#') {
            continue; // a comment line, which does not end the stanza
        }
        if (trim(raw).empty()) {
            if (!fields.empty()) {
                flush();
            }
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(raw.front())) != 0) {
            if (!fields.empty()) { // a continuation line: " ." stands for an empty line
                const std::string_view more = trim(raw);
                fields.back().second += "\n" + std::string(more == "." ? "" : more);
            }
            continue;
        }
        const size_t colon = raw.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        if (fields.empty()) {
            stanza_line = number;
        }
        fields.emplace_back(lower(trim(std::string_view(raw).substr(0, colon))),
                            std::string(trim(std::string_view(raw).substr(colon + 1))));
    }
    if (!fields.empty()) {
        flush();
    }
    return out;
}

std::vector<AptSource> read_apt_sources(const fs::path& etc_apt) {
    std::vector<AptSource> out;
    auto read = [&](const fs::path& file, bool deb822) {
        const auto text = util::read_text_file(file);
        if (!text) {
            return; // a file apt would not read either
        }
        std::vector<AptSource> found = deb822 ? parse_deb822_sources(*text, file.string())
                                              : parse_sources_list(*text, file.string());
        out.insert(out.end(), found.begin(), found.end());
    };
    read(etc_apt / "sources.list", false);
    std::vector<fs::path> parts;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(etc_apt / "sources.list.d", ec)) {
        const std::string ext = entry.path().extension().string();
        if (ext == ".list" || ext == ".sources") {
            parts.push_back(entry.path());
        }
    }
    std::sort(parts.begin(), parts.end());
    for (const fs::path& part : parts) {
        read(part, part.extension() == ".sources");
    }
    return out;
}

namespace {

/// Whether `suite` is one of Debian's main suites (not -security, -updates, -backports).
bool debian_main_suite(const std::string& suite, const std::string& uri) {
    static constexpr std::array<const char*, 19> k_names = {
        "stable",  "oldstable", "oldoldstable", "testing",  "unstable", "sid",   "experimental",
        "stretch", "buster",    "bullseye",     "bookworm", "trixie",   "forky", "duke",
        "jessie",  "wheezy",    "squeeze",      "lenny",    "etch"};
    if (suite.find('-') != std::string::npos || suite.find('/') != std::string::npos) {
        return false;
    }
    if (std::find(k_names.begin(), k_names.end(), suite) != k_names.end()) {
        return true;
    }
    // A release named after this code was written, on a mirror laid out as Debian's.
    std::string path = uri;
    while (!path.empty() && path.back() == '/') {
        path.pop_back();
    }
    return path.size() >= 7 && path.compare(path.size() - 7, 7, "/debian") == 0;
}

std::string without_trailing_slash(std::string uri) {
    while (uri.size() > 1 && uri.back() == '/') {
        uri.pop_back();
    }
    return uri;
}

} // namespace

Result<DebianArchive> debian_archive(const std::vector<AptSource>& sources,
                                     const std::string& override_mirror) {
    if (!override_mirror.empty()) {
        return DebianArchive{without_trailing_slash(override_mirror), k_debian_keyring,
                             "PGLAB_DEBIAN_MIRROR"};
    }
    std::vector<std::string> files;
    for (const AptSource& s : sources) {
        const std::string file = s.origin.substr(0, s.origin.rfind(':'));
        if (std::find(files.begin(), files.end(), file) == files.end()) {
            files.push_back(file);
        }
        if (!s.enabled || std::find(s.types.begin(), s.types.end(), "deb") == s.types.end()
            || std::find(s.components.begin(), s.components.end(), "main") == s.components.end()) {
            continue;
        }
        for (const std::string& uri : s.uris) {
            for (const std::string& suite : s.suites) {
                if (debian_main_suite(suite, uri)) {
                    return DebianArchive{without_trailing_slash(uri),
                                         s.signed_by.empty() ? k_debian_keyring : s.signed_by,
                                         fmt::format("{} ({})", s.origin, suite)};
                }
            }
        }
    }
    std::string read;
    for (const std::string& f : files) {
        read += (read.empty() ? "" : ", ") + f;
    }
    return make_error(Error("no apt source of the machine is Debian's archive")
                          .with_detail(read.empty() ? "No apt source was found."
                                                    : fmt::format("Sources read: {}.", read))
                          .with_hint("Set PGLAB_DEBIAN_MIRROR to a Debian mirror, e.g. "
                                     "PGLAB_DEBIAN_MIRROR=http://deb.debian.org/debian."));
}

} // namespace pglab::lab::server
