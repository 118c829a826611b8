// Control stanzas, relation fields and the library closure of Debian binary packages.
#include "lab/server/debian_package.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace pglab::lab::server {

namespace {

using util::trim;

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    for (size_t at = 0;;) {
        const size_t next = s.find(sep, at);
        out.push_back(s.substr(at, next == std::string_view::npos ? next : next - at));
        if (next == std::string_view::npos) {
            return out;
        }
        at = next + 1;
    }
}

} // namespace

std::string DebianStanza::get(const std::string& name) const {
    const auto it = fields.find(name);
    return it == fields.end() ? std::string() : it->second;
}

std::vector<DebianStanza> parse_stanzas(std::string_view text) {
    std::vector<DebianStanza> out;
    DebianStanza current;
    std::string last;
    std::istringstream in{std::string(text)};
    auto flush = [&] {
        if (!current.fields.empty()) {
            out.push_back(std::move(current));
        }
        current = DebianStanza{};
        last.clear();
    };
    for (std::string line; std::getline(in, line);) {
        if (trim(line).empty()) {
            flush();
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(line.front())) != 0) {
            if (!last.empty()) {
                current.fields[last] += "\n" + std::string(trim(line));
            }
            continue;
        }
        const size_t colon = line.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        std::string key(trim(std::string_view(line).substr(0, colon)));
        std::transform(key.begin(), key.end(), key.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        current.fields[key] = std::string(trim(std::string_view(line).substr(colon + 1)));
        last = key;
    }
    flush();
    return out;
}

std::vector<std::vector<DebianRelation>> parse_relations(std::string_view field) {
    std::vector<std::vector<DebianRelation>> out;
    for (const std::string_view dependency : split(field, ',')) {
        std::vector<DebianRelation> alternatives;
        for (const std::string_view alternative : split(dependency, '|')) {
            std::string_view a = trim(alternative);
            if (a.empty()) {
                continue;
            }
            DebianRelation r;
            const size_t paren = a.find('(');
            std::string_view name = trim(a.substr(0, paren));
            name = name.substr(0, name.find_first_of(" \t[<"));
            r.name = std::string(name.substr(0, name.find(':')));
            if (paren != std::string_view::npos) {
                const size_t close = a.find(')', paren);
                std::string_view constraint = trim(a.substr(paren + 1, close - paren - 1));
                const size_t op_end = constraint.find_first_not_of("<>=");
                r.op = std::string(constraint.substr(0, op_end));
                if (op_end != std::string_view::npos) {
                    r.version = std::string(trim(constraint.substr(op_end)));
                }
            }
            if (!r.name.empty()) {
                alternatives.push_back(std::move(r));
            }
        }
        if (!alternatives.empty()) {
            out.push_back(std::move(alternatives));
        }
    }
    return out;
}

bool is_library_package(const std::string& name) {
    return name.rfind("lib", 0) == 0 || name == "zlib1g";
}

std::vector<DebianStanza> library_closure(
    const std::vector<std::string>& roots, const std::map<std::string, std::string>& pinned,
    const std::function<std::vector<DebianStanza>(const std::vector<std::string>&)>& lookup,
    std::vector<std::string>& missing) {
    std::vector<DebianStanza> result;
    std::set<std::string> chosen;
    std::set<std::string> unknown;
    // Each dependency still to satisfy, as its acceptable packages in preference order.
    std::vector<std::vector<std::string>> pending;
    for (const std::string& root : roots) {
        pending.push_back({root});
    }
    while (!pending.empty()) {
        std::vector<std::string> queries;
        std::set<std::string> asked;
        std::vector<std::vector<std::string>> waiting;
        for (const std::vector<std::string>& group : pending) {
            if (std::any_of(group.begin(), group.end(),
                            [&](const std::string& n) { return chosen.count(n) != 0; })) {
                continue;
            }
            const auto next = std::find_if(group.begin(), group.end(), [&](const std::string& n) {
                return unknown.count(n) == 0;
            });
            if (next == group.end()) {
                if (std::find(missing.begin(), missing.end(), group.front()) == missing.end()) {
                    missing.push_back(group.front());
                }
                continue;
            }
            if (asked.insert(*next).second) {
                const auto pin = pinned.find(*next);
                queries.push_back(pin == pinned.end() ? *next : *next + "=" + pin->second);
            }
            waiting.push_back(group);
        }
        if (queries.empty()) {
            break;
        }
        std::vector<std::vector<std::string>> further;
        for (DebianStanza& stanza : lookup(queries)) {
            const std::string name = stanza.package();
            if (asked.count(name) == 0 || !chosen.insert(name).second) {
                continue;
            }
            for (const char* field : {"pre-depends", "depends"}) {
                for (const auto& alternatives : parse_relations(stanza.get(field))) {
                    std::vector<std::string> acceptable;
                    for (const DebianRelation& r : alternatives) {
                        if (is_library_package(r.name) || pinned.count(r.name) != 0) {
                            acceptable.push_back(r.name);
                        }
                    }
                    if (!acceptable.empty()) {
                        further.push_back(std::move(acceptable));
                    }
                }
            }
            result.push_back(std::move(stanza));
        }
        for (const std::string& name : asked) {
            if (chosen.count(name) == 0) {
                unknown.insert(name);
            }
        }
        pending = std::move(waiting);
        pending.insert(pending.end(), further.begin(), further.end());
    }
    return result;
}

std::string postgres_version_of_debian(const std::string& debian_version) {
    std::string v = debian_version;
    if (const size_t colon = v.find(':'); colon != std::string::npos) {
        v = v.substr(colon + 1); // the epoch
    }
    if (const size_t dash = v.rfind('-'); dash != std::string::npos) {
        v = v.substr(0, dash); // Debian's revision
    }
    v.erase(std::remove(v.begin(), v.end(), '~'), v.end()); // "19~rc1": a pre-release
    if (v.empty() || std::isdigit(static_cast<unsigned char>(v.front())) == 0) {
        return {};
    }
    return v;
}

} // namespace pglab::lab::server
